package mill_test

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
)

// digits returns the 8 base-3 digits of a ring word, index 0 (the first point) first.
func digits(u uint16) [8]int {
	var d [8]int
	for j := 7; j >= 0; j-- {
		d[j] = int(u % 3)
		u /= 3
	}
	return d
}

// gridSym returns the permutation of the points (0-based) that moves the grid point
// (u, v), taken about the centre of the drawing, to f(u, v).
func gridSym(f func(u, v int) (int, int)) [24]int {
	at := map[[2]int]int{}
	for i, xy := range handXY {
		at[xy] = i
	}
	var perm [24]int
	for i, xy := range handXY {
		u, v := f(xy[0]-3, xy[1]-3)
		perm[i] = at[[2]int{u + 3, v + 3}]
	}
	return perm
}

// TestRingWordOrder derives from the drawing (handXY) that the points of each square,
// read as a word's digits, turn with the board by a cyclic shift of 2 digits and mirror
// along the diagonal through points 1 and 5 by keeping the first digit and reversing the
// rest; and checks on every word of every ring that the square symmetry d of Sym acts as
// the shift by 2d (d < 4) or as a reversal and a shift by 2(d−4)+1.
func TestRingWordOrder(t *testing.T) {
	t.Parallel()
	turn := gridSym(func(u, v int) (int, int) { return -v, u }) // a clockwise quarter turn (y down)
	mirror := gridSym(func(u, v int) (int, int) { return v, u })
	r := rand.New(rand.NewPCG(1, 1))
	for range 1000 {
		own, opp := randomPosition(r, 1+r.IntN(9), 1+r.IntN(9))
		sig := mill.NewExactSig(own, opp)
		a, m, c := sig.Rings()
		ta, tm, tc := mill.NewExactSig(applyPerm(turn, own), applyPerm(turn, opp)).Rings()
		fa, fm, fc := mill.NewExactSig(applyPerm(mirror, own), applyPerm(mirror, opp)).Rings()
		for i, u := range []uint16{a, m, c} {
			s, st, sf := digits(u), digits([]uint16{ta, tm, tc}[i]), digits([]uint16{fa, fm, fc}[i])
			for j := range 8 {
				if st[(j+2)%8] != s[j] || sf[(8-j)%8] != s[j] {
					t.Fatalf("%s ring %d: digits %v, turned %v, mirrored %v", pos(own, opp), i, s, st, sf)
				}
			}
		}
	}
	for d := range 8 {
		for u := range uint16(mill.RingWords) {
			sig := mill.ExactSig(uint64(u) * (mill.RingWords*mill.RingWords + mill.RingWords + 1)) // u on every ring
			a, m, c := sig.Apply(mill.Sym(2 * d)).Rings()
			s, got := digits(u), digits(a)
			if m != a || c != a {
				t.Fatalf("square symmetry %d maps word %d to %d, %d, %d on the three rings", d, u, a, m, c)
			}
			for j := range 8 {
				want := s[(j-2*d+16)%8] // shift by 2d
				if d >= 4 {
					want = s[(7-(j-2*(d-4)-1)+16)%8] // reverse, then shift by 2(d−4)+1
				}
				if got[j] != want {
					t.Fatalf("square symmetry %d: word %v to %v", d, s, got)
				}
			}
		}
	}
}

// TestExactSigIsTheBoard checks that the signature is the board string read as a base-3
// numeral (. 0, W 1, B 2 with White to move) and that Position inverts it.
func TestExactSigIsTheBoard(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(2, 2))
	for range 2000 {
		w := r.IntN(10)
		own, opp := randomPosition(r, w, r.IntN(24-w))
		var want uint64
		for _, ch := range mill.FromOwnOpp(own, opp, mill.White).String()[:24] {
			want = 3*want + map[rune]uint64{'.': 0, 'W': 1, 'B': 2}[ch]
		}
		sig := mill.NewExactSig(own, opp)
		if uint64(sig) != want {
			t.Fatalf("%s: signature %d, want %d", pos(own, opp), sig, want)
		}
		if o, p := sig.Position(); o != own || p != opp {
			t.Fatalf("%s: Position gives %s", pos(own, opp), pos(o, p))
		}
		if got := sig.SwapColours(); got != mill.NewExactSig(opp, own) {
			t.Fatalf("%s: SwapColours %d, want %d", pos(own, opp), got, mill.NewExactSig(opp, own))
		}
		for g := range mill.Sym(mill.NumSyms) {
			if got, want := sig.Apply(g), mill.NewExactSig(g.Apply(own), g.Apply(opp)); got != want {
				t.Fatalf("%s: Apply(%d) = %d, want %d", pos(own, opp), g, got, want)
			}
		}
	}
}

