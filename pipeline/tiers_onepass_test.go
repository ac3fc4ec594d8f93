package pipeline

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
)

// plainOrderGame is Mühle with its worker's own order hidden (games.OrderedTierWorker):
// a one-pass tier is then solved slot after slot.
type plainOrderGame struct{ mill.Game }

func (plainOrderGame) NewTierWorker() games.TierWorker {
	return struct{ games.TierWorker }{mill.Game{}.NewTierWorker()}
}

// solveOnePassWith solves the one-pass unit holding tier name of the set in dir as g plays it.
func solveOnePassWith(tb testing.TB, g games.TieredGame, dir, name string, workers int) []uint16 {
	tb.Helper()
	if !millUnit(tb, name).onePass(g) {
		tb.Fatalf("unit %s is not solved in one pass", name)
	}
	sp, release := unitSpace(tb, g, dir, name)
	defer release()
	codes, mem, err := solveOnePass(context.Background(), sp, workers)
	if err != nil {
		tb.Fatal(err)
	}
	defer mem.Release()
	return slices.Clone(codes)
}

// TestOnePassOrder: a placement sector solved in the game's own order (its children close
// together) has the same value in every slot as solved slot after slot.
func TestOnePassOrder(t *testing.T) {
	dir := t.TempDir()
	if err := buildMillUpTo(context.Background(), dir, 7, TierOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"3-3-1-0", "2-4-1-0", "2-3-1-0"} {
		ordered := solveOnePassWith(t, millGame, dir, name, 2)
		plain := solveOnePassWith(t, plainOrderGame{}, dir, name, 2)
		if i := slices.Index(ordered, 0); i >= 0 {
			t.Fatalf("%s: slot %d left unsolved", name, i)
		}
		if !slices.Equal(ordered, plain) {
			for i := range ordered {
				if ordered[i] != plain[i] {
					t.Fatalf("%s: slot %d: code %d in the game's order, %d slot after slot", name, i, ordered[i], plain[i])
				}
			}
		}
	}
}

// BenchmarkMillPlacement solves placement sectors 4-3-1-0 and 3-4-1-0 (760,398 classes
// each) in one pass with one worker, in the game's own order and slot after slot. Their
// exits (moving sectors of 7 and 8 stones) fit in the cache here; on the sectors of the
// whole game, whose exits are gigabytes, the order is what keeps the reads in the cache
// (benchmarks/HISTORY.md).
func BenchmarkMillPlacement(b *testing.B) {
	dir := benchSet(b)
	for _, name := range []string{"4-3-1-0", "3-4-1-0"} {
		for _, v := range []struct {
			order string
			g     games.TieredGame
		}{{"game", millGame}, {"slots", plainOrderGame{}}} {
			b.Run(name+"/order="+v.order, func(b *testing.B) {
				var classes uint64
				start := time.Now()
				for b.Loop() {
					classes += uint64(len(solveOnePassWith(b, v.g, dir, name, 1)))
				}
				b.ReportMetric(float64(classes)/time.Since(start).Seconds(), "classes/s")
			})
		}
	}
}
