package hanoi

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games/gametest"
)

// forEachState calls f with every state of k pegs and n disks, in base-k order (disk 1
// least significant). f must not keep st.
func forEachState(k, n int, f func(st []uint8)) {
	st := make([]uint8, n)
	for {
		f(st)
		i := 0
		for i < n && int(st[i]) == k-1 {
			st[i] = 0
			i++
		}
		if i == n {
			return
		}
		st[i]++
	}
}

// small lists the (pegs, disks) sizes checked exhaustively: at most 6^6 states each.
func small() [][2]int {
	var out [][2]int
	for k, maxN := range map[int]int{3: 9, 4: 7, 5: 6, 6: 6} {
		for n := 1; n <= maxN; n++ {
			out = append(out, [2]int{k, n})
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int { return (a[0]*100 + a[1]) - (b[0]*100 + b[1]) })
	return out
}

func mustSpace(t testing.TB, k, n int, index string) *Space {
	t.Helper()
	sp, err := NewSpace(Params{Pegs: k, Disks: n, Index: index})
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func TestClassCountClosedForms(t *testing.T) {
	t.Parallel()
	for n := 0; n <= 32; n++ {
		p3 := new(big.Int).Exp(big.NewInt(3), big.NewInt(int64(n)), nil)
		want3 := p3.Add(p3, big.NewInt(1)).Rsh(p3, 1).Uint64()
		if got := ClassCount(3, n); got != want3 {
			t.Errorf("ClassCount(3, %d) = %d, want (3^n+1)/2 = %d", n, got, want3)
		}
		p4 := new(big.Int).Lsh(big.NewInt(1), uint(2*n))
		p4.Add(p4, new(big.Int).Lsh(big.NewInt(3), uint(n)))
		want4 := p4.Add(p4, big.NewInt(2)).Div(p4, big.NewInt(6)).Uint64()
		if got := ClassCount(4, n); got != want4 {
			t.Errorf("ClassCount(4, %d) = %d, want (4^n+3·2^n+2)/6 = %d", n, got, want4)
		}
	}
	if got := ClassCount(3, 20); got != 1_743_392_201 {
		t.Errorf("ClassCount(3, 20) = %d", got)
	}
	for _, bad := range [][2]int{{2, 3}, {7, 3}, {3, -1}, {6, 40}} {
		if got := ClassCount(bad[0], bad[1]); got != 0 {
			t.Errorf("ClassCount(%d, %d) = %d, want 0", bad[0], bad[1], got)
		}
	}
}

// TestSchemes checks every scheme exhaustively on small sizes: the class count against
// brute-force enumeration, rank/unrank as a bijection between classes (plain: states)
// and non-hole slots, the number of holes, and the goal's slot.
func TestSchemes(t *testing.T) {
	t.Parallel()
	for _, kn := range small() {
		k, n := kn[0], kn[1]
		for _, index := range SchemeNames() {
			t.Run(fmt.Sprintf("%s/k%d/n%d", index, k, n), func(t *testing.T) {
				t.Parallel()
				checkScheme(t, mustSpace(t, k, n, index))
			})
		}
	}
}

func checkScheme(t *testing.T, sp *Space) {
	k, n := sp.k, sp.n
	seen := map[string]bool{}
	back := make([]uint8, n)
	canon := make([]uint8, n)
	forEachState(k, n, func(st []uint8) {
		canon, _ = Canonical(canon, st, k)
		seen[Format(canon)] = true
		slot := sp.Rank(st)
		if slot >= sp.Slots() || sp.IsHole(slot) {
			t.Fatalf("Rank(%s) = %d: hole or out of range (slots %d)", Format(st), slot, sp.Slots())
		}
		if !sp.Unrank(slot, back) {
			t.Fatalf("Unrank(Rank(%s) = %d) failed", Format(st), slot)
		}
		want := canon
		if sp.scheme == plain {
			want = st
		}
		if !slices.Equal(back, want) {
			t.Fatalf("Unrank(Rank(%s) = %d) = %s, want %s", Format(st), slot, Format(back), Format(want))
		}
	})
	if got := ClassCount(k, n); got != uint64(len(seen)) {
		t.Fatalf("ClassCount(%d, %d) = %d, brute force %d", k, n, got, len(seen))
	}
	holes := uint64(0)
	for slot := range sp.Slots() {
		ok := sp.Unrank(slot, back)
		if ok == sp.IsHole(slot) {
			t.Fatalf("slot %d: Unrank ok %v, IsHole %v", slot, ok, sp.IsHole(slot))
		}
		if !ok {
			holes++
			continue
		}
		if got := sp.Rank(back); got != slot {
			t.Fatalf("Rank(Unrank(%d) = %s) = %d", slot, Format(back), got)
		}
		if sp.scheme != plain && !IsCanonical(back, k) {
			t.Fatalf("Unrank(%d) = %s is not canonical", slot, Format(back))
		}
	}
	want := map[scheme]uint64{classes: 0, seed: sp.Slots() - ClassCount(k, n), plain: 0}[sp.scheme]
	if holes != want {
		t.Fatalf("%d holes, want %d", holes, want)
	}
	if sp.ExpectedStates() != sp.Slots()-holes {
		t.Fatalf("ExpectedStates %d, want %d", sp.ExpectedStates(), sp.Slots()-holes)
	}
	goal := slices.Repeat([]uint8{uint8(k - 1)}, n)
	if g := sp.Goals(); len(g) != 1 || g[0] != sp.Rank(goal) {
		t.Fatalf("Goals() = %v, Rank(goal) = %d", g, sp.Rank(goal))
	}
	if sp.Unrank(sp.Slots(), back) || !sp.IsHole(sp.Slots()) {
		t.Fatal("slot Slots() is not out of range")
	}
}

// naiveNeighbors lists the slots one move away from slot by unranking, making every legal
// move in the canonical state's labels, and ranking (which canonicalises).
func naiveNeighbors(sp *Space, slot uint64) []uint64 {
	st := make([]uint8, sp.n)
	if !sp.Unrank(slot, st) {
		return nil
	}
	var out []uint64
	top := tops(st)
	for a := range sp.k {
		i := top[a]
		if i == sp.n {
			continue
		}
		for b := range sp.k {
			if b != a && top[b] > i {
				st[i] = uint8(b)
				out = append(out, sp.Rank(st))
				st[i] = uint8(a)
			}
		}
	}
	return out
}

// TestExpander compares the expander's fast, incremental moves with naiveNeighbors on
// every slot of the small sizes (as sets: the expander tries one empty peg only).
func TestExpander(t *testing.T) {
	t.Parallel()
	for _, kn := range small() {
		k, n := kn[0], kn[1]
		for _, index := range SchemeNames() {
			t.Run(fmt.Sprintf("%s/k%d/n%d", index, k, n), func(t *testing.T) {
				t.Parallel()
				sp := mustSpace(t, k, n, index)
				exp := sp.NewExpander()
				// The expander decodes incrementally from the slot before: visit every
				// slot in increasing, decreasing and random order.
				order := make([]uint64, 0, 3*sp.Slots())
				for slot := range sp.Slots() {
					order = append(order, slot)
				}
				for slot := range sp.Slots() {
					order = append(order, sp.Slots()-1-slot)
				}
				r := rand.New(rand.NewPCG(uint64(k), uint64(n)))
				for range sp.Slots() {
					order = append(order, r.Uint64N(sp.Slots()))
				}
				var got []uint64
				for _, slot := range order {
					got = exp(got[:0], []uint64{slot})
					// A move between two empty pegs leaves the class as it is: the
					// slot itself may or may not be listed.
					self := func(x uint64) bool { return x == slot }
					naive := naiveNeighbors(sp, slot)
					want := slices.DeleteFunc(slices.Clone(naive), self)
					naiveSelf := len(naive) - len(want)
					slices.Sort(want)
					want = slices.Compact(want)
					g := slices.DeleteFunc(slices.Clone(got), self)
					gotSelf := len(got) - len(g)
					slices.Sort(g)
					repeated := len(slices.Compact(slices.Clone(g))) != len(g)
					g = slices.Compact(g)
					if len(g) != len(got) && index == SchemePlain {
						t.Fatalf("slot %d: repeated neighbours %v", slot, got)
					}
					// The classes expander lists each neighbour once, and itself no more
					// often than the moves that keep the class (every empty peg tried).
					if index == SchemeClasses && (repeated || gotSelf > naiveSelf) {
						t.Fatalf("slot %d: %v lists a neighbour twice or itself %d times (moves to itself: %d)", slot, got, gotSelf, naiveSelf)
					}
					if !slices.Equal(g, want) {
						t.Fatalf("slot %d: expander %v, want %v", slot, got, want)
					}
				}
				// A batch is the concatenation of single expansions.
				all := make([]uint64, 0, sp.Slots())
				for s := range sp.Slots() {
					all = append(all, s)
				}
				var single []uint64
				for _, s := range all {
					single = exp(single, []uint64{s})
				}
				if batch := exp(nil, all); !slices.Equal(batch, single) {
					t.Fatal("batch expansion differs from single expansions")
				}
			})
		}
	}
}

func TestNewSpace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p   Params
		err string
	}{
		{Params{Pegs: 3, Disks: 20}, ""},
		{Params{Pegs: 3, Disks: 32, Index: SchemeSeed}, ""},
		{Params{Pegs: 4, Disks: 32}, ""},
		{Params{Pegs: 4, Disks: 31, Index: SchemePlain}, ""},
		{Params{Pegs: 4, Disks: 32, Index: SchemePlain}, "plain scheme with 4 pegs holds at most 31 disks"},
		{Params{Pegs: 6, Disks: 25, Index: SchemeSeed}, "seed scheme with 6 pegs holds at most 24 disks"},
		{Params{Pegs: 6, Disks: 32}, "classes scheme with 6 pegs holds at most"},
		{Params{Pegs: 3, Disks: 4, Index: "zobrist"}, `unknown index scheme "zobrist" (want one of classes, seed, plain)`},
		{Params{Pegs: 2, Disks: 4}, "2 pegs"},
		{Params{Pegs: 7, Disks: 4}, "7 pegs"},
		{Params{Pegs: 3, Disks: 0}, "0 disks"},
		{Params{Pegs: 3, Disks: 33}, "33 disks"},
	}
	for _, tt := range tests {
		sp, err := NewSpace(tt.p)
		if tt.err == "" {
			if err != nil {
				t.Errorf("NewSpace(%+v): %v", tt.p, err)
			} else if sp.Params().Index == "" {
				t.Errorf("NewSpace(%+v).Params() has no index", tt.p)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("NewSpace(%+v) error = %v, want one containing %q", tt.p, err, tt.err)
		}
	}
	// The largest spaces still rank and unrank at their extremes.
	for _, p := range []Params{{3, 32, SchemeClasses}, {4, 32, SchemeClasses}, {4, 31, SchemePlain}, {6, 24, SchemeSeed}} {
		sp, err := NewSpace(p)
		if err != nil {
			t.Fatal(err)
		}
		st := make([]uint8, p.Disks)
		last := sp.Slots() - 1
		if p.Index == SchemeSeed {
			// The largest seed slot (all digits k−1) is a hole; the largest canonical
			// state has codes 1, 2, …, k−1, k−1, … from the largest disk down.
			if !sp.IsHole(last) {
				t.Errorf("%+v: slot %d is no hole", p, last)
			}
			last = 0
			for i := p.Disks - 1; i >= 0; i-- {
				last += uint64(min(p.Disks-i, p.Pegs-1)) * pow(p.Pegs, i)
			}
		}
		for _, slot := range []uint64{0, last} {
			if !sp.Unrank(slot, st) || sp.Rank(st) != slot {
				t.Errorf("%+v: slot %d does not round-trip (%s)", p, slot, Format(st))
			}
		}
		if b := sp.DepthBound(); (p.Pegs == 3) != (b == 1<<p.Disks-1) || b > 1<<p.Disks-1 {
			t.Errorf("%+v: DepthBound %d", p, b)
		}
	}
}

func TestFrameStewart(t *testing.T) {
	t.Parallel()
	want := map[int][]uint64{
		3: {0, 1, 3, 7, 15, 31, 63, 127},
		4: {0, 1, 3, 5, 9, 13, 17, 25, 33, 41, 49, 65, 81, 97, 113, 129, 161},
		5: {0, 1, 3, 5, 7, 11, 15, 19, 23, 27, 31, 39, 47, 55, 63, 71, 79},
	}
	for k, w := range want {
		for n, fs := range w {
			if got := FrameStewart(k, n); got != fs {
				t.Errorf("FrameStewart(%d, %d) = %d, want %d", k, n, got, fs)
			}
		}
	}
	if FrameStewart(3, 32) != 1<<32-1 || FrameStewart(2, 3) != 0 || FrameStewart(4, 33) != 0 {
		t.Error("FrameStewart out of range")
	}
	// The depth bound: 2^n − 1 for 3 pegs, Σ (1 + FS) in general.
	if got := mustSpace(t, 4, 16, "").DepthBound(); got != 697 {
		t.Errorf("4 × 16 DepthBound %d, want 697", got)
	}
	for n := 1; n <= MaxDisks; n++ {
		if got := depthBound(3, n); got != 1<<n-1 {
			t.Errorf("depthBound(3, %d) = %d", n, got)
		}
	}
}

// TestSpacesKeepTheirPromises: under every scheme, with and without holes, the Hanoi
// spaces pass the puzzle-space contract (package gametest): goals and neighbours inside
// the space and on states, and every move undone by a move back, as a lean two-bit
// search that pulls relies on.
func TestSpacesKeepTheirPromises(t *testing.T) {
	t.Parallel()
	for _, pegs := range []int{3, 4, 5} {
		for _, scheme := range []string{SchemeClasses, SchemeSeed, SchemePlain} {
			sp, err := NewSpace(Params{Pegs: pegs, Disks: 6, Index: scheme})
			if err != nil {
				t.Fatal(err)
			}
			gametest.CheckPuzzleSpace(t, sp, 4000)
		}
	}
}
