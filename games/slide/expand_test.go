package slide

import (
	"slices"
	"testing"
)

// TestExpanderMatchesRanking: the expander's neighbours (the lexicographic schemes'
// incremental ranks) are those of ranking every neighbour's position vector from scratch,
// for every slot of the boards with at most 9 cells and a sample of the 3×4 board, under
// every scheme and both goals.
func TestExpanderMatchesRanking(t *testing.T) {
	t.Parallel()
	for _, dims := range [][2]int{{2, 2}, {2, 3}, {3, 2}, {3, 3}, {2, 4}, {4, 2}, {3, 4}, {4, 4}} {
		for _, goal := range []string{"blank-last", "blank-first"} {
			for _, scheme := range SchemeNames(dims[0] * dims[1]) {
				sp, err := NewSpace(Params{Rows: dims[0], Cols: dims[1], Goal: goal, Index: scheme})
				if err != nil {
					t.Fatal(err)
				}
				expand := sp.NewExpander()
				step := max(1, sp.Slots()/200_000)
				board, pos := make([]uint8, sp.n), make([]uint8, sp.n)
				var got, want []uint64
				for slot := uint64(0); slot < sp.Slots(); slot += step {
					got = expand(got[:0], []uint64{slot})
					want = want[:0]
					if sp.kind == kindBranch {
						if !sp.branch.Unrank(slot, board) {
							continue
						}
						positions(pos, board)
					} else {
						sp.unrankPos(slot, pos)
					}
					for tile, cell := range pos {
						board[cell] = uint8(tile)
					}
					blank := Blank(board)
					for _, from := range sp.geo.Neighbors(blank) {
						Slide(board, blank, int(from))
						want = append(want, sp.rank(board, pos))
						Slide(board, int(from), blank)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%v %s %s slot %d: neighbours %v, want %v", dims, goal, scheme, slot, got, want)
					}
				}
			}
		}
	}
}
