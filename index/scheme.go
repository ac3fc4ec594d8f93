package index

import (
	"fmt"
	"math/bits"
	"strings"
)

// PermScheme maps permutations of 0..n-1 (p[i] in [0, n), all distinct) to slots in
// [0, Size()). It is the interface through which the CLI and the builders choose a
// scheme by name; hot loops should use the concrete types to avoid a dynamic call
// per state.
type PermScheme interface {
	// Name is the scheme's name as accepted by ByName.
	Name() string
	// N is the length of the permutations ranked.
	N() int
	// Size is the number of slots: ranks lie in [0, Size()).
	Size() uint64
	// HasHoles reports whether some slots in [0, Size()) are no permutation.
	HasHoles() bool
	// Rank returns the slot of permutation p (len n).
	Rank(p []uint8) uint64
	// Unrank fills p (len n) with the permutation at slot; it returns false, leaving
	// p unspecified, when slot is a hole or not below Size().
	Unrank(slot uint64, p []uint8) bool
}

var (
	_ PermScheme = (*Lex)(nil)
	_ PermScheme = (*LexHalf)(nil)
	_ PermScheme = (*MyrvoldRuskey)(nil)
	_ PermScheme = (*Branch767359)(nil)
)

// maxN is the largest n the permutation schemes support: 20! < 2^63 < 21!.
const maxN = 20

var schemeNames = []string{"lex", "lex-half", "mr", "branch767359"}

// Names returns the names ByName accepts, in a fixed order (a fresh slice).
func Names() []string {
	return append([]string(nil), schemeNames...)
}

// ByName returns the permutation scheme called name for permutations of length n.
// It reports an error, naming the bad input, for an unknown name or an n the scheme
// does not support (lex, mr: 1..20; lex-half: 2..20; branch767359: 9 only).
func ByName(name string, n int) (PermScheme, error) {
	lo, hi := 1, maxN
	switch name {
	case "lex", "mr":
	case "lex-half":
		lo = 2
	case "branch767359":
		lo, hi = 9, 9
	default:
		return nil, fmt.Errorf("index: unknown scheme %q (want one of %s)", name, strings.Join(schemeNames, ", "))
	}
	if n < lo || n > hi {
		if lo == hi {
			return nil, fmt.Errorf("index: scheme %q needs n = %d, got n = %d", name, lo, n)
		}
		return nil, fmt.Errorf("index: scheme %q needs %d <= n <= %d, got n = %d", name, lo, hi, n)
	}
	switch name {
	case "lex":
		return NewLex(n), nil
	case "lex-half":
		return NewLexHalf(n), nil
	case "mr":
		return NewMyrvoldRuskey(n), nil
	default:
		return NewBranch767359(), nil
	}
}

// checkN panics with a message naming the constructor when n is outside [lo, hi]:
// an unsupported n passed to a constructor is a programming error (ByName reports it
// as an error instead).
func checkN(ctor string, n, lo, hi int) {
	if n < lo || n > hi {
		panic(fmt.Sprintf("index.%s: n = %d out of range [%d, %d]", ctor, n, lo, hi))
	}
}

// factorials[k] = k! for 0 <= k <= 20.
var factorials = func() (f [maxN + 1]uint64) {
	f[0] = 1
	for k := 1; k <= maxN; k++ {
		f[k] = f[k-1] * uint64(k)
	}
	return f
}()

// Factorial returns n! for 0 <= n <= 20 (the largest that fits in a uint64); it
// panics for any other n.
func Factorial(n int) uint64 {
	if n < 0 || n > maxN {
		panic(fmt.Sprintf("index.Factorial: n = %d out of range [0, %d]", n, maxN))
	}
	return factorials[n]
}

// Division by a constant as a multiplication (Lemire, Kaser & Kurz, "Faster
// remainder by direct computation", 2019): with c = floor((2^64-1)/d) + 1, the high
// word of x*c is x/d for every x < 2^32 and 2 <= d < 2^32. The unrank loops divide
// by small numbers and factorials this way, a few cycles instead of a DIV.
// recip[d] serves 2 <= d <= 20 and recipFact[k] serves k! for 2 <= k <= 12 (the
// entries for larger k exist but are not used: k! >= 2^32 there).
var recip, recipFact = func() (r, rf [maxN + 1]uint64) {
	for d := 2; d <= maxN; d++ {
		r[d] = ^uint64(0)/uint64(d) + 1
		rf[d] = ^uint64(0)/factorials[d] + 1
	}
	return r, rf
}()

// divFast returns x / d for x < 2^32, given m = floor((2^64-1)/d) + 1 for a
// divisor 2 <= d < 2^32 (see recip).
func divFast(x, m uint64) uint64 {
	q, _ := bits.Mul64(x, m)
	return q
}
