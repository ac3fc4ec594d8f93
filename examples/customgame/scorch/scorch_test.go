package scorch_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/gametest"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/serve"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"

	"example.com/customgame/scorch"
)

// buildSet builds the whole game's set into a fresh directory through the library, as a
// program of its own would: the plan of every tier, then the set, unit by unit.
func buildSet(t *testing.T) string {
	t.Helper()
	g := scorch.Game{}
	dir := t.TempDir()
	var units []string
	opt := pipeline.TierOptions{
		Workers: 2,
		Build:   pipeline.Stamp(2, []string{"(scorch test)"}),
		UnitDone: func(u pipeline.TierUnit, _ []pipeline.TierMember, _ bool) {
			units = append(units, u.Name)
		},
	}
	if err := pipeline.BuildTierSet(context.Background(), g, dir, pipeline.TierPlan(g, g.Tiers()), opt); err != nil {
		t.Fatalf("BuildTierSet: %v", err)
	}
	// Every tier is its own unit (a step stays in its tier), solved from 7 scorched cells
	// down: the tiers a unit's scorching moves lead into come first.
	if want := []string{"7", "6", "5", "4", "3", "2", "1", "0"}; !slices.Equal(units, want) {
		t.Fatalf("units built %v, want %v", units, want)
	}
	return dir
}

func wantOutcome(v bruteValue) values.Outcome {
	switch {
	case v.draw:
		return values.Draw
	case v.win:
		return values.Win
	}
	return values.Loss
}

// TestConformance: the game keeps the contract every tiered game keeps (package
// games/gametest): its moves stay in the tiers it declares, its un-moves are the inverse
// of its moves, its tier names read back. All positions of every tier.
func TestConformance(t *testing.T) {
	t.Parallel()
	gametest.CheckTiered(t, scorch.Game{}, 3000)
}

// TestGameShape: the game is what the README says: more than one tier, more than one
// position in each, moves that stay in their tier, and draws as well as wins and losses.
func TestGameShape(t *testing.T) {
	t.Parallel()
	g := scorch.Game{}
	total, inside := uint64(0), 0
	for _, tier := range g.Tiers() {
		if n := g.TierSize(tier); n < 2 {
			t.Errorf("tier %s holds %d positions", g.TierName(tier), n)
		}
		total += g.TierSize(tier)
		if slices.Contains(g.TierChildren(tier), tier) {
			inside++
		}
	}
	if len(g.Tiers()) != 8 || total != 9216 || inside != 7 {
		t.Errorf("%d tiers, %d positions, %d with moves inside; want 8, 9,216, 7", len(g.Tiers()), total, inside)
	}
	count := map[string]int{}
	for _, v := range bruteForce() {
		count[v.outcome()]++
	}
	if len(bruteForce()) != 9216 || count["win"] == 0 || count["loss"] == 0 || count["draw"] == 0 {
		t.Errorf("brute force: %d positions, %v", len(bruteForce()), count)
	}
}

// TestLibrary builds the set through package pipeline, opens it with package tables,
// checks every position's value and every position's moves against the brute-force
// solver, and verifies the set (checksums, counts and the forward check).
func TestLibrary(t *testing.T) {
	t.Parallel()
	dir := buildSet(t)
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	if g := set.Tiered(); g == nil || g.Name() != scorch.Name {
		t.Fatalf("the set's game is %v, want %s", g, scorch.Name)
	}
	want := bruteForce()
	for s, w := range want {
		a, err := set.Lookup(s)
		if err != nil {
			t.Fatalf("Lookup(%s): %v", s, err)
		}
		if a.Outcome != wantOutcome(w) || !w.draw && a.Remoteness != w.remoteness {
			t.Fatalf("%s: the tables say %v in %d, brute force %s in %d", s, a.Outcome, a.Remoteness, w.outcome(), w.remoteness)
		}
	}
	// Moves, best first, on a sample: every move's answer is its brute-force value.
	n := 0
	for s := range want {
		if n++; n > 500 {
			break
		}
		_, moves, err := set.Moves(s)
		if err != nil {
			t.Fatalf("Moves(%s): %v", s, err)
		}
		if len(moves) != len(bruteMoves(s)) {
			t.Fatalf("%s: %d moves, brute force %d", s, len(moves), len(bruteMoves(s)))
		}
		for _, m := range moves {
			if w := want[m.State]; m.Outcome != wantOutcome(w) {
				t.Errorf("%s, move %s to %s: %v, brute force %s", s, m.Move, m.State, m.Outcome, w.outcome())
			}
		}
	}
	// Counts as the set's info reports them.
	info := set.Info()
	var wins, losses, draws uint64
	for _, w := range want {
		switch w.outcome() {
		case "win":
			wins++
		case "loss":
			losses++
		default:
			draws++
		}
	}
	if tot := info.Totals; tot == nil || tot.Wins != wins || tot.Losses != losses || tot.Draws != draws {
		t.Errorf("info totals %+v, brute force %d wins, %d losses, %d draws", info.Totals, wins, losses, draws)
	}
	if err := set.Verify(context.Background(), tables.VerifyOptions{Workers: 2}); err != nil {
		t.Errorf("Verify: %v", err)
	}
	if err := set.VerifyTier(context.Background(), "3", tables.VerifyOptions{Workers: 2}); err != nil {
		t.Errorf("VerifyTier 3: %v", err)
	}
	// A position of no tier, or malformed, is a bad state, never a wrong answer.
	for _, bad := range []string{"XO", "X.......x", "XX.......", "########X", ""} {
		if _, err := set.Lookup(bad); err == nil {
			t.Errorf("Lookup(%q) answered", bad)
		}
	}
}

