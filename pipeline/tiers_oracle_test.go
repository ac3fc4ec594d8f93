package pipeline

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games"

	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/milloracle"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

// compareWithOracle builds every sector with at most maxStones stones and checks the value
// and remoteness of every raw position of each — both colours to move — against the
// independent oracle (internal/milloracle), which shares nothing with the solver but the
// rules.
func compareWithOracle(t *testing.T, maxStones int) {
	t.Helper()
	orc, err := milloracle.Solve(maxStones)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := buildMillUpTo(context.Background(), dir, maxStones, TierOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	for w := mill.MinStones; w <= mill.MaxStones; w++ {
		for b := mill.MinStones; b <= mill.MaxStones && w+b <= maxStones; b++ {
			name := mill.SectorName(w, b)
			tab, ok := set.Tier(name)
			if !ok {
				t.Fatalf("sector %s was not built", name)
			}
			codes := make([]uint32, tab.Meta().Slots)
			if err := tab.Reader().Codes(codes, 0); err != nil {
				t.Fatal(err)
			}
			sec, _ := mill.NewSector(w, b)
			var positions, wrong int
			for own, opp := range milloracle.Positions(w, b) {
				o, r, _ := (values.WDLCodes{}).Decode(codes[sec.Rank(own, opp)])
				for _, whiteToMove := range []bool{true, false} {
					white, black := own, opp
					if !whiteToMove {
						white, black = opp, own
					}
					ov, or := orc.Value(white, black, whiteToMove)
					positions++
					if o.String() != ov.String() || (o != values.Draw && r != or) {
						if wrong < 5 {
							t.Errorf("sector %s: %v: solver %v in %d, oracle %v in %d", name,
								mill.Position{White: white, Black: black, ToMove: map[bool]mill.Color{true: mill.White, false: mill.Black}[whiteToMove]},
								o, r, ov, or)
						}
						wrong++
					}
				}
			}
			if wrong > 0 {
				t.Fatalf("sector %s: %d of %d positions differ from the oracle", name, wrong, positions)
			}
			t.Logf("sector %s: all %d raw positions (both colours to move) agree with the oracle", name, positions)
		}
	}
}

// TestMillAgreesWithOracle33 compares every position of sector 3-3.
func TestMillAgreesWithOracle33(t *testing.T) {
	racetest.SkipSlow(t, "builds sector 3-3 and its oracle, slow")
	if testing.Short() {
		t.Skip("the oracle solves sector 3-3 single-threaded (the full run has it; -short is the race pass)")
	}
	t.Parallel()
	compareWithOracle(t, 6)
}

// compareGameWithOracle builds the whole game of n stones a side from its empty board
// (`build mill --stones n`: placement sectors and the moving-phase sectors they lead
// into) and checks every raw position of every sector — both colours to move in the
// moving phase, the colour the hands say in the placement phase — against the independent
// oracle's whole game (internal/milloracle), which shares nothing with the solver but the
// rules. Sectors with more than sample raw positions are checked on sample random ones.
func compareGameWithOracle(t *testing.T, n, sample int) {
	t.Helper()
	orc, err := milloracle.SolveGame(n, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := mill.Game{}
	start, err := g.ParseTier(fmt.Sprintf("0-0-%d-%d", n, n))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := BuildTierSet(context.Background(), g, dir, TierPlan(g, []games.Tier{start}), TierOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	rng := rand.New(rand.NewPCG(uint64(n), 99))
	var checked int
	for _, name := range set.TierNames() {
		tab, _ := set.Tier(name)
		var w, b, wh, bh int
		fmt.Sscanf(strings.ReplaceAll(name, "-", " "), "%d %d %d %d", &w, &b, &wh, &bh)
		sp, err := mill.NewSectorSpace(w, b, wh, bh)
		if err != nil {
			t.Fatal(err)
		}
		codes := make([]uint32, tab.Meta().Slots)
		if err := tab.Reader().Codes(codes, 0); err != nil {
			t.Fatal(err)
		}
		// The colours to move: the hands say it in the placement phase.
		colours := []bool{true, false}
		if wh != bh {
			colours = []bool{false}
		} else if wh > 0 {
			colours = []bool{true}
		}
		var positions, wrong int
		check := func(own, opp uint32) {
			o, r, _ := (values.WDLCodes{}).Decode(codes[sp.Sector().Rank(own, opp)])
			for _, whiteToMove := range colours {
				white, black, wHand, bHand := own, opp, wh, bh
				if !whiteToMove {
					white, black, wHand, bHand = opp, own, bh, wh
				}
				ov, or := orc.Value(white, black, wHand, bHand, whiteToMove)
				positions++
				if o.String() != ov.String() || (o != values.Draw && r != or) {
					if wrong < 5 {
						t.Errorf("sector %s: %v: solver %v in %d, oracle %v in %d", name,
							mill.Position{White: white, Black: black, WhiteHand: wHand, BlackHand: bHand,
								ToMove: map[bool]mill.Color{true: mill.White, false: mill.Black}[whiteToMove]}, o, r, ov, or)
					}
					wrong++
				}
			}
		}
		raw := binomial(24, w) * binomial(24-w, b)
		if raw <= sample {
			for own, opp := range milloracle.Positions(w, b) {
				check(own, opp)
			}
		} else {
			for range sample {
				own, opp := randomBoard(rng, w, b)
				check(own, opp)
			}
		}
		if wrong > 0 {
			t.Fatalf("sector %s: %d of %d positions differ from the oracle", name, wrong, positions)
		}
		checked += positions
	}
	sv, sr := orc.Start()
	a, err := set.Lookup(fmt.Sprintf("........................ W W:%d B:%d", n, n))
	if err != nil || a.Outcome.String() != sv.String() || (sv.String() != "draw" && a.Remoteness != sr) {
		t.Fatalf("the empty board: solver %+v (%v), oracle %v in %d", a, err, sv, sr)
	}
	t.Logf("%d stones a side: %d sectors, %d raw positions agree with the oracle; the empty board is a %v (%d)",
		n, len(set.TierNames()), checked, sv, sr)
}

func binomial(n, k int) int {
	r := 1
	for i := range k {
		r = r * (n - i) / (i + 1)
	}
	return r
}

// randomBoard places w stones of the side to move and b of the opponent at random.
func randomBoard(rng *rand.Rand, w, b int) (own, opp uint32) {
	for bits.OnesCount32(own) < w {
		own |= 1 << rng.IntN(24)
	}
	for bits.OnesCount32(opp) < b {
		if p := uint32(1) << rng.IntN(24); p&own == 0 {
			opp |= p
		}
	}
	return own, opp
}

// TestMillGameAgreesWithOracle: the whole game of 3 stones a side, from the empty board,
// against the oracle (4 and 5 stones: `make test-long`).
func TestMillGameAgreesWithOracle(t *testing.T) {
	racetest.SkipSlow(t, "builds the 3-stone game and its oracle, slow")
	if testing.Short() {
		t.Skip("solves a whole game with the oracle (the full run has it; -short is the race pass)")
	}
	t.Parallel()
	compareGameWithOracle(t, 3, 200_000)
}
