package mill_test

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
)

// burnside counts the classes of sector (w, b) from the geometric symmetries: a symmetry
// with n[l] cycles of length l fixes Σ Π_l n[l]! / (a_l! b_l! (n[l]−a_l−b_l)!) placements,
// summed over the ways to pick a_l own and b_l opponent cycles of each length l with
// Σ l·a_l = w and Σ l·b_l = b. The cycles of the board symmetries have lengths 1, 2 and 4.
func burnside(w, b int) uint64 {
	total := new(big.Int)
	syms := geometricSyms()
	for _, perm := range syms {
		var n [5]int // n[l]: cycles of length l
		var seen [24]bool
		for p := range perm {
			l := 0
			for q := p; !seen[q]; q = perm[q] {
				seen[q], l = true, l+1
			}
			if l > 0 {
				n[l]++
			}
		}
		if n[1]+2*n[2]+4*n[4] != 24 {
			panic("cycle lengths other than 1, 2, 4")
		}
		multi := func(n, a, b int) *big.Int { // n! / (a! b! (n−a−b)!)
			if a+b > n {
				return new(big.Int)
			}
			x := new(big.Int).Binomial(int64(n), int64(a))
			return x.Mul(x, new(big.Int).Binomial(int64(n-a), int64(b)))
		}
		for a4 := 0; 4*a4 <= w; a4++ {
			for a2 := 0; 4*a4+2*a2 <= w; a2++ {
				a1 := w - 4*a4 - 2*a2
				for b4 := 0; 4*b4 <= b; b4++ {
					for b2 := 0; 4*b4+2*b2 <= b; b2++ {
						b1 := b - 4*b4 - 2*b2
						term := multi(n[1], a1, b1)
						term.Mul(term, multi(n[2], a2, b2))
						term.Mul(term, multi(n[4], a4, b4))
						total.Add(total, term)
					}
				}
			}
		}
	}
	return total.Div(total, big.NewInt(int64(len(syms)))).Uint64()
}

func TestClassCount(t *testing.T) {
	t.Parallel()
	if got := mill.ClassCount(3, 3); got != 169_626 {
		t.Errorf("ClassCount(3, 3) = %d, want 169626", got)
	}
	var total uint64
	for _, sc := range sectors(18) {
		got, want := mill.ClassCount(sc.w, sc.b), burnside(sc.w, sc.b)
		if got != want {
			t.Errorf("ClassCount(%v) = %d, Burnside from the grid %d", sc, got, want)
		}
		total += want
	}
	if got := mill.TotalClassCount(); got != total || total != 8_904_593_601 {
		t.Errorf("TotalClassCount() = %d, sum of Burnside counts %d, DESIGN says 8904593601", got, total)
	}
	for _, bad := range [][2]int{{-1, 3}, {3, -1}, {13, 12}} {
		if got := mill.ClassCount(bad[0], bad[1]); got != 0 {
			t.Errorf("ClassCount(%d, %d) = %d, want 0", bad[0], bad[1], got)
		}
	}
	if got, want := mill.ClassCount(0, 0), uint64(1); got != want {
		t.Errorf("ClassCount(0, 0) = %d", got)
	}
}

// TestSlotsAreClasses checks Slots() against the Burnside count for every sector (one
// slot per class) and logs slots per class.
func TestSlotsAreClasses(t *testing.T) {
	t.Parallel()
	for _, sc := range sectors(pick(13, 18, 18)) {
		s := mustSector(t, sc.w, sc.b)
		classes := burnside(sc.w, sc.b)
		if w, b := s.Stones(); s.Slots() != classes || w != sc.w || b != sc.b {
			t.Errorf("sector %v: %d slots, %d classes (Stones %d-%d)", sc, s.Slots(), classes, w, b)
		}
		t.Logf("sector %v: %d slots, %d classes, %.4f slots per class", sc, s.Slots(), classes,
			float64(s.Slots())/float64(classes))
	}
}

func TestNewSectorErrors(t *testing.T) {
	t.Parallel()
	for _, bad := range [][2]int{{2, 3}, {3, 2}, {10, 3}, {3, 10}, {0, 0}} {
		if s, err := mill.NewSector(bad[0], bad[1]); err == nil || s != nil {
			t.Errorf("NewSector(%d, %d) = %v, %v; want an error", bad[0], bad[1], s, err)
		}
	}
}

