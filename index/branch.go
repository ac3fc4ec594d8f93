package index

// Branch767359 is the seed's branch hash of the 8-puzzle over permutations of the
// digits 0..8. The first digit p[0] is kept apart; for k = 1..7 the branch index b_k
// of p[k] is its index among the digits not used by p[0..k-1] (b_1 < 8, b_2 < 7,
// …, b_7 < 2; p[8] is forced). The branch indices are packed, from the most
// significant end, as
//
//	b_4 (3 bits) | b_6 (2) | b_3 (3) | b_2 (3) | b_1 (3) | b_5 (2) | b_7 (1)
//
// an order chosen so that the largest packed value is 76,735, and the slot is
// packed*10 + p[0]. Size is therefore 767,359 (slots 0..767,358) for 9! = 362,880
// permutations, ~2.11 slots per state: the holes are the slots whose last decimal
// digit is 9 or whose fields are out of range. It is collision-free and invertible.
type Branch767359 struct{}

// branch767359Size is the slot count of the branch hash: 76,735*10 + 8 + 1.
const branch767359Size = 767359

// NewBranch767359 returns the 8-puzzle branch hash (n = 9).
func NewBranch767359() *Branch767359 { return &Branch767359{} }

// Name returns "branch767359".
func (*Branch767359) Name() string { return "branch767359" }

// N returns 9.
func (*Branch767359) N() int { return 9 }

// Size returns 767,359.
func (*Branch767359) Size() uint64 { return branch767359Size }

// HasHoles returns true: only 9! of the 767,359 slots are permutations.
func (*Branch767359) HasHoles() bool { return true }

// Bit offsets of the branch indices b_k in the packed value.
const (
	shiftB7 = 0
	shiftB5 = 1
	shiftB1 = 3
	shiftB2 = 6
	shiftB3 = 9
	shiftB6 = 12
	shiftB4 = 14
)

// branchShift[k] and branchMask[k] locate the field of b_k (index 0 unused).
var (
	branchShift = [8]uint8{0, shiftB1, shiftB2, shiftB3, shiftB4, shiftB5, shiftB6, shiftB7}
	branchMask  = [8]uint32{0, 7, 7, 7, 7, 3, 3, 1}
)

// Rank returns the branch hash of p (len 9). As in lexRank, nibble v of w holds
// the number of unused digits below v, i.e. the branch index v would have.
func (*Branch767359) Rank(p []uint8) uint64 {
	p = p[:9]
	w := uint64(identNibbles) - nibbleOnes<<(4*p[0]&63)
	var packed uint64
	for k := 1; k <= 7; k++ {
		sh := 4 * p[k] & 63
		packed |= w >> sh & 15 << branchShift[k]
		w -= nibbleOnes << sh
	}
	return packed*10 + uint64(p[0])
}

// Unrank fills p (len 9) with the permutation at slot; it returns false for every
// slot that is no permutation's hash (last decimal digit 9, a branch index out of
// range, or slot >= 767,359).
func (*Branch767359) Unrank(slot uint64, p []uint8) bool {
	if slot >= branch767359Size {
		return false
	}
	s := uint32(slot)
	packed := s / 10
	first := s - packed*10
	if first > 8 {
		return false
	}
	// b_1, b_5 and b_7 fill their fields; b_2 <= 6, b_3 <= 5, b_4 <= 4, b_6 <= 2.
	if packed>>shiftB2&7 > 6 || packed>>shiftB3&7 > 5 || packed>>shiftB4 > 4 || packed>>shiftB6&3 > 2 {
		return false
	}
	p = p[:9]
	p[0] = uint8(first)
	// The unused digits in increasing order, as nibbles: 0..8 without first.
	_, list := nibbleTake(0x876543210, uint64(first))
	for k := 1; k <= 7; k++ {
		p[k], list = nibbleTake(list, uint64(packed>>branchShift[k]&branchMask[k]))
	}
	p[8] = uint8(list) & 15
	return true
}
