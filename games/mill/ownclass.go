package mill

import "math/bits"

// ownClasses numbers the symmetry classes of the masks of w stones (the side to move's
// stone patterns). Classes with a trivial stabiliser come first, then the others; each
// group in increasing order of the canonical mask.
type ownClasses struct {
	// entry[colexRank(m)] = class<<4 | g for every mask m of w stones, where the symmetry
	// g maps m to its class's canonical mask.
	entry []uint32
	canon []uint32 // canon[class]: the canonical (smallest) mask of the class
	stab  []uint16 // stab[class]: the symmetries fixing canon[class] (bit g for Sym g)
	// trivial is the number of classes whose stabiliser is the identity alone.
	trivial int
}

// ownClassesFor returns the own classes of w stones, 0 ≤ w ≤ maxStones, building them on
// first use (about 5 MB for w = 9 on Nine's board; safe for concurrent use).
func (v *variant) ownClassesFor(w int) *ownClasses {
	v.ownOnce[w].Do(func() { v.ownTable[w] = v.buildOwnClasses(w) })
	return v.ownTable[w]
}

// nextSubset returns the next larger mask with as many bits as m (Gosper's hack).
func nextSubset(m uint32) uint32 {
	up := m + m&-m
	return up | (m^up)>>2>>bits.TrailingZeros32(m)
}

// buildOwnClasses walks the masks of w stones in increasing order; the first mask of an
// orbit met is its smallest, the canonical mask, and the orbit's other members are its
// images, found by applying the symmetries to it once. That costs an image per symmetry and class
// rather than per symmetry and mask (a tenth of the time of taking MinImage of every mask).
func (v *variant) buildOwnClasses(w int) *ownClasses {
	n := binom[v.points][w]
	oc := &ownClasses{entry: make([]uint32, n)}
	// Until the classes are numbered, entry holds (orbit+1)<<4 | g, 0 for a mask not yet
	// met; orbits are numbered in increasing order of their canonical masks.
	var canon []uint32
	var stab []uint16
	m := uint32(1)<<w - 1
	for i := range oc.entry {
		if oc.entry[i] == 0 {
			orbit := uint32(len(canon)) + 1
			var im [NumSyms]uint32
			v.images(m, &im)
			var syms uint16
			for k, x := range im[:v.nsyms] {
				if x == m {
					syms |= 1 << k
				}
			}
			// The symmetries g with g(x) = m are taken in increasing order, so each
			// member keeps the smallest, the one MinImage names.
			for g := range Sym(v.nsyms) {
				x := im[v.symInverse[g]]
				if r := colexRank(x); oc.entry[r] == 0 {
					oc.entry[r] = orbit<<4 | uint32(g)
				}
			}
			canon = append(canon, m)
			stab = append(stab, syms)
		}
		m = nextSubset(m)
	}
	// Classes with a trivial stabiliser first, each group in orbit order.
	classOf := make([]uint32, len(canon))
	oc.canon = make([]uint32, 0, len(canon))
	oc.stab = make([]uint16, 0, len(canon))
	for pass := range 2 {
		for o, cm := range canon {
			if (stab[o] == 1) == (pass == 0) {
				classOf[o] = uint32(len(oc.canon))
				oc.canon = append(oc.canon, cm)
				oc.stab = append(oc.stab, stab[o])
			}
		}
		if pass == 0 {
			oc.trivial = len(oc.canon)
		}
	}
	for i, e := range oc.entry {
		oc.entry[i] = classOf[e>>4-1]<<4 | e&15
	}
	return oc
}

// buildOwnClasses builds Nine Men's Morris's own classes of w stones (for the tests).
func buildOwnClasses(w int) *ownClasses { return nine.buildOwnClasses(w) }