// checkSlot unranks slot and checks that it gives a canonical position of the sector
// whose images all rank back to slot; it returns the number of distinct images (the size
// of the class).
func checkSlot(t *testing.T, s *mill.Sector, slot uint64) int {
	t.Helper()
	own, opp := s.Unrank(slot)
	w, b := s.Stones()
	if bits.OnesCount32(own) != w || bits.OnesCount32(opp) != b || own&opp != 0 || (own|opp)&^mill.Full != 0 {
		t.Fatalf("sector %d-%d: Unrank(%d) = %x, %x is no position of the sector", w, b, slot, own, opp)
	}
	if co, cp := bruteCanonical(own, opp); co != own || cp != opp {
		t.Fatalf("sector %d-%d: Unrank(%d) = %s, not canonical (%s)", w, b, slot, pos(own, opp), pos(co, cp))
	}
	var seen [mill.NumSyms][2]uint32
	distinct := 0
	for g := range mill.Sym(mill.NumSyms) {
		o, p := g.Apply(own), g.Apply(opp)
		if got := s.Rank(o, p); got != slot {
			t.Fatalf("sector %d-%d: slot %d = %s, but its image %s under Sym %d ranks %d",
				w, b, slot, pos(own, opp), pos(o, p), g, got)
		}
		if co, cp := s.Canonical(o, p); co != own || cp != opp {
			t.Fatalf("sector %d-%d: Canonical(%s) = %s, want %s", w, b, pos(o, p), pos(co, cp), pos(own, opp))
		}
		dup := false
		for _, x := range seen[:distinct] {
			dup = dup || x == [2]uint32{o, p}
		}
		if !dup {
			seen[distinct] = [2]uint32{o, p}
			distinct++
		}
	}
	return distinct
}

// TestRankAllSlots walks every slot of the small sectors (w+b ≤ 8; ≤ 7 with -short):
// each unranks to a canonical position whose 16 images rank back to the slot. The class
// sizes add up to all C(24, w)·C(24−w, b) positions, so every position of the sector
// lies in exactly one slot's class: all positions' images share their slot.
func TestRankAllSlots(t *testing.T) {
	t.Parallel()
	eachSector(t, pick(7, 8, 10), func(t *testing.T, sc sector, _ *rand.Rand) {
		s := mustSector(t, sc.w, sc.b)
		var positions uint64
		for slot := range s.Slots() {
			positions += uint64(checkSlot(t, s, slot))
		}
		want := new(big.Int).Binomial(24, int64(sc.w))
		want.Mul(want, new(big.Int).Binomial(int64(24-sc.w), int64(sc.b)))
		if positions != want.Uint64() {
			t.Fatalf("sector %v: the classes of the slots hold %d positions, want %v", sc, positions, want)
		}
	})
}

// TestRankRandom checks random slots and random positions of every sector.
func TestRankRandom(t *testing.T) {
	t.Parallel()
	count := pick(200, 2000, 200_000)
	eachSector(t, 18, func(t *testing.T, sc sector, r *rand.Rand) {
		s := mustSector(t, sc.w, sc.b)
		edges := []uint64{0, 1, s.Slots() - 1, s.Slots() / 2}
		for i := range count {
			slot := r.Uint64N(s.Slots())
			if i < len(edges) {
				slot = edges[i]
			}
			checkSlot(t, s, slot)
			own, opp := randomPosition(r, sc.w, sc.b)
			slot = s.Rank(own, opp)
			if slot >= s.Slots() {
				t.Fatalf("Rank(%s) = %d, beyond %d slots", pos(own, opp), slot, s.Slots())
			}
			co, cp := s.Unrank(slot)
			if wo, wp := bruteCanonical(own, opp); co != wo || cp != wp {
				t.Fatalf("Unrank(Rank(%s)) = %s, want its canonical form %s", pos(own, opp), pos(co, cp), pos(wo, wp))
			}
		}
	})
}

// TestRankDoesNotAllocate checks the hot paths of a sector for allocations.
func TestRankDoesNotAllocate(t *testing.T) {
	s := mustSector(t, 5, 4)
	own, opp := randomPosition(rand.New(rand.NewPCG(6, 6)), 5, 4)
	if n := testing.AllocsPerRun(100, func() {
		slot := s.Rank(own, opp)
		o, p := s.Unrank(slot)
		s.Canonical(o, p)
		s.Unrank(s.Slots() - 1)
	}); n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}

// TestRankSmallBoards walks every slot of the boards of placement sectors that moving-phase
// sectors do not have (a side with fewer than 3 stones on the board), w+b ≤ 7: the same
// checks as TestRankAllSlots.
func TestRankSmallBoards(t *testing.T) {
	t.Parallel()
	for w := 0; w <= 5; w++ {
		for b := 0; b <= 5; b++ {
			if w >= mill.MinStones && b >= mill.MinStones || w+b > 7 {
				continue
			}
			sp, err := mill.NewSectorSpace(w, b, 4, 4)
			if err != nil {
				t.Fatal(err)
			}
			s := sp.Sector()
			var positions uint64
			for slot := range s.Slots() {
				positions += uint64(checkSlot(t, s, slot))
			}
			want := new(big.Int).Binomial(24, int64(w))
			want.Mul(want, new(big.Int).Binomial(int64(24-w), int64(b)))
			if positions != want.Uint64() || s.Slots() != mill.ClassCount(w, b) {
				t.Fatalf("board %d-%d: %d slots holding %d positions, want %d classes holding %v", w, b, s.Slots(), positions, mill.ClassCount(w, b), want)
			}
		}
	}
}
