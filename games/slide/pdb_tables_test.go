package slide

import (
	"fmt"
	"math/bits"
	"testing"
)

// TestPDBMoveTablesPacking builds the move tables of 16-cell boards for groups of
// 1 to 15 tiles and checks what the packing of moveSpan relies on: fewer than 32 moves
// per region, offsets below 2^22, every span inside moves, the short moves (to an
// adjacent cell) first and counted, the spans of the masks without n-k free cells and
// of the hole digits empty, and every move's fields (tile cell, lower cell, distance,
// cells between, successor digit) as the definition gives them.
func TestPDBMoveTablesPacking(t *testing.T) {
	t.Parallel()
	type board struct{ rows, cols int }
	cases := map[board][]int{
		{4, 4}: {1, 2, 5, 8, 11, 13, 14, 15},
		{2, 8}: {1, 8, 13},
		{8, 2}: {1, 8, 13},
	}
	if testing.Short() {
		cases = map[board][]int{{4, 4}: {1, 13}}
	}
	for b, ks := range cases {
		for _, k := range ks {
			t.Run(fmt.Sprintf("%dx%d/k%d", b.rows, b.cols, k), func(t *testing.T) {
				t.Parallel()
				geo, err := NewGeometry(b.rows, b.cols)
				if err != nil {
					t.Fatal(err)
				}
				tiles := make([]uint8, k)
				for i := range tiles {
					tiles[i] = uint8(i + 1)
				}
				s, err := NewPDBSpace(geo, BlankLast, tiles)
				if err != nil {
					t.Fatal(err)
				}
				n := b.rows * b.cols
				if s.moveSpan == nil {
					t.Fatal("no move tables on a 16-cell board")
				}
				if len(s.moves) >= 1<<(32-spanStartShift) {
					t.Fatalf("%d moves: offsets do not fit %d bits", len(s.moves), 32-spanStartShift)
				}
				per := uint32(1) << s.eb
				maxCount := 0
				for free := uint32(0); free <= s.all; free++ {
					for d := range per {
						span := s.moveSpan[free*per+d]
						start, short, count := span>>spanStartShift, span>>spanCountBits&spanCountMask, span&spanCountMask
						if bits.OnesCount32(free) != n-k || int(d) >= n-k {
							if span != 0 {
								t.Fatalf("free %016b digit %d: span %#x, want empty", free, d, span)
							}
							continue
						}
						if int(start+count) > len(s.moves) {
							t.Fatalf("free %016b digit %d: span [%d,+%d) past %d moves", free, d, start, count, len(s.moves))
						}
						occ := s.all &^ free
						// The region by its own flood, and the moves out of it.
						cell := nthFree(occ, uint64(d))
						region := s.flood(1<<cell, free)
						want := 0
						for m := region; m != 0; m &= m - 1 {
							want += bits.OnesCount32(s.nb[bits.TrailingZeros32(m)] & occ)
						}
						if int(count) != want {
							t.Fatalf("free %016b digit %d: %d moves, want %d", free, d, count, want)
						}
						maxCount = max(maxCount, want)
						for j, mv := range s.moves[start : start+count] {
							if (uint32(j) < short) != (mv.dist() == 1) {
								t.Fatalf("free %016b digit %d: move %d of %d has distance %d, %d short moves first", free, d, j, count, mv.dist(), short)
							}
							c, lo := uint8(mv&15), uint8(mv>>4&15)
							dist, between := uint8(mv>>12&15), uint32(mv>>16)
							to := lo
							if lo == c {
								to = c + dist
							}
							if occ>>c&1 == 0 || region>>to&1 == 0 || s.nb[c]>>to&1 == 0 || min(c, to) != lo || max(c, to)-lo != dist {
								t.Fatalf("free %016b digit %d: move %#x (tile cell %d, to %d) is not a move into the region", free, d, mv, c, to)
							}
							var wantBetween uint32
							for x := lo + 1; x < lo+dist; x++ {
								wantBetween |= occ & (1 << x)
							}
							after := occ&^(1<<c) | 1<<to
							succ := s.flood(1<<c, s.all&^after)
							low := uint8(bits.TrailingZeros32(succ))
							wantDigit := uint64(0)
							for x := range low {
								if after>>x&1 == 0 {
									wantDigit++
								}
							}
							if between != wantBetween || uint64(mv>>8&15) != wantDigit {
								t.Fatalf("free %016b digit %d: move %#x: between %016b digit %d, want %016b %d",
									free, d, mv, between, mv>>8&15, wantBetween, wantDigit)
							}
						}
					}
				}
				if maxCount > spanCountMask {
					t.Fatalf("a region with %d moves: the count does not fit %d bits", maxCount, spanCountBits)
				}
			})
		}
	}
}
