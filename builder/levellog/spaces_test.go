package levellog

// Toy spaces and the BFS oracle, as in builder/bfs's tests (a test cannot import another
// package's tests): the searches the log checkpoints must still give the oracle's values.

import (
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/builder/bfs"
)

// cube is the d-dimensional hypercube with some slots knocked out as holes: its levels
// grow wide enough to switch the frontier to a bitset, and the holes leave some states
// cut off (unreachable), so every path of the engine is exercised.
type cube struct {
	dim  int
	hole func(uint64) bool
}

func (c cube) Slots() uint64      { return 1 << c.dim }
func (c cube) Goals() []uint64    { return []uint64{0} }
func (c cube) DepthBound() uint64 { return uint64(c.dim) }

func (c cube) IsHole(s uint64) bool {
	return c.hole != nil && c.hole(s)
}

func (c cube) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			if c.IsHole(s) {
				continue
			}
			for b := 0; b < c.dim; b++ {
				if t := s ^ 1<<b; !c.IsHole(t) {
					dst = append(dst, t)
				}
			}
		}
		return dst
	}
}

// oracle is a plain sequential queue BFS.
func oracle(sp bfs.Space) []int {
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

func checkAgainstOracle(t *testing.T, sp bfs.Space, res *bfs.Result) {
	t.Helper()
	want := oracle(sp)
	var reached, holes, unreachable uint64
	for s, d := range want {
		got := res.Values.Get(uint64(s))
		switch {
		case d >= 0:
			reached++
			if got != uint64(d) {
				t.Fatalf("slot %d: remoteness %d, want %d", s, got, d)
			}
		case sp.IsHole(uint64(s)):
			holes++
			if got != res.Values.Hole() {
				t.Fatalf("slot %d: value %d, want the hole marker", s, got)
			}
		default:
			unreachable++
			if got != res.Values.Unset() {
				t.Fatalf("slot %d: value %d, want the unreachable marker", s, got)
			}
		}
	}
	if res.Reached != reached || res.Holes != holes || res.Unreachable != unreachable {
		t.Fatalf("counts: reached %d holes %d unreachable %d, want %d %d %d",
			res.Reached, res.Holes, res.Unreachable, reached, holes, unreachable)
	}
	var sum uint64
	for _, c := range res.Counts {
		sum += c
	}
	if sum != reached {
		t.Fatalf("level counts add up to %d, want %d", sum, reached)
	}
}

// chain is the path 0-1-…-(length-1), then slots that are holes (even) or unreachable
// states (odd). Its hint of 10 sizes the values at one byte, its remoteness goes to
// length-1: the search must widen its values on the way.
type chain struct{ length, slots uint64 }

func (c chain) Slots() uint64        { return c.slots }
func (c chain) Goals() []uint64      { return []uint64{0} }
func (c chain) DepthBound() uint64   { return c.length - 1 }
func (c chain) DepthHint() uint64    { return 10 }
func (c chain) IsHole(s uint64) bool { return s >= c.length && s%2 == 0 }

func (c chain) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			if s >= c.length {
				continue
			}
			if s > 0 {
				dst = append(dst, s-1)
			}
			if s+1 < c.length {
				dst = append(dst, s+1)
			}
		}
		return dst
	}
}

// withRuns turns bfs.NeighbourRuns on or off for any space, keeping its depth hint.
type withRuns struct {
	bfs.Space
	runs bool
}

func (w withRuns) ListsNeighbourRuns() bool { return w.runs }

func (w withRuns) DepthHint() uint64 {
	if h, ok := w.Space.(bfs.DepthHinter); ok {
		return h.DepthHint()
	}
	return w.Space.DepthBound()
}

// wideStar is goal 0 next to every slot: level 1 is wide (a bitset) and the level after it
// empty; every slot lists itself, and the goal lists each slot twice.
type wideStar struct{ n uint64 }

func (s wideStar) Slots() uint64        { return s.n }
func (s wideStar) Goals() []uint64      { return []uint64{0} }
func (s wideStar) DepthBound() uint64   { return 2 }
func (s wideStar) IsHole(x uint64) bool { return false }

func (s wideStar) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, x := range src {
			dst = append(dst, x)
			if x == 0 {
				for y := uint64(1); y < s.n; y++ {
					dst = append(dst, y, y)
				}
			} else {
				dst = append(dst, 0, x, 0)
			}
		}
		return dst
	}
}

// tailcube: a chain 0..L-1, then a cube of dimension dim at offset L joined at L-1 — the
// cube's wide (deferred) levels come after the values had to widen past one byte.
type tailcube struct {
	L   uint64
	dim int
}

func (c tailcube) Slots() uint64        { return c.L + 1<<c.dim }
func (c tailcube) Goals() []uint64      { return []uint64{0} }
func (c tailcube) DepthBound() uint64   { return c.L + uint64(c.dim) }
func (c tailcube) DepthHint() uint64    { return 10 }
func (c tailcube) IsHole(s uint64) bool { return false }

func (c tailcube) NewExpander() func(dst, src []uint64) []uint64 {
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
			for b := 0; b < c.dim; b++ {
				dst = append(dst, c.L+(x^1<<b))
			}
		}
		return dst
	}
}
