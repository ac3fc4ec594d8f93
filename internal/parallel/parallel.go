// Package parallel is the project's one chunked parallel-for and its one progress ticker:
// the engines (builder/...), the pipeline, the file verifier (format) and the table
// checks (tables, solver) all split a range of slots or blocks among goroutines the same
// way and report progress the same way, so the loop and its error and cancellation
// handling are written once.
package parallel

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// For calls body on the chunks [lo, hi) of [0, n), chunk slots each (the last one
// shorter), from workers goroutines (0 or less: GOMAXPROCS; never more than there are
// chunks, and the calling goroutine alone when that is one). Chunks are handed out in
// increasing order from one atomic counter, so a goroutine's chunks come in increasing
// order of lo and a slow chunk holds up only its own goroutine. ctx is checked before
// every chunk; the first error (body's or ctx's) stops the other goroutines at their next
// chunk and is returned.
func For(ctx context.Context, workers int, n, chunk uint64, body func(lo, hi uint64) error) error {
	return ForEach(ctx, workers, n, chunk, func() struct{} { return struct{}{} },
		func(_ struct{}, lo, hi uint64) error { return body(lo, hi) })
}

// ForEach is For with per-goroutine state: every goroutine calls newState once, before
// its first chunk, and hands the state to body with each of its chunks (a move generator
// and its scratch buffers, counters summed at the end, ...). newState runs on the
// goroutine that owns the state, so memory it allocates is first touched there.
func ForEach[S any](ctx context.Context, workers int, n, chunk uint64, newState func() S,
	body func(st S, lo, hi uint64) error) error {
	if n == 0 {
		return ctx.Err()
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunk = max(chunk, 1)
	// No more goroutines than chunks: a short range is not worth waking them for.
	workers = int(min(uint64(workers), (n-1)/chunk+1))
	if workers == 1 {
		// One goroutine's work runs on the caller's: the small passes at the ends of a
		// search come one after another by the thousand, and waking a goroutine for
		// each cost more than the pass.
		st := newState()
		for lo := uint64(0); lo < n; lo += min(chunk, n-lo) {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := body(st, lo, lo+min(chunk, n-lo)); err != nil {
				return err
			}
		}
		return nil
	}
	// No errgroup.WithContext: a derived context costs an allocation and a registration
	// with its parent per call, and a search makes a call per level, by the hundred
	// thousand for 3-peg Hanoi. A flag stops the others instead.
	var (
		next   atomic.Uint64
		failed atomic.Bool
		once   sync.Once
		first  error
		wg     sync.WaitGroup
	)
	fail := func(err error) {
		once.Do(func() { first = err })
		failed.Store(true)
	}
	for range workers {
		wg.Go(func() {
			st := newState()
			for !failed.Load() {
				lo := next.Add(chunk) - chunk
				if lo >= n || lo+chunk < lo { // past the end (or wrapped around)
					return
				}
				if err := ctx.Err(); err != nil {
					fail(err)
					return
				}
				if err := body(st, lo, min(lo+chunk, n)); err != nil {
					fail(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return first
}

// ForWorkers is ForEach with states made beforehand, one per goroutine: len(workers)
// goroutines (fewer for a short range), each taking its own element of workers. The
// engines keep their workers (a move generator, scratch, tallies) from pass to pass,
// where ForEach would make new ones every pass.
func ForWorkers[S any](ctx context.Context, workers []S, n, chunk uint64, body func(w S, lo, hi uint64) error) error {
	if len(workers) == 0 && n > 0 {
		return errors.New("parallel: ForWorkers without workers")
	}
	var taken atomic.Int64
	return ForEach(ctx, len(workers), n, chunk, func() S { return workers[taken.Add(1)-1] }, body)
}

// Tick calls f(false) from one goroutine every interval (0 or less: 250ms) until the
// returned stop is called; stop waits for a call in progress to return, calls f(true)
// once more from the same goroutine (the final snapshot: the work is over) and returns
// after it. f is never called concurrently with itself. stop must be called exactly once.
//
// A long build shows its progress this way: the workers only bump atomic counters, and
// one goroutine reads them at a human pace.
func Tick(every time.Duration, f func(final bool)) (stop func()) {
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	stopc, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-stopc:
				f(true)
				return
			case <-t.C:
				f(false)
			}
		}
	}()
	return func() { close(stopc); <-finished }
}
