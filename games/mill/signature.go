package mill

import (
	"iter"
	"math/rand/v2"
)

// Signatures: the seed's keys of a position, beside the class rank of a Sector. Both read
// each square (ring) as an 8-digit base-3 word, the digit of index j (clockwise from the
// top-left corner, point 8·ring+j+1) being 0 for an empty point, 1 for a stone of the
// side to move (own; White when White is to move) and 2 for an opponent stone, index 0
// the most significant digit. With that order a square symmetry acts on a word as on a
// string of 8 digits: the quarter turn d (j → j+2d) shifts it cyclically by 2d places
// towards the later points, and the reflection j → 2e−j reverses it and then shifts it
// by 2e+1 places (the mirror along the diagonal through points 1 and 5 keeps the first
// digit and reverses the other seven; a plain reversal, j → 7−j, is no symmetry, as it
// swaps corners and midpoints). One 3^8-entry table per square symmetry maps the words,
// the same table for the three rings; the ring swap exchanges the outer and inner words.

// RingWords is the number of base-3 words of a ring, 3^8.
const RingWords = 6561

// ringPow[j] = 3^(7−j), the value of digit 1 at index j.
var ringPow = [8]uint16{2187, 729, 243, 81, 27, 9, 3, 1}

var (
	ringWord    [256]uint16          // ringWord[x]: the word with digit 1 at the bits of x, 0 elsewhere
	ringSym     [8][RingWords]uint16 // ringSym[d][u]: word u under square symmetry d
	ringColours [RingWords]uint16    // ringColours[u]: u with digits 1 and 2 exchanged
	ringMasks   [RingWords][2]uint8  // ringMasks[u]: the own and opponent bytes of u
)

func init() {
	for x := range 256 {
		for j := range 8 {
			if x>>j&1 != 0 {
				ringWord[x] += ringPow[j]
			}
		}
	}
	for u := range RingWords {
		var m [2]uint8
		var swapped uint16
		for j, v := 0, u; j < 8; j++ {
			digit := v / int(ringPow[j])
			v %= int(ringPow[j])
			if digit > 0 {
				m[digit-1] |= 1 << j
				swapped += uint16(3-digit) * ringPow[j]
			}
		}
		ringMasks[u], ringColours[u] = m, swapped
		// squareIndex, not squarePerm: this file's init runs before symmetry.go's.
		for d := range 8 {
			for j := range 8 {
				digit := uint16(m[0]>>j&1 + 2*(m[1]>>j&1))
				ringSym[d][u] += digit * ringPow[squareIndex(d, j)]
			}
		}
	}
}

// words returns the base-3 words of the outer, middle and inner ring of (own, opp).
func words(own, opp uint32) (a, m, c uint16) {
	return ringWord[uint8(own)] + 2*ringWord[uint8(opp)],
		ringWord[uint8(own>>8)] + 2*ringWord[uint8(opp>>8)],
		ringWord[uint8(own>>16)] + 2*ringWord[uint8(opp>>16)]
}

// An ExactSig is the exact signature of a position: its three ring words packed as
// outer·3^16 + middle·3^8 + inner, the 24 points read as a base-3 numeral from point 1
// (below 3^24 < 2^39). It is a bijection between positions and numbers, so two positions
// have the same canonical signature (the smallest over the 16 images) exactly when they
// are in the same symmetry class. The canonical signature is another class
// representative than Canonical's (the order differs), not a dense rank.
type ExactSig uint64

// pack packs three ring words.
func pack(a, m, c uint16) ExactSig {
	return ExactSig((uint64(a)*RingWords+uint64(m))*RingWords + uint64(c))
}

// NewExactSig returns the exact signature of the position (own, opp) (disjoint masks).
func NewExactSig(own, opp uint32) ExactSig { return pack(words(own, opp)) }

// Rings returns the words of the outer, middle and inner ring.
func (s ExactSig) Rings() (outer, middle, inner uint16) {
	return uint16(s / (RingWords * RingWords)), uint16(s / RingWords % RingWords), uint16(s % RingWords)
}

// Position returns the position of the signature.
func (s ExactSig) Position() (own, opp uint32) {
	a, m, c := s.Rings()
	ma, mm, mc := &ringMasks[a], &ringMasks[m], &ringMasks[c]
	return uint32(ma[0]) | uint32(mm[0])<<8 | uint32(mc[0])<<16,
		uint32(ma[1]) | uint32(mm[1])<<8 | uint32(mc[1])<<16
}

// Apply returns the signature of the image of the position under g: each ring word
// through the table of g's square symmetry, then the outer and inner word exchanged when
// g swaps the rings.
func (s ExactSig) Apply(g Sym) ExactSig {
	a, m, c := s.Rings()
	t := &ringSym[g>>1]
	a, m, c = t[a], t[m], t[c]
	if g&1 != 0 {
		a, c = c, a
	}
	return pack(a, m, c)
}

// SwapColours returns the signature with the colours exchanged, of (opp, own).
func (s ExactSig) SwapColours() ExactSig {
	a, m, c := s.Rings()
	return pack(ringColours[a], ringColours[m], ringColours[c])
}

// Canonical returns the smallest signature over the 16 images of the position.
func (s ExactSig) Canonical() ExactSig { return CanonicalExactSig(s.Position()) }

