package index

import (
	"slices"
	"testing"
)

// TestLexSeqUnrankAnySlice: Unrank fills the whole of p even when p is not the slice the
// call before filled (the cached prefix is copied in), unlike UnrankFrom: ranks in runs
// that share a prefix, into two slices in turn and a dirty one.
func TestLexSeqUnrankAnySlice(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 13; n++ {
		s := NewLexSeq(n)
		want := make([]uint8, n)
		bufs := [][]uint8{make([]uint8, n), make([]uint8, n)}
		size := Factorial(n)
		for i, r := 0, uint64(0); r < size && i < 20000; i, r = i+1, r+1+uint64(i%5)*size/4096 {
			p := bufs[i%2]
			if i%7 == 0 {
				p = make([]uint8, n)
				for j := range p {
					p[j] = 0xee
				}
			}
			wantSum := lexUnrank(r, want)
			if sum := s.Unrank(r, p); sum != wantSum || !slices.Equal(p, want) {
				t.Fatalf("n=%d: Unrank(%d) = %v, %d; want %v, %d", n, r, p, sum, want, wantSum)
			}
		}
	}
}
