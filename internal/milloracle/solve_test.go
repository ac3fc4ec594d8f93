package milloracle

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
)

// solved6 is the result for every position with at most 6 stones (sector
// 3-3), computed once for the tests that need it.
var solved6 = sync.OnceValues(func() (*Result, error) { return Solve(6) })

func result6(t *testing.T) *Result {
	t.Helper()
	r, err := solved6()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSector33Published checks the published counts of sector 3-3 over the
// symmetry classes (Gasser 1996; the side to move taken as White).
func TestSector33Published(t *testing.T) {
	t.Parallel()
	r := result6(t)
	got, err := r.ClassStats(3, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{Mover: 3, Opp: 3, Positions: 169626, Wins: 140621, Losses: 28736, Draws: 269, MaxWin: 25, MaxLoss: 26}
	if got != want {
		t.Errorf("sector 3-3 classes:\n got %v\nwant %v", got, want)
	}
	t.Logf("classes %v", got)
	raw, err := r.RawStats(3, 3)
	if err != nil {
		t.Fatal(err)
	}
	if raw.Positions != 2*binom[24][3]*binom[21][3] || raw.MaxWin != 25 || raw.MaxLoss != 26 {
		t.Errorf("sector 3-3 raw: %v", raw)
	}
	t.Logf("raw %v", raw)
}

// checkColourSymmetry checks that the tables solved for White to move and for
// Black to move agree position by position: nothing in the solve relates them.
func checkColourSymmetry(t *testing.T, r *Result, mover, opp int) {
	t.Helper()
	bad := 0
	for m, o := range Positions(mover, opp) {
		vw, rw := r.Value(m, o, true)
		vb, rb := r.Value(o, m, false)
		if vw != vb || rw != rb {
			if bad++; bad <= 5 {
				t.Errorf("sector %d-%d: mover %#x opp %#x: %v %d with White to move, %v %d with Black",
					mover, opp, m, o, vw, rw, vb, rb)
			}
		}
	}
	if bad > 0 {
		t.Errorf("sector %d-%d: %d positions differ between the colours", mover, opp, bad)
	}
}

func TestColourSymmetry(t *testing.T) {
	t.Parallel()
	checkColourSymmetry(t, result6(t), 3, 3)
}

// randomPosition returns a random raw position of the sector (mover, opp)
// and a random side to move, as white and black masks.
func randomPosition(rng *rand.Rand, mover, opp int) (white, black uint32, whiteToMove bool) {
	perm := rng.Perm(NumPoints)
	var m, o uint32
	for _, i := range perm[:mover] {
		m |= 1 << i
	}
	for _, i := range perm[mover : mover+opp] {
		o |= 1 << i
	}
	if rng.IntN(2) == 0 {
		return m, o, true
	}
	return o, m, false
}

// checkBoardSymmetry checks that the 16 images of random positions have one
// value.
func checkBoardSymmetry(t *testing.T, r *Result, mover, opp, n int, rng *rand.Rand) {
	t.Helper()
	for range n {
		white, black, wtm := randomPosition(rng, mover, opp)
		v, rem := r.Value(white, black, wtm)
		for s := range NumSymmetries {
			if sv, srem := r.Value(mapMask(s, white), mapMask(s, black), wtm); sv != v || srem != rem {
				t.Errorf("white %#x black %#x (White to move %v): %v %d, image under %d: %v %d",
					white, black, wtm, v, rem, s, sv, srem)
			}
		}
	}
}

func TestBoardSymmetry(t *testing.T) {
	t.Parallel()
	checkBoardSymmetry(t, result6(t), 3, 3, 20000, rand.New(rand.NewPCG(3, 4)))
}

// definition returns the value of a position from the stored values of its
// successors, as the rules define it.
func definition(t *testing.T, r *Result, white, black uint32, whiteToMove bool) (Value, int) {
	t.Helper()
	mover, opp := white, black
	if !whiteToMove {
		mover, opp = black, white
	}
	succs := successors(mover, opp, nil)
	if len(succs) == 0 {
		return Loss, 0
	}
	var by byDefinition
	for _, s := range succs {
		nw, nb := s.toMove, s.moved
		if whiteToMove {
			nw, nb = s.moved, s.toMove
		}
		v, rem, err := r.Lookup(nw, nb, !whiteToMove)
		if err != nil {
			t.Fatalf("successor of white %#x black %#x: %v", white, black, err)
		}
		by.add(v, rem)
	}
	return by.value(len(succs))
}

// byDefinition gathers the values of a position's successors and gives the position's
// value as the rules define it: a win in 1 + the least remoteness of a successor lost by
// the opponent, else a loss in 1 + the largest remoteness when every successor is won by
// the opponent, else a draw. The tests' own copy of the rule, apart from the solver's.
type byDefinition struct {
	minLoss, maxWin, wins int
	started               bool
}

func (b *byDefinition) add(v Value, rem int) {
	if !b.started {
		b.minLoss, b.maxWin, b.started = -1, -1, true
	}
	switch v {
	case Loss:
		if b.minLoss < 0 || rem < b.minLoss {
			b.minLoss = rem
		}
	case Win:
		b.wins++
		b.maxWin = max(b.maxWin, rem)
	}
}

func (b *byDefinition) value(successors int) (Value, int) {
	switch {
	case !b.started:
		return Loss, 0 // no move
	case b.minLoss >= 0:
		return Win, 1 + b.minLoss
	case b.wins == successors:
		return Loss, 1 + b.maxWin
	}
	return Draw, 0
}

// checkConsistency checks n random positions of the sector (mover, opp), and
// the decided ones among them more, against the definition.
func checkConsistency(t *testing.T, r *Result, mover, opp, n int, rng *rand.Rand) {
	t.Helper()
	seen := Stats{Mover: mover, Opp: opp}
	for range n {
		white, black, wtm := randomPosition(rng, mover, opp)
		v, rem := r.Value(white, black, wtm)
		seen.add(v, rem)
		if dv, drem := definition(t, r, white, black, wtm); dv != v || drem != rem {
			t.Errorf("white %#x black %#x White to move %v: stored %v %d, definition %v %d",
				white, black, wtm, v, rem, dv, drem)
		}
	}
	if seen.Wins == 0 || seen.Losses == 0 {
		t.Logf("sample with no win or no loss: %v", seen)
	}
}

func TestConsistency(t *testing.T) {
	t.Parallel()
	r := result6(t)
	rng := rand.New(rand.NewPCG(5, 6))
	checkConsistency(t, r, 3, 3, 20000, rng)
	// Every draw, and the longest wins and losses, are rare in a random
	// sample: check all of those too.
	for m, o := range Positions(3, 3) {
		for _, wtm := range []bool{true, false} {
			white, black := m, o
			if !wtm {
				white, black = o, m
			}
			v, rem := r.Value(white, black, wtm)
			if v != Draw && rem < 23 {
				continue
			}
			if dv, drem := definition(t, r, white, black, wtm); dv != v || drem != rem {
				t.Errorf("white %#x black %#x White to move %v: stored %v %d, definition %v %d",
					white, black, wtm, v, rem, dv, drem)
			}
		}
	}
}

func TestValues(t *testing.T) {
	t.Parallel()
	r := result6(t)
	tests := []struct {
		name         string
		white, black []int
		whiteToMove  bool
		want         Value
		remoteness   int
	}{
		// White flies 9-3, closing 1-2-3, and takes a stone: Black has 2.
		{"mill in one", []int{1, 2, 9}, []int{17, 18, 20}, true, Win, 1},
		{"mill in one, Black", []int{17, 18, 20}, []int{1, 2, 9}, false, Win, 1},
		// The side to move with 2 stones has lost (not stored: implied).
		{"two stones to move", []int{1, 2}, []int{17, 18, 20}, true, Loss, 0},
		{"two stones to move, Black", []int{4, 5, 6}, []int{1, 2}, false, Loss, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, rem, err := r.Lookup(maskOf(tc.white...), maskOf(tc.black...), tc.whiteToMove)
			if err != nil || v != tc.want || rem != tc.remoteness {
				t.Errorf("got %v %d (%v), want %v %d", v, rem, err, tc.want, tc.remoteness)
			}
		})
	}
}

func TestLookupErrors(t *testing.T) {
	t.Parallel()
	r := result6(t)
	tests := []struct {
		name         string
		white, black uint32
		whiteToMove  bool
	}{
		{"overlap", maskOf(1, 2, 3), maskOf(3, 4, 5), true},
		{"point 25", maskOf(1, 2, 3) | 1<<24, maskOf(4, 5, 6), true},
		{"opponent has 2", maskOf(1, 2, 3), maskOf(4, 5), true},
		{"beyond the bound", maskOf(1, 2, 3, 9), maskOf(4, 5, 6), true},
		{"ten stones", maskOf(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), maskOf(11, 12, 13), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, _, err := r.Lookup(tc.white, tc.black, tc.whiteToMove); !errors.Is(err, ErrPosition) {
				t.Errorf("Lookup: err %v, want ErrPosition", err)
			}
		})
	}
	if _, err := r.ClassStats(3, 4); !errors.Is(err, ErrPosition) {
		t.Errorf("ClassStats(3, 4) beyond the bound: err %v", err)
	}
	if _, err := Solve(5); err == nil {
		t.Errorf("Solve(5): no error")
	}
}
