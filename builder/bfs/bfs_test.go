package bfs

import (
	"context"
	"math/bits"
	"slices"
	"testing"
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
func oracle(sp Space) []int {
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

func checkAgainstOracle(t *testing.T, sp Space, res *Result) {
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

func TestBFSMatchesOracle(t *testing.T) {
	t.Parallel()
	spaces := map[string]cube{
		"cube12":       {dim: 12},
		"cube16-holes": {dim: 16, hole: func(s uint64) bool { return s%7 == 3 || bits.OnesCount64(s) == 9 }},
	}
	for name, sp := range spaces {
		for _, workers := range []int{1, 2, 4} {
			for _, batch := range []int{1, 7, 1024} {
				res, err := Search(context.Background(), sp, Options{Workers: workers, Batch: batch})
				if err != nil {
					t.Fatalf("%s workers=%d batch=%d: %v", name, workers, batch, err)
				}
				checkAgainstOracle(t, sp, res)
			}
		}
	}
}

// echo lists every neighbour of its cube twice in a row and the whole list once more
// reversed: repeats within one visited word and across words, which the claim of a
// word's neighbours together (runs) must count once, as the claim one by one does.
type echo struct {
	cube
	runs bool
}

func (e echo) ListsNeighbourRuns() bool { return e.runs }

func (e echo) NewExpander() func(dst, src []uint64) []uint64 {
	inner := e.cube.NewExpander()
	var buf []uint64
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			buf = inner(buf[:0], []uint64{s})
			for _, t := range buf {
				dst = append(dst, t, t)
			}
			for i := len(buf) - 1; i >= 0; i-- {
				dst = append(dst, buf[i])
			}
		}
		return dst
	}
}

// TestBFSRepeatedNeighbours runs both claims (one by one, and a word's neighbours
// together) and both ways of recording a level: claimed as found, and marked then
// settled (markBatch, settle), which the 14-cube's levels of at least one slot per 8
// bitset words take.
func TestBFSRepeatedNeighbours(t *testing.T) {
	t.Parallel()
	for _, runs := range []bool{false, true} {
		sp := echo{cube{dim: 14, hole: func(s uint64) bool { return s%13 == 4 }}, runs}
		for _, workers := range []int{1, 2, 3} {
			res, err := Search(context.Background(), sp, Options{Workers: workers, Batch: 5})
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstOracle(t, sp, res)
		}
	}
}

func TestBFSHypercubeCountsAreBinomial(t *testing.T) {
	t.Parallel()
	res, err := Search(context.Background(), cube{dim: 20}, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	binom := uint64(1)
	for k, c := range res.Counts {
		if c != binom {
			t.Fatalf("level %d: %d states, want C(20,%d) = %d", k, c, k, binom)
		}
		binom = binom * uint64(20-k) / uint64(k+1)
	}
	if res.MaxRemoteness() != 20 {
		t.Fatalf("max remoteness %d, want 20", res.MaxRemoteness())
	}
}

func TestBFSRejectsWrongDepthBound(t *testing.T) {
	t.Parallel()
	sp := lyingBound{cube{dim: 10}}
	if _, err := Search(context.Background(), sp, Options{}); err == nil {
		t.Fatal("a bound below the true depth must be an error")
	}
}

// lyingBound claims more than a byte can hold would never be needed, yet the chain is long.
type lyingBound struct{ cube }

func (lyingBound) Slots() uint64      { return 600 }
func (lyingBound) DepthBound() uint64 { return 10 }

func (lyingBound) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			if s+1 < 600 {
				dst = append(dst, s+1)
			}
		}
		return dst
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

func TestBFSWidensBeyondHint(t *testing.T) {
	t.Parallel()
	sp := chain{length: 700, slots: 800}
	if w, err := StartWidth(sp); err != nil || w != 1 {
		t.Fatalf("StartWidth = %d, %v; want 1", w, err)
	}
	for _, workers := range []int{1, 2} {
		res, err := Search(context.Background(), sp, Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if res.Values.Width() != 2 || res.MaxRemoteness() != 699 {
			t.Fatalf("width %d, max %d; want 2, 699", res.Values.Width(), res.MaxRemoteness())
		}
		checkAgainstOracle(t, sp, res)
	}
}
