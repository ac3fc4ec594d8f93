package hanoi

import (
	"math"
	"math/big"
	"math/bits"
)

// ClassCount is the number of symmetry classes of the states of pegs pegs and disks disks
// under the permutations of the pegs−1 non-goal pegs (Burnside's count):
//
//	Σ_{m=0..n} C(n, m) · Σ_{j=0..pegs−1} S(n−m, j)
//
// with m disks on the goal peg and the rest split into at most pegs−1 unlabelled
// non-empty pegs (S: Stirling numbers of the second kind). It is computed exactly and
// returns 0 when pegs is outside 3..6, disks is negative, or the count does not fit in
// a uint64.
func ClassCount(pegs, disks int) uint64 {
	if pegs < MinPegs || pegs > MaxPegs || disks < 0 {
		return 0
	}
	n := disks
	// stirling[r][j] = S(r, j) for j ≤ pegs−1.
	stirling := make([][]*big.Int, n+1)
	for r := range stirling {
		stirling[r] = make([]*big.Int, pegs)
		for j := range stirling[r] {
			stirling[r][j] = new(big.Int)
		}
	}
	stirling[0][0].SetInt64(1)
	for r := 1; r <= n; r++ {
		for j := 1; j < pegs; j++ {
			// S(r, j) = j·S(r−1, j) + S(r−1, j−1)
			t := new(big.Int).Mul(big.NewInt(int64(j)), stirling[r-1][j])
			stirling[r][j].Add(t, stirling[r-1][j-1])
		}
	}
	total := new(big.Int)
	binom := new(big.Int)
	for m := 0; m <= n; m++ {
		binom.Binomial(int64(n), int64(m))
		sum := new(big.Int)
		for _, s := range stirling[n-m] {
			sum.Add(sum, s)
		}
		total.Add(total, sum.Mul(sum, binom))
	}
	if !total.IsUint64() {
		return 0
	}
	return total.Uint64()
}

// satMul and satAdd saturate at math.MaxUint64 instead of wrapping.
func satMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

func satAdd(a, b uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return math.MaxUint64
	}
	return s
}

// completions fills count[r*stride+u] with the number of ways to place r more disks
// (the smaller ones) once u non-goal pegs are in use, as restricted growth strings: each
// disk goes on the goal peg, on one of the u pegs in use, or (if u < pegs−1) on the next
// unused one. Entries whose true value does not fit saturate at math.MaxUint64; the
// entries a valid state reaches never do when count[n*stride] does not.
func completions(count []uint64, stride, pegs, disks int) {
	for u := range pegs {
		count[u] = 1
	}
	for r := 1; r <= disks; r++ {
		for u := range pegs {
			c := satMul(uint64(u+1), count[(r-1)*stride+u])
			if u+1 < pegs {
				c = satAdd(c, count[(r-1)*stride+u+1])
			}
			count[r*stride+u] = c
		}
	}
}

// FrameStewart is the number of moves the Frame–Stewart algorithm takes to move a tower
// of disks disks to another peg with pegs pegs: 2^n − 1 for 3 pegs, and for more pegs
// the least over t of 2·FS(pegs, t) + FS(pegs−1, n−t) (t disks set aside using every
// peg, the rest moved without the peg they occupy). It is the optimum for 3 and 4 pegs.
// It returns 0 for pegs outside 3..6 or disks outside 0..MaxDisks.
func FrameStewart(pegs, disks int) uint64 {
	if pegs < MinPegs || pegs > MaxPegs || disks < 0 || disks > MaxDisks {
		return 0
	}
	return frameStewart(pegs)[disks]
}

// frameStewart returns FS(pegs, m) for m = 0..MaxDisks.
func frameStewart(pegs int) []uint64 {
	fs := make([]uint64, MaxDisks+1)
	for m := range fs {
		fs[m] = 1<<m - 1
	}
	for k := 4; k <= pegs; k++ {
		prev := fs
		fs = make([]uint64, MaxDisks+1)
		for m := 1; m <= MaxDisks; m++ {
			best := prev[m] // t = 0: the extra peg unused
			for t := 1; t < m; t++ {
				best = min(best, 2*fs[t]+prev[m-t])
			}
			fs[m] = best
		}
	}
	return fs
}

// depthBound is an upper bound on the remoteness of any state with pegs pegs and disks
// disks: Σ_{m<n} (1 + FS(pegs, m)). Gathering disks 1..m on a chosen peg takes at most
// that many moves: if disk m is elsewhere, gather disks 1..m−1 on a third peg, move disk
// m, and move the tower 1..m−1 onto it by the Frame–Stewart algorithm. For 3 pegs it is
// 2^n − 1, the exact largest remoteness.
func depthBound(pegs, disks int) uint64 {
	fs := frameStewart(pegs)
	var b uint64
	for m := range disks {
		b += 1 + fs[m]
	}
	return b
}

// depthHint is the largest remoteness expected with pegs pegs and disks disks: the
// Frame–Stewart number FS(pegs, disks) plus an eighth. No state is known to be more than
// a few moves farther from the goal than the other perfect tower is (4 pegs: 130 against
// FS = 129 with 15 disks, 294 against 289 with 20, Korf & Felner 2007; for 3 pegs FS is
// the exact largest remoteness), but this is no proof: a search that goes deeper widens
// its values, and only depthBound is a bound.
func depthHint(pegs, disks int) uint64 {
	fs := frameStewart(pegs)[disks]
	return fs + fs/8
}
