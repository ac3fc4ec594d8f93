package pipeline

import (
	"context"
	"flag"
	"strconv"
	"testing"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/settest"
	"github.com/tablesmith/tablesmith/tables"
)

// The tests of the tier orchestrator use Mühle as their real game (and a synthetic game of
// their own, tiers_toy_test.go).
var millGame = mill.Game{}

// millUpTo lists the moving-phase sectors with at most n stones on the board (as
// `--max-stones n` chooses them).
func millUpTo(n int) []games.Tier {
	fs := flag.NewFlagSet("test", flag.PanicOnError)
	chosen := millGame.BindTierFlags(fs)
	fs.Parse([]string{"--max-stones", strconv.Itoa(n)})
	out, err := chosen()
	if err != nil {
		panic(err)
	}
	return out
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
	return BuildTierSet(ctx, millGame, dir, TierPlan(millGame, millUpTo(n)), opt)
}

// forgeSetCode changes the code of one slot of a set's first member and reseals it: the
// file rewritten with valid checksums, the manifest's size and SHA-256 updated to match.
// Only the forward check can then tell; it returns the set, opened.
func forgeSetCode(t *testing.T, dir, file string, slot uint64, forge func(uint32) uint32) *tables.Set {
	t.Helper()
	settest.Rewrite(t, dir, file, func(_ *format.Metadata, codes []uint32) { codes[slot] = forge(codes[slot]) })
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// unitSpace loads the exits of the unit holding tier name of the set in dir and returns
// the unit's space as g plays it, and the func that releases the exits.
func unitSpace(tb testing.TB, g games.TieredGame, dir, name string) (*tierSpace, func()) {
	tb.Helper()
	u := millUnit(tb, name)
	m, err := readTierManifest(millGame, dir)
	if err != nil {
		tb.Fatal(err)
	}
	ex, err := loadTierExits(context.Background(), millGame, dir, m, u, 2)
	if err != nil {
		tb.Fatal(err)
	}
	return newTierSpace(g, u, ex), ex.release
}
