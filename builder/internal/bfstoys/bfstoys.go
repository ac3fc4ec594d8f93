// Package bfstoys holds the toy spaces and the plain queue BFS that the tests of the
// breadth-first engine (builder/bfs) and of its checkpoint (builder/levellog) check the
// engine against: one copy for both, since a test cannot import another package's tests.
// It imports nothing of the project; the spaces satisfy bfs.Space structurally.
package bfstoys

import (
	"math/bits"
	"slices"
	"testing"
)

// Space is what the oracle needs of a space (a subset of bfs.Space).
type Space interface {
	Slots() uint64
	Goals() []uint64
	DepthBound() uint64
	NewExpander() func(dst, src []uint64) []uint64
	IsHole(slot uint64) bool
}

// Values is what Check reads of a search's values (builder.Values has these).
type Values interface {
	Get(slot uint64) uint64
	Hole() uint64
	Unset() uint64
}

// Oracle is a plain sequential queue BFS: each slot's remoteness, -1 where unreached.
func Oracle(sp Space) []int {
	dist := make([]int, sp.Slots())
	for i := range dist {
		dist[i] = -1
	}
	exp := sp.NewExpander()
	queue := slices.Clone(sp.Goals())
	for _, g := range queue {
		dist[g] = 0
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, t := range exp(nil, []uint64{s}) {
			if dist[t] < 0 {
				dist[t] = dist[s] + 1
				queue = append(queue, t)
			}
		}
	}
	return dist
}

// Check compares a finished search of sp — its values and its counts of reached states,
// holes, unreachable states and states per level — with the oracle's.
func Check(t testing.TB, sp Space, vals Values, reachedN, holesN, unreachableN uint64, counts []uint64) {
	t.Helper()
	want := Oracle(sp)
	var reached, holes, unreachable uint64
	for s, d := range want {
		got := vals.Get(uint64(s))
		switch {
		case d >= 0:
			reached++
			if got != uint64(d) {
				t.Fatalf("slot %d: remoteness %d, want %d", s, got, d)
			}
		case sp.IsHole(uint64(s)):
			holes++
			if got != vals.Hole() {
				t.Fatalf("slot %d: value %d, want the hole marker", s, got)
			}
		default:
			unreachable++
			if got != vals.Unset() {
				t.Fatalf("slot %d: value %d, want the unreachable marker", s, got)
			}
		}
	}
	if reachedN != reached || holesN != holes || unreachableN != unreachable {
		t.Fatalf("counts: reached %d holes %d unreachable %d, want %d %d %d",
			reachedN, holesN, unreachableN, reached, holes, unreachable)
	}
	var sum uint64
	for _, c := range counts {
		sum += c
	}
	if sum != reached {
		t.Fatalf("level counts add up to %d, want %d", sum, reached)
	}
}

// Cube is the Dim-dimensional hypercube with the slots Hole says knocked out: its levels
// grow wide enough to switch the frontier to a bitset, and the holes leave some states
// cut off (unreachable), so every path of the engine is exercised.
type Cube struct {
	Dim  int
	Hole func(uint64) bool
}

func (c Cube) Slots() uint64      { return 1 << c.Dim }
func (c Cube) Goals() []uint64    { return []uint64{0} }
func (c Cube) DepthBound() uint64 { return uint64(c.Dim) }

func (c Cube) IsHole(s uint64) bool { return c.Hole != nil && c.Hole(s) }

// MovesReversible: a bit flipped back is a move, and holes are left out both ways.
func (c Cube) MovesReversible() bool { return true }

func (c Cube) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			if c.IsHole(s) {
				continue
			}
			for b := 0; b < c.Dim; b++ {
				if t := s ^ 1<<b; !c.IsHole(t) {
					dst = append(dst, t)
				}
			}
		}
		return dst
	}
}

// SidedCube is the Dim-dimensional hypercube ranked side first: a vertex v (a bit per
// dimension, the goal 0) lies on side popcount(v) mod 2, and its slot is the side
// followed by v's low Dim-1 bits (the top bit follows from the side). Every move crosses
// sides, and each side is one run of slots: the two-bit engine's Sided.
type SidedCube struct{ Dim int }

func (c SidedCube) Slots() uint64         { return 1 << c.Dim }
func (c SidedCube) Goals() []uint64       { return []uint64{0} }
func (c SidedCube) DepthBound() uint64    { return uint64(c.Dim) }
func (c SidedCube) IsHole(uint64) bool    { return false }
func (c SidedCube) MovesReversible() bool { return true }

// RunSide: the slots below 2^(Dim-1) are side 0, the rest side 1.
func (c SidedCube) RunSide(lo, hi uint64) (uint8, bool) {
	half := uint64(1) << (c.Dim - 1)
	if lo >= hi || (lo < half) != (hi-1 < half) {
		return 0, false
	}
	return uint8(lo / half), true
}

