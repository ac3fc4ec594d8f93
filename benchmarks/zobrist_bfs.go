package benchmarks

import (
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/index"
)

// zNode is a frontier entry of the Zobrist search: the board travels with its key,
// because a hash cannot be turned back into a board.
type zNode struct {
	board [16]uint8
	blank uint8
	key   uint64
}

// ZobristBFS is a breadth-first search that keeps the visited set as a hash set of 64-bit
// Zobrist keys, updating each key in O(1) per move. It returns the states per level. It
// trusts the keys not to collide on the space (checked for all 9! boards in package index).
func ZobristBFS(geo *slide.Geometry, goal []uint8, z *index.Zobrist) []uint64 {
	var start zNode
	copy(start.board[:], goal)
	start.blank = uint8(slide.Blank(goal))
	start.key = z.Hash(goal)
	seen := newKeySet(1 << 10)
	seen.add(start.key)
	cur := []zNode{start}
	counts := []uint64{1}
	var next []zNode
	for len(cur) > 0 {
		next = next[:0]
		for _, s := range cur {
			for _, from := range geo.Neighbors(int(s.blank)) {
				t := s
				tile := t.board[from]
				t.key = z.Move(s.key, int(from), int(s.blank), tile)
				if !seen.add(t.key) {
					continue
				}
				t.board[s.blank], t.board[from] = tile, 0
				t.blank = uint8(from)
				next = append(next, t)
			}
		}
		if len(next) > 0 {
			counts = append(counts, uint64(len(next)))
		}
		cur, next = next, cur
	}
	return counts
}

// keySet is an open-addressing hash set of uint64 keys with linear probing; the key 0 is
// kept aside in a flag so that the empty marker can be 0.
type keySet struct {
	slots   []uint64
	n       int
	hasZero bool
}

func newKeySet(capacity int) *keySet {
	size := 16
	for size < 2*capacity {
		size *= 2
	}
	return &keySet{slots: make([]uint64, size)}
}

// add inserts k and reports whether it was new.
func (s *keySet) add(k uint64) bool {
	if k == 0 {
		was := s.hasZero
		s.hasZero = true
		return !was
	}
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := (k * 0x9E3779B97F4A7C15) >> 32 & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return false
		case 0:
			s.slots[i] = k
			s.n++
			return true
		}
	}
}

func (s *keySet) grow() {
	old := s.slots
	s.slots = make([]uint64, 2*len(old))
	s.n = 0
	for _, k := range old {
		if k != 0 {
			s.add(k)
		}
	}
}

// Len is the number of keys.
func (s *keySet) Len() int {
	if s.hasZero {
		return s.n + 1
	}
	return s.n
}
