package mill_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
)

func perm24(g mill.Sym) [24]int {
	var out [24]int
	for p, q := range g.Perm() {
		out[p] = int(q)
	}
	return out
}

// TestSymsAreTheGeometricOnes checks that the 16 Syms are exactly the symmetries of the
// drawn board (rotations and reflections of the grid, with and without the ring swap),
// each once, and that Sym(0) is the identity.
func TestSymsAreTheGeometricOnes(t *testing.T) {
	t.Parallel()
	var got, want [][24]int
	for g := range mill.Sym(mill.NumSyms) {
		got = append(got, perm24(g))
	}
	want = geometricSyms()
	cmp := func(a, b [24]int) int { return slices.Compare(a[:], b[:]) }
	slices.SortFunc(got, cmp)
	slices.SortFunc(want, cmp)
	if !slices.Equal(got, want) {
		t.Fatalf("the Syms are not the 16 geometric symmetries")
	}
	if len(slices.CompactFunc(got, func(a, b [24]int) bool { return a == b })) != 16 {
		t.Fatal("the geometric symmetries are not 16 distinct permutations")
	}
	for p := range mill.Point(24) {
		if mill.Identity.Point(p) != p {
			t.Fatalf("Identity moves point %v", p)
		}
	}
}

func TestSymsAreAutomorphisms(t *testing.T) {
	t.Parallel()
	mills := handMillMasks()
	for g := range mill.Sym(mill.NumSyms) {
		perm := perm24(g)
		for _, e := range handEdges {
			if !handAdjacent(perm[e[0]-1]+1, perm[e[1]-1]+1) {
				t.Errorf("Sym %d maps edge %v to a non-edge", g, e)
			}
		}
		for _, m := range mills {
			if !slices.Contains(mills, applyPerm(perm, m)) {
				t.Errorf("Sym %d maps mill %x to a non-mill", g, m)
			}
		}
	}
}

// TestSymGroup checks Compose and Inverse against the permutations and that the 16 form a
// group (closed under composition and inverse).
func TestSymGroup(t *testing.T) {
	t.Parallel()
	index := map[[24]int]mill.Sym{}
	for g := range mill.Sym(mill.NumSyms) {
		index[perm24(g)] = g
	}
	for g := range mill.Sym(mill.NumSyms) {
		pg := perm24(g)
		for h := range mill.Sym(mill.NumSyms) {
			ph := perm24(h)
			var gh [24]int
			for p := range gh {
				gh[p] = pg[ph[p]]
			}
			k, ok := index[gh]
			if !ok {
				t.Fatalf("Sym %d ∘ Sym %d is no symmetry", g, h)
			}
			if got := g.Compose(h); got != k {
				t.Errorf("Sym(%d).Compose(%d) = %d, want %d", g, h, got, k)
			}
		}
		if g.Compose(g.Inverse()) != mill.Identity || g.Inverse().Compose(g) != mill.Identity {
			t.Errorf("Sym(%d).Inverse() = %d is no inverse", g, g.Inverse())
		}
	}
}

func TestApplyMatchesPerm(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(2, 2))
	for range 2000 {
		mask := randomSubset(r, r.IntN(25), 0)
		for g := range mill.Sym(mill.NumSyms) {
			if got, want := g.Apply(mask), applyPerm(perm24(g), mask); got != want {
				t.Fatalf("Sym(%d).Apply(%x) = %x, want %x", g, mask, got, want)
			}
		}
	}
}

// TestCanonical checks the package's Canonical and MinImage against the brute minimum.
func TestCanonical(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 3))
	for _, sc := range sectors(18) {
		for range 200 {
			own, opp := randomPosition(r, sc.w, sc.b)
			wo, wp := bruteCanonical(own, opp)
			co, cp, g := mill.Canonical(own, opp)
			if co != wo || cp != wp || g.Apply(own) != co || g.Apply(opp) != cp {
				t.Fatalf("Canonical(%s) = %s by Sym %d, want %s", pos(own, opp), pos(co, cp), g, pos(wo, wp))
			}
			m, syms, h := mill.MinImage(own)
			for k := range mill.Sym(mill.NumSyms) {
				if k.Apply(own) < m || (k.Apply(own) == m) != (syms>>k&1 != 0) {
					t.Fatalf("MinImage(%x) = %x, %b: wrong for Sym %d", own, m, syms, k)
				}
			}
			if h.Apply(own) != m {
				t.Fatalf("MinImage(%x): Sym %d does not give %x", own, h, m)
			}
		}
	}
}
