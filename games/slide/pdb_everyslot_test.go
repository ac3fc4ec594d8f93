package slide_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/games/slide"
)

// moveBoard is a board and a group for the exhaustive move checks.
type moveBoard struct {
	rows, cols int
	tiles      []uint8
}

// textbookRank is the textbook rank of a tuple of distinct cells among n: digit i counts
// the cells below cells[i] not among cells[:i], weighted by (n-i-1)···(n-k+1).
func textbookRank(n int, cells []uint8) uint64 {
	var r uint64
	var used uint32
	for i, v := range cells {
		d := 0
		for w := range int(v) {
			if used>>w&1 == 0 {
				d++
			}
		}
		used |= 1 << v
		r = r*uint64(n-i) + uint64(d)
	}
	return r
}

// forEachPlacement calls f with every k-tuple of distinct cells below n, in rank order.
func forEachPlacement(n, k int, f func(rank uint64, cells []uint8)) {
	cells := make([]uint8, k)
	var rank uint64
	var rec func(i int, used uint32)
	rec = func(i int, used uint32) {
		if i == k {
			f(rank, cells)
			rank++
			return
		}
		for v := range n {
			if used>>v&1 == 0 {
				cells[i] = uint8(v)
				rec(i+1, used|1<<v)
			}
		}
	}
	rec(0, 0)
}

// regionMoveOracle returns, for a board, a function giving the successors of the slot
// (placement cells, digit d among the free cells), sorted: none for a digit past the
// free cells; otherwise every group tile next to the blank's region moved onto each
// region cell next to it, the blank left in the region of the tile's old cell, numbered
// by the digit of that region's lowest cell. Everything is recomputed from the rows and
// columns.
func regionMoveOracle(rows, cols, eb int) func(cells []uint8, d int) []uint64 {
	n := rows * cols
	var nbr [32]uint32
	for c := range n {
		for _, x := range adjacent(rows, cols, c) {
			nbr[c] |= 1 << x
		}
	}
	// region returns the cells reached from x without crossing a cell of occ.
	region := func(occ uint32, x int) uint32 {
		seen := uint32(1) << x
		for {
			grown := seen
			for y := range n {
				if seen>>y&1 != 0 {
					grown |= nbr[y] &^ occ
				}
			}
			if grown == seen {
				return seen
			}
			seen = grown
		}
	}
	moved := make([]uint8, 32)
	return func(cells []uint8, d int) []uint64 {
		var occ uint32
		for _, c := range cells {
			occ |= 1 << c
		}
		blank, seen := -1, 0
		for x := range n {
			if occ>>x&1 == 0 {
				if seen == d {
					blank = x
					break
				}
				seen++
			}
		}
		if blank < 0 {
			return nil // a hole digit
		}
		var out []uint64
		reg := region(occ, blank)
		for b := range n {
			if reg>>b&1 == 0 {
				continue
			}
			for _, nc := range adjacent(rows, cols, b) {
				j := slices.Index(cells, uint8(nc))
				if j < 0 {
					continue
				}
				copy(moved, cells)
				moved[j] = uint8(b)
				after := occ&^(1<<nc) | 1<<b
				low := 0
				for r := region(after, nc); r>>low&1 == 0; low++ {
				}
				digit := 0
				for x := range low {
					if after>>x&1 == 0 {
						digit++
					}
				}
				out = append(out, textbookRank(n, moved[:len(cells)])<<eb|uint64(digit))
			}
		}
		slices.Sort(out)
		return out
	}
}

// splitBySlot cuts a generator's output for several slots into the slots' parts by the
// oracle's lengths, sorting each part; ok is false when the lengths do not add up.
func splitBySlot(got []uint64, want [][]uint64) (parts [][]uint64, ok bool) {
	for _, w := range want {
		if len(got) < len(w) {
			return nil, false
		}
		p := slices.Clone(got[:len(w)])
		slices.Sort(p)
		parts = append(parts, p)
		got = got[len(w):]
	}
	return parts, len(got) == 0
}

