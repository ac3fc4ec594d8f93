package bfs

import (
	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/sysmem"
)

// A settled level (see levels.Defer) only marks the slots it finds in the next frontier.
// When the workers share that bitset, every mark is an atomic OR, and an atomic OR on a
// word not in the cache holds back the loads of the candidates after it. Given the
// memory, each worker but the first marks a bitset of its own with plain writes, and
// the settle pass after the level merges them into the shared one (the first worker's):
// 3×4 went from 11 to 9 s and Hanoi 4×16 from 43 to 35 s.

// ownBits is a worker's own next bitset, allocated at its first settled level and all
// zero between levels (the merge clears it).
type ownBits struct {
	words []uint64
	buf   *bigmem.Buf // holds words, outside the Go heap
}

// get returns the bitset of n bits, allocating it the first time.
func (o *ownBits) get(n uint64) []uint64 {
	if o.words == nil {
		o.words, o.buf = bigmem.NewWords(n)
	}
	return o.words
}

// release frees the bitset.
func (o *ownBits) release() {
	o.buf.Release()
	*o = ownBits{}
}

// mergeOwn ORs words [lo, hi) of every own bitset into next and clears them there.
func mergeOwn(next []uint64, owns []*ownBits, lo, hi int) {
	for _, o := range owns {
		if o.words == nil {
			continue // the worker had no settled level yet
		}
		own := o.words[lo:hi]
		dst := next[lo:hi]
		for i, m := range own {
			if m != 0 {
				dst[i] |= m
				own[i] = 0
			}
		}
	}
}

// ownBitsFit reports whether the machine has the memory for a bitset of slots bits per
// worker but the first, on top of need, what the search needs without them: the bitsets
// are a speed-up, never a reason to run out of memory. Where the available memory
// cannot be read, it allows them up to 1 GiB in all.
func ownBitsFit(need, slots uint64, workers int) bool {
	if workers < 2 {
		return false
	}
	own := uint64(workers-1) * (slots/8 + 8)
	avail := sysmem.Available()
	if avail == 0 {
		return own <= 1<<30
	}
	return need <= avail && own <= avail-need
}
