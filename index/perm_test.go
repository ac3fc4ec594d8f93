package index

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// nextPerm advances p to the next permutation in lexicographic order and reports
// false after the last one (the reversal).
func nextPerm(p []uint8) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}

func identity(n int) []uint8 {
	p := make([]uint8, n)
	for i := range p {
		p[i] = uint8(i)
	}
	return p
}

func randPerm(rng *rand.Rand, n int) []uint8 {
	p := identity(n)
	rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// isPerm reports whether p is a permutation of 0..len(p)-1.
func isPerm(p []uint8) bool {
	var seen uint64
	for _, v := range p {
		if int(v) >= len(p) || seen>>v&1 == 1 {
			return false
		}
		seen |= 1 << v
	}
	return true
}

// refLexRank is the textbook O(n²) lexicographic rank.
func refLexRank(p []uint8) uint64 {
	var r uint64
	for i := range p {
		smaller := 0
		for _, w := range p[i+1:] {
			if w < p[i] {
				smaller++
			}
		}
		r += uint64(smaller) * Factorial(len(p)-1-i)
	}
	return r
}

// refMRRank is rank1 of Myrvold & Ruskey written recursively, as in the paper.
func refMRRank(n int, pi, inv []uint8) uint64 {
	if n == 1 {
		return 0
	}
	s := pi[n-1]
	pi[n-1], pi[inv[n-1]] = pi[inv[n-1]], pi[n-1]
	inv[s], inv[n-1] = inv[n-1], inv[s]
	return uint64(s) + uint64(n)*refMRRank(n-1, pi, inv)
}

// maxExhaustive is the largest n the per-scheme exhaustive tests cover. Under -race
// or -short they stop at 8: TestBijection9 still covers every scheme at n = 9.
func maxExhaustive() int {
	if raceEnabled || testing.Short() {
		return 8
	}
	return 9
}

func TestLexOrder(t *testing.T) {
	t.Parallel()
	for n := 1; n <= maxExhaustive(); n++ {
		s := NewLex(n)
		p := identity(n)
		q := make([]uint8, n)
		var want uint64
		for {
			if got := s.Rank(p); got != want {
				t.Fatalf("n=%d: Rank(%v) = %d, want %d", n, p, got, want)
			}
			if !s.Unrank(want, q) || !slices.Equal(p, q) {
				t.Fatalf("n=%d: Unrank(%d) = %v, want %v", n, want, q, p)
			}
			want++
			if !nextPerm(p) {
				break
			}
		}
		if want != s.Size() || want != Factorial(n) {
			t.Fatalf("n=%d: %d permutations, Size() = %d", n, want, s.Size())
		}
		if s.Unrank(s.Size(), q) {
			t.Errorf("n=%d: Unrank(Size()) = true", n)
		}
	}
}

func TestLexHalf(t *testing.T) {
	t.Parallel()
	for n := 2; n <= maxExhaustive(); n++ {
		s := NewLexHalf(n)
		if s.Size() != Factorial(n)/2 {
			t.Fatalf("n=%d: Size() = %d", n, s.Size())
		}
		p := identity(n)
		q := make([]uint8, n)
		evens := make([]int, s.Size())
		for lex := uint64(0); ; lex++ {
			slot := lex >> 1
			if got := s.Rank(p); got != slot {
				t.Fatalf("n=%d: Rank(%v) = %d, want %d", n, p, got, slot)
			}
			par := Parity(p)
			if got, gotPar := s.RankParity(p); got != slot || gotPar != par {
				t.Fatalf("n=%d: RankParity(%v) = %d, %d, want %d, %d", n, p, got, gotPar, slot, par)
			}
			if par == 0 {
				evens[slot]++
				if !s.Unrank(slot, q) || !slices.Equal(p, q) {
					t.Fatalf("n=%d: Unrank(%d) = %v, want %v", n, slot, q, p)
				}
			}
			if lex&1 == 0 {
				if got := s.UnrankPair(slot, q); got != par || !slices.Equal(p, q) {
					t.Fatalf("n=%d: UnrankPair(%d) = %v, %d, want %v, %d", n, slot, q, got, p, par)
				}
			}
			if !nextPerm(p) {
				break
			}
		}
		for slot, c := range evens {
			if c != 1 {
				t.Fatalf("n=%d: slot %d holds %d even permutations", n, slot, c)
			}
		}
		if s.Unrank(s.Size(), q) {
			t.Errorf("n=%d: Unrank(Size()) = true", n)
		}
	}
}

func TestMyrvoldRuskey(t *testing.T) {
	t.Parallel()
	for n := 1; n <= maxExhaustive(); n++ {
		s := NewMyrvoldRuskey(n)
		p := make([]uint8, n)
		pi, inv := make([]uint8, n), make([]uint8, n)
		for slot := range s.Size() {
			if !s.Unrank(slot, p) || !isPerm(p) {
				t.Fatalf("n=%d: Unrank(%d) = %v, not a permutation", n, slot, p)
			}
			if got := s.Rank(p); got != slot {
				t.Fatalf("n=%d: Rank(Unrank(%d)) = %d", n, slot, got)
			}
			if n <= 7 {
				copy(pi, p)
				for i, v := range p {
					inv[v] = uint8(i)
				}
				if ref := refMRRank(n, pi, inv); ref != slot {
					t.Fatalf("n=%d: Rank(%v) = %d, paper's rank1 = %d", n, p, slot, ref)
				}
			}
		}
		if s.Unrank(s.Size(), p) {
			t.Errorf("n=%d: Unrank(Size()) = true", n)
		}
	}
}

// TestBijection9 checks every scheme over all 9! permutations: ranks in range and
// distinct (per parity class for lex-half), Unrank∘Rank = id, and exactly 9!
// non-hole slots (9!/2 for lex-half) each unranking to a permutation it ranks back.
func TestBijection9(t *testing.T) {
	t.Parallel()
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, err := ByName(name, 9)
			if err != nil {
				t.Fatal(err)
			}
			wantStates := Factorial(9)
			if name == "lex-half" {
				wantStates /= 2
			}
			hit := make([]bool, s.Size())
			p, q := identity(9), make([]uint8, 9)
			for {
				if name == "lex-half" && Parity(p) != 0 {
					if !nextPerm(p) {
						break
					}
					continue
				}
				r := s.Rank(p)
				if r >= s.Size() || hit[r] {
					t.Fatalf("Rank(%v) = %d: out of range or collision", p, r)
				}
				hit[r] = true
				if !s.Unrank(r, q) || !slices.Equal(p, q) {
					t.Fatalf("Unrank(Rank(%v) = %d) = %v", p, r, q)
				}
				if !nextPerm(p) {
					break
				}
			}
			var states uint64
			for slot := range s.Size() {
				ok := s.Unrank(slot, q)
				if ok != hit[slot] {
					t.Fatalf("Unrank(%d) = %v, but slot hit by Rank = %v", slot, ok, hit[slot])
				}
				if ok {
					states++
					if r := s.Rank(q); r != slot {
						t.Fatalf("Rank(Unrank(%d) = %v) = %d", slot, q, r)
					}
				}
			}
			if states != wantStates {
				t.Fatalf("%d non-hole slots, want %d", states, wantStates)
			}
			if s.HasHoles() != (states < s.Size()) {
				t.Errorf("HasHoles() = %v with %d states in %d slots", s.HasHoles(), states, s.Size())
			}
		})
	}
}

