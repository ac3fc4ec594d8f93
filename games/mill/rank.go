package mill

import (
	"fmt"
	"iter"
	"math/bits"
	"sync"
)

// MinStones is the smallest number of stones of a side in a position of a sector.
const MinStones = 3

// A Sector numbers the symmetry classes of the positions with w stones for the side to
// move and b for the opponent: slots 0..Slots()−1, one per class, no holes. It is
// immutable and safe for concurrent use.
//
// An own class (a class of w-stone masks) with a trivial stabiliser has C(24−w, b) slots,
// one per opponent placement on its canonical mask's free points, in colex order; these
// classes come first, so their slot is class·C(24−w, b) + colex rank. An own class with a
// non-trivial stabiliser H has one slot per H-orbit of opponent placements, the smallest
// member of each orbit (its leader) standing for it. A bitmap over all placements of
// these classes marks the leaders; with the count of marks before each word it maps a
// placement to its slot in O(1) (Rank), and with a sampled index of every 256th mark
// back (Unrank).
type Sector struct {
	w, b  int
	own   *ownClasses
	per   uint64 // C(24−w, b): the placements of an own class
	flat  uint64 // the slots of the classes with a trivial stabiliser: own.trivial·per
	slots uint64
	// Bit i·per + r of leader is set when placement r (colex) of own class own.trivial+i
	// is the leader of its orbit; before[k] counts the set bits of leader[:k].
	leader []uint64
	before []uint32
	// hint[j] is the word of leader holding set bit number j·hintEvery; the last entry is
	// the last word.
	hint []uint32
}

const hintEvery = 256

var (
	sectorOnce  [MaxStones + 1][MaxStones + 1]sync.Once
	sectorTable [MaxStones + 1][MaxStones + 1]*Sector
)

// NewSector returns the sector of w stones for the side to move and b for the opponent,
// 3 ≤ w, b ≤ 9. Sectors are built on first use (well under a second) and kept for the
// life of the program, shared by all callers. The own classes of w stones take 4 bytes
// per w-stone mask (5.2 MB for w = 9); a sector adds 1.5 bits per placement of an own
// class with a non-trivial stabiliser (the bitmap and a 32-bit count per 64-bit word; at
// most 6.3 MB, for 6-9).
func NewSector(w, b int) (*Sector, error) {
	if w < MinStones || w > MaxStones || b < MinStones || b > MaxStones {
		return nil, fmt.Errorf("mill: no sector %d-%d: both sides need %d to %d stones", w, b, MinStones, MaxStones)
	}
	return boardSector(w, b), nil
}

// boardSector returns the ranking of the boards with w stones of the side to move and b of
// the opponent, 0 ≤ w, b ≤ 9: a moving-phase sector's, or a placement sector's (whose
// sides may have fewer than 3 stones on the board).
func boardSector(w, b int) *Sector {
	sectorOnce[w][b].Do(func() { sectorTable[w][b] = buildSector(w, b) })
	return sectorTable[w][b]
}

func buildSector(w, b int) *Sector {
	oc := ownClassesFor(w)
	s := &Sector{w: w, b: b, own: oc, per: binom[Points-w][b]}
	s.flat = uint64(oc.trivial) * s.per
	s.leader = make([]uint64, (uint64(len(oc.canon)-oc.trivial)*s.per+63)/64)
	for c := oc.trivial; c < len(oc.canon); c++ {
		markLeaders(s.leader, uint64(c-oc.trivial)*s.per, oc.canon[c], oc.stab[c], b)
	}
	s.before = make([]uint32, len(s.leader)+1)
	var count uint32
	for k, word := range s.leader {
		s.before[k] = count
		count += uint32(bits.OnesCount64(word))
		for uint32(len(s.hint))*hintEvery < count {
			s.hint = append(s.hint, uint32(k))
		}
	}
	s.before[len(s.leader)] = count
	s.hint = append(s.hint, uint32(max(len(s.leader)-1, 0)))
	s.slots = s.flat + uint64(count)
	return s
}

