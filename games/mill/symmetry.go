package mill

import "math/bits"

// Sym is one of the symmetries of a board, numbered from 0 (the identity) in the order of
// the board's listing (Board.Syms) or computed group. On Nine Men's Morris's board, whose
// 16 are listed so, Sym(2·d + x) applies the square symmetry d and then, if x = 1, swaps
// the inner and outer squares. The square symmetries act on the index j (0..7, clockwise
// from the top-left corner) within each square: d = 0..3 turns the board clockwise by d
// quarter turns (j → j+2d mod 8), d = 4..7 reflects it (j → 2(d−4) − j mod 8; d = 4
// mirrors along the diagonal through points 1 and 5). Each rule set maps a mask with
// three lookups, one per byte of the mask, in 256-entry tables of its own. The methods
// of Sym act on Nine Men's Morris's board.
type Sym uint8

// NumSyms is the number of symmetries of Nine Men's Morris's board, the most of any board
// of the family.
const NumSyms = 16

// Identity is the identity symmetry.
const Identity Sym = 0

// squareIndex is the image of index j within a square under square symmetry d.
func squareIndex(d, j int) int {
	if d < 4 {
		return (j + 2*d) % 8
	}
	return (2*(d-4) - j + 8) % 8
}

// composePerm returns the permutation "h, then g".
func composePerm(g, h [Points]Point) [Points]Point {
	var out [Points]Point
	for p := range out {
		out[p] = g[h[p]]
	}
	return out
}

// Perm returns g as a permutation of the points: point p goes to Perm()[p].
func (g Sym) Perm() [Points]Point { return nine.symPerm[g] }

// Point returns the image of p under g.
func (g Sym) Point(p Point) Point { return nine.symPerm[g][p] }

// Apply returns the image of the point set mask under g.
func (g Sym) Apply(mask uint32) uint32 { return nine.apply(g, mask) }

// Compose returns the symmetry "h, then g".
func (g Sym) Compose(h Sym) Sym { return nine.symCompose[g][h] }

// Inverse returns the inverse of g.
func (g Sym) Inverse() Sym { return nine.symInverse[g] }

// apply returns the image of the point set mask under g.
func (v *variant) apply(g Sym, mask uint32) uint32 {
	m := &v.symMaps[g]
	return uint32(m.tab[0][uint8(mask)])<<(m.shift[0]&31) |
		uint32(m.tab[1][uint8(mask>>8)])<<(m.shift[1]&31) |
		uint32(m.tab[2][uint8(mask>>16)])<<(m.shift[2]&31)
}

// images stores the image of mask under Sym(k) in out[k], for the board's symmetries.
func (v *variant) images(mask uint32, out *[NumSyms]uint32) {
	for g := range v.nsyms {
		out[g] = v.apply(Sym(g), mask)
	}
}

// images stores the image of mask under Sym(k) in out[k] on Nine Men's Morris's board.
func images(mask uint32, out *[NumSyms]uint32) { nine.images(mask, out) }

// MinImage returns the smallest image of mask (as an integer) under the 16 symmetries of
// Nine Men's Morris's board, the set of symmetries that map mask to it (bit g set for Sym
// g), and one of them.
func MinImage(mask uint32) (min uint32, syms uint16, g Sym) { return nine.minImage(mask) }

func (v *variant) minImage(mask uint32) (min uint32, syms uint16, g Sym) {
	var im [NumSyms]uint32
	v.images(mask, &im)
	min = im[0]
	syms = 1
	for k := 1; k < v.nsyms; k++ {
		switch {
		case im[k] < min:
			min, syms, g = im[k], 1<<k, Sym(k)
		case im[k] == min:
			syms |= 1 << k
		}
	}
	return min, syms, g
}

// Canonical returns the canonical member of the symmetry class of the position (own, opp)
// on Nine Men's Morris's board: the smallest pair (own', opp') over the 16 images, own'
// compared first, as integers, and a symmetry g with g(own) = own', g(opp) = opp'. It
// needs no tables; a Sector's Canonical is faster.
func Canonical(own, opp uint32) (cOwn, cOpp uint32, g Sym) { return nine.canonical(own, opp) }

func (v *variant) canonical(own, opp uint32) (cOwn, cOpp uint32, g Sym) {
	cOwn, syms, g := v.minImage(own)
	cOpp = v.apply(g, opp)
	for s := syms &^ (1 << g); s != 0; s &= s - 1 {
		h := Sym(bits.TrailingZeros16(s))
		if o := v.apply(h, opp); o < cOpp {
			cOpp, g = o, h
		}
	}
	return cOwn, cOpp, g
}
