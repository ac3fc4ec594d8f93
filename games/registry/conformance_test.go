package registry

import (
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/gametest"
)

// TestTieredGamesConform runs the whole tier contract (package gametest) on every
// registered tiered game, and the rule sets of a family (games.RuleSets) no larger than
// it: a game added to the list is checked without a line of its own.
func TestTieredGamesConform(t *testing.T) {
	for _, g := range builtin {
		tg, ok := g.(games.TieredGame)
		if !ok {
			continue
		}
		t.Run(g.Name(), func(t *testing.T) {
			t.Parallel()
			gametest.CheckTiered(t, tg, 16)
		})
		// A game of a family of rule sets: every other rule set too, as far as it has no
		// more tiers than the registered game (the larger ones, Ten to Twelve Men's
		// Morris, are checked on a part in their own package).
		rs, ok := g.(games.RuleSets)
		if !ok {
			continue
		}
		for _, name := range rs.RuleSetNames()[1:] {
			v, err := rs.WithRules(name)
			if err != nil {
				t.Fatalf("%s: rule set %s: %v", g.Name(), name, err)
			}
			if len(v.Tiers()) > len(tg.Tiers()) {
				continue
			}
			t.Run(g.Name()+"-"+name, func(t *testing.T) {
				t.Parallel()
				gametest.CheckTiered(t, v, 16)
			})
		}
	}
}
