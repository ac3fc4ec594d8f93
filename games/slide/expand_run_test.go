package slide

import (
	"slices"
	"testing"
)

// TestExpanderConsecutiveSlots: on boards of 10 to 12 cells, where the lexicographic
// schemes' expander rewrites only the board cells of the tiles its LexSeq says changed,
// runs of consecutive slots (sharing a cached prefix, as a frontier drained in order
// gives) expand, one slot at a time and in batches, to the neighbours of ranking every
// neighbour from scratch. TestExpanderMatchesRanking samples these boards too sparsely
// for consecutive slots to share a prefix.
func TestExpanderConsecutiveSlots(t *testing.T) {
	t.Parallel()
	for _, dims := range [][2]int{{2, 5}, {5, 2}, {2, 6}, {3, 4}, {4, 3}, {2, 7}, {7, 2}, {3, 5}, {4, 4}, {4, 5}} {
		for _, goal := range []string{"blank-last", "blank-first"} {
			for _, scheme := range []string{"lex", "lex-half"} {
				sp, err := NewSpace(Params{Rows: dims[0], Cols: dims[1], Goal: goal, Index: scheme})
				if err != nil {
					t.Fatal(err)
				}
				expand := sp.NewExpander()
				board, pos := make([]uint8, sp.n), make([]uint8, sp.n)
				var got, want, batch []uint64
				for _, start := range []uint64{0, sp.Slots() / 3, sp.Slots()/2 + 17, sp.Slots() - 3000} {
					batch, want = batch[:0], want[:0]
					for slot := start; slot < start+3000; slot += 1 + slot%3/2 {
						batch = append(batch, slot)
						one := expand(nil, []uint64{slot})
						sp.unrankPos(slot, pos)
						for tile, cell := range pos {
							board[cell] = uint8(tile)
						}
						n := len(want)
						blank := Blank(board)
						for _, from := range sp.geo.Neighbors(blank) {
							Slide(board, blank, int(from))
							want = append(want, sp.rank(board, pos))
							Slide(board, int(from), blank)
						}
						if !slices.Equal(one, want[n:]) {
							t.Fatalf("%v %s %s slot %d: neighbours %v, want %v", dims, goal, scheme, slot, one, want[n:])
						}
					}
					if got = expand(got[:0], batch); !slices.Equal(got, want) {
						t.Fatalf("%v %s %s: a batch from slot %d expands otherwise", dims, goal, scheme, start)
					}
				}
			}
		}
	}
}
