package mill_test

import (
	"flag"
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/gametest"
	"github.com/tablesmith/tablesmith/games/mill"
)

// partGame is a rule set's game cut down to some of its tiers, closed under moves.
type partGame struct {
	mill.Game
	tiers []games.Tier
}

func (p partGame) Tiers() []games.Tier { return p.tiers }

func (p partGame) BindTierFlags(*flag.FlagSet) func() ([]games.Tier, error) {
	return func() ([]games.Tier, error) { return p.tiers, nil }
}

// TestLargeRuleSetsConform runs the tier contract (package gametest) on the rule sets too
// large for the registry's conformance test (more tiers than Nine Men's Morris), each on
// its game of 4 stones a side from the empty board: the placement phase, captures and
// the moving phase, on Nine's board and on the board with diagonals, and Lasker Morris's
// merged phases on Nine's board and Seven's.
func TestLargeRuleSetsConform(t *testing.T) {
	for _, r := range []*mill.Rules{mill.Ten, mill.Eleven, mill.Twelve, mill.Lasker, mill.LaskerSeven} {
		t.Run(r.Name, func(t *testing.T) {
			t.Parallel()
			g := mill.ForRules(r)
			fs := flag.NewFlagSet("", flag.ContinueOnError)
			chosen := g.BindTierFlags(fs)
			if err := fs.Parse([]string{"--stones", "4"}); err != nil {
				t.Fatal(err)
			}
			tiers, err := chosen()
			if err != nil {
				t.Fatal(err)
			}
			gametest.CheckTiered(t, partGame{g, tiers}, 8)
		})
	}
}
