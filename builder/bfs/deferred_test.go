package bfs

import (
	"context"
	"fmt"
	"testing"

	"github.com/tablesmith/tablesmith/builder/internal/bfstoys"

	"github.com/tablesmith/tablesmith/builder/internal/levels"
	"github.com/tablesmith/tablesmith/internal/racetest"
)

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
	racetest.SkipSlow(t, "takes up to 23 s")
	t.Parallel()
	// The non-shared modes run the workers' own bitsets only where ownBitsFit allows them:
	// for these tiny spaces it must, or those modes would quietly test the shared path.
	if !ownBitsFit(1<<20, 1<<14, 7) {
		t.Fatal("ownBitsFit refuses 7 KiB of own bitsets: the own-bitset path goes untested")
	}
	spaces := map[string]Space{
		"cube10":       bfstoys.Cube{Dim: 10},
		"cube13-holes": bfstoys.Cube{Dim: 13, Hole: func(s uint64) bool { return s%5 == 2 }},
		"cube6":        bfstoys.Cube{Dim: 6},
		"cube1":        bfstoys.Cube{Dim: 1},
		"star300":      bfstoys.WideStar{N: 300},
		"star5000":     bfstoys.WideStar{N: 5000},
		"tailcube":     bfstoys.TailCube{L: 300, Dim: 11},
	}
	for name, sp := range spaces {
		for _, runs := range []bool{false, true} {
			for _, workers := range []int{1, 2, 3, 7} {
				for _, batch := range []int{1, 5, 64, 1024} {
					for _, m := range searchModes {
						res, err := Search(context.Background(), bfstoys.WithRuns{Space: sp, Runs: runs},
							Options{Workers: workers, Batch: batch, settle: m.settle, sharedNext: m.shared})
						if err != nil {
							t.Fatalf("%s runs=%v w=%d b=%d %v: %v", name, runs, workers, batch, m, err)
						}
						t.Run(fmt.Sprintf("%s/%v/%d/%d/%v", name, runs, workers, batch, m), func(t *testing.T) {
							bfstoys.Check(t, sp, res.Values, res.Reached, res.Holes, res.Unreachable, res.Counts)
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
