package pipeline

import (
	"context"
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
)

// The tests of the tier orchestrator use Mühle as their real game (and a synthetic game of
// their own, tiers_toy_test.go).
var millGame = mill.Game{}

// millUpTo lists the sectors with at most n stones on the board.
func millUpTo(n int) []games.Tier {
	var out []games.Tier
	for _, t := range millGame.Tiers() {
		var w, b int
		if name := millGame.TierName(t); name != "" {
			parseWB(name, &w, &b)
		}
		if w+b <= n {
			out = append(out, t)
		}
	}
	return out
}

func parseWB(name string, w, b *int) {
	*w, *b = int(name[0]-'0'), int(name[2]-'0')
}

// millTiers parses sector names.
func millTiers(t testing.TB, names ...string) []games.Tier {
	t.Helper()
	var out []games.Tier
	for _, n := range names {
		tier, err := millGame.ParseTier(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tier)
	}
	return out
}

// millUnit is the unit holding sector name.
func millUnit(t testing.TB, name string) TierUnit {
	t.Helper()
	u, err := TierUnitOf(millGame, name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// buildMillUnit builds the unit holding sector name into dir.
func buildMillUnit(t testing.TB, dir, name string, workers int) (bool, error) {
	return BuildTierUnit(context.Background(), millGame, dir, millUnit(t, name), TierOptions{Workers: workers})
}

// buildMillUpTo builds every sector with at most n stones into dir.
func buildMillUpTo(ctx context.Context, dir string, n int, opt TierOptions) error {
	return TierSet(ctx, millGame, dir, TierPlan(millGame, millUpTo(n)), opt)
}
