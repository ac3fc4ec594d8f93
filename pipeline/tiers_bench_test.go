package pipeline

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/builder/retro"
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

// BenchmarkMillLookup probes random positions of the ≤ 8-stone set by their notation with
// a warm block cache: parse, route to the sector, canonicalise, rank, decode.
func BenchmarkMillLookup(b *testing.B) {
	set, err := tables.OpenSet(benchSet(b))
	if err != nil {
		b.Fatal(err)
	}
	defer set.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	var states []string
	for _, name := range set.TierNames() {
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
}

// BenchmarkMillPair solves pair 5-4 (20.6 million classes) with 1 and 2 workers and
// reports classes per second; the ratio is the speed-up of the parallel engine.
func BenchmarkMillPair(b *testing.B) {
	dir := benchSet(b)
	for _, workers := range []int{1, 2} {
		b.Run(map[int]string{1: "workers=1", 2: "workers=2"}[workers], func(b *testing.B) {
			u := millUnit(b, "5-4")
			m, err := readTierManifest(millGame, dir)
			if err != nil {
				b.Fatal(err)
			}
			exits, err := loadTierExits(context.Background(), millGame, dir, m, u)
			if err != nil {
				b.Fatal(err)
			}
			sp := newTierSpace(millGame, u, exits)
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
