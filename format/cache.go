package format

import (
	"sync"
	"sync/atomic"

	"github.com/tablesmith/tablesmith/internal/bigmem"
)

// DefaultCacheBytes is the decoded-block cache budget of a new Reader.
const DefaultCacheBytes = 64 << 20

// cacheOverhead approximates the bookkeeping bytes of one cached block.
const cacheOverhead = 64

// cachedBlock is one decoded block: its packed codes plus blockPad zero
// bytes. data is never written after the block is published.
type cachedBlock struct {
	data []byte
	ref  atomic.Bool // CLOCK reference bit
}

// blockCache is a CLOCK cache of decoded blocks bounded by bytes. A hit is
// one atomic load from a per-block pointer table, lock-free; inserting and
// evicting take the mutex.
type blockCache struct {
	table []atomic.Pointer[cachedBlock] // by block number; nil if not cached

	// whole is set while the budget holds every block decoded (limit ≥ wholeBytes) and
	// the blocks decoded have passed wholeAfter bytes: the blocks are then kept in one
	// array instead (wholeTable), and table is empty. A process that asks a few codes (a
	// query from the command line) keeps the small heap blocks: the array's huge pages
	// would cost it 2 MiB a block touched.
	whole      atomic.Pointer[wholeTable]
	wholeBytes int64
	wholeAfter int64
	stride     uint64      // a decoded block's bytes with its padding
	arena      *wholeTable // made on first use; kept while the cache lives (readers may hold its bytes)

	mu    sync.Mutex
	limit int64
	used  int64
	ring  []ringEntry // resident blocks in CLOCK order
	hand  int
}

type ringEntry struct {
	block int
	b     *cachedBlock
}

// wholeTable is the cache of a table whose budget holds all of it decoded: every block
// at block·stride of one array on huge pages (internal/bigmem), a bit a block saying
// which are there. A lookup is a bit test and one read, where the bounded cache chases
// the pointer table, the block's header and its heap bytes: on a random lookup of a
// table of gigabytes, three cache misses each with a TLB miss of its own (the descent of
// a two-bit table makes a few such lookups a move).
type wholeTable struct {
	buf   *bigmem.Buf
	data  []byte
	ready []atomic.Uint64 // bit b: block b is in data
	claim []atomic.Uint64 // bit b: a goroutine has taken block b to copy in
}

// copyIn puts decoded block data into the array unless a goroutine has taken it first:
// one copies a block in, once, so the bytes a reader may be reading are never written
// again.
func (w *wholeTable) copyIn(block int, data []byte, stride uint64) {
	bit := uint64(1) << (block & 63)
	if w.claim[block>>6].Or(bit)&bit == 0 {
		copy(w.data[uint64(block)*stride:], data[:min(uint64(len(data)), stride)])
		w.ready[block>>6].Or(bit)
	}
}

// newBlockCache returns the cache of blocks decoded blocks of stride bytes each (the
// last may be shorter) under a budget of limit bytes.
func newBlockCache(blocks int, limit int64, stride uint64) *blockCache {
	c := &blockCache{table: make([]atomic.Pointer[cachedBlock], blocks), stride: stride,
		wholeBytes: int64(uint64(blocks) * stride), wholeAfter: wholeAfterBytes}
	c.setLimit(limit)
	return c
}

// get returns the decoded block, or nil if it is not cached.
func (c *blockCache) get(block int) []byte {
	if w := c.whole.Load(); w != nil {
		if w.ready[block>>6].Load()&(1<<(block&63)) == 0 {
			return nil
		}
		off := uint64(block) * c.stride
		return w.data[off : off+c.stride : off+c.stride]
	}
	b := c.table[block].Load()
	if b == nil {
		return nil
	}
	if !b.ref.Load() { // avoid a store (and cache-line traffic) on hot blocks
		b.ref.Store(true)
	}
	return b.data
}

// put caches data as the decoded block and returns the block to use: data,
// or the copy another goroutine cached first. Blocks larger than the whole
// budget are returned uncached.
func (c *blockCache) put(block int, data []byte) []byte {
	if w := c.whole.Load(); w != nil {
		w.copyIn(block, data, c.stride) // another goroutine's copy may be the one kept
		return data
	}
	size := int64(cap(data)) + cacheOverhead
	c.mu.Lock()
	defer c.mu.Unlock()
	if b := c.table[block].Load(); b != nil {
		return b.data
	}
	if size > c.limit {
		return data
	}
	c.evict(c.limit - size)
	b := &cachedBlock{data: data}
	c.ring = append(c.ring, ringEntry{block, b})
	c.table[block].Store(b)
	c.used += size
	if c.limit >= c.wholeBytes && c.used >= c.wholeAfter {
		c.goWhole()
	}
	return data
}

// wholeAfterBytes is the decoded blocks a cache holds on the heap before a budget that
// holds them all moves them to the whole-table array.
const wholeAfterBytes = 64 << 20

// goWhole turns the whole-table array on, made on first use, and moves the blocks
// cached apart into it. c.mu is held.
func (c *blockCache) goWhole() {
	if c.arena == nil {
		words := (len(c.table) + 63) / 64
		buf := bigmem.New(uint64(c.wholeBytes) + blockPad)
		c.arena = &wholeTable{buf: buf, data: buf.Bytes(),
			ready: make([]atomic.Uint64, words), claim: make([]atomic.Uint64, words)}
	}
	w := c.arena
	for _, e := range c.ring {
		w.copyIn(e.block, e.b.data, c.stride)
	}
	c.whole.Store(w)
	c.evict(0) // read from the array from now on
}

// evict removes blocks until at most target bytes are used. c.mu is held.
func (c *blockCache) evict(target int64) {
	for c.used > target && len(c.ring) > 0 {
		if c.hand >= len(c.ring) {
			c.hand = 0
		}
		e := c.ring[c.hand]
		if e.b.ref.Load() {
			e.b.ref.Store(false) // second chance
			c.hand++
			continue
		}
		last := len(c.ring) - 1
		c.ring[c.hand] = c.ring[last]
		c.ring[last] = ringEntry{}
		c.ring = c.ring[:last]
		c.table[e.block].Store(nil)
		c.used -= int64(cap(e.b.data)) + cacheOverhead
	}
}

// setLimit sets the budget: one that holds every block decoded turns the whole-table
// array on (at once if it was made before, else once the blocks decoded pass
// wholeAfter), a smaller one turns it off and evicts down to n. The array's memory is
// returned when the cache is dropped, not when it is turned off: a reader may still hold
// its bytes.
func (c *blockCache) setLimit(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.limit = n
	if n >= c.wholeBytes && (c.arena != nil || c.used >= c.wholeAfter) {
		c.goWhole()
		return
	}
	c.whole.Store(nil)
	c.evict(max(n, 0))
}
