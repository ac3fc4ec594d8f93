package index

import (
	"fmt"
	"math/bits"
)

// maxPartialN is the largest n PartialPerm supports: the used values are kept in a
// 32-bit mask (sliding-tile boards have at most 25 cells).
const maxPartialN = 32

// PartialPerm ranks k-tuples of distinct values from 0..n-1 — the cells of k pattern
// tiles among n cells — in lexicographic order of the tuple: slot 0 is (0, 1, …, k-1),
// slot Size()-1 is (n-1, n-2, …, n-k). Size is n!/(n-k)!, no holes.
//
// The rank is the mixed-radix number of the tuple's Lehmer digits: digit i is the number
// of values below c[i] not used by c[0..i-1], in [0, n-i), and
//
//	rank = (…((d[0]·(n-1) + d[1])·(n-2) + d[2])…)·(n-k+1) + d[k-1].
//
// Both directions run in O(k) with a bitmask and popcount (as Lex does for whole
// permutations).
//
// Prefix property: the last digit is the least significant. So for a (k+1)-tuple t ranked
// by NewPartialPerm(n, k+1), whose last digit has n-k values, Rank(t) / (n-k) is the rank
// of its first k values under NewPartialPerm(n, k), and Rank(t) % (n-k) is Digit(used,
// t[k]), the number of values below t[k] that the first k leave free. A pattern database
// whose abstract state is (pattern cells, a free cell) uses this to project a state onto
// its entry (slide.PDBSpace names the blank's region by its lowest free cell).
type PartialPerm struct {
	n, k int
	size uint64
	// radix[i] = n-i, the number of values digit i can take; recip[i] its reciprocal
	// for divFast (numerators below 2^32).
	radix, recip [maxPartialN]uint64
	// lowSize is the number of slots that share their leading k - lowDigits() digits
	// (the product of the trailing radices), for PartialCursor.Seek.
	lowSize uint64
	// tailSize is the number of slots that share their leading k-2 digits, for
	// PartialCursor.Seek's step by lookups within them (seekTail); 0 (no such step)
	// unless the two trailing digits lie inside the low ones (so that the step keeps the
	// cursor's hi, which it does not update: k >= 4) and the last radix is at least 2
	// (k < n).
	tailSize uint64
}

// PartialPermSize returns n!/(n-k)! and whether the pair is supported:
// 1 <= n <= 32, 0 <= k <= n and the size below 2^63.
func PartialPermSize(n, k int) (uint64, bool) {
	if n < 1 || n > maxPartialN || k < 0 || k > n {
		return 0, false
	}
	size := uint64(1)
	for i := range k {
		hi, lo := bits.Mul64(size, uint64(n-i))
		if hi != 0 || lo >= 1<<63 {
			return 0, false
		}
		size = lo
	}
	return size, true
}

// NewPartialPerm returns the scheme for k distinct values among 0..n-1. It panics when
// PartialPermSize(n, k) reports the pair unsupported (a programming error: validate
// user input with PartialPermSize first).
func NewPartialPerm(n, k int) *PartialPerm {
	size, ok := PartialPermSize(n, k)
	if !ok {
		panic(fmt.Sprintf("index.NewPartialPerm: n = %d, k = %d unsupported (want 1 <= n <= %d, 0 <= k <= n, n!/(n-k)! < 2^63)",
			n, k, maxPartialN))
	}
	p := &PartialPerm{n: n, k: k, size: size, lowSize: 1}
	for i := range k {
		d := uint64(n - i)
		p.radix[i] = d
		if d >= 2 {
			p.recip[i] = ^uint64(0)/d + 1
		}
		if i >= k-p.lowDigits() {
			p.lowSize *= d
		}
	}
	if p.lowDigits() >= 2 && k < n {
		p.tailSize = p.radix[k-2] * p.radix[k-1]
	}
	return p
}

// Name returns "partial-perm".
func (p *PartialPerm) Name() string { return "partial-perm" }

// N returns the number of values (cells).
func (p *PartialPerm) N() int { return p.n }

// K returns the tuple length (pattern tiles).
func (p *PartialPerm) K() int { return p.k }

// Size returns n!/(n-k)!.
func (p *PartialPerm) Size() uint64 { return p.size }

// HasHoles returns false: every slot below Size() is a tuple.
func (p *PartialPerm) HasHoles() bool { return false }

// Rank returns the slot of the tuple cells[:k] (distinct values below n).
func (p *PartialPerm) Rank(cells []uint8) uint64 {
	cells = cells[:p.k]
	var used uint32
	var r uint64
	for i, c := range cells {
		d := uint64(c) - uint64(bits.OnesCount32(used&(1<<(c&31)-1)))
		used |= 1 << (c & 31)
		r = r*p.radix[i&(maxPartialN-1)] + d
	}
	return r
}

// Unrank fills cells[:k] with the tuple at slot; it returns false when slot >= Size().
func (p *PartialPerm) Unrank(slot uint64, cells []uint8) bool {
	if slot >= p.size {
		return false
	}
	cells = cells[:p.k]
	// Digits come out least significant first; park them in cells, then turn each into
	// the d-th value not yet used, in order.
	r := slot
	for i := p.k - 1; i >= 0; i-- {
		d := p.radix[i]
		var q uint64
		if r < 1<<32 && d >= 2 {
			q = divFast(r, p.recip[i])
		} else {
			q = r / d
		}
		cells[i] = uint8(r - q*d)
		r = q
	}
	if p.n <= 16 {
		// The unused values in increasing order as the nibbles of one word: digit d
		// takes nibble d and closes the gap with two shifts (as lexUnrank does).
		list := uint64(identNibbles)
		for i, d := range cells {
			sh := 4 * uint64(d) & 63
			cells[i] = uint8(list>>sh) & 15
			list = list&(1<<sh-1) | list>>sh>>4<<sh
		}
		return true
	}
	free := uint32(uint64(1)<<p.n - 1)
	for i, d := range cells {
		v := selectBit(free, uint32(d))
		cells[i] = uint8(v)
		free &^= 1 << (v & 31)
	}
	return true
}

// Digit returns the Lehmer digit of value c given the mask of values already used: the
// number of unused values below c. It is the least significant digit that extending a
// tuple by c appends (see the prefix property).
func Digit(used uint32, c uint8) uint64 {
	return uint64(c) - uint64(bits.OnesCount32(used&(1<<(c&31)-1)))
}
