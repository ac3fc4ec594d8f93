package tictactoe_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/tictactoe"
	"github.com/tablesmith/tablesmith/internal/tttoracle"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

// build builds the whole game into a temporary set and opens it.
func build(t *testing.T, g games.TieredGame) *tables.Set {
	t.Helper()
	dir := filepath.Join(t.TempDir(), g.Name())
	if err := pipeline.BuildTierSet(context.Background(), g, dir, pipeline.TierPlan(g, g.Tiers()), pipeline.TierOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { set.Close() })
	return set
}

// TestAgainstOracle builds tic-tac-toe through the tier orchestrator and checks every one
// of its 6,046 positions against internal/tttoracle, a minimax over board strings written
// apart from the game: the value and remoteness, the counts of every tier, and that the
// positions over by the rules answer with no move. Then the set passes verify.
func TestAgainstOracle(t *testing.T) {
	t.Parallel()
	g := tictactoe.Game{}
	set := build(t, g)
	checkAll(t, g, set, tttoracle.Value)
	counts := tttoracle.Counts()
	for _, tier := range g.Tiers() {
		sp, err := games.New(g, g.TierParams(tier), "")
		if err != nil {
			t.Fatal(err)
		}
		var wins, losses, draws, over int
		for s := range g.TierSize(tier) {
			state, _ := sp.Space.StateOf(s)
			a, ms, err := set.Moves(state)
			if err != nil {
				t.Fatalf("%s: %v", state, err)
			}
			switch a.Outcome {
			case values.Win:
				wins++
			case values.Loss:
				losses++
			default:
				draws++
			}
			if a.Over {
				over++
				if len(ms) > 0 {
					t.Fatalf("%s: over by the rules, yet %d moves", state, len(ms))
				}
			}
		}
		c := counts[tier]
		if uint64(c.Positions) != g.TierSize(tier) || c.Wins != wins || c.Losses != losses || c.Draws != draws || c.Over != over {
			t.Errorf("tier %d: %d positions, %d wins, %d losses, %d draws, %d over; the oracle %+v", tier, g.TierSize(tier), wins, losses, draws, over, c)
		}
	}
	a, err := set.Lookup(".........")
	if err != nil || a.Outcome != values.Draw {
		t.Errorf("the empty board: %+v, %v; want a draw", a, err)
	}
	if err := set.Verify(context.Background(), tables.VerifyOptions{Workers: 2}); err != nil {
		t.Errorf("verify: %v", err)
	}
}

// checkAll checks the value of every position of set against the oracle's.
func checkAll(t *testing.T, g games.TieredGame, set *tables.Set, oracle func(string) (string, int, error)) {
	t.Helper()
	for _, tier := range g.Tiers() {
		sp, err := games.New(g, g.TierParams(tier), "")
		if err != nil {
			t.Fatal(err)
		}
		for s := range g.TierSize(tier) {
			state, _ := sp.Space.StateOf(s)
			a, err := set.Lookup(state)
			if err != nil {
				t.Fatalf("%s: %v", state, err)
			}
			o, r, err := oracle(state)
			if err != nil {
				t.Fatalf("oracle: %s: %v", state, err)
			}
			if a.Outcome.String() != o || a.Outcome != values.Draw && a.Remoteness != r {
				t.Fatalf("%s: the set says %v in %d, the oracle %s in %d", state, a.Outcome, a.Remoteness, o, r)
			}
		}
	}
}

