package mill

import (
	"math/bits"
	"slices"
	"sync"
)

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

var (
	ownOnce  [MaxStones + 1]sync.Once
	ownTable [MaxStones + 1]*ownClasses
)

// ownClassesFor returns the own classes of w stones, 0 ≤ w ≤ MaxStones, building them on
// first use (about 5 MB for w = 9; safe for concurrent use).
func ownClassesFor(w int) *ownClasses {
	ownOnce[w].Do(func() { ownTable[w] = buildOwnClasses(w) })
	return ownTable[w]
}

// nextSubset returns the next larger mask with as many bits as m (Gosper's hack).
func nextSubset(m uint32) uint32 {
	up := m + m&-m
	return up | (m^up)>>2>>bits.TrailingZeros32(m)
}

func buildOwnClasses(w int) *ownClasses {
	n := binom[Points][w]
	oc := &ownClasses{entry: make([]uint32, n)}
	var trivial, other []uint32 // canonical masks, ascending
	var stabOf []uint16         // by position in other
	m := uint32(1)<<w - 1
	for i := range oc.entry {
		min, syms, g := MinImage(m)
		oc.entry[i] = colexRank(min)<<4 | uint32(g)
		if min == m {
			if syms == 1 {
				trivial = append(trivial, m)
			} else {
				other = append(other, m)
				stabOf = append(stabOf, syms)
			}
		}
		m = nextSubset(m)
	}
	oc.trivial = len(trivial)
	oc.canon = slices.Concat(trivial, other)
	oc.stab = make([]uint16, len(oc.canon))
	classAt := make([]uint32, n) // colex rank of a canonical mask → class
	for c, cm := range oc.canon {
		oc.stab[c] = 1
		if c >= oc.trivial {
			oc.stab[c] = stabOf[c-oc.trivial]
		}
		classAt[colexRank(cm)] = uint32(c)
	}
	for i, e := range oc.entry {
		oc.entry[i] = classAt[e>>4]<<4 | e&15
	}
	return oc
}