// TestPDBSpaceEverySlot checks the table-driven expander (boards up to 16 cells)
// and the flood one against regionMoveOracle for EVERY slot of small groups: every
// placement with every digit below 1<<EntryBits(), canonical or not, and the hole
// digits past the free cells, which must give the tables no move (the flood is asked
// only about free cells' digits: see TestPDBFloodHoleDigits). The slots go in one at a time
// in increasing order (the cursor stepping forward by 1..2^eb), in a random order
// (seeking back), and in sorted batches of up to 64 slots with gaps (one call each,
// the output cut by the oracle's counts). Both goals are built; the goal slot is
// checked against the goal board.
func TestPDBSpaceEverySlot(t *testing.T) {
	t.Parallel()
	boards := []moveBoard{
		{2, 2, []uint8{1}}, {2, 2, []uint8{3, 1}}, {2, 2, []uint8{2, 3, 1}},
		{2, 3, []uint8{5}}, {2, 3, []uint8{4, 1}}, {2, 3, []uint8{1, 2, 3}}, {2, 3, []uint8{5, 3, 1, 2}},
		{2, 3, []uint8{1, 2, 3, 4, 5}},
		{3, 3, []uint8{8}}, {3, 3, []uint8{2, 7}}, {3, 3, []uint8{5, 1, 8}}, {3, 3, []uint8{1, 2, 3, 4}},
		{3, 3, []uint8{8, 6, 4, 2, 1}}, {3, 3, []uint8{1, 2, 3, 5, 6, 7}},
		{2, 4, []uint8{7}}, {2, 4, []uint8{1, 5, 3}}, {2, 4, []uint8{2, 6, 3, 7}}, {2, 4, []uint8{1, 2, 3, 4, 5, 6}},
		{2, 5, []uint8{9}}, {2, 5, []uint8{1, 6, 3}}, {2, 5, []uint8{5, 4, 9, 8}},
		{3, 4, []uint8{11}}, {3, 4, []uint8{1, 5, 9}}, {3, 4, []uint8{4, 8, 3, 7}},
		{4, 3, []uint8{11}}, {4, 3, []uint8{1, 4, 7}}, {4, 3, []uint8{2, 5, 8, 11}},
		{2, 8, []uint8{15}}, {2, 8, []uint8{7, 15, 6}},
		{4, 4, []uint8{5, 10, 15}}, {4, 4, []uint8{1}},
		{8, 2, []uint8{3, 4, 15}},
		{3, 5, []uint8{14}}, {3, 5, []uint8{5, 4, 10}},
		{5, 3, []uint8{14}}, {5, 3, []uint8{13, 2, 9}},
	}
	if testing.Short() {
		boards = slices.DeleteFunc(boards, func(b moveBoard) bool { return len(b.tiles) > 3 && b.rows*b.cols > 6 })
	}
	for _, bd := range boards {
		t.Run(fmt.Sprintf("%dx%d%v", bd.rows, bd.cols, bd.tiles), func(t *testing.T) {
			t.Parallel()
			n, k := bd.rows*bd.cols, len(bd.tiles)
			for _, goal := range []slide.Goal{slide.BlankFirst, slide.BlankLast} {
				geo, sp := newPDBSpace(t, bd.rows, bd.cols, goal, bd.tiles)
				eb := sp.EntryBits()
				gb := geo.GoalBoard(goal)
				home := make([]uint8, k)
				for i, tile := range bd.tiles {
					home[i] = uint8(slices.Index(gb, tile))
				}
				low := regionOf(bd.rows, bd.cols, home, slices.Index(gb, 0))[0]
				digit := 0
				for x := range low {
					if !slices.Contains(home, uint8(x)) {
						digit++
					}
				}
				if g := sp.Goals(); len(g) != 1 || g[0] != textbookRank(n, home)<<eb|uint64(digit) {
					t.Fatalf("%v goal: Goals %v, want [%d]", goal, g, textbookRank(n, home)<<eb|uint64(digit))
				}
			}
			_, sp := newPDBSpace(t, bd.rows, bd.cols, slide.BlankLast, bd.tiles)
			eb := sp.EntryBits()
			if sp.Slots()%(1<<eb) != 0 {
				t.Fatalf("%d slots, not a multiple of %d", sp.Slots(), 1<<eb)
			}
			var slots []uint64
			var want [][]uint64
			var placements [][]uint8
			oracle := regionMoveOracle(bd.rows, bd.cols, eb)
			forEachPlacement(n, k, func(rank uint64, cells []uint8) {
				for d := range 1 << eb {
					slots = append(slots, rank<<eb|uint64(d))
					want = append(want, oracle(cells, d))
					placements = append(placements, slices.Clone(cells))
				}
			})
			if uint64(len(slots)) != sp.Slots() {
				t.Fatalf("%d slots enumerated, Slots() = %d", len(slots), sp.Slots())
			}
			_, unit := sp.NewExpanders()
			gens := []struct {
				name string
				gen  func(dst, src []uint64) []uint64
			}{{"unit", unit}, {"flood", sp.FloodUnit()}}
			for _, g := range gens {
				// The flood expander is only checked on the digits of free cells (see
				// TestPDBFloodHoleDigits).
				hole := func(i int) bool { return g.name == "flood" && slots[i]&(1<<eb-1) >= uint64(n-k) }
				fail := func(mode string, i int, got []uint64) {
					t.Helper()
					t.Fatalf("%s, %s: slot %d (cells %v, digit %d): %v, want %v",
						g.name, mode, slots[i], placements[i], slots[i]&(1<<eb-1), got, want[i])
				}
				// One at a time, in order.
				for i, s := range slots {
					if hole(i) {
						continue
					}
					got := g.gen(nil, []uint64{s})
					slices.Sort(got)
					if !slices.Equal(got, want[i]) {
						fail("in order", i, got)
					}
				}
				// One at a time, in a random order.
				rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
				for _, i := range rng.Perm(len(slots)) {
					if hole(i) {
						continue
					}
					got := g.gen(nil, []uint64{slots[i]})
					slices.Sort(got)
					if !slices.Equal(got, want[i]) {
						fail("random order", i, got)
					}
				}
				// Sorted batches with gaps, appended to a non-empty dst.
				for i := 0; i < len(slots); {
					var idx []int
					for j := i; j < len(slots) && len(idx) < 1+rng.IntN(64); j += 1 + rng.IntN(3) {
						if !hole(j) {
							idx = append(idx, j)
						}
						i = j + 1
					}
					if len(idx) == 0 {
						continue
					}
					src := make([]uint64, len(idx))
					ws := make([][]uint64, len(idx))
					for j, x := range idx {
						src[j], ws[j] = slots[x], want[x]
					}
					prefix := []uint64{1, 2, 3}
					got := g.gen(slices.Clone(prefix), src)
					if !slices.Equal(got[:3], prefix) {
						t.Fatalf("%s: dst prefix overwritten: %v", g.name, got[:3])
					}
					parts, ok := splitBySlot(got[3:], ws)
					if !ok {
						t.Fatalf("%s, batch %v: %d moves, want %d", g.name, src, len(got)-3, func() int {
							s := 0
							for _, w := range ws {
								s += len(w)
							}
							return s
						}())
					}
					for j, p := range parts {
						if !slices.Equal(p, ws[j]) {
							fail("batch", idx[j], p)
						}
					}
				}
			}
		})
	}
}

