package slide

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/tablesmith/tablesmith/index"
	"github.com/tablesmith/tablesmith/internal/cacheline"
)

// PDBSpace is the abstract space of one pattern-database group: the placements of the
// group's k tiles on the n cells, ranked by index.PartialPerm, each with the blank on one
// of the n-k free cells. A slot is placement rank << EntryBits() | the blank's digit among
// the free cells (index.Digit), so an entry is one placement. A move of the blank into a
// free cell costs 0, a move of a group tile into the blank costs 1 (the other tiles are
// not tracked): it satisfies builder.ZeroOneSpace and builder.ZeroClosed structurally.
// The least cost of an entry, minimised over the blank, is the group's pattern-database
// value of the placement.
type PDBSpace struct {
	geo       *Geometry
	n, k      int
	pp        *index.PartialPerm
	goalCell  []uint8 // goalCell[i]: the goal cell of tiles[i]
	eb        uint
	goalBlank uint8
	nb        [32]uint32 // nb[c]: the cells adjacent to c, as a mask
	// weight[i] is the place value of the partial-permutation digit of tiles[i]:
	// (n-i-1)·(n-i-2)···(n-k+1), so rank = Σ digit[i]·weight[i].
	weight [32]uint64
}

// PDBSlots is the number of slots of the abstract space of a group of k tiles on n
// cells: n!/(n-k)! placements << the bits numbering the blank's n-k cells. ok is false
// when that does not fit a uint64 (or n, k are out of range).
func PDBSlots(n, k int) (slots uint64, ok bool) {
	size, ok := index.PartialPermSize(n, k)
	if !ok || k >= n {
		return 0, false
	}
	eb := pdbBlankBits(n, k)
	if size > (1<<63)>>eb {
		return 0, false
	}
	return size << eb, true
}

// pdbBlankBits is the number of bits that number the blank's n-k possible cells.
func pdbBlankBits(n, k int) uint { return uint(bits.Len(uint(n - k - 1))) }

// NewPDBSpace returns the abstract space of the group tiles (distinct tiles 1..Cells()-1,
// in the order that ranks their placements) for the goal goal.
func NewPDBSpace(geo *Geometry, goal Goal, tiles []uint8) (*PDBSpace, error) {
	n, k := geo.Cells(), len(tiles)
	var seen uint32
	for _, t := range tiles {
		switch {
		case t == 0 || int(t) >= n:
			return nil, fmt.Errorf("slide: pattern tile %d; a %v board has tiles 1..%d", t, geo, n-1)
		case seen&(1<<t) != 0:
			return nil, fmt.Errorf("slide: pattern tile %d listed twice", t)
		}
		seen |= 1 << t
	}
	if _, ok := PDBSlots(n, k); !ok {
		return nil, fmt.Errorf("slide: a pattern of %d tiles on a %v board is too large", k, geo)
	}
	gb := geo.GoalBoard(goal)
	s := &PDBSpace{geo: geo, n: n, k: k, pp: index.NewPartialPerm(n, k), eb: pdbBlankBits(n, k),
		goalBlank: uint8(Blank(gb))}
	w := uint64(1)
	for i := k - 1; i >= 0; i-- {
		s.weight[i] = w
		w *= uint64(n - i)
	}
	for _, t := range tiles {
		s.goalCell = append(s.goalCell, uint8(slices.Index(gb, t)))
	}
	for c := range n {
		for _, x := range geo.Neighbors(c) {
			s.nb[c] |= 1 << x
		}
	}
	return s, nil
}

// ZeroClosed tells the search that zero returns the blank's whole region.
func (s *PDBSpace) ZeroClosed() bool { return true }

// Slots is the number of slots: placements << EntryBits().
func (s *PDBSpace) Slots() uint64 { return s.pp.Size() << s.eb }

// EntryBits is the number of bits of the blank's digit in a slot.
func (s *PDBSpace) EntryBits() int { return int(s.eb) }

// DepthBound bounds the values so that they fit a byte.
func (s *PDBSpace) DepthBound() uint64 { return 253 }

// ExpectedStates is the number of abstract states: every placement with every blank cell.
func (s *PDBSpace) ExpectedStates() uint64 { return s.pp.Size() * uint64(s.n-s.k) }

// Goals is the slot of the goal placement with the blank on its goal cell.
func (s *PDBSpace) Goals() []uint64 {
	var occ uint32
	for _, c := range s.goalCell {
		occ |= 1 << c
	}
	return []uint64{s.pp.Rank(s.goalCell)<<s.eb | index.Digit(occ, s.goalBlank)}
}

