package slide

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"

	"github.com/tablesmith/tablesmith/index"
	"github.com/tablesmith/tablesmith/internal/cacheline"
)

// PDBSpace is the abstract space of one pattern-database group: the placements of the
// group's k tiles on the n cells, ranked by index.PartialPerm, each with the blank
// somewhere in one region of the free cells (a connected set of cells without a group
// tile). Moves of the blank inside its region cost nothing, so the region, not the
// blank's cell, is the state: a move of a group tile into a cell of the region costs 1
// and leaves the blank on the tile's old cell, in whatever region that cell now belongs
// to (the other tiles are not tracked). A slot is placement rank << EntryBits() | the
// digit among the free cells (index.Digit) of the region's lowest cell, so an entry is
// one placement and the slots of other digits are holes. The least cost of an entry,
// minimised over its regions, is the group's pattern-database value of the placement.
//
// Searching regions instead of blank cells reaches each abstract state once rather than
// once per cell of its region (the 7-tile group of the 15-puzzle has 139,849,920 region
// states against 518,918,400 (placement, blank cell) slots). It satisfies
// zeroone.Space and zeroone.ZeroClosed structurally, with no zero-cost moves left.
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
	// all is the mask of the board's cells; notFirstCol and notLastCol those outside
	// the first and the last column, where a shift by one cell must not land.
	all, notFirstCol, notLastCol uint32
	cols                         uint
	// regionDigits[free], on boards of at most 16 cells, holds in nibble c the digit of
	// the lowest cell of c's region among the free cells free (for masks of n-k cells
	// only): a table of 512 KiB at most that
	// replaces a flood fill per move. Nil on larger boards.
	regionDigits []uint64
	// On boards of at most 16 cells, moveSpan[free<<eb | d] locates the moves out of the
	// region of the free cell of digit d among the free cells free (see packSpan), the
	// same span for every digit of the region. They are what the flood fill, the search
	// for the tiles around the region and the successor's region would otherwise find,
	// move by move. A region's moves to an adjacent cell (no cell between) come first:
	// they change only the moving tile's digit, by one. Nil on larger boards.
	moveSpan []uint32
	moves    []pdbMove
}

// A span packs a region's moves: start<<spanStartShift | short<<spanCountBits | count,
// count moves from moves[start], the first short of them to an adjacent cell. A board
// of at most 16 cells has at most 24 edges, so a region at most 24 moves, and all the
// regions fewer than 2^16·24 < 2^22 moves.
const (
	spanCountBits  = 5
	spanStartShift = 2 * spanCountBits
	spanCountMask  = 1<<spanCountBits - 1
)

func packSpan(start, short, count int) uint32 {
	return uint32(start)<<spanStartShift | uint32(short)<<spanCountBits | uint32(count)
}

// unpackSpan returns the span's moves and how many of them (the first) are short.
func (s *PDBSpace) unpackSpan(span uint32) (moves []pdbMove, short uint32) {
	start, count := span>>spanStartShift, span&spanCountMask
	return s.moves[start : start+count], span >> spanCountBits & spanCountMask
}

// pdbMove is a move of a group tile into the blank's region as the tables list it: the
// tile's cell c (bits 0-3), the lower of c and the cell it moves onto (bits 4-7), the
// digit of the region the blank is left in (bits 8-11: the region of c after the move),
// the distance between the two cells (bits 12-15) and the cells of group tiles strictly
// between them (bits 16-31).
type pdbMove uint32

func newPDBMove(from, to uint8, digit uint64, between uint32) pdbMove {
	lo, hi := min(from, to), max(from, to)
	return pdbMove(uint32(from) | uint32(lo)<<4 | uint32(digit)<<8 | uint32(hi-lo)<<12 | between<<16)
}

// dist is the distance between the move's two cells: 1 to the cell beside it in the row,
// the number of columns to the cell above or below (boards have at least 2 columns).
func (mv pdbMove) dist() uint32 { return uint32(mv >> 12 & 15) }

// regionTableCells is the largest board whose region digits are tabulated.
const regionTableCells = 16

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
	s.all, s.cols = uint32(1)<<n-1, uint(geo.Cols)
	for c := range n {
		for _, x := range geo.Neighbors(c) {
			s.nb[c] |= 1 << x
		}
		if c%geo.Cols != 0 {
			s.notFirstCol |= 1 << c
		}
		if c%geo.Cols != geo.Cols-1 {
			s.notLastCol |= 1 << c
		}
	}
	if n <= regionTableCells {
		s.regionDigits = make([]uint64, 1<<n)
		for free := uint32(0); free <= s.all; free++ {
			if bits.OnesCount32(free) != n-k {
				continue
			}
			for left := free; left != 0; {
				region := s.flood(left&-left, free)
				d := index.Digit(^free, uint8(bits.TrailingZeros32(region)))
				for m := region; m != 0; m &= m - 1 {
					s.regionDigits[free] |= d << (4 * bits.TrailingZeros32(m))
				}
				left &^= region
			}
		}
		s.tabulateMoves()
	}
	return s, nil
}

