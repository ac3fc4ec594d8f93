package milloracle

import (
	"math/bits"
	"testing"
)

func TestEdges(t *testing.T) {
	t.Parallel()
	seen := map[[2]int]bool{}
	for _, e := range edges {
		a, b := min(e[0], e[1]), max(e[0], e[1])
		if a < 1 || b > NumPoints || a == b {
			t.Errorf("edge %v: not two distinct points", e)
		}
		if seen[[2]int{a, b}] {
			t.Errorf("edge %v listed twice", e)
		}
		seen[[2]int{a, b}] = true
		// Adjacent points lie on one horizontal or vertical line of the drawing.
		ax, ay := coordOf(a)
		bx, by := coordOf(b)
		if ax != bx && ay != by {
			t.Errorf("edge %v: points at (%d,%d) and (%d,%d) not on a line", e, ax, ay, bx, by)
		}
	}
	if len(seen) != 32 {
		t.Errorf("%d edges, want 32", len(seen))
	}
}

func TestDegrees(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		points []int
		degree int
	}{
		{"corners", []int{1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23}, 2},
		{"outer and inner midpoints", []int{2, 4, 6, 8, 18, 20, 22, 24}, 3},
		{"middle midpoints", []int{10, 12, 14, 16}, 4},
	}
	covered := 0
	for _, tc := range tests {
		for _, p := range tc.points {
			covered |= 1 << p
			if d := bits.OnesCount32(neighbours[p]); d != tc.degree {
				t.Errorf("%s: point %d has degree %d, want %d", tc.name, p, d, tc.degree)
			}
		}
	}
	if covered != 1<<(NumPoints+1)-2 {
		t.Errorf("the degree table does not cover points 1..24 exactly")
	}
	if neighbours[0] != 0 || neighbours[1] != bit(2)|bit(8) || neighbours[10] != bit(2)|bit(9)|bit(11)|bit(18) {
		t.Errorf("neighbours of 1 or 10 wrong: %#x %#x", neighbours[1], neighbours[10])
	}
}

func TestMills(t *testing.T) {
	t.Parallel()
	seen := map[uint32]bool{}
	count := map[int]int{}
	for _, m := range mills {
		mask := bit(m[0]) | bit(m[1]) | bit(m[2])
		if bits.OnesCount32(mask) != 3 || seen[mask] {
			t.Errorf("mill %v: not three points, or listed twice", m)
		}
		seen[mask] = true
		for _, p := range m {
			count[p]++
		}
		// A mill is a straight line of three points joined by two edges.
		if neighbours[m[1]]&(bit(m[0])|bit(m[2])) != bit(m[0])|bit(m[2]) {
			t.Errorf("mill %v: the middle point %d is not adjacent to both ends", m, m[1])
		}
		x0, y0 := coordOf(m[0])
		x1, y1 := coordOf(m[1])
		x2, y2 := coordOf(m[2])
		if (x1-x0)*(y2-y0) != (x2-x0)*(y1-y0) {
			t.Errorf("mill %v: points not collinear", m)
		}
	}
	if len(seen) != 16 {
		t.Errorf("%d mills, want 16", len(seen))
	}
	for p := 1; p <= NumPoints; p++ {
		if count[p] != 2 {
			t.Errorf("point %d in %d mills, want 2", p, count[p])
		}
		for _, m := range millsThrough[p] {
			if m&bit(p) == 0 || !seen[m] {
				t.Errorf("millsThrough[%d] holds %#x", p, m)
			}
		}
	}
}

// Every neighbour of a point lies in one of that point's two mills, so a
// slide can never close two mills at once; only flying could, and a flying
// side has 3 stones. Double mills therefore never arise in the moving phase.
func TestNoDoubleMillBySliding(t *testing.T) {
	t.Parallel()
	for p := 1; p <= NumPoints; p++ {
		if neighbours[p]&^(millsThrough[p][0]|millsThrough[p][1]) != 0 {
			t.Errorf("point %d has a neighbour outside its mills", p)
		}
	}
}

func TestRank(t *testing.T) {
	t.Parallel()
	for k := 0; k <= maxMen; k++ {
		if len(masksOf[k]) != binom[NumPoints][k] {
			t.Fatalf("%d masks of %d points, want C(24,%d) = %d", len(masksOf[k]), k, k, binom[NumPoints][k])
		}
		for i, m := range masksOf[k] {
			if i > 0 && masksOf[k][i-1] >= m {
				t.Fatalf("masksOf[%d] not increasing at %d", k, i)
			}
			if r := rank(m); r != i {
				t.Fatalf("rank(%#x) = %d, want %d", m, r, i)
			}
		}
	}
}
