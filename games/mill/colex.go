package mill

import "math/bits"

// Colex ranks of point sets. The colex rank of a k-set {p_1 < … < p_k} of positions is
// Σ_i C(p_i, i); it numbers the k-subsets of n positions 0..C(n, k)−1 in increasing order
// of their masks read as integers.

// binom[n][k] = C(n, k) for n, k ≤ 24.
var binom [Points + 1][Points + 1]uint64

// colexByte[i][x][c] is the part of the colex rank contributed by the bits of byte i of a
// mask when the byte is x and c stones lie in the lower bytes (c ≤ MaxStones).
var colexByte [3][256][MaxStones + 1]uint32

func init() {
	for n := range binom {
		binom[n][0] = 1
		for k := 1; k <= n; k++ {
			binom[n][k] = binom[n-1][k-1] + binom[n-1][k]
		}
	}
	for i := range 3 {
		for x := range 256 {
			for c := range MaxStones + 1 {
				var sum uint64
				k := c
				for j := range 8 {
					if x>>j&1 != 0 {
						k++
						sum += binom[8*i+j][k]
					}
				}
				colexByte[i][x][c] = uint32(sum)
			}
		}
	}
}

// colexRank returns the colex rank of mask among the masks of the 24 points with as many
// stones; mask has at most MaxStones stones.
func colexRank(mask uint32) uint32 {
	x0, x1, x2 := uint8(mask), uint8(mask>>8), uint8(mask>>16)
	c0 := bits.OnesCount8(x0)
	c1 := c0 + bits.OnesCount8(x1)
	return colexByte[0][x0][0] + colexByte[1][x1][c0] + colexByte[2][x2][c1]
}

// colexFree returns the colex rank of set among the subsets of the points not in taken
// with as many stones, the free points being numbered 0, 1, … upwards; set and taken are
// disjoint.
func colexFree(set, taken uint32) uint64 {
	var r uint64
	for k := 1; set != 0; k++ {
		q := bits.TrailingZeros32(set)
		set &= set - 1
		p := q - bits.OnesCount32(taken&(1<<q-1))
		r += binom[p][k]
	}
	return r
}

// colexUnrankFree is the inverse of colexFree: the k-subset of the points not in taken
// whose colex rank is r.
func colexUnrankFree(r uint64, k int, taken uint32) uint32 {
	free := ^taken & Full
	p := bits.OnesCount32(free) - 1
	var set uint32
	for ; k > 0; p-- {
		top := uint32(1) << (31 - bits.LeadingZeros32(free))
		free &^= top
		if c := binom[p][k]; c <= r {
			r -= c
			set |= top
			k--
		}
	}
	return set
}
