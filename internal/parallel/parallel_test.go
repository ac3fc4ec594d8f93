package parallel

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestForCoversEveryChunkOnce checks that every slot is handed out exactly once, in
// chunks of the asked size, over worker counts and sizes that do and do not divide.
func TestForCoversEveryChunkOnce(t *testing.T) {
	t.Parallel()
	for _, n := range []uint64{0, 1, 7, 64, 1000, 4097} {
		for _, chunk := range []uint64{0, 1, 3, 64, 5000} {
			for _, workers := range []int{0, 1, 2, 7} {
				seen := make([]atomic.Int32, n)
				err := For(context.Background(), workers, n, chunk, func(lo, hi uint64) error {
					if hi <= lo || hi > n || (hi-lo > max(chunk, 1)) {
						t.Errorf("n=%d chunk=%d: bad chunk [%d, %d)", n, chunk, lo, hi)
					}
					for s := lo; s < hi; s++ {
						seen[s].Add(1)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				for s := range seen {
					if c := seen[s].Load(); c != 1 {
						t.Fatalf("n=%d chunk=%d workers=%d: slot %d seen %d times", n, chunk, workers, s, c)
					}
				}
			}
		}
	}
}

func TestForEachState(t *testing.T) {
	t.Parallel()
	var states atomic.Int32
	var mu sync.Mutex
	var total uint64
	type acc struct{ sum uint64 }
	var accs []*acc
	err := ForEach(context.Background(), 3, 10000, 16, func() *acc {
		states.Add(1)
		a := &acc{}
		mu.Lock()
		accs = append(accs, a)
		mu.Unlock()
		return a
	}, func(a *acc, lo, hi uint64) error {
		for s := lo; s < hi; s++ {
			a.sum += s
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range accs {
		total += a.sum
	}
	if total != 10000*9999/2 || states.Load() > 3 || states.Load() < 1 {
		t.Fatalf("sum %d with %d states", total, states.Load())
	}
}

func TestForStopsAtError(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	var after atomic.Int32
	err := For(context.Background(), 2, 1<<20, 1, func(lo, hi uint64) error {
		if lo == 10 {
			return boom
		}
		if lo > 10000 {
			after.Add(1)
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := For(ctx, 2, 100, 1, func(lo, hi uint64) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: got %v", err)
	}
	if err := For(ctx, 2, 0, 1, func(lo, hi uint64) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled, empty: got %v", err)
	}
}

func TestTick(t *testing.T) {
	t.Parallel()
	var ticks, finals atomic.Int32
	var running atomic.Bool
	stop := Tick(time.Millisecond, func(final bool) {
		if running.Swap(true) {
			t.Error("f called concurrently")
		}
		defer running.Store(false)
		if final {
			finals.Add(1)
		} else {
			ticks.Add(1)
		}
	})
	for ticks.Load() < 3 {
		time.Sleep(time.Millisecond)
	}
	stop()
	n := ticks.Load()
	time.Sleep(5 * time.Millisecond)
	if finals.Load() != 1 || ticks.Load() != n {
		t.Fatalf("after stop: %d finals, ticks went on: %d -> %d", finals.Load(), n, ticks.Load())
	}
}

func TestForWorkers(t *testing.T) {
	t.Parallel()
	type tally struct{ n uint64 }
	ws := []*tally{{}, {}, {}}
	if err := ForWorkers(context.Background(), ws, 1000, 7, func(w *tally, lo, hi uint64) error {
		w.n += hi - lo
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if ws[0].n+ws[1].n+ws[2].n != 1000 {
		t.Fatalf("tallies %d %d %d", ws[0].n, ws[1].n, ws[2].n)
	}
	// A range of one chunk takes one goroutine: the first worker.
	one := []*tally{{}, {}}
	if err := ForWorkers(context.Background(), one, 5, 7, func(w *tally, lo, hi uint64) error { w.n += hi - lo; return nil }); err != nil || one[0].n != 5 {
		t.Fatalf("one chunk: %v, tallies %d %d", err, one[0].n, one[1].n)
	}
}

// BenchmarkForLevel is the cost of one call over a level of two chunks, as a search
// makes one per level (3-peg Hanoi: 2^n levels): the per-call overhead, not the work.
func BenchmarkForLevel(b *testing.B) {
	var sink atomic.Uint64
	for b.Loop() {
		_ = For(context.Background(), 2, 128, 64, func(lo, hi uint64) error {
			sink.Add(hi - lo)
			return nil
		})
	}
}
