package mill

import "math/bits"

// Colex ranks of point sets. The colex rank of a k-set {p_1 < … < p_k} of positions is
// Σ_i C(p_i, i); it numbers the k-subsets of n positions 0..C(n, k)−1 in increasing order
// of their masks read as integers.

// binom[n][k] = C(n, k) for n, k ≤ 24.
var binom [Points + 1][Points + 1]uint64

// colex0[x], colex1[x][c] and colex2[x][c] are the parts of the colex rank contributed by
// the bits of bytes 0, 1 and 2 of a mask when the byte is x and c stones lie in the lower
// bytes (c ≤ 8 below byte 1, c ≤ maxStones below byte 2): each table as small as its byte
// allows, 23 KB in all.
var (
	colex0 [256]uint32
	colex1 [256][9]uint32
	colex2 [256][maxStones + 1]uint32
)

func init() {
	for n := range binom {
		binom[n][0] = 1
		for k := 1; k <= n; k++ {
			binom[n][k] = binom[n-1][k-1] + binom[n-1][k]
		}
	}
	part := func(i, x, c int) uint32 {
		var sum uint64
		k := c
		for j := range 8 {
			if x>>j&1 != 0 {
				k++
				sum += binom[8*i+j][k]
			}
		}
		return uint32(sum)
	}
	for x := range 256 {
		colex0[x] = part(0, x, 0)
		for c := range colex1[x] {
			colex1[x][c] = part(1, x, c)
		}
		for c := range colex2[x] {
			colex2[x][c] = part(2, x, c)
		}
	}
}

// colexRank returns the colex rank of mask among the masks of the 24 points with as many
// stones; mask has at most maxStones stones.
func colexRank(mask uint32) uint32 {
	x0, x1, x2 := uint8(mask), uint8(mask>>8), uint8(mask>>16)
	c0 := bits.OnesCount8(x0)
	c1 := c0 + bits.OnesCount8(x1)
	return colex0[x0] + colex1[x1][c0] + colex2[x2][c1]
}

// colexFree returns the colex rank of set among the subsets of the points not in taken
// with as many stones, the free points being numbered 0, 1, … upwards; set and taken are
// disjoint and set has at most maxStones stones.
func colexFree(set, taken uint32) uint64 { return uint64(colexRank(pext(set, ^taken))) }

// colexUnrankFree is the inverse of colexFree: the k-subset of the points of full not in
// taken whose colex rank is r.
func colexUnrankFree(r uint64, k int, taken, full uint32) uint32 {
	p := bits.OnesCount32(full&^taken) - 1
	var set uint32
	for ; k > 0; k-- {
		for binom[p][k] > r {
			p--
		}
		r -= binom[p][k]
		set |= 1 << p
		p--
	}
	return pdep(set, full&^taken)
}

// pextByte[f][x] packs the bits of x at the set bits of f to the bottom; pdepByte[f][x]
// spreads the low bits of x onto the set bits of f.
var pextByte, pdepByte [256][256]uint8

func init() {
	for f := range 256 {
		for x := range 256 {
			var e, d uint8
			k := 0
			for j := range 8 {
				if f>>j&1 != 0 {
					e |= uint8(x>>j&1) << k
					d |= uint8(x>>k&1) << j
					k++
				}
			}
			pextByte[f][x], pdepByte[f][x] = e, d
		}
	}
}

// pext packs the bits of x at the set bits of the 24-bit mask f to the bottom.
func pext(x, f uint32) uint32 {
	f0, f1, f2 := uint8(f), uint8(f>>8), uint8(f>>16)
	c0 := bits.OnesCount8(f0)
	c1 := c0 + bits.OnesCount8(f1)
	return uint32(pextByte[f0][uint8(x)]) | uint32(pextByte[f1][uint8(x>>8)])<<c0 |
		uint32(pextByte[f2][uint8(x>>16)])<<c1
}

// pdep spreads the low bits of x onto the set bits of the 24-bit mask f.
func pdep(x, f uint32) uint32 {
	f0, f1, f2 := uint8(f), uint8(f>>8), uint8(f>>16)
	c0 := bits.OnesCount8(f0)
	c1 := c0 + bits.OnesCount8(f1)
	return uint32(pdepByte[f0][uint8(x)]) | uint32(pdepByte[f1][uint8(x>>c0)])<<8 |
		uint32(pdepByte[f2][uint8(x>>c1)])<<16
}