// TestSignaturesRandom checks random positions of every sector: the canonical exact
// signature is the smallest over the images computed from the masks, the same for a
// random image, and its position is in the class (ranks to the same slot); the canonical
// additive signature is the smallest Sum over the images, also for n = 2^20.
func TestSignaturesRandom(t *testing.T) {
	t.Parallel()
	adds := []*mill.AdditiveSig{mill.NewAdditiveSig(mill.DefaultSigSeed, 64), mill.NewAdditiveSig(mill.DefaultSigSeed, 20)}
	eachSector(t, 18, func(t *testing.T, sc sector, r *rand.Rand) {
		s := mustSector(t, sc.w, sc.b)
		for range pick(100, 1000, 50_000) {
			own, opp := randomPosition(r, sc.w, sc.b)
			want := mill.ExactSig(1 << 62)
			for g := range mill.Sym(mill.NumSyms) {
				want = min(want, mill.NewExactSig(g.Apply(own), g.Apply(opp)))
			}
			got := mill.CanonicalExactSig(own, opp)
			g := mill.Sym(r.IntN(mill.NumSyms))
			if got != want || mill.CanonicalExactSig(g.Apply(own), g.Apply(opp)) != got || mill.NewExactSig(own, opp).Canonical() != got {
				t.Fatalf("%s: canonical signature %d, want %d", pos(own, opp), got, want)
			}
			if o, p := got.Position(); s.Rank(o, p) != s.Rank(own, opp) {
				t.Fatalf("%s: the canonical signature's position %s is in another class", pos(own, opp), pos(o, p))
			}
			for _, a := range adds {
				want := ^uint64(0)
				for g := range mill.Sym(mill.NumSyms) {
					want = min(want, a.Sum(g.Apply(own), g.Apply(opp)))
				}
				if got := a.Canonical(own, opp); got != want {
					t.Fatalf("%s, n = 2^%d: canonical additive signature %d, want %d", pos(own, opp), a.Bits(), got, want)
				}
			}
		}
	})
}

// TestSignatureClasses canonicalises every position of the small sectors (w+b ≤ 7; 6
// with -short; 8 with the long tag): the positions of a class (one slot of the Sector)
// share one canonical exact signature, whose position is in the class, and distinct
// classes have distinct ones, so the signatures number the classes (ClassCount); the
// additive signature (n = 2^64, the default seed) is the same within each class and
// collides nowhere on these sectors.
func TestSignatureClasses(t *testing.T) {
	t.Parallel()
	add := mill.NewAdditiveSig(mill.DefaultSigSeed, 64)
	eachSector(t, pick(6, 7, 8), func(t *testing.T, sc sector, _ *rand.Rand) {
		s := mustSector(t, sc.w, sc.b)
		exact := make([]mill.ExactSig, s.Slots()) // 0 (the empty board): not seen yet
		additive := make([]uint64, s.Slots())
		for own, opp := range mill.Positions(sc.w, sc.b) {
			slot := s.Rank(own, opp)
			e, a := mill.CanonicalExactSig(own, opp), add.Canonical(own, opp)
			if exact[slot] == 0 {
				exact[slot], additive[slot] = e, a
				if o, p := e.Position(); s.Rank(o, p) != slot {
					t.Fatalf("%s: the canonical signature's position %s is in another class", pos(own, opp), pos(o, p))
				}
			} else if exact[slot] != e || additive[slot] != a {
				t.Fatalf("%s: a member of its class has other canonical signatures", pos(own, opp))
			}
		}
		if n := distinct(exact); n != mill.ClassCount(sc.w, sc.b) || slices.Contains(exact, 0) {
			t.Fatalf("%d distinct canonical exact signatures, want %d classes", n, mill.ClassCount(sc.w, sc.b))
		}
		if n := distinct(additive); n != s.Slots() {
			t.Fatalf("%d distinct canonical additive signatures for %d classes", n, s.Slots())
		}
	})
}

// distinct returns the number of distinct values of xs (sorting it).
func distinct[T uint64 | mill.ExactSig](xs []T) uint64 {
	slices.Sort(xs)
	return uint64(len(slices.Compact(xs)))
}

