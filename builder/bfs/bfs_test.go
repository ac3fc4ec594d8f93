package bfs

import (
	"context"
	"math/bits"
	"testing"

	"github.com/tablesmith/tablesmith/builder/internal/bfstoys"
)

func TestBFSMatchesOracle(t *testing.T) {
	t.Parallel()
	spaces := map[string]bfstoys.Cube{
		"cube12":       {Dim: 12},
		"cube16-holes": {Dim: 16, Hole: func(s uint64) bool { return s%7 == 3 || bits.OnesCount64(s) == 9 }},
	}
	for name, sp := range spaces {
		for _, workers := range []int{1, 2, 4} {
			for _, batch := range []int{1, 7, 1024} {
				res, err := Search(context.Background(), sp, Options{Workers: workers, Batch: batch})
				if err != nil {
					t.Fatalf("%s workers=%d batch=%d: %v", name, workers, batch, err)
				}
				bfstoys.Check(t, sp, res.Values, res.Reached, res.Holes, res.Unreachable, res.Counts)
			}
		}
	}
}

// echo lists every neighbour of its cube twice in a row and the whole list once more
// reversed: repeats within one visited word and across words, which the claim of a
// word's neighbours together (runs) must count once, as the claim one by one does.
type echo struct {
	bfstoys.Cube
	runs bool
}

func (e echo) ListsNeighbourRuns() bool { return e.runs }

func (e echo) NewExpander() func(dst, src []uint64) []uint64 {
	inner := e.Cube.NewExpander()
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
		sp := echo{bfstoys.Cube{Dim: 14, Hole: func(s uint64) bool { return s%13 == 4 }}, runs}
		for _, workers := range []int{1, 2, 3} {
			res, err := Search(context.Background(), sp, Options{Workers: workers, Batch: 5})
			if err != nil {
				t.Fatal(err)
			}
			bfstoys.Check(t, sp, res.Values, res.Reached, res.Holes, res.Unreachable, res.Counts)
		}
	}
}

func TestBFSHypercubeCountsAreBinomial(t *testing.T) {
	t.Parallel()
	res, err := Search(context.Background(), bfstoys.Cube{Dim: 20}, Options{Workers: 2})
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
	sp := lyingBound{bfstoys.Cube{Dim: 10}}
	if _, err := Search(context.Background(), sp, Options{}); err == nil {
		t.Fatal("a bound below the true depth must be an error")
	}
}

// lyingBound claims more than a byte can hold would never be needed, yet the chain is long.
type lyingBound struct{ bfstoys.Cube }

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

func TestBFSWidensBeyondHint(t *testing.T) {
	t.Parallel()
	sp := bfstoys.Chain{Length: 700, N: 800}
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
		bfstoys.Check(t, sp, res.Values, res.Reached, res.Holes, res.Unreachable, res.Counts)
	}
}
