package mill

import (
	"slices"
	"testing"
)

// TestOwnClassesAgainstMinImage checks the orbit walk that builds the own classes
// against the definition: every mask's class is its MinImage's, named by the smallest
// symmetry reaching it; classes with a trivial stabiliser come first, each group in
// increasing order of canonical mask.
func TestOwnClassesAgainstMinImage(t *testing.T) {
	for w := 0; w <= MaxStones; w++ {
		if testing.Short() && w > 6 {
			break
		}
		oc := buildOwnClasses(w)
		var trivial, other []uint32
		m := uint32(1)<<w - 1
		for range binom[Points][w] {
			if min, syms, _ := MinImage(m); min == m {
				if syms == 1 {
					trivial = append(trivial, m)
				} else {
					other = append(other, m)
				}
			}
			m = nextSubset(m)
		}
		if want := slices.Concat(trivial, other); !slices.Equal(oc.canon, want) || oc.trivial != len(trivial) {
			t.Fatalf("w=%d: %d classes (%d trivial), want %d (%d)", w, len(oc.canon), oc.trivial, len(want), len(trivial))
		}
		m = uint32(1)<<w - 1
		for i := range binom[Points][w] {
			min, _, g := MinImage(m)
			e := oc.entry[i]
			if c := e >> 4; oc.canon[c] != min || Sym(e&15) != g {
				t.Fatalf("w=%d mask %#x: class %d (canonical %#x) by symmetry %d, want canonical %#x by %d", w, m, c, oc.canon[c], e&15, min, g)
			}
			m = nextSubset(m)
		}
		for c, cm := range oc.canon {
			_, syms, _ := MinImage(cm)
			if oc.stab[c] != syms {
				t.Fatalf("w=%d class %d: stabiliser %#x, want %#x", w, c, oc.stab[c], syms)
			}
		}
	}
}
