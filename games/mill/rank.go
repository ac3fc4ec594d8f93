package mill

import (
	"fmt"
	"iter"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
)

// MinStones is the smallest number of stones of a side in a position of a sector.
const MinStones = 3

// A Sector numbers the symmetry classes of the positions with w stones for the side to
// move and b for the opponent: slots 0..Slots()−1, one per class, no holes. It is
// immutable to its users and safe for concurrent use.
//
// An own class (a class of w-stone masks) with a trivial stabiliser has C(24−w, b) slots,
// one per opponent placement on its canonical mask's free points, in colex order; these
// classes come first, so their slot is class·C(24−w, b) + colex rank. An own class with a
// non-trivial stabiliser H has one slot per H-orbit of opponent placements, the smallest
// member of each orbit (its leader) standing for it. Each such class has a region of a
// bitmap, a whole number of words, marking its leaders; the count of marks before each
// word maps a placement to its slot in O(1) (Rank), and a sampled index of every 256th
// mark maps back (Unrank). How many leaders each class has is counted beforehand
// (Burnside's lemma), so a class's region can be marked on its own: a sector for a few
// probes (probeSector) marks only the classes they touch, in microseconds, where marking
// all takes a few hundred milliseconds for the largest sectors.
type Sector struct {
	v      *variant // the rule set
	w, b   int
	own    *ownClasses
	per    uint64 // C(24−w, b): the placements of an own class
	stride uint64 // the bits of a class's region: per rounded up to whole words
	flat   uint64 // the slots of the classes with a trivial stabiliser: own.trivial·per
	slots  uint64
	// base[i] counts the leaders of the classes own.trivial … own.trivial+i−1.
	base []uint32
	// Bit i·stride + r of leader is set when placement r (colex) of own class
	// own.trivial+i is the leader of its orbit; before[k] counts the set bits of
	// leader[:k].
	leader []uint64
	before []uint32
	// hint[j] is the word of leader holding set bit number j·hintEvery; the last entry is
	// the last word. Only a sector with every class marked has it.
	hint []uint32
	// marked[i] reports that class own.trivial+i's region and its before entries are
	// filled; nil when all are (a sector built whole).
	marked []atomic.Bool
	markMu sync.Mutex
}

const hintEvery = 256

// NewSector returns the sector of Nine Men's Morris with w stones for the side to move and
// b for the opponent, 3 ≤ w, b ≤ 9 (Rules.Sector for the other rule sets). Sectors are built on first use (well under a second) and kept for the
// life of the program, shared by all callers. The own classes of w stones take 4 bytes
// per w-stone mask (5.2 MB for w = 9); a sector adds 1.5 bits per placement of an own
// class with a non-trivial stabiliser (the bitmap and a 32-bit count per 64-bit word; at
// most 6.3 MB, for 6-9).
func NewSector(w, b int) (*Sector, error) {
	if w < MinStones || w > MaxStones || b < MinStones || b > MaxStones {
		return nil, fmt.Errorf("mill: no sector %d-%d: both sides need %d to %d stones", w, b, MinStones, MaxStones)
	}
	return nine.boardSector(w, b), nil
}

// Sector returns the sector of the rule set with w stones for the side to move and b for
// the opponent, 3 ≤ w, b ≤ Stones, as NewSector does for Nine Men's Morris.
func (r *Rules) Sector(w, b int) (*Sector, error) {
	if w < MinStones || w > r.Stones || b < MinStones || b > r.Stones {
		return nil, fmt.Errorf("mill: no sector %d-%d in %s: both sides need %d to %d stones", w, b, r.Title, MinStones, r.Stones)
	}
	return r.compiled().boardSector(w, b), nil
}

// boardSector, probeSector, newSector and newProbeSector are Nine Men's Morris's (for
// the tests).
func boardSector(w, b int) *Sector    { return nine.boardSector(w, b) }
func probeSector(w, b int) *Sector    { return nine.probeSector(w, b) }
func newSector(w, b int) *Sector      { return nine.newSector(w, b) }
func newProbeSector(w, b int) *Sector { return nine.newProbeSector(w, b) }

