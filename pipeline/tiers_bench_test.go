package pipeline

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/builder/retro"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/tables"
)

var (
	benchSetOnce sync.Once
	benchSetDir  string
	benchSetErr  error
)

// benchSet builds the sectors with at most 8 stones once per test binary.
func benchSet(b *testing.B) string {
	benchSetOnce.Do(func() {
		benchSetDir, benchSetErr = tempDirOutsideTest("tablesmith-mill-bench")
		if benchSetErr == nil {
			benchSetErr = buildMillUpTo(context.Background(), benchSetDir, 8, TierOptions{Workers: 2})
		}
	})
	if benchSetErr != nil {
		b.Fatal(benchSetErr)
	}
	return benchSetDir
}

var (
	benchGameOnce sync.Once
	benchGameDir  string
	benchGameErr  error
)

// benchGame builds the whole 4-stone game (placement phase included) once per test binary.
func benchGame(b *testing.B) string {
	benchGameOnce.Do(func() {
		benchGameDir, benchGameErr = tempDirOutsideTest("tablesmith-mill-game-bench")
		if benchGameErr == nil {
			start, _ := millGame.ParseTier("0-0-4-4")
			benchGameErr = BuildTierSet(context.Background(), millGame, benchGameDir, TierPlan(millGame, []games.Tier{start}), TierOptions{Workers: 2})
		}
	})
	if benchGameErr != nil {
		b.Fatal(benchGameErr)
	}
	return benchGameDir
}

// BenchmarkMillLookup probes random positions by their notation with a warm block cache:
// parse, route to the sector, canonicalise, rank, decode. moving: the moving-phase
// sectors with at most 8 stones; placement: the placement sectors of the 4-stone game,
// positions with stones in hand.
func BenchmarkMillLookup(b *testing.B) {
	b.Run("moving", func(b *testing.B) { benchLookup(b, benchSet(b), func(string) bool { return true }) })
	b.Run("placement", func(b *testing.B) {
		benchLookup(b, benchGame(b), func(name string) bool { return strings.Count(name, "-") == 3 })
	})
}

// benchLookup probes 256 random positions of each sector of the set in dir that keep says.
func benchLookup(b *testing.B, dir string, keep func(sector string) bool) {
	set, err := tables.OpenSet(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer set.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	var states []string
	for _, name := range set.TierNames() {
		if !keep(name) {
			continue
		}
		t, _ := set.Tier(name)
		for range 256 {
			s, _ := t.Domain().StateOf(rng.Uint64N(t.Meta().Slots))
			states = append(states, s)
		}
	}
	for _, s := range states { // warm the cache
		if _, err := set.Lookup(s); err != nil {
			b.Fatal(err)
		}
	}
	i := 0
	for b.Loop() {
		if _, err := set.Lookup(states[i%len(states)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/lookup")
}

// BenchmarkMillPair solves pair 5-4 (20.6 million classes) with 1 and 2 workers and
// reports classes per second; the ratio is the speed-up of the parallel engine.
func BenchmarkMillPair(b *testing.B) {
	dir := benchSet(b)
	for _, workers := range []int{1, 2} {
		b.Run(map[int]string{1: "workers=1", 2: "workers=2"}[workers], func(b *testing.B) {
			sp, release := unitSpace(b, millGame, dir, "5-4")
			defer release()
			var classes uint64
			start := time.Now()
			for b.Loop() {
				res, err := retro.Solve(context.Background(), sp, retro.Options{Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				classes += res.Slots()
			}
			b.ReportMetric(float64(classes)/time.Since(start).Seconds(), "classes/s")
		})
	}
}

// BenchmarkMillEngine solves pairs 5-4 (mostly draws, a long tail of depths) and 6-3
// (mostly wins: many predecessors) with one worker, the engine's per-core speed on the
// two kinds of work; `make bench-mill-engine` times whole builds, old engine beside new.
func BenchmarkMillEngine(b *testing.B) {
	dir := benchSet(b)
	for _, pair := range []string{"5-4", "6-3"} {
		b.Run("pair="+pair, func(b *testing.B) {
			sp, release := unitSpace(b, millGame, dir, pair)
			defer release()
			var classes uint64
			start := time.Now()
			for b.Loop() {
				res, err := retro.Solve(context.Background(), sp, retro.Options{Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				classes += res.Slots()
			}
			b.ReportMetric(float64(classes)/time.Since(start).Seconds(), "classes/s")
		})
	}
}
