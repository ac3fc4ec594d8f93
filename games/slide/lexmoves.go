package slide

import (
	"sync"

	"github.com/tablesmith/tablesmith/index"
	"github.com/tablesmith/tablesmith/internal/cacheline"
)

// The lexicographic schemes' expander works a block at a time. Ranks r with the same
// quotient r div L! (L = min(6, n-1)) share the position vector's first k = n-L entries
// (the prefix: the blank's cell and the cells of tiles 1..k-1), and the last L entries
// are the remaining cells in the order of the tail permutation at rank r mod L!. A slide
// of the blank from cell b to a neighbour c, taking tile t from c to b, changes only
// three kinds of Lehmer digit (d_i = #{j > i : pos[j] < pos[i]}, rank = Σ d_i·(n−1−i)!):
// the blank's, from b to c (every tile comes after it); t's, less by the tiles above t
// on the cells strictly between b and c (more, when c < b); and that of each tile
// 0 < u < t between, by one (up when b < c). So the rank changes by
//
//	Δ = (c−b)·f(0) + sign·( Σ f(u) over tiles 0 < u < t between − #{u > t between}·f(t) )
//
// with f(u) = (n−1−u)! and sign = +1 when b < c. Given the prefix, Δ is a constant plus
// a function of the tail permutation alone:
//   - when t is a prefix tile, every tail tile between is above t and only their number
//     counts, which is the number of free cells between: Δ is a constant;
//   - when c is free, t is a tail tile and every prefix tile between is below it (a
//     constant); the tail tiles between are those on the free cells next to c's (the
//     free cells are sorted, so the ones between b and c are an interval ending beside
//     c's index kc), and what they add depends only on the tail permutation, kc, the
//     interval's length m and the side: a table of L! small numbers (lexTail.steps).
//
// So a block costs one prefix unrank and a few operations per move, and a state in it a
// table read and an add per move: no unranking, no board. A frontier drained in
// increasing order meets each block's states one after another.

// maxTail is the tail's length on boards of 7 cells and more.
const maxTail = 6

// lexTail holds the tail tables of one tail length L: sums[p] is the Lehmer digit sum
// of the tail permutation of rank p, steps[side][kc][m][p] the tail's part of Δ for a
// move onto the free cell of index kc with m free cells between (side 0: b < c, the m
// free cells below kc; side 1: b > c, the m above), sign included. The tables have
// tailRoom entries, L! of them used: a tail rank masked to tailRoom indexes them with no
// bounds check.
type lexTail struct {
	perms int // L!
	sums  *[tailRoom]uint8
	steps [2][maxTail][maxTail]*[tailRoom]int16
	zero  *[tailRoom]int16 // the part of a move whose tile is a prefix tile: none
}

// tailRoom is a power of two at least maxTail!.
const tailRoom = 1024

var lexTails [maxTail + 1]struct {
	once sync.Once
	t    *lexTail
}

// tailTables returns the tables of tail length l (1..maxTail), built on first use.
func tailTables(l int) *lexTail {
	e := &lexTails[l]
	e.once.Do(func() { e.t = newLexTail(l) })
	return e.t
}

func newLexTail(l int) *lexTail {
	t := &lexTail{perms: int(index.Factorial(l))}
	t.sums = new([tailRoom]uint8)
	t.zero = new([tailRoom]int16)
	fact := make([]int16, l) // the place value of tail tile j's digit: (l-1-j)!
	for j := range l {
		fact[j] = int16(index.Factorial(l - 1 - j))
	}
	for side := range 2 {
		for kc := range l {
			for m := range l {
				t.steps[side][kc][m] = new([tailRoom]int16)
			}
		}
	}
	lex := index.NewLex(l)
	p := make([]uint8, l)
	inv := make([]uint8, l) // inv[i]: the tail tile (offset j) on free cell i
	for r := range t.perms {
		lex.Unrank(uint64(r), p)
		var sum uint8
		for j := range l {
			inv[p[j]] = uint8(j)
			for _, v := range p[j+1:] {
				if v < p[j] {
					sum++
				}
			}
		}
		t.sums[r] = sum
		for kc := range l {
			tt := inv[kc] // the tile the move takes, as a tail offset
			part := func(i int) int16 {
				if u := inv[i]; u < tt {
					return fact[u]
				}
				return -fact[tt]
			}
			var below, above int16 // side 0 sums the m cells below kc, side 1 those above
			for m := range l {
				if m > 0 && kc-m >= 0 {
					below += part(kc - m)
				}
				if m > 0 && kc+m < l {
					above += part(kc + m)
				}
				t.steps[0][kc][m][r] = below
				t.steps[1][kc][m][r] = -above
			}
		}
	}
	return t
}

