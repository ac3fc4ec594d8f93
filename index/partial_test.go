package index

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// forEachTuple calls f with every k-tuple of distinct values below n in lexicographic
// order. f must not keep or modify the slice.
func forEachTuple(n, k int, f func([]uint8)) {
	t := make([]uint8, k)
	var used uint64
	var rec func(i int)
	rec = func(i int) {
		if i == k {
			f(t)
			return
		}
		for v := range n {
			if used>>v&1 == 1 {
				continue
			}
			used |= 1 << v
			t[i] = uint8(v)
			rec(i + 1)
			used &^= 1 << v
		}
	}
	rec(0)
}

// refPartialRank is the textbook rank: digit i counts the smaller values not yet used,
// weighted by the number of ways to fill the positions after it.
func refPartialRank(n int, t []uint8) uint64 {
	var r uint64
	for i, v := range t {
		d := 0
		for w := range int(v) {
			if !slices.Contains(t[:i], uint8(w)) {
				d++
			}
		}
		weight := uint64(1)
		for j := i + 1; j < len(t); j++ {
			weight *= uint64(n - j)
		}
		r += uint64(d) * weight
	}
	return r
}

func randTuple(rng *rand.Rand, n, k int) []uint8 {
	p := rng.Perm(n)
	t := make([]uint8, k)
	for i := range t {
		t[i] = uint8(p[i])
	}
	return t
}

func TestPartialPermExhaustive(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 8; n++ {
		for k := 0; k <= n; k++ {
			s := NewPartialPerm(n, k)
			want, _ := PartialPermSize(n, k)
			if s.Size() != want || s.N() != n || s.K() != k || s.HasHoles() {
				t.Fatalf("n=%d k=%d: Size %d N %d K %d", n, k, s.Size(), s.N(), s.K())
			}
			var slot uint64
			got := make([]uint8, k)
			forEachTuple(n, k, func(tu []uint8) {
				if r := s.Rank(tu); r != slot {
					t.Fatalf("n=%d k=%d: Rank(%v) = %d, want %d", n, k, tu, r, slot)
				}
				if !s.Unrank(slot, got) || !slices.Equal(got, tu) {
					t.Fatalf("n=%d k=%d: Unrank(%d) = %v, want %v", n, k, slot, got, tu)
				}
				slot++
			})
			if slot != s.Size() {
				t.Fatalf("n=%d k=%d: %d tuples, Size() = %d", n, k, slot, s.Size())
			}
			if s.Unrank(s.Size(), got) {
				t.Fatalf("n=%d k=%d: Unrank(Size()) = true", n, k)
			}
		}
	}
}

// TestPartialPermPrefix checks the projection a pattern database relies on: a (k+1)-tuple's
// rank divided by n-k is the rank of its first k values, and the remainder is the Digit
// of its last value.
func TestPartialPermPrefix(t *testing.T) {
	t.Parallel()
	check := func(n, k int, tu []uint8) {
		t.Helper()
		long, short := NewPartialPerm(n, k+1), NewPartialPerm(n, k)
		r := long.Rank(tu)
		var used uint32
		for _, c := range tu[:k] {
			used |= 1 << c
		}
		if r/uint64(n-k) != short.Rank(tu[:k]) || r%uint64(n-k) != Digit(used, tu[k]) {
			t.Fatalf("n=%d k=%d %v: rank %d, prefix rank %d, digit %d", n, k, tu, r, short.Rank(tu[:k]), Digit(used, tu[k]))
		}
	}
	for n := 2; n <= 7; n++ {
		for k := 0; k < n; k++ {
			forEachTuple(n, k+1, func(tu []uint8) { check(n, k, tu) })
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		check(16, 8, randTuple(rng, 16, 9))
		check(16, 7, randTuple(rng, 16, 8))
		check(25, 6, randTuple(rng, 25, 7))
	}
}

// TestPartialPermLarge spot-checks the sizes of the 15- and 24-puzzle databases against
// the textbook rank, the round trip from both sides, and the first and last slots.
func TestPartialPermLarge(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		n, k int
		size uint64
	}{
		{16, 8, 518918400}, {16, 9, 4151347200}, {16, 7, 57657600}, {16, 16, 20922789888000},
		{25, 6, 127512000}, {25, 7, 2422728000}, {32, 12, 0}, {32, 1, 32},
	} {
		s := NewPartialPerm(c.n, c.k)
		if c.size != 0 && s.Size() != c.size {
			t.Fatalf("n=%d k=%d: Size %d, want %d", c.n, c.k, s.Size(), c.size)
		}
		got := make([]uint8, c.k)
		for range 3000 {
			tu := randTuple(rng, c.n, c.k)
			r := s.Rank(tu)
			if r >= s.Size() || r != refPartialRank(c.n, tu) {
				t.Fatalf("n=%d k=%d: Rank(%v) = %d, reference %d", c.n, c.k, tu, r, refPartialRank(c.n, tu))
			}
			if !s.Unrank(r, got) || !slices.Equal(got, tu) {
				t.Fatalf("n=%d k=%d: Unrank(%d) = %v, want %v", c.n, c.k, r, got, tu)
			}
			slot := rng.Uint64N(s.Size())
			if !s.Unrank(slot, got) || s.Rank(got) != slot {
				t.Fatalf("n=%d k=%d: Rank(Unrank(%d)) = %d (%v)", c.n, c.k, slot, s.Rank(got), got)
			}
		}
		first, last := make([]uint8, c.k), make([]uint8, c.k)
		for i := range c.k {
			first[i], last[i] = uint8(i), uint8(c.n-1-i)
		}
		if s.Rank(first) != 0 || s.Rank(last) != s.Size()-1 {
			t.Fatalf("n=%d k=%d: first %d, last %d of %d", c.n, c.k, s.Rank(first), s.Rank(last), s.Size())
		}
		if s.Unrank(s.Size(), got) {
			t.Fatalf("n=%d k=%d: Unrank(Size()) = true", c.n, c.k)
		}
	}
}