// TestServe serves the set on a loopback test server and probes it over HTTP.
func TestServe(t *testing.T) {
	t.Parallel()
	dir := buildSet(t)
	srv, err := serve.New([]string{dir}, serve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	name := srv.Names()[0]

	var list struct {
		Tables []struct{ Name, Kind, Game string }
	}
	getJSON(t, hs.URL+"/api/v1/tables", &list)
	if len(list.Tables) != 1 || list.Tables[0].Game != scorch.Name || list.Tables[0].Kind != games.KindTwoPlayer {
		t.Fatalf("tables %+v", list.Tables)
	}

	type result struct {
		Move, State, Value, Error string
		Remoteness                *int
		Moves                     []result
	}
	check := func(r result) {
		t.Helper()
		w, ok := bruteForce()[r.State]
		if !ok || r.Error != "" || r.Value != w.outcome() || !w.draw && (r.Remoteness == nil || *r.Remoteness != w.remoteness) {
			t.Errorf("probe %+v, brute force %s in %d", r, w.outcome(), w.remoteness)
		}
	}
	for _, state := range []string{"X.......O", "#X.#O#...", "O..X..#..", "X#O......"} {
		var r result
		getJSON(t, hs.URL+"/api/v1/tables/"+name+"/probe?"+url.Values{"state": {state}}.Encode(), &r)
		if r.State != state || len(r.Moves) != len(bruteMoves(state)) {
			t.Errorf("probe %s: %+v", state, r)
		}
		check(r)
		for _, m := range r.Moves {
			check(m)
		}
	}
	// Several positions in one POST, one JSON line each.
	states := []string{"X.......O", ".O.#X#...", "XO#######"}
	resp, err := http.Post(hs.URL+"/api/v1/tables/"+name+"/probe", "text/plain", strings.NewReader(strings.Join(states, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	got := 0
	for sc.Scan() {
		var r result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if r.State != states[got] {
			t.Errorf("line %d is %s, want %s", got, r.State, states[got])
		}
		check(r)
		got++
	}
	if got != len(states) {
		t.Errorf("%d lines, want %d", got, len(states))
	}
	// A malformed position is a 400 naming it.
	resp2, err := http.Get(hs.URL + "/api/v1/tables/" + name + "/probe?state=XX")
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusBadRequest {
		t.Errorf("probe of XX: status %d, want 400", resp2.StatusCode)
	}
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", u, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}

// renamed is the game under another name.
type renamed struct {
	scorch.Game
	name string
}

func (r renamed) Name() string { return r.name }

// TestRegister: importing package scorch registered it; a game may not take a name the
// command line reads in a game's place (pdb, verify, …) nor one taken already.
func TestRegister(t *testing.T) {
	t.Parallel()
	if g, err := registry.Lookup(scorch.Name); err != nil || g.Name() != scorch.Name {
		t.Fatalf("Lookup(%s) = %v, %v", scorch.Name, g, err)
	}
	for _, tc := range []struct {
		g    games.Game
		want string
	}{
		{renamed{name: "pdb"}, "reserved"},
		{renamed{name: "verify"}, "reserved"},
		{scorch.Game{}, "registered already"},
		{renamed{name: "mill"}, "registered already"}, // a built-in game's name
		{renamed{name: "Scorch"}, "lower-case"},
	} {
		if err := registry.Register(tc.g); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Register(%q) = %v, want an error saying %q", tc.g.Name(), err, tc.want)
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("MustRegister of a second scorch did not panic")
			}
		}()
		registry.MustRegister(scorch.Game{})
	}()
	if n := strings.Count(strings.Join(registry.Names(), " ")+" ", scorch.Name+" "); n != 1 {
		t.Errorf("registry.Names() lists %s %d times: %v", scorch.Name, n, registry.Names())
	}
}
