package bfs

import (
	"context"
	"fmt"
	"testing"

	"github.com/tablesmith/tablesmith/builder/internal/levels"
)

// withRuns turns NeighbourRuns on or off for any space, keeping its depth hint.
type withRuns struct {
	Space
	runs bool
}

func (w withRuns) ListsNeighbourRuns() bool { return w.runs }

func (w withRuns) DepthHint() uint64 {
	if h, ok := w.Space.(DepthHinter); ok {
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

// searchMode is a way BFS can take its levels: which it settles after them (settle)
// and whether the workers mark those in one shared bitset (shared) or each in its own.
type searchMode struct {
	settle levels.SettlePolicy
	shared bool
}

// searchModes are the ways BFS can take its levels, every one of which must give the
// same values.
var searchModes = []searchMode{
	{levels.SettleWide, false}, {levels.SettleWide, true}, {levels.SettleAlways, false}, {levels.SettleAlways, true}, {levels.SettleNever, false},
}

func (m searchMode) String() string {
	if m.shared {
		return m.settle.String() + "-shared"
	}
	return m.settle.String()
}

// TestDeferredLevelsMatchOracle runs spaces whose wide levels are settled after the
// level (markBatch, settle) against the oracle: a level with an empty next, self-loops
// and repeats (wideStar), values widened before the wide levels (tailcube), with and without
// NeighbourRuns, over worker counts and batch sizes, with every level settled, none, or
// the wide ones, into a bitset per worker or one shared.
func TestDeferredLevelsMatchOracle(t *testing.T) {
	t.Parallel()
	// The non-shared modes run the workers' own bitsets only where ownBitsFit allows them:
	// for these tiny spaces it must, or those modes would quietly test the shared path.
	if !ownBitsFit(1<<20, 1<<14, 7) {
		t.Fatal("ownBitsFit refuses 7 KiB of own bitsets: the own-bitset path goes untested")
	}
	spaces := map[string]Space{
		"cube10":       cube{dim: 10},
		"cube13-holes": cube{dim: 13, hole: func(s uint64) bool { return s%5 == 2 }},
		"cube6":        cube{dim: 6},
		"cube1":        cube{dim: 1},
		"star300":      wideStar{300},
		"star5000":     wideStar{5000},
		"tailcube":     tailcube{L: 300, dim: 11},
	}
	for name, sp := range spaces {
		for _, runs := range []bool{false, true} {
			for _, workers := range []int{1, 2, 3, 7} {
				for _, batch := range []int{1, 5, 64, 1024} {
					for _, m := range searchModes {
						res, err := Search(context.Background(), withRuns{sp, runs},
							Options{Workers: workers, Batch: batch, settle: m.settle, sharedNext: m.shared})
						if err != nil {
							t.Fatalf("%s runs=%v w=%d b=%d %v: %v", name, runs, workers, batch, m, err)
						}
						t.Run(fmt.Sprintf("%s/%v/%d/%d/%v", name, runs, workers, batch, m), func(t *testing.T) {
							checkAgainstOracle(t, sp, res)
							if name == "tailcube" && res.Values.Width() != 2 {
								t.Fatalf("no widening")
							}
							if n := res.Counts[len(res.Counts)-1]; n == 0 {
								t.Fatalf("trailing empty level: %v", res.Counts)
							}
						})
					}
				}
			}
		}
	}
}
