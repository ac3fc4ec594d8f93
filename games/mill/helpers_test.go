package mill_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
)

// The board written out by hand from the diagram in DESIGN.md (points 1-based), as the
// independent reference of the tests.

// handEdges are the 32 lines between adjacent points.
var handEdges = [][2]int{
	{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 1},
	{9, 10}, {10, 11}, {11, 12}, {12, 13}, {13, 14}, {14, 15}, {15, 16}, {16, 9},
	{17, 18}, {18, 19}, {19, 20}, {20, 21}, {21, 22}, {22, 23}, {23, 24}, {24, 17},
	{2, 10}, {10, 18}, {4, 12}, {12, 20}, {6, 14}, {14, 22}, {8, 16}, {16, 24},
}

// handMills are the 16 mills.
var handMills = [][3]int{
	{1, 2, 3}, {3, 4, 5}, {5, 6, 7}, {7, 8, 1},
	{9, 10, 11}, {11, 12, 13}, {13, 14, 15}, {15, 16, 9},
	{17, 18, 19}, {19, 20, 21}, {21, 22, 23}, {23, 24, 17},
	{2, 10, 18}, {4, 12, 20}, {6, 14, 22}, {8, 16, 24},
}

// handXY are the points' places on a 7×7 grid (x to the right, y down), from the diagram.
var handXY = [24][2]int{
	{0, 0}, {3, 0}, {6, 0}, {6, 3}, {6, 6}, {3, 6}, {0, 6}, {0, 3},
	{1, 1}, {3, 1}, {5, 1}, {5, 3}, {5, 5}, {3, 5}, {1, 5}, {1, 3},
	{2, 2}, {3, 2}, {4, 2}, {4, 3}, {4, 4}, {3, 4}, {2, 4}, {2, 3},
}

// bit returns the mask of the 1-based point p.
func bit(p int) uint32 { return 1 << (p - 1) }

func handMillMasks() []uint32 {
	out := make([]uint32, len(handMills))
	for i, m := range handMills {
		out[i] = bit(m[0]) | bit(m[1]) | bit(m[2])
	}
	return out
}

func handAdjacent(p, q int) bool {
	for _, e := range handEdges {
		if e == [2]int{p, q} || e == [2]int{q, p} {
			return true
		}
	}
	return false
}

// geometricSyms returns the 16 board symmetries built from the grid: the 8 symmetries of
// the square about its centre, each with and without scaling the outer square onto the
// inner one and back. perm[i] is the 0-based image of 0-based point i.
func geometricSyms() [][24]int {
	at := map[[2]int]int{}
	for i, xy := range handXY {
		at[xy] = i
	}
	var out [][24]int
	for _, swap := range []bool{false, true} {
		for _, transpose := range []bool{false, true} {
			for _, sx := range []int{1, -1} {
				for _, sy := range []int{1, -1} {
					var perm [24]int
					for i, xy := range handXY {
						u, v := xy[0]-3, xy[1]-3
						if transpose {
							u, v = v, u
						}
						u, v = sx*u, sy*v
						if swap {
							r := max(u, -u, v, -v)
							u, v = u*(4-r)/r, v*(4-r)/r
						}
						j, ok := at[[2]int{u + 3, v + 3}]
						if !ok {
							panic(fmt.Sprintf("no point at %d,%d", u+3, v+3))
						}
						perm[i] = j
					}
					out = append(out, perm)
				}
			}
		}
	}
	return out
}

func applyPerm(perm [24]int, mask uint32) uint32 {
	var out uint32
	for r := mask; r != 0; r &= r - 1 {
		out |= 1 << perm[bits.TrailingZeros32(r)]
	}
	return out
}

// bruteCanonical is the smallest (own, opp) pair over the 16 images under Sym.Apply.
func bruteCanonical(own, opp uint32) (uint32, uint32) {
	bo, bp := own, opp
	for g := range mill.Sym(mill.NumSyms) {
		o, p := g.Apply(own), g.Apply(opp)
		if o < bo || o == bo && p < bp {
			bo, bp = o, p
		}
	}
	return bo, bp
}

// randomSubset returns k random points not in taken.
func randomSubset(r *rand.Rand, k int, taken uint32) uint32 {
	var out uint32
	for bits.OnesCount32(out) < k {
		if p := r.IntN(24); (taken|out)>>p&1 == 0 {
			out |= 1 << p
		}
	}
	return out
}

// randomPosition returns a random position of sector (w, b).
func randomPosition(r *rand.Rand, w, b int) (own, opp uint32) {
	own = randomSubset(r, w, 0)
	return own, randomSubset(r, b, own)
}

// sector is one (w, b) pair.
type sector struct{ w, b int }

func (s sector) String() string { return fmt.Sprintf("%d-%d", s.w, s.b) }

// sectors returns the 49 sectors, or those with w+b ≤ maxSum.
func sectors(maxSum int) []sector {
	var out []sector
	for w := mill.MinStones; w <= mill.MaxStones; w++ {
		for b := mill.MinStones; b <= mill.MaxStones; b++ {
			if w+b <= maxSum {
				out = append(out, sector{w, b})
			}
		}
	}
	return out
}

func mustSector(t testing.TB, w, b int) *mill.Sector {
	t.Helper()
	s, err := mill.NewSector(w, b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func pos(own, opp uint32) string { return mill.FromOwnOpp(own, opp, mill.White).String() }

// pick returns n, or short with -short, or longN under the build tag long.
func pick(short, n, longN int) int {
	switch {
	case long:
		return longN
	case testing.Short():
		return short
	}
	return n
}

// eachSector runs f in a parallel subtest for each sector with w+b ≤ maxSum, with a
// random source seeded by the sector.
func eachSector(t *testing.T, maxSum int, f func(t *testing.T, sc sector, r *rand.Rand)) {
	for _, sc := range sectors(maxSum) {
		t.Run(sc.String(), func(t *testing.T) {
			t.Parallel()
			f(t, sc, rand.New(rand.NewPCG(uint64(sc.w), uint64(sc.b))))
		})
	}
}
