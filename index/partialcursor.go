package index

import (
	"math/bits"

	"github.com/tablesmith/tablesmith/internal/cacheline"
)

// PartialCursor holds one tuple of a PartialPerm, unranked, and moves to another slot by
// redoing only the tuple's values that change. Builders that visit slots in increasing
// order (a sorted frontier, a pass over every entry) pay about one value per slot
// instead of k divisions and k selections. Not safe for concurrent use.
type PartialCursor struct {
	p      *PartialPerm
	slot   uint64
	hi     uint64 // slot / p.lowSize, for Seek
	valid  bool
	digits [maxPartialN]uint8
	cells  [maxPartialN]uint8
	// used[i] is the mask of cells[0..i-1]; used[k] holds the whole tuple.
	used [maxPartialN + 1]uint32
	// tailLo is the first slot with the cursor's leading k-2 digits, and free the
	// values those leave, in increasing order: within [tailLo, tailLo+p.tailSize) Seek
	// finds the last two values by two lookups (see seekTail).
	tailLo uint64
	free   [maxPartialN]uint8
	// freeStale is set when the leading digits changed since free was listed: it is
	// listed again by the first seekTail, so that a sparse frontier, which seldom
	// stays within a tail, does not pay for it at every Seek.
	freeStale bool
}

// lowDigits is the number of trailing digits Seek recomputes when the leading ones stay.
func (p *PartialPerm) lowDigits() int { return p.k / 2 }

// NewCursor returns a cursor at slot 0 (an empty tuple for k = 0). A cursor is written
// at every Seek, and each worker of a search has its own: it shares no cache line with
// any other allocation (see cacheline), where two cursors side by side would make the
// workers invalidate each other's copy at every step.
func (p *PartialPerm) NewCursor() *PartialCursor {
	c := cacheline.New[PartialCursor]()
	c.p = p
	c.Seek(0)
	return c
}

// Slot returns the slot the cursor holds.
func (c *PartialCursor) Slot() uint64 { return c.slot }

// Cells returns the tuple: cells[i] is the i-th value. The slice is the cursor's own and
// changes with it; do not modify it.
func (c *PartialCursor) Cells() []uint8 { return c.cells[:c.p.k] }

// Used returns the mask of the first i values of the tuple (0 <= i <= k).
func (c *PartialCursor) Used(i int) uint32 { return c.used[i] }

// Seek moves the cursor to slot (below Size()) and returns the position of the first
// value that changed (k if none did): values before it are as they were.
func (c *PartialCursor) Seek(slot uint64) int {
	p := c.p
	k, low := p.k, p.lowDigits()
	if slot-c.tailLo < p.tailSize && c.valid {
		return c.seekTail(slot)
	}
	if c.valid && slot > c.slot && slot-c.slot < 1<<31 {
		return c.advance(slot)
	}
	from := 0
	hi := slot / p.lowSize
	if c.valid && hi == c.hi {
		from = k - low
	}
	r := slot - hi*p.lowSize
	if from == 0 {
		r = slot
	}
	first := k // the first digit that differs
	for i := k - 1; i >= from; i-- {
		d := p.radix[i&(maxPartialN-1)]
		var q uint64
		if r < 1<<32 && d >= 2 {
			q = divFast(r, p.recip[i&(maxPartialN-1)])
		} else {
			q = r / d
		}
		if dg := uint8(r - q*d); dg != c.digits[i&(maxPartialN-1)] || !c.valid {
			c.digits[i&(maxPartialN-1)] = dg
			first = i
		}
		r = q
	}
	c.slot, c.hi, c.valid = slot, hi, true
	c.fill(first)
	return first
}

