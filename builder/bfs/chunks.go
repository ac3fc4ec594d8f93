package bfs

import (
	"sync"
	"unsafe"

	"github.com/tablesmith/tablesmith/internal/bigmem"
)

// The frontier lists of a breadth-first search are kept in chunks of chunkSlots slots
// from a pool, rather than in slices grown by append: growing a list leaves its old
// array behind as garbage, and the collector lets garbage pile up to the size of the
// live heap before it runs, so lists of 10^7 slots cost twice their size or more. Chunks
// live outside the Go heap (bigmem.Buf), go back to the pool once their level is expanded
// and logged, and are filled again by a later level; the pool keeps about as many as
// the next level needs and releases the rest.

// chunkSlots is the size of a chunk: 512 KiB, large enough that a level's chunk list is
// short, small enough that a small level wastes little.
const chunkSlots = 1 << 16

// chunkPool hands out empty chunks and takes back those of expanded levels. It is safe
// for concurrent use.
type chunkPool struct {
	mu   sync.Mutex
	free [][]uint64
	bufs map[*uint64]*bigmem.Buf // every chunk in use or free, by its first word
}

func (p *chunkPool) get() []uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		c := p.free[n-1]
		p.free = p.free[:n-1]
		return c[:0]
	}
	if p.bufs == nil {
		p.bufs = map[*uint64]*bigmem.Buf{}
	}
	b := bigmem.New(chunkSlots * 8)
	c := b.Words()
	p.bufs[&c[0]] = b
	return c[:0]
}

// put takes back the chunks among lists (other slices, such as the goals' list, are
// left alone).
func (p *chunkPool) put(lists [][]uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range lists {
		if cap(c) == chunkSlots && p.bufs[unsafe.SliceData(c)] != nil {
			p.free = append(p.free, c[:0])
		}
	}
}

// trim releases free chunks beyond keep.
func (p *chunkPool) trim(keep int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.free) > keep {
		c := p.free[len(p.free)-1]
		p.free = p.free[:len(p.free)-1]
		key := unsafe.SliceData(c)
		p.bufs[key].Release()
		delete(p.bufs, key)
	}
}

// chunkList is one worker's list of the slots it found in a level.
type chunkList struct {
	full [][]uint64 // full chunks
	last []uint64   // the chunk being filled, nil before the first slot
	n    uint64     // slots in all
}

func (l *chunkList) add(p *chunkPool, s uint64) {
	if len(l.last) == cap(l.last) {
		if l.last != nil {
			l.full = append(l.full, l.last)
		}
		l.last = p.get()
	}
	l.last = append(l.last, s)
	l.n++
}

// take appends the chunks to lists, empties l and returns lists.
func (l *chunkList) take(lists [][]uint64) [][]uint64 {
	lists = append(lists, l.full...)
	if l.last != nil {
		lists = append(lists, l.last)
	}
	l.full, l.last, l.n = l.full[:0], nil, 0
	return lists
}