// CanonicalExactSig returns the canonical exact signature of (own, opp): the smallest
// triple (outer, middle, inner), compared in that order, over the 16 images.
func CanonicalExactSig(own, opp uint32) ExactSig {
	a, m, c := words(own, opp)
	best := uint64(1) << 63
	for d := range 8 {
		t := &ringSym[d]
		ta, tm, tc := uint64(t[a]), uint64(t[m])<<16, uint64(t[c])
		best = min(best, ta<<32|tm|tc, tc<<32|tm|ta)
	}
	return pack(uint16(best>>32), uint16(best>>16), uint16(best))
}

// DefaultSigSeed is the seed of the additive signature's weights in the benchmarks.
const DefaultSigSeed = 0x9E3779B97F4A7C15

// AdditiveSig is the additive random signature: S = Σ_p (W_p·δ_p + B_p·γ_p) mod n, δ_p
// and γ_p marking an own and an opponent stone on point p, with n = 2^k (k ≤ 64; 2^64 by
// default, where the arithmetic is the machine's) and B_p = −W_p, so that swapping the
// colours negates S. The weight of index j of ring r is W = λ_r·w_j, from 8 random
// weights w_j and 3 random odd ring factors λ_r, so that S = Σ_r λ_r·q(word_r) with
// q(u) = Σ_j w_j·(δ_j − γ_j) over the digits of the ring word u. A table q_d = q∘(square
// symmetry d) per square symmetry gives the sum of every image from the three words
// with 3 lookups and 5 multiplications per square symmetry (the ring swap permutes the
// words), and the canonical signature is the smallest sum over the 16 images. It is a
// hash: distinct classes may share a canonical signature. An AdditiveSig is immutable.
type AdditiveSig struct {
	q      [8][RingWords]uint64 // q[d][u] = q(ringSym[d][u])
	lambda [3]uint64
	mask   uint64 // n − 1
	bits   int
}

// NewAdditiveSig returns the additive signature mod 2^k, 1 ≤ k ≤ 64, with weights drawn
// from seed (the same seed, the same weights; the weights mod 2^k do not depend on k).
func NewAdditiveSig(seed uint64, k int) *AdditiveSig {
	if k < 1 || k > 64 {
		panic("mill.NewAdditiveSig: k must be 1..64")
	}
	a := &AdditiveSig{mask: ^uint64(0) >> (64 - k), bits: k}
	r := rand.New(rand.NewPCG(seed, seed^0x6A09E667F3BCC909))
	var w [8]uint64
	for j := range w {
		w[j] = r.Uint64()
	}
	for i := range a.lambda {
		a.lambda[i] = r.Uint64() | 1
	}
	for u := range RingWords {
		var sum uint64
		m := ringMasks[u]
		for j := range 8 {
			sum += w[j] * (uint64(m[0]>>j&1) - uint64(m[1]>>j&1))
		}
		a.q[0][u] = sum
	}
	for d := 1; d < 8; d++ {
		for u := range RingWords {
			a.q[d][u] = a.q[0][ringSym[d][u]]
		}
	}
	return a
}

// Bits returns k, where n = 2^k is the modulus.
func (a *AdditiveSig) Bits() int { return a.bits }

// Weight returns W_p mod n, the term of an own stone on p (an opponent stone adds −W_p).
func (a *AdditiveSig) Weight(p Point) uint64 {
	u := ringPow[p%8]
	return a.lambda[p/8] * a.q[0][u] & a.mask
}

// Sum returns S of the position (own, opp) (disjoint masks) mod n.
func (a *AdditiveSig) Sum(own, opp uint32) uint64 {
	wa, wm, wc := words(own, opp)
	q := &a.q[0]
	return (a.lambda[0]*q[wa] + a.lambda[1]*q[wm] + a.lambda[2]*q[wc]) & a.mask
}

// Canonical returns the canonical additive signature of (own, opp): the smallest S mod
// n over its 16 images.
func (a *AdditiveSig) Canonical(own, opp uint32) uint64 {
	wa, wm, wc := words(own, opp)
	l0, l1, l2 := a.lambda[0], a.lambda[1], a.lambda[2]
	best := ^uint64(0)
	for d := range 8 {
		q := &a.q[d]
		qa, qm, qc := q[wa], l1*q[wm], q[wc]
		best = min(best, (l0*qa+qm+l2*qc)&a.mask, (l0*qc+qm+l2*qa)&a.mask)
	}
	return best
}

// Positions returns every position of sector (w, b) (0 ≤ w, b and w+b ≤ 24; none
// otherwise): the w-stone masks own in increasing order and, for each, the b-stone masks
// opp on the other points in increasing order, C(24, w)·C(24−w, b) in all.
func Positions(w, b int) iter.Seq2[uint32, uint32] {
	return func(yield func(own, opp uint32) bool) {
		if w < 0 || b < 0 || w+b > Points {
			return
		}
		own := uint32(1)<<w - 1
		for range binom[Points][w] {
			free := ^own & Full
			x := uint32(1)<<b - 1
			for range binom[Points-w][b] {
				if !yield(own, pdep(x, free)) {
					return
				}
				x = nextSubset(x)
			}
			own = nextSubset(own)
		}
	}
}
