package format

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/tablesmith/tablesmith/internal/parallel"
)

// loadChunk is the slots a worker of ReadAll takes at a time: whole blocks, about 1 Mi
// codes (4 MiB of uint32 a worker).
func (r *Reader) loadChunk() uint64 {
	spb := uint64(max(r.SlotsPerBlock(), 1))
	return spb * max(1, (1<<20)/spb)
}

// ReadAll reads every code of the file once, in chunks of whole blocks, on up to workers
// goroutines (0: GOMAXPROCS), and calls fn with the goroutine's number (0..workers−1, for
// state of its own), the chunk's first slot and its codes, a buffer fn must not keep. It
// is the one loop that reads a whole table into memory: the lookup's checks, the tier
// builds' exits and the pattern databases of the solver all go through it (or LoadCodes).
// Blocks are checked against their checksums as they are read.
func (r *Reader) ReadAll(ctx context.Context, workers int, fn func(worker int, first uint64, codes []uint32) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type state struct {
		id  int
		buf []uint32
	}
	states := make([]*state, workers)
	for i := range states {
		states[i] = &state{id: i}
	}
	chunk := r.loadChunk()
	return parallel.ForWorkers(ctx, states, r.slots, chunk, func(st *state, lo, hi uint64) error {
		if st.buf == nil {
			st.buf = make([]uint32, chunk) // on the worker's goroutine, only if it gets work
		}
		buf := st.buf[:hi-lo]
		if err := r.Codes(buf, lo); err != nil {
			return err
		}
		return fn(st.id, lo, buf)
	})
}

// LoadOptions tune LoadCodes. The zero value is usable.
type LoadOptions struct {
	Workers int // 0: GOMAXPROCS
	// NoZero refuses code 0 (a WDL table's hole marker, which no position of a tiered
	// game holds) as corrupt, in the same pass.
	NoZero bool
	// Progress, if set, is called after each chunk with the slots loaded so far.
	Progress func(done, total uint64)
}

// LoadCodes reads every code of r into dst, one element per slot, refusing a code that
// does not fit T (or a zero, with NoZero) as corrupt, naming the slot.
func LoadCodes[T uint8 | uint16 | uint32](ctx context.Context, r *Reader, dst []T, opt LoadOptions) error {
	n := r.slots
	if uint64(len(dst)) != n {
		return fmt.Errorf("format: %s%d codes for %d slots", r.name, len(dst), n)
	}
	var loaded atomic.Uint64
	return r.ReadAll(ctx, opt.Workers, func(_ int, first uint64, codes []uint32) error {
		for i, c := range codes {
			if uint32(T(c)) != c || opt.NoZero && c == 0 {
				return fmt.Errorf("%sslot %d holds code %d: %w", r.name, first+uint64(i), c, ErrCorrupt)
			}
			dst[first+uint64(i)] = T(c)
		}
		if opt.Progress != nil {
			opt.Progress(loaded.Add(uint64(len(codes))), n)
		}
		return nil
	})
}

// DecodedBytes is the memory the cache takes to hold every block of the table decoded:
// the budget (SetCacheBytes) from which it keeps them all, in one array.
func (r *Reader) DecodedBytes() int64 {
	return int64(uint64(r.nblocks) * (packedBytes(r.spb, r.bits) + blockPad))
}

// Preload decodes every block into the cache on up to workers goroutines (0:
// GOMAXPROCS), checking each against its checksum, so that later reads find every code
// in memory: a process that answers many lookups scattered over its table (a two-bit
// table's descent) pays for the decoding once, up front, rather than a block at a time
// in its first thousands of answers. A cache budget too small to hold the table decoded
// (DecodedBytes) is refused before any block is read. progress, if set, is called with
// the blocks decoded so far.
func (r *Reader) Preload(ctx context.Context, workers int, progress func(done, total uint64)) error {
	bi, err := r.index()
	if err != nil {
		return err
	}
	c := bi.cache
	c.mu.Lock()
	limit := c.limit
	if limit >= c.wholeBytes && c.whole.Load() == nil {
		// Straight to the whole-table array: the heap cache's blocks cost more than the
		// array's (bookkeeping), so a budget of DecodedBytes would evict some of them.
		c.goWhole()
	}
	c.mu.Unlock()
	if need := r.DecodedBytes(); limit < need {
		return fmt.Errorf("format: %spreloading takes a cache of %d bytes (the table decoded), and the budget is %d", r.name, need, limit)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	total := uint64(r.nblocks)
	var done atomic.Uint64
	return parallel.For(ctx, workers, total, 64, func(lo, hi uint64) error {
		for b := int(lo); b < int(hi); b++ {
			if c.get(b) == nil {
				if _, err := r.cachedBlock(bi, b); err != nil {
					return err
				}
			}
		}
		if progress != nil {
			progress(done.Add(hi-lo), total)
		}
		return nil
	})
}
