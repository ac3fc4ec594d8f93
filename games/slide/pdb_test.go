package slide_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/index"
)

// The space must satisfy the builder's interfaces structurally.
var (
	_ builder.ZeroOneSpace = (*slide.PDBSpace)(nil)
	_ builder.ZeroClosed   = (*slide.PDBSpace)(nil)
)

// adjacent lists the cells next to c by row/column arithmetic, independently of Geometry.
func adjacent(rows, cols, c int) []int {
	var out []int
	r, q := c/cols, c%cols
	if r > 0 {
		out = append(out, c-cols)
	}
	if q > 0 {
		out = append(out, c-1)
	}
	if q < cols-1 {
		out = append(out, c+1)
	}
	if r < rows-1 {
		out = append(out, c+cols)
	}
	return out
}

func newPDBSpace(t *testing.T, rows, cols int, goal slide.Goal, tiles []uint8) (*slide.Geometry, *slide.PDBSpace) {
	t.Helper()
	geo, err := slide.NewGeometry(rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := slide.NewPDBSpace(geo, goal, tiles)
	if err != nil {
		t.Fatal(err)
	}
	return geo, sp
}

// TestPDBSpaceMoves checks the move generators on random slots of larger boards
// against a direct computation: unit by re-ranking the moved placement in full, zero by a
// breadth-first search of the blank's region.
func TestPDBSpaceMoves(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct {
		rows, cols int
		goal       slide.Goal
		tiles      []uint8
	}{
		{4, 4, slide.BlankFirst, []uint8{8, 9, 10, 11, 12, 13, 14, 15}},
		{4, 4, slide.BlankLast, []uint8{1, 2, 5, 6, 9, 10, 13}},
		{5, 5, slide.BlankLast, []uint8{3, 7, 11, 12, 19, 24}},
		{3, 5, slide.BlankFirst, []uint8{1, 14, 2, 13}},
	} {
		_, sp := newPDBSpace(t, c.rows, c.cols, c.goal, c.tiles)
		zero, unit := sp.NewExpanders()
		n, k := c.rows*c.cols, len(c.tiles)
		pp, eb := index.NewPartialPerm(n, k), sp.EntryBits()
		cells := make([]uint8, k)
		for range 3000 {
			e := rng.Uint64N(pp.Size())
			pp.Unrank(e, cells)
			var free []int
			for x := range n {
				if !slices.Contains(cells, uint8(x)) {
					free = append(free, x)
				}
			}
			d := rng.IntN(len(free))
			blank, slot := free[d], e<<eb|uint64(d)
			slotOf := func(cl []uint8, blank int) uint64 {
				digit := 0
				for x := range blank {
					if !slices.Contains(cl, uint8(x)) {
						digit++
					}
				}
				return pp.Rank(cl)<<eb | uint64(digit)
			}
			var wantUnit, wantZero []uint64
			for _, nc := range adjacent(c.rows, c.cols, blank) {
				if j := slices.Index(cells, uint8(nc)); j >= 0 {
					moved := slices.Clone(cells)
					moved[j] = uint8(blank)
					wantUnit = append(wantUnit, slotOf(moved, nc))
				}
			}
			region := map[int]bool{blank: true}
			todo := []int{blank}
			for len(todo) > 0 {
				x := todo[0]
				todo = todo[1:]
				wantZero = append(wantZero, slotOf(cells, x))
				for _, y := range adjacent(c.rows, c.cols, x) {
					if !region[y] && !slices.Contains(cells, uint8(y)) {
						region[y] = true
						todo = append(todo, y)
					}
				}
			}
			gotUnit := unit(nil, []uint64{slot})
			gotZero := zero(nil, []uint64{slot})
			slices.Sort(gotUnit)
			slices.Sort(gotZero)
			slices.Sort(wantUnit)
			slices.Sort(wantZero)
			if !slices.Equal(gotUnit, wantUnit) || !slices.Equal(gotZero, wantZero) {
				t.Fatalf("%d×%d %v, cells %v, blank %d: unit %v zero %v, want %v %v",
					c.rows, c.cols, c.tiles, cells, blank, gotUnit, gotZero, wantUnit, wantZero)
			}
		}
	}
}

// TestPDBSpaceSearch runs the 0-1 search over small spaces: every abstract state is
// reached and the goal placement has value 0.
func TestPDBSpaceSearch(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		rows, cols int
		goal       slide.Goal
		tiles      []uint8
	}{
		{2, 3, slide.BlankLast, []uint8{1, 2, 3}},
		{3, 3, slide.BlankFirst, []uint8{5, 6, 7, 8}},
	} {
		geo, sp := newPDBSpace(t, c.rows, c.cols, c.goal, c.tiles)
		res, err := builder.ZeroOneBFS(context.Background(), sp, builder.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Unreached != 0 || res.Reached != sp.ExpectedStates() {
			t.Fatalf("%v %v: unreached %d, reached %d, want %d", geo, c.tiles, res.Unreached, res.Reached, sp.ExpectedStates())
		}
		if g := sp.Goals()[0] >> sp.EntryBits(); res.Values.Get(g) != 0 {
			t.Fatalf("%v %v: goal placement has value %d", geo, c.tiles, res.Values.Get(g))
		}
	}
}

// TestNewPDBSpaceErrors checks that bad groups are rejected.
func TestNewPDBSpaceErrors(t *testing.T) {
	t.Parallel()
	geo, err := slide.NewGeometry(3, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tiles := range [][]uint8{{0, 1}, {9}, {1, 2, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 8}} {
		if _, err := slide.NewPDBSpace(geo, slide.BlankLast, tiles); err == nil {
			t.Errorf("NewPDBSpace(%v): no error", tiles)
		}
	}
}