// TestRandomLarge round-trips random permutations and random slots for large n.
func TestRandomLarge(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{10, 12, 13, 16, 17, 20} {
		for _, s := range []PermScheme{NewLex(n), NewLexHalf(n), NewMyrvoldRuskey(n)} {
			q := make([]uint8, n)
			for range 2000 {
				p := randPerm(rng, n)
				half := s.Name() == "lex-half"
				if half && Parity(p) != 0 {
					p[n-2], p[n-1] = p[n-1], p[n-2]
				}
				r := s.Rank(p)
				if s.Name() == "lex" {
					if ref := refLexRank(p); r != ref {
						t.Fatalf("lex n=%d: Rank(%v) = %d, want %d", n, p, r, ref)
					}
				}
				if !s.Unrank(r, q) || !slices.Equal(p, q) {
					t.Fatalf("%s n=%d: Unrank(Rank(%v) = %d) = %v", s.Name(), n, p, r, q)
				}
				slot := rng.Uint64N(s.Size())
				if !s.Unrank(slot, q) || !isPerm(q) || s.Rank(q) != slot {
					t.Fatalf("%s n=%d: Unrank(%d) = %v, ranks to %d", s.Name(), n, slot, q, s.Rank(q))
				}
				if half && Parity(q) != 0 {
					t.Fatalf("lex-half n=%d: Unrank(%d) = %v is odd", n, slot, q)
				}
			}
			// The extremes: identity at 0, reversal at Size-1 (lex, lex-half).
			if !s.Unrank(s.Size()-1, q) || s.Rank(q) != s.Size()-1 || s.Unrank(s.Size(), q) {
				t.Fatalf("%s n=%d: bad round trip at the last slot", s.Name(), n)
			}
		}
	}
}