// TestMisereAgainstOracle: misère tic-tac-toe, whose positions with a line are won by the
// rules for the side to move, stores outcome and remoteness apart (the split layout) and
// agrees with the oracle's misère play on every position; its lines end in a position
// won by the rules where a loss has its principal line; it passes verify, and so does its
// win/draw/loss-only conversion.
func TestMisereAgainstOracle(t *testing.T) {
	t.Parallel()
	g := tictactoe.Misere()
	set := build(t, g)
	checkAll(t, g, set, tttoracle.MisereValue)
	if enc := set.Tables()[0].Meta().Encoding; values.Encoding(enc) != values.EncodingWDLSplit {
		t.Errorf("misère tables are encoded %s, want %s", enc, values.EncodingWDLSplit)
	}
	a, err := set.Lookup("XXXOO....")
	if err != nil || a.Outcome != values.Win || a.Remoteness != 0 {
		t.Errorf("XXXOO.... (O to move, X made a line): %+v, %v; want a win in 0", a, err)
	}
	// A lost position whose line is long enough to see both kinds at odd and even plies.
	lost := ""
	for _, tier := range g.Tiers() {
		sp, _ := games.New(g, g.TierParams(tier), "")
		for s := range g.TierSize(tier) {
			state, _ := sp.Space.StateOf(s)
			if a, _ := set.Lookup(state); a.Outcome == values.Loss && a.Remoteness >= 3 && lost == "" {
				lost = state
			}
		}
	}
	positions, moves, err := set.Line(lost)
	if err != nil {
		t.Fatalf("line of %s: %v", lost, err)
	}
	end, _, err := set.Moves(positions[len(positions)-1])
	if a, _ := set.Lookup(lost); err != nil || len(moves) != a.Remoteness || !end.Over || end.Outcome != values.Win {
		t.Fatalf("the line of %s (%+v): %v ends in %+v (%v)", lost, a, positions, end, err)
	}
	if err := set.Verify(context.Background(), tables.VerifyOptions{Workers: 2}); err != nil {
		t.Errorf("verify: %v", err)
	}
	wdl := filepath.Join(t.TempDir(), "wdl")
	if err := pipeline.ConvertTierSet(context.Background(), g, set.Dir(), wdl, pipeline.ConvertOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	ws, err := tables.OpenSet(wdl)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if err := ws.Verify(context.Background(), tables.VerifyOptions{Workers: 2}); err != nil {
		t.Errorf("verify of the win/draw/loss-only set: %v", err)
	}
	if a, err := ws.Lookup("XXXOO...."); err != nil || a.Outcome != values.Win {
		t.Errorf("XXXOO.... in the win/draw/loss-only set: %+v, %v", a, err)
	}
}

// TestOutcomeOnlyRanksEndingMovesFirst: in a win/draw/loss-only set, which has no
// remoteness to make progress by, the first of a won position's moves ends the game
// wherever some move does (completes a line), so that playing first moves wins.
func TestOutcomeOnlyRanksEndingMovesFirst(t *testing.T) {
	t.Parallel()
	g := tictactoe.Game{}
	full := build(t, g)
	dir := filepath.Join(t.TempDir(), "wdl")
	if err := pipeline.ConvertTierSet(context.Background(), g, full.Dir(), dir, pipeline.ConvertOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	wdl, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer wdl.Close()
	checked := 0
	for _, tier := range g.Tiers() {
		sp, _ := games.New(g, g.TierParams(tier), "")
		for s := range g.TierSize(tier) {
			state, _ := sp.Space.StateOf(s)
			a, ms, err := wdl.Moves(state)
			if err != nil {
				t.Fatal(err)
			}
			if a.Outcome != values.Win {
				continue
			}
			_, fullMoves, _ := full.Moves(state)
			if fullMoves[0].Remoteness != 0 { // no move ends the game at once
				continue
			}
			checked++
			if !ms[0].Over {
				t.Fatalf("%s: the first move %s (%+v) does not end the game, though %s does", state, ms[0].Move, ms[0].Answer, fullMoves[0].Move)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d won positions with a move that ends the game", checked)
	}
}

// TestLine: the principal line of a won position ends in a position over by the rules,
// a line of three, as long as the remoteness says.
func TestLine(t *testing.T) {
	t.Parallel()
	set := build(t, tictactoe.Game{})
	positions, moves, err := set.Line("X..O.X.O.")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := set.Lookup("X..O.X.O.")
	if len(moves) != a.Remoteness || a.Outcome != values.Win {
		t.Fatalf("X..O.X.O.: %v in %d, a line of %d moves %v", a.Outcome, a.Remoteness, len(moves), moves)
	}
	last, _, err := set.Moves(positions[len(positions)-1])
	if err != nil || !last.Over || last.Outcome != values.Loss {
		t.Fatalf("the line %v ends in %+v (%v), not a position lost by the rules", positions, last, err)
	}
}

// TestParse: the notation's spellings, and clear errors for what is no position.
func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want, err string }{
		{"XO./.X./..O", "XO..X...O", ""},
		{"xo-------", "XO.......", ""},
		{"XXX......", "", "X has 3 stones and O 0"},
		{"XO.", "", "3 cells, want 9"},
		{"XO.......X", "", "more than 9 cells"},
		{"XO.....Z.", "", "character 8"},
		{"", "", "0 cells"},
	} {
		b, err := tictactoe.Parse(tc.in)
		switch {
		case tc.err == "" && (err != nil || b.String() != tc.want):
			t.Errorf("Parse(%q) = %v, %v; want %s", tc.in, b, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Parse(%q): error %v, want one saying %q", tc.in, err, tc.err)
		}
	}
	if _, err := (tictactoe.Game{}).ParseTier("10"); err == nil {
		t.Error("tier 10 accepted")
	}
	if !slices.Equal((tictactoe.Game{}).TierChildren(9), nil) {
		t.Error("the full board leads somewhere")
	}
}

// FuzzParse: no input panics, and what parses writes back to a spelling that parses to
// the same board.
func FuzzParse(f *testing.F) {
	for _, s := range []string{".........", "XO./.X./..O", "XXXOO....", "x", "XOXOXOXOX"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := tictactoe.Parse(s)
		if err != nil {
			return
		}
		back, err := tictactoe.Parse(b.String())
		if err != nil || back != b {
			t.Fatalf("%q parses to %s, which reads back as %s (%v)", s, b, back, err)
		}
	})
}

// TestTierMembers: the one check of a set's members (games.TierMembers) on tic-tac-toe's
// tiers: names read back in order; a name listed twice, no tier's name, or rules of
// another game are refused with the error kind that says which.
func TestTierMembers(t *testing.T) {
	t.Parallel()
	g := tictactoe.Game{}
	tiers, err := games.TierMembers(g, g.RulesID(), []string{"9", "3", "0"})
	if err != nil || !slices.Equal(tiers, []games.Tier{9, 3, 0}) {
		t.Fatalf("TierMembers = %v, %v", tiers, err)
	}
	for _, tc := range []struct {
		rules string
		names []string
		want  error
	}{
		{g.RulesID(), []string{"3", "3"}, games.ErrBadMember},
		{g.RulesID(), []string{"3", "x"}, games.ErrBadMember},
		{g.RulesID(), []string{"10"}, games.ErrBadMember},
		{tictactoe.Misere().RulesID(), []string{"3"}, games.ErrOtherRules},
		{"other", nil, games.ErrOtherRules},
	} {
		if _, err := games.TierMembers(g, tc.rules, tc.names); !errors.Is(err, tc.want) {
			t.Errorf("TierMembers(%q, %v) = %v, want %v", tc.rules, tc.names, err, tc.want)
		}
	}
	if _, err := games.TierMembers(g, "other", []string{"1"}); err == nil || strings.Count(err.Error(), "built under other rules") != 1 {
		t.Errorf("other rules: %v, want the reason said once", err)
	}
}