// markLeaders sets bit at+r of leader for each placement r (colex rank among the b-subsets
// of the points free of own) that is the smallest of its orbit under the symmetries stab,
// which all fix own.
func markLeaders(leader []uint64, at uint64, own uint32, stab uint16, b int) {
	// Each symmetry of stab permutes the free points; perms[h] applies it to masks of free
	// point numbers (0..n−1), which keep the order of the masks of points.
	free := ^own & Full
	n := bits.OnesCount32(free)
	var number [Points]int
	var point []int
	for fs := free; fs != 0; fs &= fs - 1 {
		q := bits.TrailingZeros32(fs)
		number[q] = len(point)
		point = append(point, q)
	}
	var perms [][3][256]uint32
	for hs := stab &^ 1; hs != 0; hs &= hs - 1 {
		h := Sym(bits.TrailingZeros16(hs))
		var t [3][256]uint32
		for i := range 3 {
			for x := range 256 {
				for j := range 8 {
					if x>>j&1 != 0 && 8*i+j < n {
						t[i][x] |= 1 << number[h.Point(Point(point[8*i+j]))]
					}
				}
			}
		}
		perms = append(perms, t)
	}
	x := uint32(1)<<b - 1
	for r := range binom[n][b] {
		isLeader := true
		for k := range perms {
			t := &perms[k]
			if t[0][uint8(x)]|t[1][uint8(x>>8)]|t[2][uint8(x>>16)] < x {
				isLeader = false
				break
			}
		}
		if isLeader {
			leader[(at+r)/64] |= 1 << ((at + r) % 64)
		}
		x = nextSubset(x)
	}
}

// Stones returns the number of stones of the side to move (w) and of the opponent (b).
func (s *Sector) Stones() (w, b int) { return s.w, s.b }

// Slots returns the number of slots, which is the number of symmetry classes of the sector.
func (s *Sector) Slots() uint64 { return s.slots }

// canonical returns the own class of the position and the canonical opponent placement.
func (s *Sector) canonical(own, opp uint32) (class uint32, cOpp uint32) {
	e := s.own.entry[colexRank(own)]
	class = e >> 4
	cOpp = Sym(e & 15).Apply(opp)
	if int(class) >= s.own.trivial {
		o := cOpp
		for hs := s.own.stab[class] &^ 1; hs != 0; hs &= hs - 1 {
			cOpp = min(cOpp, Sym(bits.TrailingZeros16(hs)).Apply(o))
		}
	}
	return class, cOpp
}

// Canonical returns the canonical member of the position's symmetry class, the same as
// the package's Canonical but from the sector's tables. own must have w stones and opp b,
// on different points (the result is undefined otherwise).
func (s *Sector) Canonical(own, opp uint32) (cOwn, cOpp uint32) {
	class, cOpp := s.canonical(own, opp)
	return s.own.canon[class], cOpp
}

// Rank returns the slot of the position's class. own must have w stones and opp b, on
// different points (the result is undefined otherwise).
func (s *Sector) Rank(own, opp uint32) uint64 {
	class, cOpp := s.canonical(own, opp)
	return s.rankCanonical(class, cOpp)
}

// rankCanonical returns the slot of the placement cOpp of own class class, the canonical
// one of its orbit under the class's stabiliser.
func (s *Sector) rankCanonical(class uint32, cOpp uint32) uint64 {
	r := colexFree(cOpp, s.own.canon[class])
	i := int(class) - s.own.trivial
	if i < 0 {
		return uint64(class)*s.per + r
	}
	return s.leaderSlot(uint64(i)*s.per + r)
}

// leaderSlot returns the slot of the leader at bit pos of the bitmap.
func (s *Sector) leaderSlot(pos uint64) uint64 {
	k := pos / 64
	return s.flat + uint64(s.before[k]) + uint64(bits.OnesCount64(s.leader[k]&(1<<(pos%64)-1)))
}

// rankImage returns the slot of the position whose own stones lie in own class class
// and whose opponent stones, mapped by the symmetry taking them to the class's canonical
// mask, are img: img itself when the class has a trivial stabiliser, else the smallest
// of its images under the stabiliser.
func (s *Sector) rankImage(class uint32, img uint32) uint64 {
	if int(class) >= s.own.trivial {
		o := img
		for hs := s.own.stab[class] &^ 1; hs != 0; hs &= hs - 1 {
			img = min(img, Sym(bits.TrailingZeros16(hs)).Apply(o))
		}
	}
	return s.rankCanonical(class, img)
}