// boardSector returns the ranking of the boards with w stones of the side to move and b of
// the opponent, 0 ≤ w, b ≤ 9: a moving-phase sector's, or a placement sector's (whose
// sides may have fewer than 3 stones on the board). Every class is marked: the builders
// rank and unrank all over a sector.
func (v *variant) boardSector(w, b int) *Sector {
	v.sectorOnce[w][b].Do(func() {
		s := v.newSector(w, b)
		for i := range s.base[:len(s.base)-1] {
			s.markClass(i)
		}
		s.buildHint()
		v.sectorTable[w][b].Store(s)
	})
	return v.sectorTable[w][b].Load()
}

// probeSector returns the same ranking as boardSector for a program that looks up a few
// positions: the sector whole when it is already built, else one that marks each class
// when first asked about it, so that the first probe of a freshly opened set does not
// wait for the whole sector.
func (v *variant) probeSector(w, b int) *Sector {
	if s := v.sectorTable[w][b].Load(); s != nil {
		return s
	}
	v.probeOnce[w][b].Do(func() { v.probeTable[w][b] = v.newProbeSector(w, b) })
	return v.probeTable[w][b]
}

// newProbeSector returns a sector that marks each class on demand.
func (v *variant) newProbeSector(w, b int) *Sector {
	s := v.newSector(w, b)
	s.marked = make([]atomic.Bool, len(s.base)-1)
	return s
}

// newSector returns the sector with its own classes and the leader counts, its bitmap
// allocated but no class marked.
func (v *variant) newSector(w, b int) *Sector {
	oc := v.ownClassesFor(w)
	s := &Sector{v: v, w: w, b: b, own: oc, per: binom[v.points-w][b]}
	s.stride = (s.per + 63) &^ 63
	s.flat = uint64(oc.trivial) * s.per
	others := len(oc.canon) - oc.trivial
	s.base = make([]uint32, others+1)
	for i := range others {
		c := oc.trivial + i
		s.base[i+1] = s.base[i] + uint32(v.orbitCount(oc.canon[c], oc.stab[c], b))
	}
	words := uint64(others) * s.stride / 64
	s.leader = make([]uint64, words)
	s.before = make([]uint32, words+1)
	s.before[words] = s.base[others]
	s.slots = s.flat + uint64(s.base[others])
	return s
}

// orbitCount returns the number of orbits of the b-subsets of the points free of own
// under the symmetries stab, which all fix own: by Burnside's lemma the average over stab
// of the subsets each fixes, those made of whole cycles of the symmetry on the free
// points, the coefficient of x^b in Π_cycles (1 + x^len).
func (v *variant) orbitCount(own uint32, stab uint16, b int) uint64 {
	var sum uint64
	free := ^own & v.full
	for hs := stab; hs != 0; hs &= hs - 1 {
		h := Sym(bits.TrailingZeros16(hs))
		var poly [Points + 1]uint64
		poly[0] = 1
		var seen uint32
		for fs := free; fs != 0; fs &= fs - 1 {
			p := Point(bits.TrailingZeros32(fs))
			l := 0
			for q := p; seen>>q&1 == 0; q = v.symPerm[h][q] {
				seen |= 1 << q
				l++
			}
			for i := Points; i >= l && l > 0; i-- {
				poly[i] += poly[i-l]
			}
		}
		sum += poly[b]
	}
	return sum / uint64(bits.OnesCount16(stab))
}

// markClass marks the leaders of class own.trivial+i in its region and fills the region's
// before entries. The regions are whole words, so classes marked side by side by
// different goroutines write different words.
func (s *Sector) markClass(i int) {
	c := s.own.trivial + i
	at := uint64(i) * s.stride
	s.v.markLeaders(s.leader, at, s.own.canon[c], s.own.stab[c], s.b)
	count := s.base[i]
	for k := at / 64; k < (at+s.stride)/64; k++ {
		s.before[k] = count
		count += uint32(bits.OnesCount64(s.leader[k]))
	}
	if count != s.base[i+1] {
		panic(fmt.Sprintf("mill: sector %d-%d class %d has %d leaders, Burnside counts %d", s.w, s.b, c, count-s.base[i], s.base[i+1]-s.base[i]))
	}
}

