package slide_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/builder/zeroone"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/index"
)

// The space must satisfy the builder's interfaces structurally.
var (
	_ zeroone.Space      = (*slide.PDBSpace)(nil)
	_ zeroone.ZeroClosed = (*slide.PDBSpace)(nil)
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

// regionOf returns the cells reached from blank through cells without a pattern tile,
// by a breadth-first search over adjacent, independently of PDBSpace's masks.
func regionOf(rows, cols int, cells []uint8, blank int) []int {
	seen := map[int]bool{blank: true}
	out := []int{blank}
	for i := 0; i < len(out); i++ {
		for _, y := range adjacent(rows, cols, out[i]) {
			if !seen[y] && !slices.Contains(cells, uint8(y)) {
				seen[y] = true
				out = append(out, y)
			}
		}
	}
	slices.Sort(out)
	return out
}

// regionSlot is the slot of the placement cells with the blank anywhere in the region of
// cell blank: the placement's rank, then the digit of the region's lowest cell among the
// free cells.
func regionSlot(rows, cols int, pp *index.PartialPerm, eb int, cells []uint8, blank int) uint64 {
	low := regionOf(rows, cols, cells, blank)[0]
	digit := 0
	for x := range low {
		if !slices.Contains(cells, uint8(x)) {
			digit++
		}
	}
	return pp.Rank(cells)<<eb | uint64(digit)
}

// TestPDBSpaceMoves checks the move generator on random slots of larger boards against
// a direct computation: every group tile next to the blank's region moves onto each
// region cell next to it, the successor's region found by a breadth-first search and
// its placement ranked in full. A state is a whole region, so zero has nothing to add.
// The expanders of the boards up to 16 cells read the move tables, the 5×5 ones flood;
// the flood is checked on every board.
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
		{5, 5, slide.BlankFirst, []uint8{1, 2, 3, 5, 6, 7, 10, 11, 12, 15, 16, 17}},
		{3, 5, slide.BlankFirst, []uint8{1, 14, 2, 13}},
		{2, 4, slide.BlankLast, []uint8{1, 2, 3, 4, 5}},
	} {
		_, sp := newPDBSpace(t, c.rows, c.cols, c.goal, c.tiles)
		zero, unit := sp.NewExpanders()
		flood := sp.FloodUnit()
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
			var want []uint64
			for _, b := range regionOf(c.rows, c.cols, cells, blank) {
				for _, nc := range adjacent(c.rows, c.cols, b) {
					if j := slices.Index(cells, uint8(nc)); j >= 0 {
						moved := slices.Clone(cells)
						moved[j] = uint8(b)
						want = append(want, regionSlot(c.rows, c.cols, pp, eb, moved, nc))
					}
				}
			}
			slices.Sort(want)
			for name, gen := range map[string]func(dst, src []uint64) []uint64{"unit": unit, "flood": flood} {
				got := gen(nil, []uint64{slot})
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%d×%d %v, cells %v, blank %d: %s %v, want %v", c.rows, c.cols, c.tiles, cells, blank, name, got, want)
				}
			}
			if z := zero(nil, []uint64{slot}); len(z) != 0 {
				t.Fatalf("%d×%d %v, cells %v, blank %d: zero %v, want none", c.rows, c.cols, c.tiles, cells, blank, z)
			}
		}
	}
}

// pdbOracle is a sequential 0-1 breadth-first search (a deque) over (cells of the group
// tiles, blank cell), written apart from PDBSpace and sharing only the rules: the blank
// moves onto a free cell at no cost, a group tile moves onto the blank at cost 1. It
// returns each placement's least cost over the blank, by placement rank, and the number
// of (placement, blank region) pairs reached.
func pdbOracle(rows, cols int, goal slide.Goal, tiles []uint8) (values map[uint64]int, regions int) {
	n := rows * cols
	pp := index.NewPartialPerm(n, len(tiles))
	geo, _ := slide.NewGeometry(rows, cols)
	gb := geo.GoalBoard(goal)
	type state struct {
		cells string
		blank int
	}
	start := state{blank: slices.Index(gb, 0)}
	for _, t := range tiles {
		start.cells += string(rune(slices.Index(gb, t)))
	}
	dist := map[state]int{start: 0}
	// The deque's front holds states of the current cost only, so it can be a stack.
	var front []state
	queue := []state{start}
	for len(front)+len(queue) > 0 {
		var s state
		if len(front) > 0 {
			s, front = front[len(front)-1], front[:len(front)-1]
		} else {
			s, queue = queue[0], queue[1:]
		}
		d := dist[s]
		for _, y := range adjacent(rows, cols, s.blank) {
			cl := []byte(s.cells)
			next, cost := state{s.cells, y}, 0
			if j := slices.Index(cl, byte(y)); j >= 0 {
				cl[j] = byte(s.blank)
				next, cost = state{string(cl), y}, 1
			}
			if old, ok := dist[next]; ok && old <= d+cost {
				continue
			}
			dist[next] = d + cost
			if cost == 0 {
				front = append(front, next)
			} else {
				queue = append(queue, next)
			}
		}
	}
	values = map[uint64]int{}
	pairs := map[uint64]bool{}
	eb := 0
	for 1<<eb < n-len(tiles) {
		eb++
	}
	for s, d := range dist {
		cells := []uint8(s.cells)
		r := pp.Rank(cells)
		if v, ok := values[r]; !ok || d < v {
			values[r] = d
		}
		pairs[regionSlot(rows, cols, pp, eb, cells, s.blank)] = true
	}
	return values, len(pairs)
}

// TestPDBSpaceSearch runs the 0-1 search over small spaces and compares every
// placement's value, and the number of states reached, with pdbOracle.
func TestPDBSpaceSearch(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		rows, cols int
		goal       slide.Goal
		tiles      []uint8
	}{
		{2, 3, slide.BlankLast, []uint8{1, 2, 3}},
		{2, 3, slide.BlankFirst, []uint8{5, 1}},
		{3, 3, slide.BlankFirst, []uint8{5, 6, 7, 8}},
		{3, 3, slide.BlankLast, []uint8{1, 2, 3, 4, 5, 6}},
		{3, 3, slide.BlankLast, []uint8{8, 2, 6}},
		{4, 4, slide.BlankFirst, []uint8{5, 10, 15}},
		{2, 5, slide.BlankLast, []uint8{1, 2, 3, 4, 5, 6}},
	} {
		geo, sp := newPDBSpace(t, c.rows, c.cols, c.goal, c.tiles)
		res, err := zeroone.Search(context.Background(), sp, zeroone.Options{Workers: 2, Batch: 64})
		if err != nil {
			t.Fatal(err)
		}
		want, regions := pdbOracle(c.rows, c.cols, c.goal, c.tiles)
		if res.Unreached != 0 || uint64(len(want)) != res.Entries || res.Reached != uint64(regions) {
			t.Fatalf("%v %v: %d entries, %d unreached, %d states reached; oracle: %d placements, %d states",
				geo, c.tiles, res.Entries, res.Unreached, res.Reached, len(want), regions)
		}
		for e, v := range want {
			if got := res.Values.Get(e); got != uint64(v) {
				t.Fatalf("%v %v: placement %d has value %d, oracle %d", geo, c.tiles, e, got, v)
			}
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
