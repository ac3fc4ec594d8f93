package pipeline

import (
	"context"
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/milloracle"
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
	if testing.Short() {
		t.Skip("the oracle solves sector 3-3 single-threaded (the full run has it; -short is the race pass)")
	}
	t.Parallel()
	compareWithOracle(t, 6)
}