// buildHint fills hint once every class is marked.
func (s *Sector) buildHint() {
	for k := range s.leader {
		for uint32(len(s.hint))*hintEvery < s.before[k+1] {
			s.hint = append(s.hint, uint32(k))
		}
	}
	s.hint = append(s.hint, uint32(max(len(s.leader)-1, 0)))
}

// ensureMarked marks class own.trivial+i of a sector that marks on demand, if not yet.
func (s *Sector) ensureMarked(i uint64) {
	if !s.marked[i].Load() {
		s.markOnce(i)
	}
}

// markOnce is ensureMarked's slow path, apart so that the fast one inlines.
func (s *Sector) markOnce(i uint64) {
	s.markMu.Lock()
	defer s.markMu.Unlock()
	if !s.marked[i].Load() {
		s.markClass(int(i))
		s.marked[i].Store(true)
	}
}

// markLeaders sets bit at+r of leader for each placement r (colex rank among the b-subsets
// of the points free of own) that is the smallest of its orbit under the symmetries stab,
// which all fix own.
func (v *variant) markLeaders(leader []uint64, at uint64, own uint32, stab uint16, b int) {
	// Each symmetry of stab permutes the free points; perms[h] applies it to masks of free
	// point numbers (0..n−1), which keep the order of the masks of points.
	free := ^own & v.full
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
						t[i][x] |= 1 << number[v.symPerm[h][point[8*i+j]]]
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
	cOpp = s.v.apply(Sym(e&15), opp)
	if int(class) >= s.own.trivial {
		o := cOpp
		for hs := s.own.stab[class] &^ 1; hs != 0; hs &= hs - 1 {
			cOpp = min(cOpp, s.v.apply(Sym(bits.TrailingZeros16(hs)), o))
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
	if s.marked != nil {
		s.ensureMarked(uint64(i))
	}
	return s.leaderSlot(uint64(i)*s.stride + r)
}

// leaderSlot returns the slot of the leader at bit pos of the bitmap, whose class is
// marked.
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
			img = min(img, s.v.apply(Sym(bits.TrailingZeros16(hs)), o))
		}
	}
	return s.rankCanonical(class, img)
}

// Unrank returns the canonical position of slot, 0 ≤ slot < Slots().
func (s *Sector) Unrank(slot uint64) (own, opp uint32) {
	class, r, _ := s.locate(slot)
	own = s.own.canon[class]
	return own, colexUnrankFree(r, s.b, own, s.v.full)
}

// locate returns the own class of slot, the colex rank of its placement and, for a class
// with a non-trivial stabiliser, the placement's bit in leader.
func (s *Sector) locate(slot uint64) (class int, r, pos uint64) {
	if slot < s.flat {
		class, r = int(slot/s.per), slot%s.per
	} else {
		// The word holding leader number k lies between the hints around k, or in a
		// sector that marks on demand, in the region of the last class whose first
		// leader is at most k.
		k := uint32(slot - s.flat)
		var lo, hi uint32
		if s.marked == nil {
			lo, hi = s.hint[k/hintEvery], s.hint[k/hintEvery+1]
		} else {
			i, _ := slices.BinarySearch(s.base, k+1)
			s.ensureMarked(uint64(i - 1))
			lo = uint32(uint64(i-1) * s.stride / 64)
			hi = lo + uint32(s.stride/64) - 1
		}
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if s.before[mid] <= k {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		pos = uint64(lo)*64 + uint64(selectBit(s.leader[lo], int(k-s.before[lo])))
		class, r = s.own.trivial+int(pos/s.stride), pos%s.stride
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
	c.free = ^c.Own & s.v.full
	c.Opp = colexUnrankFree(c.r, s.b, c.Own, s.v.full)
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
			c.free = ^c.Own & c.s.v.full
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
			if c.r == 0 { // the first placement of the next class, at its region's start
				i := uint64(c.class - s.own.trivial)
				if s.marked != nil {
					s.ensureMarked(i)
				}
				c.pos = i * s.stride
			} else {
				c.pos++
			}
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