// TestPDBSpaceLargeGroups16 checks random slots (every digit of random
// placements, in sorted batches and alone) of 16-cell boards with groups of 1 and 13-15
// tiles, where a region's move list and the tables' offsets are at their extremes.
func TestPDBSpaceLargeGroups16(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(31, 32))
	for _, bd := range []moveBoard{
		{4, 4, []uint8{1}}, {4, 4, []uint8{15}}, {2, 8, []uint8{9}}, {8, 2, []uint8{8}},
		{4, 4, []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}},
		{4, 4, []uint8{15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3}},
		{4, 4, []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}},
		{4, 4, []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
		{2, 8, []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}},
		{8, 2, []uint8{2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11}},
		{4, 4, []uint8{8, 9, 10, 11, 12, 13, 14, 15}},
	} {
		n, k := bd.rows*bd.cols, len(bd.tiles)
		_, sp := newPDBSpace(t, bd.rows, bd.cols, slide.BlankFirst, bd.tiles)
		eb := sp.EntryBits()
		_, unit := sp.NewExpanders()
		flood := sp.FloodUnit()
		placements := sp.Slots() >> eb
		oracle := regionMoveOracle(bd.rows, bd.cols, eb)
		var src []uint64
		var want [][]uint64
		var cells [][]uint8
		for range 300 {
			perm := rng.Perm(n)
			c := make([]uint8, k)
			for i := range c {
				c[i] = uint8(perm[i])
			}
			r := textbookRank(n, c)
			if r >= placements {
				t.Fatalf("rank %d of %d", r, placements)
			}
			for d := range 1 << eb {
				src = append(src, r<<eb|uint64(d))
				want = append(want, oracle(c, d))
				cells = append(cells, c)
			}
		}
		// Sort by slot, keeping the oracle's answers with their slots.
		idx := make([]int, len(src))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(src[a], src[b]) })
		sorted, ws := make([]uint64, len(idx)), make([][]uint64, len(idx))
		for j, i := range idx {
			sorted[j], ws[j] = src[i], want[i]
		}
		// The flood expander only on the digits of free cells (see
		// TestPDBFloodHoleDigits).
		var fSorted []uint64
		var fWs [][]uint64
		var fIdx []int
		for j, x := range sorted {
			if x&(1<<eb-1) < uint64(n-k) {
				fSorted, fWs, fIdx = append(fSorted, x), append(fWs, ws[j]), append(fIdx, idx[j])
			}
		}
		for _, g := range []struct {
			name   string
			gen    func(dst, src []uint64) []uint64
			sorted []uint64
			ws     [][]uint64
			idx    []int
		}{{"unit", unit, sorted, ws, idx}, {"flood", flood, fSorted, fWs, fIdx}} {
			parts, ok := splitBySlot(g.gen(nil, g.sorted), g.ws)
			if !ok {
				t.Fatalf("%d×%d %v %s: batch output does not match the oracle's counts", bd.rows, bd.cols, bd.tiles, g.name)
			}
			for j := range parts {
				if !slices.Equal(parts[j], g.ws[j]) {
					t.Fatalf("%d×%d %v %s: slot %d (cells %v): %v, want %v", bd.rows, bd.cols, bd.tiles, g.name,
						g.sorted[j], cells[g.idx[j]], parts[j], g.ws[j])
				}
			}
			for j := range g.sorted {
				got := g.gen(nil, g.sorted[j:j+1])
				slices.Sort(got)
				if !slices.Equal(got, g.ws[j]) {
					t.Fatalf("%d×%d %v %s alone: slot %d: %v, want %v", bd.rows, bd.cols, bd.tiles, g.name, g.sorted[j], got, g.ws[j])
				}
			}
		}
	}
}

