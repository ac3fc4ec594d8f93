package mill_test

import (
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games"

	"github.com/tablesmith/tablesmith/games/mill"
)

// TestTieredConformance: Mühle's sectors as a graph of tiers agree with its moves and
// un-moves (games/gametest), on 16 positions of every sector of the whole game.
func TestTieredConformance(t *testing.T) {
	t.Parallel()
	g := mill.Game{}
	tiers := g.Tiers()
	moving, placement := 0, 0
	var classes [2]uint64
	for _, tier := range tiers {
		if strings.Count(g.TierName(tier), "-") == 1 {
			moving++
			classes[0] += g.TierSize(tier)
		} else {
			placement++
			classes[1] += g.TierSize(tier)
		}
	}
	t.Logf("%d moving sectors (%d classes), %d placement sectors (%d classes)", moving, classes[0], placement, classes[1])
	if moving != 49 || classes[0] != mill.TotalClassCount() || placement == 0 || tiers[len(tiers)-1] != mustTier(t, g, "0-0-9-9") {
		t.Fatalf("%d moving sectors of %d classes, %d placement sectors", moving, classes[0], placement)
	}
	// The whole tier contract (package gametest) runs on every registered game in
	// games/registry's TestTieredGamesConform.
}

func mustTier(t *testing.T, g mill.Game, name string) games.Tier {
	t.Helper()
	tier, err := g.ParseTier(name)
	if err != nil {
		t.Fatal(err)
	}
	return tier
}
