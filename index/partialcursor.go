package index

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
}

// lowDigits is the number of trailing digits Seek recomputes when the leading ones stay.
func (p *PartialPerm) lowDigits() int { return p.k / 2 }

// NewCursor returns a cursor at slot 0 (an empty tuple for k = 0).
func (p *PartialPerm) NewCursor() *PartialCursor {
	c := &PartialCursor{p: p}
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

// fill recomputes cells[from:] and used[from+1:] from the digits.
func (c *PartialCursor) fill(from int) {
	all := uint32(uint64(1)<<c.p.n - 1)
	for i := from; i < c.p.k; i++ {
		v := selectBit(all&^c.used[i], uint32(c.digits[i&(maxPartialN-1)]))
		c.cells[i&(maxPartialN-1)] = uint8(v)
		c.used[i+1] = c.used[i] | 1<<(v&31)
	}
}