func TestPartialPermLimits(t *testing.T) {
	t.Parallel()
	for _, c := range [][2]int{{0, 0}, {33, 1}, {5, 6}, {5, -1}, {32, 14}, {32, 32}} {
		if _, ok := PartialPermSize(c[0], c[1]); ok {
			t.Errorf("PartialPermSize(%d, %d) ok", c[0], c[1])
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewPartialPerm(%d, %d) did not panic", c[0], c[1])
				}
			}()
			NewPartialPerm(c[0], c[1])
		}()
	}
	want := uint64(1)
	for v := uint64(20); v <= 32; v++ {
		want *= v // 32!/19!, about 2^61
	}
	if size, ok := PartialPermSize(32, 13); !ok || size != want {
		t.Errorf("PartialPermSize(32, 13) = %d, %v, want %d", size, ok, want)
	}
}

func TestPartialPermNoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	s := NewPartialPerm(16, 8)
	cells := []uint8{0, 5, 3, 9, 15, 2, 7, 11}
	var sink uint64
	if a := testing.AllocsPerRun(100, func() {
		r := s.Rank(cells)
		s.Unrank(r, cells)
		sink += r
	}); a != 0 {
		t.Errorf("%v allocations per rank+unrank", a)
	}
	_ = sink
}

// TestPartialCursor moves cursors by Next over every slot of small schemes and by Seek
// to sorted and random slots of larger ones, and checks each tuple against Unrank, the
// masks against the tuple, and that the values before the reported position stayed.
func TestPartialCursor(t *testing.T) {
	t.Parallel()
	check := func(t *testing.T, p *PartialPerm, c *PartialCursor, slot uint64, from int, prev []uint8) {
		t.Helper()
		want := make([]uint8, p.K())
		p.Unrank(slot, want)
		got := c.Cells()
		if c.Slot() != slot || !slices.Equal(got, want) {
			t.Fatalf("n=%d k=%d slot %d: cursor at %d holds %v, want %v", p.N(), p.K(), slot, c.Slot(), got, want)
		}
		if !slices.Equal(prev[:from], got[:from]) || (from < p.K() && prev[from] == got[from]) {
			t.Fatalf("n=%d k=%d slot %d: from %d, but %v -> %v", p.N(), p.K(), slot, from, prev, got)
		}
		var used uint32
		for i, x := range got {
			if c.Used(i) != used {
				t.Fatalf("n=%d k=%d slot %d: Used(%d) %b, want %b", p.N(), p.K(), slot, i, c.Used(i), used)
			}
			used |= 1 << x
		}
		if c.Used(p.K()) != used {
			t.Fatalf("n=%d k=%d slot %d: Used(k) %b, want %b", p.N(), p.K(), slot, c.Used(p.K()), used)
		}
	}
	for _, nk := range [][2]int{{1, 1}, {3, 0}, {4, 2}, {5, 5}, {7, 3}, {8, 4}, {9, 8}} {
		p := NewPartialPerm(nk[0], nk[1])
		c := p.NewCursor()
		check(t, p, c, 0, p.K(), slices.Clone(c.Cells()))
		for s := uint64(1); s < p.Size(); s++ {
			prev := slices.Clone(c.Cells())
			from, ok := c.Next()
			if !ok {
				t.Fatalf("n=%d k=%d: Next stopped at %d of %d", nk[0], nk[1], s, p.Size())
			}
			check(t, p, c, s, from, prev)
		}
		if _, ok := c.Next(); ok || c.Slot() != p.Size()-1 {
			t.Fatalf("n=%d k=%d: Next went past the last slot", nk[0], nk[1])
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, nk := range [][2]int{{16, 8}, {16, 7}, {25, 6}, {25, 12}, {32, 13}, {12, 11}} {
		p := NewPartialPerm(nk[0], nk[1])
		c := p.NewCursor()
		slots := make([]uint64, 4000)
		for i := range slots {
			slots[i] = rng.Uint64N(p.Size())
		}
		sorted := slices.Clone(slots)
		slices.Sort(sorted)
		base := rng.Uint64N(p.Size() - 5000)
		dense := make([]uint64, 2000)
		for i := range dense {
			dense[i] = base + uint64(i)*uint64(1+i%3)
		}
		// Slots just below the edge of a block of slots sharing their leading digits,
		// so that Next carries into the leading part.
		edges := make([]uint64, 1000)
		for i := range edges {
			h := 1 + rng.Uint64N(p.Size()/p.lowSize-1)
			edges[i] = h*p.lowSize - 1 - uint64(i%3)
		}
		for _, seq := range [][]uint64{slots, sorted, dense, edges} {
			for _, s := range seq {
				prev := slices.Clone(c.Cells())
				from := c.Seek(s)
				check(t, p, c, s, from, prev)
				// A few steps of Next between seeks: the next Seek must not trust a
				// leading part that Next carried into.
				for step := range s % 4 {
					if s+step+1 >= p.Size() {
						break
					}
					prev = slices.Clone(c.Cells())
					from, _ = c.Next()
					check(t, p, c, s+step+1, from, prev)
				}
			}
		}
	}
}
