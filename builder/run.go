package builder

import (
	"math/bits"
	"runtime"
	"time"
)

// The plumbing both engines (BFS, ZeroOneBFS) share: option defaults, the progress
// ticker, and the scan of a frontier bitset into batches.

// withDefaults fills in the zero fields of opt that have a default.
func (opt Options) withDefaults() Options {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Batch <= 0 {
		opt.Batch = 1024
	}
	if opt.ProgressEvery <= 0 {
		opt.ProgressEvery = 250 * time.Millisecond
	}
	return opt
}

// startProgress starts the progress ticker of a search of sp begun at start: every
// opt.ProgressEvery, and once more when the returned func stops it, it calls opt.Progress
// with Expect (from an Expecter), Elapsed and Done set and the rest filled in by fill.
// Without opt.Progress it does nothing.
func startProgress(opt Options, sp any, start time.Time, fill func(*Progress)) (stop func()) {
	if opt.Progress == nil {
		return func() {}
	}
	var expect uint64
	if e, ok := sp.(Expecter); ok {
		expect = e.ExpectedStates()
	}
	snap := func(done bool) Progress {
		p := Progress{Expect: expect, Elapsed: time.Since(start), Done: done}
		fill(&p)
		return p
	}
	stopc := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(opt.ProgressEvery)
		defer t.Stop()
		for {
			select {
			case <-stopc:
				opt.Progress(snap(true))
				return
			case <-t.C:
				opt.Progress(snap(false))
			}
		}
	}()
	return func() { close(stopc); <-finished }
}

// drainWords appends the slots of the set bits of words[lo:hi] to batch, clearing those
// words if clearWords, and hands batch to expand whenever it holds max slots or more, and
// once more at the end if any are left. It returns batch emptied, for reuse.
func drainWords(words []uint64, lo, hi int, clearWords bool, batch []uint64, max int, expand func(batch []uint64)) []uint64 {
	for wi := lo; wi < hi; wi++ {
		word := words[wi]
		if word == 0 {
			continue
		}
		if clearWords {
			words[wi] = 0
		}
		base := uint64(wi) << 6
		for word != 0 {
			batch = append(batch, base+uint64(bits.TrailingZeros64(word)))
			word &= word - 1
		}
		if len(batch) >= max {
			expand(batch)
			batch = batch[:0]
		}
	}
	if len(batch) > 0 {
		expand(batch)
		batch = batch[:0]
	}
	return batch
}

// wordRun returns the bitset word of slots[i] and the mask of the run of slots from i on
// that fall in it, and the index after the run: the slots of one word take one atomic
// OR together.
func wordRun(slots []uint64, i int) (wi, mask uint64, end int) {
	wi = slots[i] >> 6
	mask = 1 << (slots[i] & 63)
	for i++; i < len(slots) && slots[i]>>6 == wi; i++ {
		mask |= 1 << (slots[i] & 63)
	}
	return wi, mask, i
}
