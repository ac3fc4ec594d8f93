package index

import "math/bits"

// Lex ranks permutations of 0..n-1 in lexicographic order: slot 0 is the identity,
// slot n!-1 the reversal. The Lehmer digit of p[i] is the number of values below it
// not used by p[0..i-1], and the rank is the sum of digit_i * (n-1-i)!. Rank and
// unrank run in O(n) without a table, after Korf & Schultze (2005): for n <= 16 the
// digits and the list of unused values are nibbles of one word (see lexRank and
// lexUnrank), for larger n a bitmask with popcount and select. Size is n!, no holes.
type Lex struct {
	n    int
	size uint64
}

// NewLex returns the lexicographic scheme for permutations of length n,
// 1 <= n <= 20 (20! < 2^63); it panics for any other n.
func NewLex(n int) *Lex {
	checkN("NewLex", n, 1, maxN)
	return &Lex{n: n, size: factorials[n]}
}

// Name returns "lex".
func (l *Lex) Name() string { return "lex" }

// N returns the permutation length.
func (l *Lex) N() int { return l.n }

// Size returns n!.
func (l *Lex) Size() uint64 { return l.size }

// HasHoles returns false: every slot below n! is a permutation.
func (l *Lex) HasHoles() bool { return false }

// Rank returns the lexicographic rank of p (len n).
func (l *Lex) Rank(p []uint8) uint64 {
	r, _ := lexRank(p[:l.n])
	return r
}

// Unrank fills p (len n) with the permutation of lexicographic rank slot; it
// returns false when slot >= n!.
func (l *Lex) Unrank(slot uint64, p []uint8) bool {
	if slot >= l.size {
		return false
	}
	lexUnrank(slot, p[:l.n])
	return true
}

// identNibbles lists 0..15 as the nibbles of one word, value k in bits 4k..4k+3.
const identNibbles = 0xFEDCBA9876543210

// nibbleOnes has a 1 in every nibble but the lowest: shifted left by 4v, it
// subtracts 1 from the nibbles of all values above v.
const nibbleOnes = 0x1111111111111110

// lexRank returns the lexicographic rank of p and the sum of its Lehmer digits
// (the inversion count, whose low bit is the parity).
//
// For n <= 16 the digit of every value is kept in a nibble of one word: nibble v
// holds the number of unused values below v. Using v subtracts 1 from all nibbles
// above it with one shift and one subtraction (a used value's nibble never goes
// below zero: it only counts down values below it that were still unused when it
// was taken), so each position costs a few single-cycle operations and no popcount.
// For larger n, the digit is v minus the popcount of the used values below v.
func lexRank(p []uint8) (rank uint64, digitSum uint64) {
	if len(p) > 16 {
		return lexRankWide(p)
	}
	w := uint64(identNibbles)
	f := factorials[:len(p)]
	for i, v := range p {
		sh := 4 * uint64(v) & 63
		d := w >> sh & 15
		w -= nibbleOnes << sh
		digitSum += d
		rank += d * f[len(f)-1-i]
	}
	return rank, digitSum
}

// lexRankWide is lexRank for 16 < n <= 20, with a bitmask of the used values.
func lexRankWide(p []uint8) (rank uint64, digitSum uint64) {
	n := len(p)
	var used uint64
	for i, v := range p {
		d := uint64(v) - uint64(bits.OnesCount64(used&(1<<(v&63)-1)))
		used |= 1 << (v & 63)
		digitSum += d
		rank += d * factorials[n-1-i]
	}
	return rank, digitSum
}

// lexUnrank fills p with the permutation of lexicographic rank r < len(p)! and
// returns the sum of its Lehmer digits.
//
// The Lehmer digit of position i is d_i = q_i - (n-i)*q_{i-1} with
// q_i = r div (n-1-i)!: the quotients do not depend on each other, so they
// pipeline, and while r < 2^32 each is one multiplication by a precomputed
// reciprocal instead of a division. The unused values are kept in increasing order
// as the nibbles of one word: digit d takes nibble d and closes the gap with two
// shifts, O(1) per position and no table.
func lexUnrank(r uint64, p []uint8) (digitSum uint64) {
	switch n := len(p); {
	case n <= 1:
		if n == 1 {
			p[0] = 0
		}
		return 0
	case n <= 12:
		return lexUnrankSmall(r, p, identNibbles)
	case n <= 16:
		return lexUnrankMid(r, p)
	default:
		return lexUnrankLarge(r, p)
	}
}