// lexExpander is a worker's expander state under the lex schemes (one allocation on
// cache lines of its own: it is written for every block).
type lexExpander struct {
	s       *Space
	tail    *lexTail
	tailLen int
	seq     *index.LexSeq
	nbrs    *[MaxCells][]uint8
	pos     [MaxCells]uint8
	who     [MaxCells]uint8 // per cell: the prefix tile on it, or free|index among the free cells
	q       uint64          // the block at hand, ^0 for none
	sum     uint64          // the Lehmer digit sum of the block's prefix
	flip    uint64          // lex-half: 1 if the block's even ranks are the unsolvable members
	// The block's moves: Δ = base[i] + steps[i][tail].
	base   [4]int64
	steps  [4]*[tailRoom]int16
	nMoves int
}

// free marks a cell of who that no prefix tile occupies.
const free = 0x80

// newLexExpander is NewExpander under the lex schemes, of the vertical moves alone when
// vertical (NewRestExpander).
func (s *Space) newLexExpander(vertical bool) func(dst, src []uint64) []uint64 {
	l := min(maxTail, s.n-1)
	e := cacheline.New[lexExpander]()
	e.s, e.tail, e.tailLen, e.seq, e.q = s, tailTables(l), l, index.NewLexSeq(s.n), ^uint64(0)
	e.nbrs = &s.geo.nbr
	if vertical {
		e.nbrs = &s.geo.vertical
	}
	block := uint64(e.tail.perms)
	shift := uint64(0)
	if s.kind == kindLexHalf {
		shift = 1 // lex-half's slot is the lexicographic rank halved
	}
	return func(dst, src []uint64) []uint64 {
		for _, slot := range src {
			r := slot << shift
			var q uint64
			if block == 720 {
				q = r / 720 // a constant: a multiplication, not a division
			} else {
				q = r / block
			}
			if q != e.q {
				e.enter(q, block)
			}
			t := (r - q*block) & (tailRoom - 1)
			if shift == 1 {
				// The pair at slot differs in the last two entries: ranks 2·slot and
				// 2·slot+1, tails t and t+1 (t even: t+1 < L!). Keep the solvable one,
				// without a branch.
				fix := (e.sum + uint64(e.tail.sums[t]) + e.flip) & 1
				r, t = r+fix, (t+fix)&(tailRoom-1)
			}
			if e.nMoves == 1 { // the vertical move of a 2-row board
				dst = append(dst, uint64(int64(r)+e.base[0]+int64(e.steps[0][t]))>>shift)
				continue
			}
			for i := range e.nMoves {
				dst = append(dst, uint64(int64(r)+e.base[i]+int64(e.steps[i][t]))>>shift)
			}
		}
		return dst
	}
}

// enter prepares block q: its prefix and the constant part of each move's Δ.
func (e *lexExpander) enter(q, block uint64) {
	s := e.s
	n := s.n
	k := n - e.tailLen
	pos := e.pos[:n]
	// At the block's first rank the tail is the identity: pos[k:] are the free cells in
	// increasing order, and the digit sum is the prefix's.
	e.sum = e.seq.Unrank(q*block, pos)
	for i, c := range pos {
		if i < k {
			e.who[c] = uint8(i)
		} else {
			e.who[c] = free | uint8(i-k)
		}
	}
	b := int(pos[0])
	e.flip = uint64(s.blankPar[b&31] ^ s.goalClass)
	e.nMoves = 0
	for _, to := range e.nbrs[b] {
		c := int(to)
		lo, hi, sign, side := b, c, int64(1), 0
		if c < b {
			lo, hi, sign, side = c, b, -1, 1
		}
		base, steps := int64(c-b)*s.fact[0], e.tail.zero
		var sumBelow, nAbove, m int64
		if w := e.who[c]; w&free == 0 {
			t := int64(w) // a prefix tile
			for x := lo + 1; x < hi; x++ {
				switch u := int64(e.who[x]); {
				case u&free != 0:
					m++
				case u < t:
					sumBelow += s.fact[u]
				default:
					nAbove++
				}
			}
			base += sign * (sumBelow - (nAbove+m)*s.fact[t])
		} else {
			for x := lo + 1; x < hi; x++ {
				if u := e.who[x]; u&free != 0 {
					m++
				} else {
					sumBelow += s.fact[u]
				}
			}
			base += sign * sumBelow
			steps = e.tail.steps[side][w&^free][m]
		}
		e.base[e.nMoves], e.steps[e.nMoves] = base, steps
		e.nMoves++
	}
	e.q = q
}