// tabulateMoves fills moveSpan and moves from regionDigits, for every set of n-k free
// cells and every region among them.
func (s *PDBSpace) tabulateMoves() {
	per := uint32(1) << s.eb
	s.moveSpan = make([]uint32, (s.all+1)*per)
	for free := uint32(0); free <= s.all; free++ {
		if bits.OnesCount32(free) != s.n-s.k {
			continue
		}
		occ := s.all &^ free
		// The regions by their digit, in the order of their lowest cells.
		for d := range uint64(s.n - s.k) {
			b0 := nthFree(occ, d)
			canon := s.regionOf(occ, b0)
			if canon != d { // not the region's lowest cell, whose smaller digit came first: share its span
				s.moveSpan[free*per+uint32(d)] = s.moveSpan[free*per+uint32(canon)]
				continue
			}
			start := len(s.moves)
			for b := range uint8(s.n) {
				if free&(1<<b) == 0 || s.regionOf(occ, b) != d {
					continue
				}
				for m := s.nb[b] & occ; m != 0; m &= m - 1 {
					c := uint8(bits.TrailingZeros32(m))
					lo, hi := min(b, c), max(b, c)
					between := occ & (uint32(1)<<hi - 1) &^ (uint32(2)<<lo - 1)
					s.moves = append(s.moves, newPDBMove(c, b, s.regionOf(occ&^(1<<c)|1<<b, c), between))
				}
			}
			region := s.moves[start:]
			slices.SortStableFunc(region, func(a, b pdbMove) int { return cmp.Compare(a.dist(), b.dist()) })
			short := 0
			for short < len(region) && region[short].dist() == 1 {
				short++
			}
			s.moveSpan[free*per+uint32(d)] = packSpan(start, short, len(region))
		}
	}
}

// flood returns the region of free reached from the cells of seed (a subset of free) by
// steps between adjacent cells of free: all the cells of the region grow by one step at
// once.
func (s *PDBSpace) flood(seed, free uint32) uint32 {
	for r := seed; ; {
		g := (r | s.around(r)) & free
		if g == r {
			return r
		}
		r = g
	}
}

// around returns the cells adjacent to a cell of r.
func (s *PDBSpace) around(r uint32) uint32 {
	return (r<<1&s.notFirstCol | r>>1&s.notLastCol | r<<s.cols | r>>s.cols) & s.all
}

// regionOf returns the slot digit of the region of cell c when the group tiles
// occupy occ (c not among them): the digit of the region's lowest cell.
func (s *PDBSpace) regionOf(occ uint32, c uint8) uint64 {
	free := s.all &^ occ
	if s.regionDigits != nil {
		return s.regionDigits[free] >> (4 * c & 63) & 15
	}
	region := s.flood(1<<c, free)
	return index.Digit(occ, uint8(bits.TrailingZeros32(region)))
}

// ZeroClosed tells the search that zero-cost moves are folded into the states: zero
// returns nothing.
func (s *PDBSpace) ZeroClosed() bool { return true }

// Slots is the number of slots: placements << EntryBits().
func (s *PDBSpace) Slots() uint64 { return s.pp.Size() << s.eb }

// EntryBits is the number of bits of a region's digit in a slot.
func (s *PDBSpace) EntryBits() int { return int(s.eb) }

// DepthBound bounds the values so that they fit a byte.
func (s *PDBSpace) DepthBound() uint64 { return 253 }

// Goals is the slot of the goal placement with the blank's region around its goal cell.
func (s *PDBSpace) Goals() []uint64 {
	var occ uint32
	for _, c := range s.goalCell {
		occ |= 1 << c
	}
	return []uint64{s.pp.Rank(s.goalCell)<<s.eb | s.regionOf(occ, s.goalBlank)}
}

// pdbExpander is one worker's move generator. Slots of the frontier arrive sorted, so
// the placement of the last entry is kept unranked.
type pdbExpander struct {
	s    *PDBSpace
	last uint64
	cur  *index.PartialCursor
	occ  uint32
	// earlierAt[c] is the mask of the cells of the tiles before the one on cell c;
	// weightAt[c] the place value of the digit of the tile on cell c (when occ has c).
	// Indexed by cell, not tile: a move knows its tile by the cell it leaves.
	earlierAt [32]uint32
	weightAt  [32]uint64
}

// NewExpanders returns one worker's move generators: zero appends nothing (a state is a
// whole region already), unit the moves of group tiles into the region.
func (s *PDBSpace) NewExpanders() (zero, unit func(dst, src []uint64) []uint64) {
	x := s.newExpander()
	unit = x.unitFlood
	if s.moveSpan != nil {
		unit = x.unitTabulated
	}
	return func(dst, _ []uint64) []uint64 { return dst }, unit
}

func (s *PDBSpace) newExpander() *pdbExpander {
	x := cacheline.New[pdbExpander]() // apart from the other workers' expanders
	x.s, x.cur = s, s.pp.NewCursor()
	x.refresh(0)
	return x
}

