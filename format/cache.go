package format

import (
	"sync"
	"sync/atomic"
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

func newBlockCache(blocks int, limit int64) *blockCache {
	return &blockCache{table: make([]atomic.Pointer[cachedBlock], blocks), limit: limit}
}

// get returns the decoded block, or nil if it is not cached.
func (c *blockCache) get(block int) []byte {
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
	return data
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

func (c *blockCache) setLimit(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.limit = n
	c.evict(max(n, 0))
}