// TestLexSeq: LexSeq unranks as Lex does, for ranks in increasing order (every rank up
// to the exhaustive size), in runs and at random.
func TestLexSeq(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	for n := 1; n <= 20; n++ {
		s := NewLexSeq(n)
		want, got := make([]uint8, n), make([]uint8, n)
		check := func(r uint64) {
			wantSum := lexUnrank(r, want)
			if sum := s.Unrank(r, got); sum != wantSum || !slices.Equal(got, want) {
				t.Fatalf("n=%d: Unrank(%d) = %v, %d; want %v, %d", n, r, got, sum, want, wantSum)
			}
		}
		size := Factorial(n)
		if n <= maxExhaustive() {
			for r := range size {
				check(r)
			}
		}
		for range 2000 {
			r := rng.Uint64N(size)
			check(r)
			for i := range uint64(40) { // a run of close ranks, as a frontier gives
				if r+3*i < size {
					check(r + 3*i)
				}
			}
		}
	}
}

// TestLexSeqUnrankFrom: a caller that keeps the inverse permutation of p and refreshes
// it only from the entry UnrankFrom names sees the same inverse as one rebuilt in full,
// for every rank of n = 9 (and at random for n = 8..12) in increasing order with gaps,
// while it swaps the last two entries in between as the slide expander does.
func TestLexSeqUnrankFrom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 1; n <= 16; n++ {
		s := NewLexSeq(n)
		p, want := make([]uint8, n), make([]uint8, n)
		inv, wantInv := make([]uint8, n), make([]uint8, n)
		size := Factorial(n)
		r := uint64(0)
		for step := 0; r < size && step < 400000; step++ {
			wantSum := lexUnrank(r, want)
			sum, from := s.UnrankFrom(r, p)
			if sum != wantSum || !slices.Equal(p, want) {
				t.Fatalf("n=%d: UnrankFrom(%d) = %v, %d; want %v, %d", n, r, p, sum, want, wantSum)
			}
			if from < 0 || from > n {
				t.Fatalf("n=%d: UnrankFrom(%d) from = %d", n, r, from)
			}
			for i := from; i < n; i++ {
				inv[p[i]] = uint8(i)
			}
			for i, v := range want {
				wantInv[v] = uint8(i)
			}
			if !slices.Equal(inv, wantInv) {
				t.Fatalf("n=%d: rank %d: inverse refreshed from %d is %v, want %v", n, r, from, inv, wantInv)
			}
			if n >= 2 && step%3 == 0 { // a swap of the last two entries, undone by the next call
				p[n-2], p[n-1] = p[n-1], p[n-2]
				inv[p[n-2]], inv[p[n-1]] = uint8(n-2), uint8(n-1)
			}
			r += 1 + rng.Uint64N(uint64(max(1, size/200000)))*uint64(step%2)
		}
	}
}