// load unranks placement e, redoing only the tiles whose cells changed since the last.
func (x *pdbExpander) load(e uint64) {
	x.refresh(x.cur.Seek(e))
}

// refresh updates the tables of the tiles from the from-th on to the cursor's placement.
func (x *pdbExpander) refresh(from int) {
	cells := x.cur.Cells()
	for i := from; i < len(cells); i++ {
		c := cells[i] & 31
		x.earlierAt[c] = x.cur.Used(i)
		x.weightAt[c] = x.s.weight[i&31]
	}
	x.occ = x.cur.Used(len(cells))
	x.last = x.cur.Slot()
}

// nthFree returns the free cell with digit d (the d-th cell, from 0, not in occ).
func nthFree(occ uint32, d uint64) uint8 {
	m := ^occ
	for ; d > 0; d-- {
		m &= m - 1
	}
	return uint8(bits.TrailingZeros32(m))
}

// unitFlood appends the moves of group tiles into the region: every group tile next to a
// cell of the region moves onto that cell, and the successor's region is the one of the
// tile's old cell.
//
// The successor's rank is the entry's plus a correction: tile i moving from c to the
// region's cell b changes its own digit, and the digit of each later tile on a cell
// strictly between b and c by one (no cell lies between for a horizontal move; cols-1
// cells do for a vertical one).
func (x *pdbExpander) unitFlood(dst, src []uint64) []uint64 {
	s := x.s
	eb, mask := s.eb, uint64(1)<<s.eb-1
	for _, slot := range src {
		e := slot >> eb
		if e != x.last {
			x.load(e)
		}
		if slot&mask >= uint64(s.n-s.k) {
			continue // a hole: no free cell has that digit
		}
		region := s.flood(1<<nthFree(x.occ, slot&mask), s.all&^x.occ)
		for tiles := s.around(region) & x.occ; tiles != 0; tiles &= tiles - 1 {
			c := uint8(bits.TrailingZeros32(tiles))
			w := x.weightAt[c&31] // the moving tile's place value
			for to := s.nb[c&31] & region; to != 0; to &= to - 1 {
				b := uint8(bits.TrailingZeros32(to))
				lo, hi := min(b, c), max(b, c)
				between := x.occ & (uint32(1)<<hi - 1) &^ (uint32(2)<<lo - 1)
				before := uint64(bits.OnesCount32(between & x.earlierAt[c&31]))
				var after uint64 // the place values of the later tiles in between
				for m := between &^ x.earlierAt[c&31]; m != 0; m &= m - 1 {
					after += x.weightAt[bits.TrailingZeros32(m)&31]
				}
				var r uint64
				if b < c {
					r = e - (uint64(c-b)-before)*w - after
				} else {
					r = e + (uint64(b-c)-before)*w + after
				}
				dst = append(dst, r<<eb|s.regionOf(x.occ&^(1<<c)|1<<b, c))
			}
		}
	}
	return dst
}

// unitTabulated is unitFlood on a board of at most 16 cells: the moves out of the region come
// from the tables, leaving only the successor's rank to compute.
func (x *pdbExpander) unitTabulated(dst, src []uint64) []uint64 {
	s := x.s
	eb, mask := s.eb, uint64(1)<<s.eb-1
	cols := uint32(s.cols)
	for _, slot := range src {
		e := slot >> eb
		if e != x.last {
			x.load(e)
		}
		moves, short := s.unpackSpan(s.moveSpan[uint64(s.all&^x.occ)<<eb|slot&mask])
		if cap(dst)-len(dst) < len(moves) {
			dst = slices.Grow(dst, len(moves))
		}
		out := dst[len(dst) : len(dst)+len(moves)]
		dst = dst[:len(dst)+len(moves)]
		// A move to an adjacent cell passes no cell: only the tile's own digit moves, by
		// one. neg is all ones when the tile moves to a lower cell (cells < 16).
		for j, mv := range moves[:short] {
			c, lo := uint32(mv&15), uint32(mv>>4&15)
			neg := -uint64(((lo ^ c) + 15) >> 4)
			out[j] = (e+(x.weightAt[c]^neg)-neg)<<eb | uint64(mv>>8&15)
		}
		out = out[short:]
		for j, mv := range moves[short:] {
			c, lo := uint32(mv&15), uint32(mv>>4&15)
			between := uint32(mv >> 16)
			// The tile's digit moves by the cells between, less the earlier tiles'; each
			// later tile between moves its digit by one. No branch depends on the
			// move: the later tiles' place values are added under a mask, over the
			// cols-1 cells the move passes.
			before := uint64(bits.OnesCount32(between & x.earlierAt[c]))
			later := between &^ x.earlierAt[c]
			var after uint64
			for step := uint32(1); step < cols; step++ {
				after += x.weightAt[(lo+step)&31] & -uint64(later>>((lo+step)&31)&1)
			}
			delta := (uint64(mv.dist())-before)*x.weightAt[c] + after
			neg := -uint64(((lo ^ c) + 15) >> 4)
			out[j] = (e+(delta^neg)-neg)<<eb | uint64(mv>>8&15)
		}
	}
	return dst
}