// pdbExpander is one worker's move generator. Slots of the frontier arrive sorted, so
// the placement of the last entry is kept unranked for unit; zero gets the slots the
// search just claimed, mostly the successors unit has just made, so unit leaves their
// occupied cells in a small direct-mapped cache where zero finds them without unranking.
type pdbExpander struct {
	s     *PDBSpace
	last  uint64
	cells [32]uint8
	occ   uint32
	owner [32]uint8 // owner[c]: index of the group tile on cell c (when occ has c)
	cache [1 << pdbCacheBits]occEntry
}

const pdbCacheBits = 12

// occEntry caches the occupied cells of one entry.
type occEntry struct {
	entry uint64 // ^0: empty
	occ   uint32
}

// NewExpanders returns one worker's move generators: zero appends the blank's whole
// region (free cells reached without moving a group tile), unit the moves of group
// tiles into the blank.
func (s *PDBSpace) NewExpanders() (zero, unit func(dst, src []uint64) []uint64) {
	x := cacheline.New[pdbExpander]() // apart from the other workers' expanders
	x.s, x.last = s, ^uint64(0)
	for i := range x.cache {
		x.cache[i].entry = ^uint64(0)
	}
	return x.zero, x.unit
}

func (x *pdbExpander) load(e uint64) {
	x.s.pp.Unrank(e, x.cells[:])
	var occ uint32
	for i, c := range x.cells[:x.s.k] {
		occ |= 1 << c
		x.owner[c] = uint8(i)
	}
	x.occ = occ
	x.last = e
}

// nthFree returns the free cell with digit d (the d-th cell, from 0, not in occ).
func nthFree(occ uint32, d uint64) uint8 {
	m := ^occ
	for ; d > 0; d-- {
		m &= m - 1
	}
	return uint8(bits.TrailingZeros32(m))
}

// zero appends, for each slot, the slots of every cell of the blank's region: the free
// cells it reaches without moving a group tile (a flood fill over cell masks).
func (x *pdbExpander) zero(dst, src []uint64) []uint64 {
	eb, mask := x.s.eb, uint64(1)<<x.s.eb-1
	nb := &x.s.nb
	for _, s := range src {
		e := s >> eb
		var occ uint32
		if ce := &x.cache[e&(1<<pdbCacheBits-1)]; ce.entry == e {
			occ = ce.occ
		} else {
			if e != x.last {
				x.load(e)
			}
			occ = x.occ
		}
		region := uint32(1) << nthFree(occ, s&mask)
		for todo := region; todo != 0; {
			c := bits.TrailingZeros32(todo)
			todo &= todo - 1
			add := nb[c&31] &^ occ &^ region
			region |= add
			todo |= add
		}
		for m := region; m != 0; m &= m - 1 {
			c := uint8(bits.TrailingZeros32(m))
			dst = append(dst, e<<eb|index.Digit(occ, c))
		}
	}
	return dst
}

// unit appends the moves of group tiles into the blank.
//
// The successor's rank is the entry's plus a correction: tile i moving from c to the
// blank's cell b changes its own digit, and the digit of each later tile on a cell
// strictly between b and c by one (no cell lies between for a horizontal move; cols-1
// cells do for a vertical one).
func (x *pdbExpander) unit(dst, src []uint64) []uint64 {
	eb, mask := x.s.eb, uint64(1)<<x.s.eb-1
	w := &x.s.weight
	for _, s := range src {
		e := s >> eb
		if e != x.last {
			x.load(e)
		}
		b := nthFree(x.occ, s&mask)
		for _, c := range x.s.geo.Neighbors(int(b)) {
			if x.occ&(1<<c) == 0 {
				continue
			}
			i := x.owner[c]
			lo, hi := min(b, c), max(b, c)
			var before, after uint64 // tiles between lo and hi before i; weights of those after
			for m := x.occ & (uint32(1)<<hi - 1) &^ (uint32(2)<<lo - 1); m != 0; m &= m - 1 {
				if j := x.owner[bits.TrailingZeros32(m)&31]; j < i {
					before++
				} else {
					after += w[j&31]
				}
			}
			var r uint64
			if b < c {
				r = e - (uint64(c-b)-before)*w[i&31] - after
			} else {
				r = e + (uint64(b-c)-before)*w[i&31] + after
			}
			occ := x.occ&^(1<<c) | 1<<b
			x.cache[r&(1<<pdbCacheBits-1)] = occEntry{r, occ}
			dst = append(dst, r<<eb|index.Digit(occ, c))
		}
	}
	return dst
}