// nibbleTake returns entry d of the packed nibble list and the list without it.
func nibbleTake(list, d uint64) (uint8, uint64) {
	sh := 4 * d & 63
	return uint8(list>>sh) & 15, list&(1<<sh-1) | list>>sh>>4<<sh
}

// lexUnrankSmall fills p (2 <= len(p) <= 12) with the permutation of lexicographic
// rank r < len(p)! (< 2^32, so divFast applies) over the values of the nibble list,
// which holds len(p) values in increasing order.
func lexUnrankSmall(r uint64, p []uint8, list uint64) (digitSum uint64) {
	n := len(p)
	var prev uint64 // q_{i-1}; r div n! = 0
	for i := 0; i+2 < n; i++ {
		k := (n - 1 - i) & 15 // 2 <= k <= 11
		q := divFast(r, recipFact[k])
		d := q - prev*uint64(k+1)
		prev = q
		digitSum += d
		p[i], list = nibbleTake(list, d)
	}
	// The last two positions: digit r - 2*(r div 2!) (0 or 1), then the rest.
	d := r - prev*2
	sh := 4 * d & 63
	p[n-2] = uint8(list>>sh) & 15
	p[n-1] = uint8(list>>(4-sh&63)) & 15
	return digitSum + d
}

// lexUnrankMid is lexUnrank for 12 < n <= 16: the first n-12 digits by hardware
// division, then r mod 12! (the rank of the last 12 positions among the values
// left) by lexUnrankSmall.
func lexUnrankMid(r uint64, p []uint8) (digitSum uint64) {
	const tail = 12
	n := len(p)
	list := uint64(identNibbles)
	var prev uint64
	i := 0
	for ; i < n-tail; i++ {
		k := (n - 1 - i) & 15 // 12 <= k <= 15
		q := r / factorials[k]
		d := q - prev*uint64(k+1)
		prev = q
		digitSum += d
		p[i], list = nibbleTake(list, d)
	}
	return digitSum + lexUnrankSmall(r-prev*factorials[tail], p[i:], list)
}

// lexUnrankLarge is lexUnrank for 16 < n <= 20, where values no longer fit in
// nibbles: the first n-12 positions take their values from a bitmask of the
// unused values with selectBit; lexUnrankSmall then unranks r mod 12! as a
// permutation of 0..11, and each entry is mapped to the unused value of that rank.
func lexUnrankLarge(r uint64, p []uint8) (digitSum uint64) {
	const tail = 12
	n := len(p)
	unused := uint32(1)<<n - 1
	var prev uint64
	i := 0
	for ; i < n-tail; i++ {
		k := n - 1 - i // 12 <= k <= 19
		q := r / factorials[k]
		d := q - prev*uint64(k+1)
		prev = q
		digitSum += d
		v := selectBit(unused, uint32(d))
		p[i] = uint8(v)
		unused &^= 1 << (v & 31)
	}
	var rem [16]uint8 // the unused values in increasing order
	for j := range tail {
		rem[j] = uint8(bits.TrailingZeros32(unused))
		unused &= unused - 1
	}
	rest := p[i:]
	digitSum += lexUnrankSmall(r-prev*factorials[tail], rest, identNibbles)
	for j, x := range rest {
		rest[j] = rem[x&15]
	}
	return digitSum
}

// selectTab[b][k] is the position of the k-th set bit (from 0) of the byte b.
var selectTab = func() (t [256][8]uint8) {
	for b := range 256 {
		k := 0
		for i := range 8 {
			if b>>i&1 == 1 {
				t[b][k] = uint8(i)
				k++
			}
		}
	}
	return t
}()

// selectBit returns the position of the k-th set bit (from 0) of m, which must
// have more than k set bits: narrow the search to 16 bits, then to 8, then look
// the byte up in selectTab. Branch-free, since k is random in an unrank.
func selectBit(m, k uint32) uint32 {
	c := uint32(bits.OnesCount16(uint16(m)))
	up := -((k-c)>>31 ^ 1) // all ones when k >= c
	k -= c & up
	sh := 16 & up
	m >>= sh
	c = uint32(bits.OnesCount8(uint8(m)))
	up = -((k-c)>>31 ^ 1)
	k -= c & up
	sh += 8 & up
	m >>= 8 & up
	return sh + uint32(selectTab[uint8(m)][k&7])
}