// Unrank returns the canonical position of slot, 0 ≤ slot < Slots().
func (s *Sector) Unrank(slot uint64) (own, opp uint32) {
	class, r, _ := s.locate(slot)
	own = s.own.canon[class]
	return own, colexUnrankFree(r, s.b, own)
}

// locate returns the own class of slot, the colex rank of its placement and, for a class
// with a non-trivial stabiliser, the placement's bit in leader.
func (s *Sector) locate(slot uint64) (class int, r, pos uint64) {
	if slot < s.flat {
		class, r = int(slot/s.per), slot%s.per
	} else {
		// The word holding leader number k lies between the hints around k.
		k := uint32(slot - s.flat)
		lo, hi := s.hint[k/hintEvery], s.hint[k/hintEvery+1]
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if s.before[mid] <= k {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		pos = uint64(lo)*64 + uint64(selectBit(s.leader[lo], int(k-s.before[lo])))
		class, r = s.own.trivial+int(pos/s.per), pos%s.per
	}
	return class, r, pos
}

// positions walks the canonical positions (own, opp) of slots lo..hi−1 in order, by a
// slotCursor.
func (s *Sector) positions(lo, hi uint64) iter.Seq2[uint32, uint32] {
	return func(yield func(own, opp uint32) bool) {
		var cur slotCursor
		for slot := lo; slot < hi; slot++ {
			if slot == lo {
				cur.seek(s, slot)
			} else {
				cur.next()
			}
			if !yield(cur.Own, cur.Opp) {
				return
			}
		}
	}
}

// A slotCursor walks the canonical positions of a sector's slots in increasing order,
// each from the one before (the next placement in colex order, or the next leader of the
// bitmap) rather than by Unrank: Own and Opp are the position of slot Slot.
type slotCursor struct {
	s         *Sector
	Slot      uint64
	Own, Opp  uint32
	class     int
	x         uint32 // the placement as a mask of free-point numbers (colex rank r)
	r, pos    uint64 // the colex rank; in the bitmap region, the bit of leader
	free      uint32 // the points not in Own
	firstMask uint32 // the smallest placement, 1<<b − 1
}

// seek moves the cursor to slot, 0 ≤ slot < Slots().
func (c *slotCursor) seek(s *Sector, slot uint64) {
	*c = slotCursor{s: s, Slot: slot, firstMask: uint32(1)<<s.b - 1}
	c.class, c.r, c.pos = s.locate(slot)
	c.Own = s.own.canon[c.class]
	c.free = ^c.Own & Full
	c.Opp = colexUnrankFree(c.r, s.b, c.Own)
	c.x = pext(c.Opp, c.free)
}

// step moves to the next placement in colex order, to the next own class's first after
// the last.
func (c *slotCursor) step() {
	c.r++
	if c.r == c.s.per {
		c.r = 0
		c.class++
		c.x = c.firstMask
		if c.class < len(c.s.own.canon) {
			c.Own = c.s.own.canon[c.class]
			c.free = ^c.Own & Full
		}
		return
	}
	c.x = nextSubset(c.x)
}

// next moves the cursor to the next slot, which must exist.
func (c *slotCursor) next() {
	c.Slot++
	s := c.s
	switch {
	case c.Slot < s.flat:
		c.step()
	case c.Slot == s.flat:
		c.seek(s, c.Slot)
		return
	default:
		for {
			c.step()
			c.pos++
			if s.leader[c.pos/64]>>(c.pos%64)&1 != 0 {
				break
			}
		}
	}
	c.Opp = pdep(c.x, c.free)
}

// selectByte[x][k] is the position of the k-th lowest set bit of x.
var selectByte [256][8]uint8

func init() {
	for x := range 256 {
		k := 0
		for j := range 8 {
			if x>>j&1 != 0 {
				selectByte[x][k] = uint8(j)
				k++
			}
		}
	}
}

// selectBit returns the position of the k-th lowest set bit of x (k counted from 0).
func selectBit(x uint64, k int) int {
	for i := 0; ; i += 8 {
		b := uint8(x >> i)
		c := bits.OnesCount8(b)
		if k < c {
			return i + int(selectByte[b][k])
		}
		k -= c
	}
}
