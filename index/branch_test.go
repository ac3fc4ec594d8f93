package index

import "testing"

// TestBranch767359 checks Rank against a reference computation of the branch
// indices over all 9! permutations, the largest packed value, and some holes.
func TestBranch767359(t *testing.T) {
	t.Parallel()
	s := NewBranch767359()
	p := identity(9)
	var maxPacked uint64
	for {
		// Reference: branch indices by a linear scan of the unused digits.
		var b [8]uint64
		var used [9]bool
		used[p[0]] = true
		for k := 1; k <= 7; k++ {
			for d := range p[k] {
				if !used[d] {
					b[k]++
				}
			}
			used[p[k]] = true
		}
		packed := b[4]<<14 | b[6]<<12 | b[3]<<9 | b[2]<<6 | b[1]<<3 | b[5]<<1 | b[7]
		maxPacked = max(maxPacked, packed)
		if got, want := s.Rank(p), packed*10+uint64(p[0]); got != want {
			t.Fatalf("Rank(%v) = %d, want %d", p, got, want)
		}
		if !nextPerm(p) {
			break
		}
	}
	if maxPacked != 76735 {
		t.Errorf("largest packed value = %d, want 76735", maxPacked)
	}
	if s.Size() != 767359 || s.N() != 9 || !s.HasHoles() {
		t.Errorf("Size, N, HasHoles = %d, %d, %v", s.Size(), s.N(), s.HasHoles())
	}
	q := make([]uint8, 9)
	for _, slot := range []uint64{9, 19, 767349, 767359, 767360, 1 << 40} {
		if s.Unrank(slot, q) {
			t.Errorf("Unrank(%d) = true, want hole", slot)
		}
	}
}
