package milloracle

import (
	"math/rand/v2"
	"testing"
)

func edgeSet() map[[2]int]bool {
	s := map[[2]int]bool{}
	for _, e := range edges {
		s[[2]int{min(e[0], e[1]), max(e[0], e[1])}] = true
	}
	return s
}

func millSet() map[uint32]bool {
	s := map[uint32]bool{}
	for _, m := range millMasks {
		s[m] = true
	}
	return s
}

func TestSymmetriesAreAutomorphisms(t *testing.T) {
	t.Parallel()
	es, ms := edgeSet(), millSet()
	for s := range NumSymmetries {
		img := 0
		for p := 1; p <= NumPoints; p++ {
			img |= 1 << symmetries[s][p]
		}
		if img != 1<<(NumPoints+1)-2 {
			t.Errorf("symmetry %d is not a permutation of 1..24: %v", s, symmetries[s][1:])
			continue
		}
		for e := range es {
			a, b := symmetries[s][e[0]], symmetries[s][e[1]]
			if !es[[2]int{min(a, b), max(a, b)}] {
				t.Errorf("symmetry %d maps edge %v to a non-edge (%d,%d)", s, e, a, b)
			}
		}
		for m := range ms {
			if !ms[mapMask(s, m)] {
				t.Errorf("symmetry %d maps mill %#x to a non-mill %#x", s, m, mapMask(s, m))
			}
		}
	}
}

func TestSymmetryGroup(t *testing.T) {
	t.Parallel()
	index := map[[NumPoints + 1]int]int{}
	for s, perm := range symmetries {
		if _, dup := index[perm]; dup {
			t.Fatalf("symmetry %d repeats another", s)
		}
		index[perm] = s
	}
	for p := 1; p <= NumPoints; p++ {
		if symmetries[0][p] != p {
			t.Fatalf("symmetry 0 is not the identity")
		}
	}
	// Closed under composition: 16 distinct permutations closed under
	// composition form a group.
	for a := range NumSymmetries {
		for b := range NumSymmetries {
			var c [NumPoints + 1]int
			for p := 1; p <= NumPoints; p++ {
				c[p] = symmetries[a][symmetries[b][p]]
			}
			if _, ok := index[c]; !ok {
				t.Fatalf("symmetry %d after %d is not a symmetry", a, b)
			}
		}
	}
	// Spot checks from the drawing: the quarter turn clockwise takes the
	// top-left corner 1 to the top-right corner 3; the inner/outer swap takes 1
	// to 17 and keeps the middle square.
	if symmetries[1][1] != 3 || symmetries[1][2] != 4 || symmetries[8][1] != 17 || symmetries[8][10] != 10 {
		t.Errorf("spot checks failed: %v / %v", symmetries[1][1:], symmetries[8][1:])
	}
}

func TestMapMask(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		m := rng.Uint32() & allPoints
		for s := range NumSymmetries {
			var want uint32
			for p := 1; p <= NumPoints; p++ {
				if m&bit(p) != 0 {
					want |= bit(symmetries[s][p])
				}
			}
			if got := mapMask(s, m); got != want {
				t.Fatalf("mapMask(%d, %#x) = %#x, want %#x", s, m, got, want)
			}
		}
	}
}
