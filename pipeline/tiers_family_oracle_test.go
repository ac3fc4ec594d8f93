package pipeline

import (
	"context"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/morrisoracle"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

// compareFamilyWithOracle builds the tiers named (and what they depend on) under rule set
// r, or with no names the game of stones stones a side from its empty board, and checks
// the value and remoteness of every raw position of every sector built against the
// second independent oracle (internal/morrisoracle), which shares only the description
// of the games with the solver: its own boards, moves and solver.
func compareFamilyWithOracle(t *testing.T, r *mill.Rules, orc morrisoracle.Rules, stones int, names ...string) {
	t.Helper()
	compareFamily(t, r, orc, stones, false, names...)
}

// compareFamilyWithDenseOracle is compareFamilyWithOracle with the oracle's dense mode
// (retrograde over whole sectors, morrisoracle.SolveDense), for games too large for its
// map of positions.
func compareFamilyWithDenseOracle(t *testing.T, r *mill.Rules, orc morrisoracle.Rules, stones int, names ...string) {
	t.Helper()
	compareFamily(t, r, orc, stones, true, names...)
}

func compareFamily(t *testing.T, r *mill.Rules, orc morrisoracle.Rules, stones int, dense bool, names ...string) {
	t.Helper()
	g := mill.ForRules(r)
	var want []games.Tier
	for _, name := range names {
		tier, err := g.ParseTier(name)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, tier)
	}
	if len(names) == 0 {
		tier, err := g.ParseTier("0-0-" + string(rune('0'+stones)) + "-" + string(rune('0'+stones)))
		if err != nil {
			t.Fatal(err)
		}
		want = []games.Tier{tier}
	}
	dir := t.TempDir()
	start := time.Now()
	if err := BuildTierSet(context.Background(), g, dir, TierPlan(g, want), TierOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	built := time.Since(start)
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	orc.Stones = stones
	type sector struct {
		name         string
		w, b, wh, bh int
		roots        []morrisoracle.Pos
	}
	var sectors []sector
	var roots []morrisoracle.Pos
	var keys []morrisoracle.Sector
	for _, name := range set.TierNames() {
		tier, err := g.ParseTier(name)
		if err != nil {
			t.Fatal(err)
		}
		d := g.DescribeTier(tier)
		board, hand := d["board"].([2]int), d["hand"].([2]int)
		s := sector{name: name, w: board[0], b: board[1], wh: hand[0], bh: hand[1]}
		if dense {
			keys = append(keys, morrisoracle.Sector{W: s.w, B: s.b, OwnHand: s.wh, OppHand: s.bh})
		} else {
			s.roots = morrisoracle.Positions(orc, s.w, s.b, s.wh, s.bh)
			roots = append(roots, s.roots...)
		}
		sectors = append(sectors, s)
	}
	start = time.Now()
	var value func(morrisoracle.Pos) morrisoracle.Value
	if dense {
		d := morrisoracle.SolveDense(orc, keys)
		value = func(p morrisoracle.Pos) morrisoracle.Value {
			v, ok := d.Value(p)
			if !ok {
				t.Fatalf("%s: the oracle's dense set lacks %s", r.Name, orc.String(p))
			}
			return v
		}
		t.Logf("%s, %d stones: built in %v; the oracle solved %d positions of %d sectors (%d built) densely in %v",
			r.Name, stones, built.Round(time.Millisecond), d.Len(), len(d.Sectors()), len(sectors), time.Since(start).Round(time.Millisecond))
	} else {
		vals := morrisoracle.Solve(orc, roots)
		value = func(p morrisoracle.Pos) morrisoracle.Value { return vals[p] }
		t.Logf("%s, %d stones: built in %v; the oracle solved %d positions (%d raw positions of %d sectors) in %v",
			r.Name, stones, built.Round(time.Millisecond), len(vals), len(roots), len(sectors), time.Since(start).Round(time.Millisecond))
	}
	outcome := map[values.Outcome]morrisoracle.Outcome{values.Win: morrisoracle.Win, values.Loss: morrisoracle.Loss, values.Draw: morrisoracle.Draw}
	for _, s := range sectors {
		tab, ok := set.Tier(s.name)
		if !ok {
			t.Fatalf("no sector %s", s.name)
		}
		codes := make([]uint32, tab.Meta().Slots)
		if err := tab.Reader().Codes(codes, 0); err != nil {
			t.Fatal(err)
		}
		sp, err := r.NewSectorSpace(s.w, s.b, s.wh, s.bh)
		if err != nil {
			t.Fatal(err)
		}
		sec := sp.Sector()
		if dense {
			s.roots = morrisoracle.Positions(orc, s.w, s.b, s.wh, s.bh)
		}
		wrong := 0
		for _, p := range s.roots {
			o, rem, _ := (values.WDLCodes{}).Decode(codes[sec.Rank(p.Own, p.Opp)])
			ov := value(p)
			if outcome[o] != ov.Outcome || (o != values.Draw && rem != ov.Remoteness) {
				if wrong < 5 {
					t.Errorf("%s sector %s: %s: solver %v in %d, oracle %v in %d", r.Name, s.name, orc.String(p), o, rem, ov.Outcome, ov.Remoteness)
				}
				wrong++
			}
		}
		if wrong > 0 {
			t.Fatalf("%s sector %s: %d of %d raw positions differ from the oracle", r.Name, s.name, wrong, len(s.roots))
		}
	}
}

// TestMillThreeAgreesWithOracle compares Three Men's Morris whole, every raw position of its
// 7 sectors.
func TestMillThreeAgreesWithOracle(t *testing.T) {
	t.Parallel()
	compareFamilyWithOracle(t, mill.Three, morrisoracle.Three, 3)
}

// TestMillFiveAgreesWithOracle compares, under Five Men's Morris's rules, the whole game of 3
// stones a side from its empty board: placement, captures and the moving phase (about a
// second; more in the long tests).
func TestMillFiveAgreesWithOracle(t *testing.T) {
	t.Parallel()
	compareFamilyWithOracle(t, mill.Five, morrisoracle.Five, 3)
}
