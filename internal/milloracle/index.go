package milloracle

import "math/bits"

// Raw positions are indexed without any reduction. A table holds every
// position with a fixed number w of white stones and b of black stones, both
// sides to move:
//
//	index = (rank(white)·C(24, b) + rank(black))·2 + side     (side 0: white to move)
//
// where rank(m) is the rank of the k-subset m among all k-subsets of the 24
// points in increasing numeric order of their masks (the colexicographic
// order). Indices where white and black overlap are holes: they are never
// decided and never asked.

// binom[n][k] is the binomial coefficient C(n, k) for 0 ≤ k ≤ n ≤ 24.
var binom [NumPoints + 1][NumPoints + 1]int

// masksOf[k] lists every mask of k points in increasing numeric order, so that
// masksOf[k][rank(m)] == m. Filled for k ≤ maxMen.
var masksOf [maxMen + 1][]uint32

// maxMen is the most stones a side has in the moving phase.
const maxMen = 9

func init() {
	for n := 0; n <= NumPoints; n++ {
		binom[n][0] = 1
		for k := 1; k <= n; k++ {
			binom[n][k] = binom[n-1][k-1] + binom[n-1][k]
		}
	}
	for m := uint32(0); m <= allPoints; m++ {
		if k := bits.OnesCount32(m); k <= maxMen {
			masksOf[k] = append(masksOf[k], m)
		}
	}
}

// rank returns the colexicographic rank of mask m among the masks with the
// same number of points: the sum of C(p, i) over its points, p being the
// 0-based position of its i-th lowest point (i from 1). The sum is taken a
// byte at a time from rankPart.
func rank(m uint32) int {
	b0, b1, b2 := m&0xff, m>>8&0xff, m>>16&0xff
	c1 := bits.OnesCount32(b0)
	c2 := c1 + bits.OnesCount32(b1)
	return rankPart[0][0][b0] + rankPart[1][c1][b1] + rankPart[2][c2][b2]
}

// rankPart[j][c][v] is the share in rank of the points of byte j of a mask,
// when that byte is v and c points lie in the lower bytes: the sum of
// C(8j+q, c+i) over the bits q of v, the i-th lowest bit of v counting as i.
var rankPart [3][17][256]int

func init() {
	for j := range 3 {
		for c := range 17 {
			for v := range 256 {
				sum, i := 0, 0
				for q := range 8 {
					if v&(1<<q) != 0 {
						i++
						sum += binom[8*j+q][c+i]
					}
				}
				rankPart[j][c][v] = sum
			}
		}
	}
}

// tableSize is the number of slots (holes included) of the table of positions
// with w white and b black stones.
func tableSize(w, b int) int {
	return binom[NumPoints][w] * binom[NumPoints][b] * 2
}

// slot returns the index of a position inside the table of its stone counts.
func slot(white, black uint32, whiteToMove bool) int {
	s := (rank(white)*binom[NumPoints][bits.OnesCount32(black)] + rank(black)) * 2
	if !whiteToMove {
		s++
	}
	return s
}
