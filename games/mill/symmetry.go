package mill

import "math/bits"

// Sym is one of the 16 symmetries of the board, 0..15: Sym(2·d + x) applies the square
// symmetry d and then, if x = 1, swaps the inner and outer squares. The square symmetries
// act on the index j (0..7, clockwise from the top-left corner) within each square:
// d = 0..3 turns the board clockwise by d quarter turns (j → j+2d mod 8), d = 4..7
// reflects it (j → 2(d−4) − j mod 8; d = 4 mirrors along the diagonal through points 1
// and 5). Sym 0 is the identity. Both parts keep each square's byte in place, up to the
// swap of bytes 0 and 2, so a mask is mapped with three lookups in a 256-byte table.
type Sym uint8

// NumSyms is the number of board symmetries.
const NumSyms = 16

// Identity is the identity symmetry.
const Identity Sym = 0

var (
	squarePerm [8][256]uint8 // squarePerm[d][x]: the square byte x under square symmetry d
	symPerm    [NumSyms][Points]Point
	symCompose [NumSyms][NumSyms]Sym // symCompose[g][h] = g∘h (h first)
	symInverse [NumSyms]Sym
)

// squareIndex is the image of index j within a square under square symmetry d.
func squareIndex(d, j int) int {
	if d < 4 {
		return (j + 2*d) % 8
	}
	return (2*(d-4) - j + 8) % 8
}

func init() {
	for d := range 8 {
		for x := range 256 {
			var y uint8
			for j := range 8 {
				if x>>j&1 != 0 {
					y |= 1 << squareIndex(d, j)
				}
			}
			squarePerm[d][x] = y
		}
	}
	for g := range Sym(NumSyms) {
		for p := range Points {
			s, j := p/8, p%8
			if g&1 != 0 {
				s = 2 - s
			}
			symPerm[g][p] = Point(8*s + squareIndex(int(g>>1), j))
		}
	}
	for g := range Sym(NumSyms) {
		for h := range Sym(NumSyms) {
			for k := range Sym(NumSyms) {
				if symPerm[k] == composePerm(symPerm[g], symPerm[h]) {
					symCompose[g][h] = k
				}
			}
			if symCompose[g][h] == Identity {
				symInverse[g] = h
			}
		}
	}
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
func (g Sym) Perm() [Points]Point { return symPerm[g] }

// Point returns the image of p under g.
func (g Sym) Point(p Point) Point { return symPerm[g][p] }

// Apply returns the image of the point set mask under g.
func (g Sym) Apply(mask uint32) uint32 {
	t := &squarePerm[g>>1]
	a, b, c := uint32(t[uint8(mask)]), uint32(t[uint8(mask>>8)]), uint32(t[uint8(mask>>16)])
	if g&1 != 0 {
		a, c = c, a
	}
	return a | b<<8 | c<<16
}

// Compose returns the symmetry "h, then g".
func (g Sym) Compose(h Sym) Sym { return symCompose[g][h] }

// Inverse returns the inverse of g.
func (g Sym) Inverse() Sym { return symInverse[g] }

// images stores the image of mask under Sym(k) in out[k], for all 16 symmetries.
func images(mask uint32, out *[NumSyms]uint32) {
	x0, x1, x2 := uint8(mask), uint8(mask>>8), uint8(mask>>16)
	for d := range 8 {
		t := &squarePerm[d]
		a, b, c := uint32(t[x0]), uint32(t[x1])<<8, uint32(t[x2])
		out[2*d] = a | b | c<<16
		out[2*d+1] = c | b | a<<16
	}
}

// MinImage returns the smallest image of mask (as an integer) under the 16 symmetries, the
// set of symmetries that map mask to it (bit g set for Sym g), and one of them.
func MinImage(mask uint32) (min uint32, syms uint16, g Sym) {
	var im [NumSyms]uint32
	images(mask, &im)
	min = im[0]
	syms = 1
	for k := 1; k < NumSyms; k++ {
		switch {
		case im[k] < min:
			min, syms, g = im[k], 1<<k, Sym(k)
		case im[k] == min:
			syms |= 1 << k
		}
	}
	return min, syms, g
}

// Canonical returns the canonical member of the symmetry class of the position (own, opp):
// the smallest pair (own', opp') over the 16 images, own' compared first, as integers,
// and a symmetry g with g(own) = own', g(opp) = opp'. It needs no tables; a Sector's
// Canonical is faster.
func Canonical(own, opp uint32) (cOwn, cOpp uint32, g Sym) {
	cOwn, syms, g := MinImage(own)
	cOpp = g.Apply(opp)
	for s := syms &^ (1 << g); s != 0; s &= s - 1 {
		h := Sym(bits.TrailingZeros16(s))
		if o := h.Apply(opp); o < cOpp {
			cOpp, g = o, h
		}
	}
	return cOwn, cOpp, g
}