func (c SidedCube) vertex(slot uint64) uint64 {
	side, low := slot>>(c.Dim-1), slot&(1<<(c.Dim-1)-1)
	top := (side ^ uint64(bits.OnesCount64(low))) & 1
	return top<<(c.Dim-1) | low
}

func (c SidedCube) slot(v uint64) uint64 {
	return uint64(bits.OnesCount64(v)&1)<<(c.Dim-1) | v&(1<<(c.Dim-1)-1)
}

func (c SidedCube) NewExpander() func(dst, src []uint64) []uint64 { return c.expander(c.Dim) }

// MoveShifts: flipping the top bit keeps the low bits and changes the side, so it moves
// every slot of one side by a side's run (the two-bit engine's Shifted, for Dim ≥ 6).
func (c SidedCube) MoveShifts() (lo, hi []uint64, delta []int64) {
	half := uint64(1) << (c.Dim - 1)
	if half%32 != 0 {
		return nil, nil, nil
	}
	return []uint64{0, half}, []uint64{half, 2 * half}, []int64{int64(half), -int64(half)}
}

// NewRestExpander flips every bit but the top one.
func (c SidedCube) NewRestExpander() func(dst, src []uint64) []uint64 {
	if lo, _, _ := c.MoveShifts(); lo == nil {
		return c.NewExpander()
	}
	return c.expander(c.Dim - 1)
}

// expander flips each of the low bits bits of a vertex.
func (c SidedCube) expander(bits int) func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			v := c.vertex(s)
			for b := 0; b < bits; b++ {
				dst = append(dst, c.slot(v^1<<b))
			}
		}
		return dst
	}
}

// Chain is the path 0-1-…-(Length-1), then slots that are holes (even) or unreachable
// states (odd). Its hint of 10 sizes the values at one byte, its remoteness goes to
// Length-1: the search must widen its values on the way.
type Chain struct{ Length, N uint64 }

func (c Chain) Slots() uint64        { return c.N }
func (c Chain) Goals() []uint64      { return []uint64{0} }
func (c Chain) DepthBound() uint64   { return c.Length - 1 }
func (c Chain) DepthHint() uint64    { return 10 }
func (c Chain) IsHole(s uint64) bool { return s >= c.Length && s%2 == 0 }

// MovesReversible: a step along the path is undone by the step back.
func (c Chain) MovesReversible() bool { return true }

func (c Chain) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			if s >= c.Length {
				continue
			}
			if s > 0 {
				dst = append(dst, s-1)
			}
			if s+1 < c.Length {
				dst = append(dst, s+1)
			}
		}
		return dst
	}
}

// WithRuns turns the engine's neighbour-runs option on or off for any space, keeping its
// depth hint.
type WithRuns struct {
	Space
	Runs bool
}

func (w WithRuns) ListsNeighbourRuns() bool { return w.Runs }

func (w WithRuns) DepthHint() uint64 {
	if h, ok := w.Space.(interface{ DepthHint() uint64 }); ok {
		return h.DepthHint()
	}
	return w.Space.DepthBound()
}

// WideStar is goal 0 next to every slot: level 1 is wide (a bitset) and the level after it
// empty; every slot lists itself, and the goal lists each slot twice.
type WideStar struct{ N uint64 }

func (s WideStar) Slots() uint64        { return s.N }
func (s WideStar) Goals() []uint64      { return []uint64{0} }
func (s WideStar) DepthBound() uint64   { return 2 }
func (s WideStar) IsHole(x uint64) bool { return false }

func (s WideStar) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, x := range src {
			dst = append(dst, x)
			if x == 0 {
				for y := uint64(1); y < s.N; y++ {
					dst = append(dst, y, y)
				}
			} else {
				dst = append(dst, 0, x, 0)
			}
		}
		return dst
	}
}

// TailCube is a chain 0..L-1, then a cube of dimension Dim at offset L joined at L-1: the
// cube's wide (deferred) levels come after the values had to widen past one byte.
type TailCube struct {
	L   uint64
	Dim int
}

func (c TailCube) Slots() uint64        { return c.L + 1<<c.Dim }
func (c TailCube) Goals() []uint64      { return []uint64{0} }
func (c TailCube) DepthBound() uint64   { return c.L + uint64(c.Dim) }
func (c TailCube) DepthHint() uint64    { return 10 }
func (c TailCube) IsHole(s uint64) bool { return false }

func (c TailCube) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			if s < c.L {
				if s > 0 {
					dst = append(dst, s-1)
				}
				dst = append(dst, s+1) // s+1 == L is the cube's origin
				continue
			}
			x := s - c.L
			if x == 0 {
				dst = append(dst, c.L-1)
			}
			for b := 0; b < c.Dim; b++ {
				dst = append(dst, c.L+(x^1<<b))
			}
		}
		return dst
	}
}