// TestPDBFloodHoleDigits asks the flood expander (what boards over 16 cells use)
// for the moves of hole slots: digits past the n-k free cells, which number no cell.
// The tables give none; the flood seeds its fill with a cell past the board, whose
// shift by a row lands on the board, and lists moves. The search never expands a hole
// (its frontier holds only slots it reached), so this matters only to a caller that
// hands the expander arbitrary slots.
func TestPDBFloodHoleDigits(t *testing.T) {
	t.Parallel()
	for _, bd := range []moveBoard{{2, 2, []uint8{1}}, {3, 3, []uint8{2, 7}}, {5, 5, []uint8{1, 2, 3}}} {
		_, sp := newPDBSpace(t, bd.rows, bd.cols, slide.BlankLast, bd.tiles)
		eb := sp.EntryBits()
		free := bd.rows*bd.cols - len(bd.tiles)
		if free == 1<<eb {
			t.Fatalf("%d×%d %v: no hole digit", bd.rows, bd.cols, bd.tiles)
		}
		flood := sp.FloodUnit()
		for e := range uint64(20) {
			for d := free; d < 1<<eb; d++ {
				slot := e<<eb | uint64(d)
				if got := flood(nil, []uint64{slot}); len(got) != 0 {
					t.Fatalf("%d×%d %v: hole slot %d (placement %d, digit %d of %d free cells): flood lists %v, want none",
						bd.rows, bd.cols, bd.tiles, slot, e, d, free, got)
				}
			}
		}
	}
}
