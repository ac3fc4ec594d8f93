package solver

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/tablesmith/tablesmith/games/slide"
)

// AStar finds a shortest solution from start with A*.
//
// Every node generated is kept in a table keyed by its packed board; the open list is a
// binary heap of node indices ordered by f = g + h, ties broken towards the larger g,
// and each node remembers its heap position, so that a shorter path to an open node
// lowers its priority in O(log n) (decrease-key by sift-up). A node is closed when it
// leaves the heap; a shorter path to a closed node — possible only with an inconsistent
// heuristic — reopens it. The search stops when the goal leaves the heap.
func AStar(ctx context.Context, h Heuristic, start []uint8, opt Options) (*Result, error) {
	if err := checkStart(h, start); err != nil {
		return nil, err
	}
	t0 := time.Now()
	var res *Result
	var err error
	if h.Geometry().Cells() <= 16 {
		res, err = astar(ctx, h, start, opt, pack16, unpack16)
	} else {
		res, err = astar(ctx, h, start, opt, pack25, unpack25)
	}
	if res != nil {
		res.Elapsed = time.Since(t0)
	}
	return res, err
}

// pack16 packs a board of at most 16 cells, 4 bits per cell.
func pack16(b []uint8) uint64 {
	var k uint64
	for c, t := range b {
		k |= uint64(t) << (4 * uint(c))
	}
	return k
}

func unpack16(k uint64, b []uint8) {
	for c := range b {
		b[c] = uint8(k >> (4 * uint(c)) & 15)
	}
}

// pack25 packs a board of 17 to 25 cells, 5 bits per cell: cells 0..11 in the first
// word, cells 12..23 in the second; the last cell holds the one tile left over.
func pack25(b []uint8) [2]uint64 {
	var k [2]uint64
	for c, t := range b[:len(b)-1] {
		k[c/12] |= uint64(t) << (5 * uint(c%12))
	}
	return k
}

func unpack25(k [2]uint64, b []uint8) {
	n := len(b)
	sum := n * (n - 1) / 2
	for c := range n - 1 {
		b[c] = uint8(k[c/12] >> (5 * uint(c%12)) & 31)
		sum -= int(b[c])
	}
	b[n-1] = uint8(sum)
}

// anode is one A* node: 24 bytes plus the key.
type anode[K comparable] struct {
	key    K
	parent int32 // index of the parent node, -1 for the start
	heap   int32 // position in the heap, -1 when closed
	g, h   int16
	prev   uint8 // the blank's cell in the parent (the inverse move), 0xff for none
}

// aheap is the open list: node indices in a binary min-heap by (f, -g).
type aheap[K comparable] struct {
	nodes *[]anode[K]
	h     []int32
}

func (q *aheap[K]) less(a, b int32) bool {
	ns := *q.nodes
	fa, fb := ns[a].g+ns[a].h, ns[b].g+ns[b].h
	return fa < fb || fa == fb && ns[a].g > ns[b].g
}

func (q *aheap[K]) set(i int, x int32) {
	q.h[i] = x
	(*q.nodes)[x].heap = int32(i)
}

func (q *aheap[K]) push(x int32) {
	q.h = append(q.h, x)
	q.up(len(q.h) - 1)
}

func (q *aheap[K]) up(i int) {
	x := q.h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !q.less(x, q.h[p]) {
			break
		}
		q.set(i, q.h[p])
		i = p
	}
	q.set(i, x)
}

func (q *aheap[K]) pop() int32 {
	top := q.h[0]
	last := q.h[len(q.h)-1]
	q.h = q.h[:len(q.h)-1]
	if n := len(q.h); n > 0 {
		i := 0
		for {
			c := 2*i + 1
			if c >= n {
				break
			}
			if c+1 < n && q.less(q.h[c+1], q.h[c]) {
				c++
			}
			if !q.less(q.h[c], last) {
				break
			}
			q.set(i, q.h[c])
			i = c
		}
		q.set(i, last)
	}
	(*q.nodes)[top].heap = -1
	return top
}

func astar[K comparable](ctx context.Context, hr Heuristic, start []uint8, opt Options,
	pack func([]uint8) K, unpack func(K, []uint8)) (*Result, error) {
	geo := hr.Geometry()
	n := geo.Cells()
	goalKey := pack(geo.GoalBoard(hr.Goal()))
	board := make([]uint8, n)

	nodes := make([]anode[K], 0, 1024)
	index := make(map[K]int32, 1024)
	q := &aheap[K]{nodes: &nodes}
	res := &Result{}

	k0 := pack(start)
	nodes = append(nodes, anode[K]{key: k0, parent: -1, h: int16(hr.Estimate(start)), prev: 0xff})
	index[k0] = 0
	q.push(0)
	res.MaxHeap = 1

	for len(q.h) > 0 {
		x := q.pop()
		cur := nodes[x]
		if cur.key == goalKey {
			res.Stored = len(nodes)
			res.Length = int(cur.g)
			res.Path = astarPath(nodes, x, n, unpack)
			return res, nil
		}
		if res.Expanded&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		res.Expanded++
		unpack(cur.key, board)
		blank := slide.Blank(board)
		g := cur.g + 1
		for _, nb := range geo.Neighbors(blank) {
			if nb == cur.prev {
				continue // the parent: g can only be worse
			}
			res.Generated++
			from := int(nb)
			slide.Slide(board, blank, from)
			k := pack(board)
			if y, ok := index[k]; ok {
				ny := &nodes[y]
				if g < ny.g {
					ny.g, ny.parent, ny.prev = g, x, uint8(blank)
					if ny.heap >= 0 {
						q.up(int(ny.heap))
					} else {
						res.Reopened++
						q.push(y)
					}
				}
			} else {
				if opt.MaxNodes > 0 && len(nodes) >= opt.MaxNodes {
					return nil, fmt.Errorf("%w: A* stored %d nodes (expanded %d) without reaching the goal",
						ErrNodeLimit, len(nodes), res.Expanded)
				}
				y := int32(len(nodes))
				nodes = append(nodes, anode[K]{key: k, parent: x, heap: -1, g: g, h: int16(hr.Estimate(board)), prev: uint8(blank)})
				index[k] = y
				q.push(y)
			}
			slide.Slide(board, from, blank)
		}
		res.MaxHeap = max(res.MaxHeap, len(q.h))
	}
	// Unreachable for a solvable start: the goal is in its component.
	return nil, fmt.Errorf("solver: A* exhausted the open list without reaching the goal from %s", geo.Format(start))
}

func astarPath[K comparable](nodes []anode[K], x int32, n int, unpack func(K, []uint8)) [][]uint8 {
	var path [][]uint8
	for ; x >= 0; x = nodes[x].parent {
		b := make([]uint8, n)
		unpack(nodes[x].key, b)
		path = append(path, b)
	}
	slices.Reverse(path)
	return path
}