// seekTail is Seek to a slot that keeps the leading k-2 digits (k >= 4): the two
// trailing digits by one division, their values by two lookups in free, and no branch
// on how many changed, which over a sorted frontier is as random as the gaps.
func (c *PartialCursor) seekTail(slot uint64) int {
	p := c.p
	k := p.k
	i, j := (k-2)&(maxPartialN-1), (k-1)&(maxPartialN-1)
	if c.freeStale {
		f := 0
		for m := uint32(uint64(1)<<p.n-1) &^ c.used[i]; m != 0; m &= m - 1 {
			c.free[f&(maxPartialN-1)] = uint8(bits.TrailingZeros32(m))
			f++
		}
		c.freeStale = false
	}
	r := slot - c.tailLo // below tailSize, at most 32·31
	di := divFast(r, p.recip[j])
	dj := r - di*p.radix[j]
	// The last value is the dj-th free one once the one the next to last took (the
	// di-th) is out: one further when dj reaches it.
	var skip uint64
	if dj >= di {
		skip = 1
	}
	vi, vj := c.free[di&(maxPartialN-1)], c.free[(dj+skip)&(maxPartialN-1)]
	var same, sameLast int
	if uint8(di) == c.digits[i] {
		same = 1
	}
	if uint8(dj) == c.digits[j] {
		sameLast = 1
	}
	c.digits[i], c.digits[j] = uint8(di), uint8(dj)
	c.cells[i], c.cells[j] = vi, vj
	c.used[i+1] = c.used[i] | 1<<(vi&31)
	c.used[j+1] = c.used[i+1] | 1<<(vj&31)
	c.slot = slot
	return k - 2 + same*(1+sameLast)
}

// advance is Seek to a slot a little after the cursor's (by less than 2^31): the
// difference is added to the digits from the last one on, and the carry usually dies
// within a digit or two over a sorted frontier's gaps, where Seek would divide for
// every digit below the leading ones.
func (c *PartialCursor) advance(slot uint64) int {
	p := c.p
	k := p.k
	first := k
	delta := slot - c.slot
	for i := k - 1; delta != 0 && i >= 0; i-- {
		t := uint64(c.digits[i&(maxPartialN-1)]) + delta
		d := p.radix[i&(maxPartialN-1)]
		var q uint64
		switch {
		case t < d:
		case d >= 2: // t < 2^31 + n
			q = divFast(t, p.recip[i&(maxPartialN-1)])
		default:
			q = t / d
		}
		if dg := uint8(t - q*d); dg != c.digits[i&(maxPartialN-1)] {
			c.digits[i&(maxPartialN-1)] = dg
			first = i
		}
		delta = q
	}
	c.slot = slot
	if first < k-p.lowDigits() { // the leading digits changed
		c.hi = slot / p.lowSize
	}
	c.fill(first)
	return first
}

// Next moves the cursor to the next slot and returns the position of the first value
// that changed; ok is false (and the cursor unchanged) at the last slot.
func (c *PartialCursor) Next() (from int, ok bool) {
	p := c.p
	if c.slot+1 >= p.size {
		return p.k, false
	}
	i := p.k - 1
	for ; i >= 0; i-- {
		c.digits[i&(maxPartialN-1)]++
		if uint64(c.digits[i&(maxPartialN-1)]) < p.radix[i&(maxPartialN-1)] {
			break
		}
		c.digits[i&(maxPartialN-1)] = 0
	}
	c.slot++
	if i < p.k-p.lowDigits() { // a carry into the leading digits: no division per step otherwise
		c.hi = c.slot / p.lowSize
	}
	c.fill(i)
	return i, true
}

// fill recomputes cells[from:] and used[from+1:] from the digits (c.slot being their
// slot), and the tail that seekTail works in.
func (c *PartialCursor) fill(from int) {
	p := c.p
	all := uint32(uint64(1)<<p.n - 1)
	for i := from; i < p.k; i++ {
		v := selectBit(all&^c.used[i], uint32(c.digits[i&(maxPartialN-1)]))
		c.cells[i&(maxPartialN-1)] = uint8(v)
		c.used[i+1] = c.used[i] | 1<<(v&31)
	}
	if p.tailSize == 0 {
		return
	}
	i, j := (p.k-2)&(maxPartialN-1), (p.k-1)&(maxPartialN-1)
	c.tailLo = c.slot - (uint64(c.digits[i])*p.radix[j] + uint64(c.digits[j]))
	if from < p.k-2 {
		c.freeStale = true
	}
}
