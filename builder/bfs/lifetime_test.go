package bfs

import (
	"context"
	"slices"
	"sync"
	"testing"
	"unsafe"
)

// star is a space whose goal 0 reaches slots 1..n in one move and nothing else: its last
// level is one list of n slots (one chunk), and every slot above n is a hole, so the
// search calls IsHole after its last level, before it returns.
type star struct {
	slots, n uint64
	onHole   func()
}

func (s star) Slots() uint64      { return s.slots }
func (s star) Goals() []uint64    { return []uint64{0} }
func (s star) DepthBound() uint64 { return 2 }

func (s star) IsHole(slot uint64) bool {
	if s.onHole != nil {
		s.onHole()
	}
	return slot > s.n
}

func (s star) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, x := range src {
			if x == 0 {
				for t := uint64(1); t <= s.n; t++ {
					dst = append(dst, t)
				}
			}
		}
		return dst
	}
}

// TestLastLevelListsLiveUntilSearchReturns: Options.AfterLevel promises that a
// level's slices "stay unchanged until the next call returns (or the search returns)",
// which is what lets levellog.Log.Append encode a large level in the background (and the
// encoder now reads a list level twice: once for its zstd try, once more for Elias–Fano
// or the packed form after the try fails). The last level is followed by no other call,
// so its chunks must stay in place until Search returns. The search hands them back to the
// pool and trims the pool to nothing (chunkPool.trim(0): munmap) before it classifies
// the unreached slots — while the log's goroutine may still be reading them.
func TestLastLevelListsLiveUntilSearchReturns(t *testing.T) {
	t.Parallel()
	const n = 10_000 // > smallRecord: Append would encode it in the background
	var (
		mu      sync.Mutex
		last    Level
		chunks  []*uint64
		checked bool
		bad     string
	)
	check := func() {
		mu.Lock()
		defer mu.Unlock()
		if checked || last.Lists == nil {
			return
		}
		checked = true
		pool, ok := last.Keep.(*chunkPool)
		if !ok {
			bad = "the last level is not kept by the chunk pool"
			return
		}
		pool.mu.Lock()
		defer pool.mu.Unlock()
		for _, c := range chunks {
			if pool.bufs[c] == nil {
				bad = "a chunk of the last level was released before the search returned"
				return
			}
		}
		// Still mapped: the slots must be those handed over.
		var got []uint64
		for _, l := range last.Lists {
			got = append(got, l...)
		}
		slices.Sort(got)
		for i, s := range got {
			if s != uint64(i+1) {
				bad = "the last level's slots changed before the search returned"
				return
			}
		}
	}
	sp := star{slots: 1 << 20, n: n, onHole: check}
	res, err := Search(context.Background(), sp, Options{Workers: 1, AfterLevel: func(lv Level) error {
		mu.Lock()
		defer mu.Unlock()
		if lv.D == 1 {
			last = lv
			for _, l := range lv.Lists {
				if cap(l) == chunkSlots {
					chunks = append(chunks, unsafe.SliceData(l))
				}
			}
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Counts) != 2 || res.Counts[1] != n {
		t.Fatalf("counts %v, want [1 %d]", res.Counts, n)
	}
	if len(chunks) == 0 {
		t.Fatal("the last level is not in pooled chunks: the test does not test anything")
	}
	if !checked {
		t.Fatal("IsHole was not called after the last level")
	}
	if bad != "" {
		t.Fatal(bad)
	}
}
