package gametest

import (
	"strings"
	"testing"
)

// ladder is the path 0-1-…-(n-1) with the goal 0: reversible, and sided by parity, the
// even slots in one run [0, n/2) and the odd in [n/2, n) once ranked side first. Each
// field breaks one promise.
type ladder struct {
	n          uint64
	oneWay     bool // a step forward cannot be undone
	goalOdd    bool // the sides swapped: the goal on side 1
	runsLie    bool // every run said to be side 0
	pastEdge   bool // a run reaching one slot past the change of side answered
	holeMoves  bool // the last slot is a hole that its neighbour still lists
	outOfRange bool // the last state lists slot n
}

func (l ladder) Slots() uint64         { return l.n }
func (l ladder) Goals() []uint64       { return []uint64{0} }
func (l ladder) MovesReversible() bool { return true }
func (l ladder) IsHole(s uint64) bool  { return l.holeMoves && s == l.slot(l.n-1) }

// vertex and slot rank the path side first: the even vertices, then the odd ones.
func (l ladder) vertex(s uint64) uint64 {
	if s < (l.n+1)/2 {
		return 2 * s
	}
	return 2*(s-(l.n+1)/2) + 1
}

func (l ladder) slot(v uint64) uint64 {
	if v%2 == 0 {
		return v / 2
	}
	return (l.n+1)/2 + v/2
}

func (l ladder) RunSide(lo, hi uint64) (uint8, bool) {
	half := (l.n + 1) / 2
	if l.runsLie {
		return 0, true
	}
	last := hi - 1
	if l.pastEdge && last == half && lo < half {
		last-- // the off-by-one a run's end invites
	}
	if lo >= hi || (lo < half) != (last < half) {
		return 0, false
	}
	side := uint8(0)
	if lo >= half {
		side = 1
	}
	if l.goalOdd {
		side ^= 1
	}
	return side, true
}

func (l ladder) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			if l.IsHole(s) {
				continue
			}
			v := l.vertex(s)
			if v > 0 && !(l.oneWay && v%2 == 1) {
				dst = append(dst, l.slot(v-1))
			}
			if v+1 < l.n {
				dst = append(dst, l.slot(v+1))
			}
			if l.outOfRange && v == l.n-1 {
				dst = append(dst, l.n)
			}
		}
		return dst
	}
}

// TestCheckPuzzleSpaceFindsFaults: the ladder passes, and each broken promise is found
// and named.
func TestCheckPuzzleSpaceFindsFaults(t *testing.T) {
	t.Parallel()
	run := func(sp PuzzleSlots) string {
		return record(t, func(tb testing.TB) { CheckPuzzleSpace(tb, sp, 500) })
	}
	if msg := run(ladder{n: 1001}); msg != "" {
		t.Fatalf("the ladder fails: %s", msg)
	}
	for _, tc := range []struct {
		sp   ladder
		want string
	}{
		{ladder{n: 1001, oneWay: true}, "does not list it"},
		{ladder{n: 1001, goalOdd: true}, "goals are on side 0"},
		{ladder{n: 1001, runsLie: true}, "same side"},
		{ladder{n: 1001, pastEdge: true}, "says side 0, but slot 501 is on side 1"},
		{ladder{n: 1 << 21, pastEdge: true}, "says side 0, but slot 1048576 is on side 1"},
		{ladder{n: 1001, holeMoves: true}, "out of range or a hole"},
		{ladder{n: 1001, outOfRange: true}, "out of range or a hole"},
	} {
		if msg := run(tc.sp); !strings.Contains(msg, tc.want) {
			t.Errorf("%+v: CheckPuzzleSpace says %q, want a failure saying %q", tc.sp, msg, tc.want)
		}
	}
}

// twoRows is two rows of w slots, [0, w) and [w, 2w): each slot's neighbours are the
// slots beside it in its row (its rest expander's) and the one across (a shift of the
// whole row by ±w). Each field breaks one promise of games.Shifted.
type twoRows struct {
	w          uint64
	wrongShift bool // the second row said to shift by −w+32
	restAlso   bool // the rest expander lists the slot across as well
	unaligned  bool // a row's run starts mid-word
}

func (r twoRows) Slots() uint64        { return 2 * r.w }
func (r twoRows) Goals() []uint64      { return []uint64{0} }
func (r twoRows) IsHole(s uint64) bool { return false }

func (r twoRows) expand(across bool) func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			row := s / r.w * r.w
			if s > row {
				dst = append(dst, s-1)
			}
			if s+1 < row+r.w {
				dst = append(dst, s+1)
			}
			if across {
				dst = append(dst, (s+r.w)%(2*r.w))
			}
		}
		return dst
	}
}

func (r twoRows) NewExpander() func(dst, src []uint64) []uint64     { return r.expand(true) }
func (r twoRows) NewRestExpander() func(dst, src []uint64) []uint64 { return r.expand(r.restAlso) }

func (r twoRows) MoveShifts() (lo, hi []uint64, delta []int64) {
	back := -int64(r.w)
	if r.wrongShift {
		back += 32
	}
	lo, hi = []uint64{0, r.w}, []uint64{r.w, 2 * r.w}
	if r.unaligned {
		lo[1] += 16
	}
	return lo, hi, []int64{int64(r.w), back}
}

// TestCheckPuzzleSpaceFindsShiftFaults: two rows pass, and each broken promise of the
// shifts is found.
func TestCheckPuzzleSpaceFindsShiftFaults(t *testing.T) {
	t.Parallel()
	run := func(sp PuzzleSlots) string {
		return record(t, func(tb testing.TB) { CheckPuzzleSpace(tb, sp, 500) })
	}
	if msg := run(twoRows{w: 256}); msg != "" {
		t.Fatalf("two rows fail: %s", msg)
	}
	for _, tc := range []struct {
		sp   twoRows
		want string
	}{
		{twoRows{w: 256, wrongShift: true}, "the rest expander and the shifts give"},
		{twoRows{w: 256, restAlso: true}, "the rest expander and the shifts give"},
		{twoRows{w: 256, unaligned: true}, "want whole words"},
		{twoRows{w: 48}, "want whole words"},
	} {
		if msg := run(tc.sp); !strings.Contains(msg, tc.want) {
			t.Errorf("%+v: CheckPuzzleSpace says %q, want a failure saying %q", tc.sp, msg, tc.want)
		}
	}
}
