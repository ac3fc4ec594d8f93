package gametest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/games"
)

// PuzzleSlots is what CheckPuzzleSpace reads of a puzzle space: its slots and moves (a
// subset of games.PuzzleSpace, so that the engines' toy spaces are checked too).
type PuzzleSlots interface {
	Slots() uint64
	Goals() []uint64
	NewExpander() func(dst, src []uint64) []uint64
	IsHole(slot uint64) bool
}

// CheckPuzzleSpace checks a puzzle space's slots and the promises of its optional
// interfaces on up to samples slots (all of them for a smaller space), chosen by a fixed
// seed:
//   - the goals are states inside the space, and every neighbour of a state is one;
//   - where the moves can be undone (games.Reversible), each neighbour lists the state
//     among its own;
//   - where the space has sides (games.Sided), the goals are on side 0, every state
//     has a side and each of its neighbours the other, and a run RunSide answers for
//     holds only states of the side it names (runs of 2 to 2^20 slots at random, and
//     the whole space);
//   - where moves are shifts of runs (games.Shifted), the runs and shifts are whole
//     words of 32 slots inside the space, and every state's neighbours are its rest
//     expander's and the shifts' of its runs, as many times as the expander lists them
//     (a run may hold holes: it promises nothing of them).
//
// A wrong promise is no slower build but a wrong table: the two-bit engine trusts both.
func CheckPuzzleSpace(t testing.TB, sp PuzzleSlots, samples int) {
	t.Helper()
	n := sp.Slots()
	rng := rand.New(rand.NewPCG(1, 2))
	exp := sp.NewExpander()
	reversible := false
	if rv, ok := sp.(games.Reversible); ok {
		reversible = rv.MovesReversible()
	}
	sided, _ := sp.(games.Sided)
	sideOf := func(s uint64) uint8 {
		t.Helper()
		side, ok := sided.RunSide(s, s+1)
		if !ok || side > 1 {
			t.Fatalf("RunSide(%d, %d) = %d, %v: a state's side, want 0 or 1 and true", s, s+1, side, ok)
		}
		return side
	}
	for _, g := range sp.Goals() {
		if g >= n || sp.IsHole(g) {
			t.Fatalf("goal slot %d: out of range or a hole (%d slots)", g, n)
		}
		if sided != nil && sideOf(g) != 0 {
			t.Fatalf("goal slot %d is on side 1; the goals are on side 0", g)
		}
	}
	shifted, _ := sp.(games.Shifted)
	var shiftLo, shiftHi []uint64
	var shiftBy []int64
	var rest func(dst, src []uint64) []uint64
	if shifted != nil {
		shiftLo, shiftHi, shiftBy = shifted.MoveShifts()
		if len(shiftHi) != len(shiftLo) || len(shiftBy) != len(shiftLo) {
			t.Fatalf("MoveShifts: %d starts, %d ends, %d shifts", len(shiftLo), len(shiftHi), len(shiftBy))
		}
		for i, lo := range shiftLo {
			hi, by := shiftHi[i], shiftBy[i]
			inside := by > 0 && uint64(by) <= n-hi || by < 0 && uint64(-by) <= lo // no overflow
			if lo%32 != 0 || hi%32 != 0 || by%32 != 0 || lo >= hi || hi > n || !inside {
				t.Fatalf("MoveShifts: run [%d, %d) shifted by %d: want whole words inside the %d slots", lo, hi, by, n)
			}
		}
		rest = shifted.NewRestExpander()
	}
	for _, s := range sampleSlots(rng, n, samples) {
		if shifted != nil && !sp.IsHole(s) {
			got := rest(nil, []uint64{s})
			for i, lo := range shiftLo {
				if lo <= s && s < shiftHi[i] {
					got = append(got, uint64(int64(s)+shiftBy[i]))
				}
			}
			want := exp(nil, []uint64{s})
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("slot %d: the rest expander and the shifts give %v, the expander %v", s, got, want)
			}
		}
		if sp.IsHole(s) {
			if nb := exp(nil, []uint64{s}); len(nb) != 0 {
				t.Fatalf("hole %d has neighbours %v", s, nb)
			}
			continue
		}
		for _, u := range exp(nil, []uint64{s}) {
			if u >= n || sp.IsHole(u) {
				t.Fatalf("slot %d: neighbour %d is out of range or a hole", s, u)
			}
			if reversible && !slices.Contains(exp(nil, []uint64{u}), s) {
				t.Fatalf("slot %d: moves said reversible, but neighbour %d does not list it", s, u)
			}
			if sided != nil && sideOf(u) == sideOf(s) {
				t.Fatalf("slots %d and %d are neighbours on the same side %d", s, u, sideOf(s))
			}
		}
	}
	if sided == nil {
		return
	}
	// Random runs, runs aligned as the two-bit engine's chunks of 2^17 slots, and the
	// longest runs answered from a few starts (found by bisection): a run that answers
	// one slot past a change of side is caught at its last slot.
	runs := [][2]uint64{{0, n}}
	for range samples / 16 {
		lo := rng.Uint64N(n)
		runs = append(runs, [2]uint64{lo, min(n, lo+2+rng.Uint64N(1<<20))})
		lo &^= 1<<17 - 1
		runs = append(runs, [2]uint64{lo, min(n, lo+1<<17)})
	}
	for _, lo := range sampleSlots(rng, n, 8) {
		if hi := longestRun(sided, lo, n); hi > lo+1 {
			runs = append(runs, [2]uint64{lo, hi})
		}
	}
	for _, r := range runs {
		side, ok := sided.RunSide(r[0], r[1])
		if !ok {
			continue
		}
		for _, s := range sampleSlots(rng, r[1]-r[0], 64) {
			if s += r[0]; !sp.IsHole(s) && sideOf(s) != side {
				t.Fatalf("RunSide(%d, %d) says side %d, but slot %d is on side %d", r[0], r[1], side, s, sideOf(s))
			}
		}
	}
}

// longestRun returns the largest hi ≤ n for which sided answers the run lo..hi-1 (lo+1
// when it answers no longer run), by doubling and then bisection. It assumes that a run
// answered has every shorter run from lo answered.
func longestRun(sided games.Sided, lo, n uint64) uint64 {
	ok := func(hi uint64) bool { _, ok := sided.RunSide(lo, hi); return ok }
	good, step := lo+1, uint64(1)
	for good < n && ok(min(n, good+step)) {
		good, step = min(n, good+step), step*2
	}
	bad := min(n, good+step) + 1 // the first length known (or taken) to fail
	for bad-good > 1 {
		mid := good + (bad-good)/2
		if ok(mid) {
			good = mid
		} else {
			bad = mid
		}
	}
	return good
}