// TestAdditiveSig checks the sum against the weights, the negation under the colour swap
// and the reduction mod 2^k.
func TestAdditiveSig(t *testing.T) {
	t.Parallel()
	full := mill.NewAdditiveSig(mill.DefaultSigSeed, 64)
	r := rand.New(rand.NewPCG(3, 3))
	for _, k := range []int{64, 32, 7, 1} {
		a := mill.NewAdditiveSig(mill.DefaultSigSeed, k)
		mask := ^uint64(0) >> (64 - k)
		for range 500 {
			w := r.IntN(10)
			own, opp := randomPosition(r, w, r.IntN(24-w))
			var want uint64
			for p := range mill.Point(mill.Points) {
				if a.Weight(p) != full.Weight(p)&mask {
					t.Fatalf("k = %d: weight of %v is %d, not the weight mod 2^64 reduced", k, p, a.Weight(p))
				}
				switch {
				case own>>p&1 != 0:
					want += a.Weight(p)
				case opp>>p&1 != 0:
					want -= a.Weight(p)
				}
			}
			if got := a.Sum(own, opp); got != want&mask || got > mask {
				t.Fatalf("k = %d, %s: Sum %d, want %d", k, pos(own, opp), got, want&mask)
			}
			if got := a.Sum(opp, own); got != -want&mask {
				t.Fatalf("k = %d, %s: the colour swap gives %d, want %d", k, pos(own, opp), got, -want&mask)
			}
		}
	}
	seen := map[uint64]bool{}
	for p := range mill.Point(mill.Points) {
		seen[full.Weight(p)] = true
	}
	if len(seen) != mill.Points {
		t.Fatal("two points have the same weight")
	}
	for _, k := range []int{0, 65} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewAdditiveSig(k = %d) did not panic", k)
				}
			}()
			mill.NewAdditiveSig(1, k)
		}()
	}
}

// TestPositions checks the enumeration of a sector's positions: count, order, stones.
func TestPositions(t *testing.T) {
	t.Parallel()
	for _, sc := range []sector{{0, 0}, {0, 2}, {2, 0}, {3, 3}, {1, 23}, {24, 0}, {13, 12}, {-1, 3}} {
		var n uint64
		var last uint64
		for own, opp := range mill.Positions(sc.w, sc.b) {
			key := uint64(own)<<24 | uint64(opp)
			if n > 0 && key <= last || bits.OnesCount32(own) != sc.w || bits.OnesCount32(opp) != sc.b ||
				own&opp != 0 || (own|opp)&^mill.Full != 0 {
				t.Fatalf("sector %v: position %d is %x, %x after %x", sc, n, own, opp, last)
			}
			n, last = n+1, key
		}
		want := uint64(0)
		if sc.w >= 0 && sc.b >= 0 && sc.w+sc.b <= 24 {
			want = binomial(24, sc.w) * binomial(24-sc.w, sc.b)
		}
		if n != want {
			t.Fatalf("sector %v: %d positions, want %d", sc, n, want)
		}
	}
	n := 0
	for range mill.Positions(3, 3) {
		if n++; n == 5 {
			break
		}
	}
}

func binomial(n, k int) uint64 {
	r := uint64(1)
	for i := range k {
		r = r * uint64(n-i) / uint64(i+1)
	}
	return r
}

func TestSignaturesDoNotAllocate(t *testing.T) {
	a := mill.NewAdditiveSig(mill.DefaultSigSeed, 64)
	own, opp := randomPosition(rand.New(rand.NewPCG(4, 4)), 5, 4)
	if n := testing.AllocsPerRun(100, func() {
		mill.CanonicalExactSig(own, opp).Apply(3).SwapColours().Position()
		a.Canonical(own, opp)
		a.Sum(own, opp)
	}); n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}

func BenchmarkCanonicalExactSig(b *testing.B) {
	benchKeys(b, func(_ *mill.Sector) func(own, opp uint32) uint64 {
		return func(own, opp uint32) uint64 { return uint64(mill.CanonicalExactSig(own, opp)) }
	})
}

func BenchmarkCanonicalAdditiveSig(b *testing.B) {
	a := mill.NewAdditiveSig(mill.DefaultSigSeed, 64)
	benchKeys(b, func(_ *mill.Sector) func(own, opp uint32) uint64 { return a.Canonical })
}

// BenchmarkCanonicalPlain is the package's Canonical: the 16 images without tables.
func BenchmarkCanonicalPlain(b *testing.B) {
	benchKeys(b, func(_ *mill.Sector) func(own, opp uint32) uint64 {
		return func(own, opp uint32) uint64 {
			o, p, _ := mill.Canonical(own, opp)
			return uint64(o)<<24 | uint64(p)
		}
	})
}

// benchKeys times the key function that mk makes for each bench sector.
func benchKeys(b *testing.B, mk func(*mill.Sector) func(own, opp uint32) uint64) {
	forBenchSectors(b, func(b *testing.B, s *mill.Sector, own, opp []uint32, _ []uint64) {
		key := mk(s)
		var sink uint64
		for b.Loop() {
			for i := range own {
				sink += key(own[i], opp[i])
			}
		}
		_ = sink
	})
}
