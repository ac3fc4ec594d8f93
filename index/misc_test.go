package index

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestParityInversions(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	cases := [][]uint8{{}, {0}, {1, 0}, {2, 1, 0}, {1, 2, 0}}
	for range 500 {
		cases = append(cases, randPerm(rng, 1+rng.IntN(64)))
	}
	for _, p := range cases {
		want := 0
		for i := range p {
			for j := i + 1; j < len(p); j++ {
				if p[i] > p[j] {
					want++
				}
			}
		}
		if got := Inversions(p); got != want {
			t.Fatalf("Inversions(%v) = %d, want %d", p, got, want)
		}
		if got := Parity(p); got != want&1 {
			t.Fatalf("Parity(%v) = %d, want %d", p, got, want&1)
		}
	}
}

func TestFactorial(t *testing.T) {
	t.Parallel()
	f := uint64(1)
	for n := 0; n <= 20; n++ {
		if n > 0 {
			f *= uint64(n)
		}
		if got := Factorial(n); got != f {
			t.Errorf("Factorial(%d) = %d, want %d", n, got, f)
		}
	}
	for _, n := range []int{-1, 21} {
		assertPanics(t, "Factorial", func() { Factorial(n) })
	}
}

func assertPanics(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
}

func TestByName(t *testing.T) {
	t.Parallel()
	if got := Names(); !slices.Equal(got, []string{"lex", "lex-half", "mr", "branch767359"}) {
		t.Errorf("Names() = %v", got)
	}
	Names()[0] = "changed" // a fresh slice each call
	tests := []struct {
		name     string
		n        int
		wantErr  string // substring; "" for success
		size     uint64
		hasHoles bool
	}{
		{"lex", 1, "", 1, false},
		{"lex", 9, "", 362880, false},
		{"lex", 20, "", 2432902008176640000, false},
		{"lex-half", 2, "", 1, false},
		{"lex-half", 9, "", 181440, false},
		{"mr", 9, "", 362880, false},
		{"branch767359", 9, "", 767359, true},
		{"lex", 0, "1 <= n <= 20", 0, false},
		{"lex", 21, "1 <= n <= 20", 0, false},
		{"lex-half", 1, "2 <= n <= 20", 0, false},
		{"mr", 21, "1 <= n <= 20", 0, false},
		{"branch767359", 8, "n = 9", 0, false},
		{"nope", 9, `unknown scheme "nope"`, 0, false},
	}
	for _, tc := range tests {
		s, err := ByName(tc.name, tc.n)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ByName(%q, %d) error = %v, want %q", tc.name, tc.n, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ByName(%q, %d): %v", tc.name, tc.n, err)
			continue
		}
		if s.Name() != tc.name || s.N() != tc.n || s.Size() != tc.size || s.HasHoles() != tc.hasHoles {
			t.Errorf("ByName(%q, %d) = %s n=%d size=%d holes=%v", tc.name, tc.n, s.Name(), s.N(), s.Size(), s.HasHoles())
		}
	}
	for _, n := range []int{0, 21} {
		assertPanics(t, "NewLex", func() { NewLex(n) })
		assertPanics(t, "NewMyrvoldRuskey", func() { NewMyrvoldRuskey(n) })
	}
	assertPanics(t, "NewLexHalf(1)", func() { NewLexHalf(1) })
}

// TestNoAllocs checks that rank and unrank allocate nothing, through the interface.
func TestNoAllocs(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("allocation counts are not meaningful under -cover or -race")
	}
	for _, n := range []int{9, 20} {
		for _, name := range Names() {
			s, err := ByName(name, n)
			if err != nil {
				continue
			}
			p := identity(n)
			q := make([]uint8, n)
			if a := testing.AllocsPerRun(100, func() { s.Unrank(s.Rank(p), q) }); a != 0 {
				t.Errorf("%s n=%d: %v allocations per rank+unrank", name, n, a)
			}
		}
	}
}
