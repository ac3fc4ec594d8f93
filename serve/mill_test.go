package serve_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/serve"
	"github.com/tablesmith/tablesmith/tables"
)

// openMill opens the Mühle fixture set.
func openMill(t *testing.T) *tables.Set {
	t.Helper()
	s, err := tables.OpenSet(millFixture(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// millWin is a position won in 1 ply: 14-2 closes 1-2-3 and leaves Black 2 stones.
const millWin = "W.W.....B.B..W......B... W"

// millProbe is the probe answer of a Mühle position.
type millProbe struct {
	State      string   `json:"state"`
	Value      string   `json:"value"`
	Remoteness *int     `json:"remoteness"`
	Path       []string `json:"path"`
	Error      string   `json:"error"`
	Moves      []struct {
		Move       string `json:"move"`
		State      string `json:"state"`
		Value      string `json:"value"`
		Remoteness *int   `json:"remoteness"`
	} `json:"moves"`
}

// check compares a probe answer with the set's own answer: value, remoteness, every move
// in the same order with its value, and (with path) the principal line.
func (p millProbe) check(t *testing.T, s *tables.Set, withPath bool) {
	t.Helper()
	a, ms, err := s.Moves(p.State)
	if err != nil {
		t.Fatal(err)
	}
	if p.Value != a.Outcome.String() || (p.Remoteness == nil) != (p.Value == "draw") || p.Remoteness != nil && *p.Remoteness != a.Remoteness {
		t.Errorf("%s: %s %v, the set says %v %d", p.State, p.Value, p.Remoteness, a.Outcome, a.Remoteness)
	}
	if len(p.Moves) != len(ms) {
		t.Fatalf("%s: %d moves, the set has %d", p.State, len(p.Moves), len(ms))
	}
	for i, m := range ms {
		got := p.Moves[i]
		if got.Move != m.Move || got.State != m.State || got.Value != m.Outcome.String() || got.Remoteness != nil && *got.Remoteness != m.Remoteness {
			t.Errorf("%s: move %d is %+v, the set says %+v", p.State, i, got, m)
		}
	}
	if !withPath {
		return
	}
	positions, moves, err := s.Line(p.State)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Path) != len(positions)+len(moves) || len(p.Path) > 0 && p.Path[0] != p.State {
		t.Fatalf("%s: path %v, the line %v by %v", p.State, p.Path, positions, moves)
	}
	for i, m := range moves {
		if p.Path[2*i+1] != m || p.Path[2*i+2] != positions[i+1] {
			t.Errorf("%s: path step %d is %v, want %s to %s", p.State, i, p.Path[2*i+1:2*i+3], m, positions[i+1])
		}
	}
}

func TestMillAPIList(t *testing.T) {
	racetest.SkipSlow(t, "shares the Mühle set of ≤ 7 stones (about 24 s)")
	t.Parallel()
	_, ts := newServer(t, serve.Options{}, millFixture(t))
	code, _, body := get(t, ts.URL+"/api/v1/tables")
	var list struct {
		Tables []struct {
			Name, Kind, Game string
			Set              bool
			Params           struct{ Sectors []string }
			Info             tables.SetInfo
		}
	}
	if err := json.Unmarshal([]byte(body), &list); code != 200 || err != nil || len(list.Tables) != 1 {
		t.Fatalf("%d %v: %s", code, err, body)
	}
	sectors := []string{"3-3", "3-4", "4-3"}
	if testing.Short() {
		sectors = sectors[:1]
	}
	e := list.Tables[0]
	if e.Name != "mill" || e.Kind != "two-player" || e.Game != "mill" || !e.Set || len(e.Info.Members) != len(sectors) || e.Info.Totals == nil {
		t.Fatalf("the set's entry: %s", body)
	}
	if got := slices.Sorted(slices.Values(e.Params.Sectors)); !slices.Equal(got, sectors) {
		t.Errorf("params name the sectors %v, want %v", e.Params.Sectors, sectors)
	}
	// The counts per remoteness add up to the sector's wins and losses, wins at odd
	// remoteness and losses at even, up to the longest; the totals add up the sectors.
	sum := func(c []uint64, parity int) (n uint64) {
		for r, k := range c {
			if k > 0 && r%2 != parity {
				t.Errorf("%d positions at remoteness %d in %v", k, r, c)
			}
			n += k
		}
		return n
	}
	var wins, losses uint64
	for _, sec := range append(slices.Clone(e.Info.Tiers), *e.Info.Totals) {
		if sum(sec.WinCounts, 1) != sec.Wins || sum(sec.LossCounts, 0) != sec.Losses ||
			len(sec.WinCounts) != orMinus1(sec.MaxWin)+1 || len(sec.LossCounts) != orMinus1(sec.MaxLoss)+1 {
			t.Errorf("sector %s: %+v", sec.Name, sec)
		}
		if sec.Name != "all" {
			wins, losses = wins+sec.Wins, losses+sec.Losses
		}
	}
	if wins != e.Info.Totals.Wins || losses != e.Info.Totals.Losses {
		t.Errorf("totals %+v, the sectors add up to %d wins, %d losses", e.Info.Totals, wins, losses)
	}
	if s := e.Info.Tiers[slices.IndexFunc(e.Info.Tiers, func(s tables.TierSummary) bool { return s.Name == "3-3" })]; s.WinCounts[25] == 0 || s.LossCounts[26] == 0 {
		t.Errorf("sector 3-3 has no win in 25 or loss in 26: %+v", s)
	}
}

func TestMillAPIProbe(t *testing.T) {
	racetest.SkipSlow(t, "shares the Mühle set of ≤ 7 stones (about 24 s)")
	t.Parallel()
	s := openMill(t)
	_, ts := newServer(t, serve.Options{}, millFixture(t))
	var p millProbe
	code, _, body := get(t, probeURL(ts.URL, "mill", millWin, "path=1"))
	if err := json.Unmarshal([]byte(body), &p); code != 200 || err != nil {
		t.Fatalf("%d %v: %s", code, err, body)
	}
	if p.Value != "win" || *p.Remoteness != 1 || p.Moves[0].Move != "14-2x9" || p.Moves[0].State != "" || p.Moves[0].Value != "loss" ||
		!slices.Equal(p.Path, []string{millWin, "14-2x9", "(the game is over)"}) {
		t.Fatalf("the win in 1: %s", body)
	}
	p.check(t, s, true)
	// A longer line, Black to move (through a capture into another sector unless -short).
	start := millLongWin(t, s)
	code, _, body = get(t, probeURL(ts.URL, "mill", start, "path=1"))
	p = millProbe{}
	if err := json.Unmarshal([]byte(body), &p); code != 200 || err != nil || p.Value != "win" || len(p.Path) < 11 {
		t.Fatalf("%s: %d %v: %s", start, code, err, body)
	}
	p.check(t, s, true)
}

// TestMillAPIProbeFields: the fields in their fixed order (as the README shows them); a
// move that ends the game has no state (not "state":""); moves=0 leaves the moves out, as
// for every table (issue 27).
func TestMillAPIProbeFields(t *testing.T) {
	racetest.SkipSlow(t, "shares the Mühle set of ≤ 7 stones (about 24 s)")
	t.Parallel()
	_, ts := newServer(t, serve.Options{}, millFixture(t))
	const head = `{"state":"` + millWin + `","value":"win","remoteness":1,"moves":[{"move":"14-2x9","value":"loss","remoteness":0},{"move":`
	if code, _, body := get(t, probeURL(ts.URL, "mill", millWin)); code != 200 || !strings.HasPrefix(body, head) || strings.Contains(body, `"state":""`) {
		t.Errorf("the win in 1: %d %s\nwant it to start %s", code, body, head)
	}
	want := `{"state":"` + millWin + `","value":"win","remoteness":1}`
	if code, _, body := get(t, probeURL(ts.URL, "mill", millWin, "moves=0")); code != 200 || strings.TrimSpace(body) != want {
		t.Errorf("moves=0: %d %s, want %s", code, body, want)
	}
}

// millLongWin finds a position of sector 3-4 won in 9 to 15 plies whose principal line
// captures before its last move (it passes into sector 3-3), with Black to move; in a set
// without sector 3-4 (-short), a position of sector 3-3 won in 9 to 15 plies.
func millLongWin(t *testing.T, s *tables.Set) string {
	t.Helper()
	tab, capture := s.Tier("3-4")
	if !capture {
		tab, _ = s.Tier("3-3")
	}
	for slot := range tab.Domain().Slots() {
		a, err := tab.SlotAnswer(slot)
		if err != nil {
			t.Fatal(err)
		}
		if a.Outcome.String() != "win" || a.Remoteness < 9 || a.Remoteness > 15 {
			continue
		}
		state, _ := tab.Domain().StateOf(slot)
		_, moves, err := s.Line(state)
		if err != nil {
			t.Fatal(err)
		}
		if !capture || slices.ContainsFunc(moves[:len(moves)-1], func(m string) bool { return strings.Contains(m, "x") }) {
			return swapColours(state)
		}
	}
	t.Fatal("no win in 9 to 15 plies found")
	return ""
}

// swapColours swaps White and Black, and the side to move: the same position for the
// game.
func swapColours(state string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case 'W':
			return 'B'
		case 'B':
			return 'W'
		}
		return r
	}, state)
}

func TestMillAPIStreamAndErrors(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 24 s")
	t.Parallel()
	s := openMill(t)
	_, ts := newServer(t, serve.Options{}, millFixture(t))
	// POST: one answer per line, a bad line answered with its error, the others still.
	in := millWin + "\nWW......BBB............. W\n" + swapColours(millWin) + "\n"
	code, ctype, body := do(t, "POST", ts.URL+"/api/v1/tables/mill/probe?path=1", strings.NewReader(in))
	lines := strings.Split(strings.TrimSpace(body), "\n")
	if code != 200 || ctype != "application/x-ndjson" || len(lines) != 3 {
		t.Fatalf("%d %s: %s", code, ctype, body)
	}
	for i, l := range lines {
		var p millProbe
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			if !strings.Contains(p.Error, "2 stones") {
				t.Errorf("line 2: %s", l)
			}
			continue
		}
		if p.Value != "win" || p.Error != "" {
			t.Errorf("line %d: %s", i+1, l)
		}
		p.check(t, s, true)
	}
	// Bad positions: 400, the position echoed, the error saying what is wrong.
	for _, c := range []struct{ state, msg string }{
		{"WW......BBB............. W", "white has 2 stones"},
		{"WWW.....BBB............. X", "side to move"},
		{"WWW.....BBB.............", "side to move (W or B) is missing"},
		{"WWW.....BBB............. W W:3 B:0", "White moves when both hold the same number"},
		{"........................ W W:9 B:9", "sector 0-0-9-9 is not in this set"},
		{"WWW.....BBB............ W", "the board has 23 characters, want 24"},
		{"WWW.....BBZ............. W", "point 11"},
		{"WWWWWWWWWW..BBB......... W", "10 stones"},
		{"WWWW....BBBB............ W", "sector 4-4 is not in this set (it holds 3-3"},
	} {
		code, _, body := get(t, probeURL(ts.URL, "mill", c.state))
		var p millProbe
		if err := json.Unmarshal([]byte(body), &p); err != nil || code != 400 || p.State != c.state || !strings.Contains(p.Error, c.msg) {
			t.Errorf("%q: %d %s, want 400 and %q", c.state, code, body, c.msg)
		}
	}
}

func TestMillChart(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 24 s")
	t.Parallel()
	s := openMill(t)
	info := s.Info()
	svg := serve.SetDistributionSVG(info)
	bs := bars(t, svg)
	// A panel of all the sectors, then one per sector: wins by remoteness (odd), losses
	// (even), one bar of draws; heights in proportion to the counts.
	for _, sec := range append([]tables.TierSummary{*info.Totals}, info.Tiers...) {
		count := map[string]func(int) uint64{
			"win":  func(r int) uint64 { return at(sec.WinCounts, r) },
			"loss": func(r int) uint64 { return at(sec.LossCounts, r) },
			"draw": func(int) uint64 { return sec.Draws },
		}
		var panel []svgBar
		var top svgBar // the tallest bar sets the panel's scale
		for _, b := range bs {
			if c, ok := count[b.value]; b.panel == sec.Name {
				if !ok || b.lo != b.hi || b.value == "win" && b.lo%2 != 1 || b.value == "loss" && b.lo%2 != 0 || c(b.lo) == 0 {
					t.Fatalf("panel %s: bar %+v", sec.Name, b)
				}
				if panel = append(panel, b); b.height > top.height && !b.broken {
					top = b
				}
			}
		}
		seen := map[string]int{}
		for _, b := range panel {
			c, ctop := float64(count[b.value](b.lo)), float64(count[top.value](top.lo))
			if want := top.height * c / ctop; b.broken != (b.value == "draw" && want > 2*top.height) || !b.broken && (b.height < want-0.02 || b.height > want+0.02) {
				t.Errorf("panel %s: bar %+v, want height %.2f", sec.Name, b, want)
			}
			seen[b.value]++
		}
		if seen["draw"] != 1 || seen["win"] != nonZero(sec.WinCounts) || seen["loss"] != nonZero(sec.LossCounts) {
			t.Errorf("panel %s: bars %v, counts %+v", sec.Name, seen, sec)
		}
	}
	// A sector file alone: the same bars as its panel in the set.
	tab, _ := s.Tier("3-3")
	var want []svgBar
	for _, b := range bs {
		if b.panel == "3-3" {
			b.panel = ""
			want = append(want, b)
		}
	}
	if got := bars(t, serve.DistributionSVG(tab.Info())); !slices.Equal(got, want) {
		t.Errorf("sector file: bars %v, want %v", got, want)
	}
	// The API serves the set's chart.
	_, ts := newServer(t, serve.Options{}, millFixture(t))
	if code, ctype, body := get(t, ts.URL+"/api/v1/tables/mill/chart.svg"); code != 200 || ctype != "image/svg+xml" || body != string(svg) {
		t.Errorf("chart.svg: %d %s, %d bytes, want the set's %d", code, ctype, len(body), len(svg))
	}
	for _, legend := range []string{">win</text>", ">loss</text>", ">draw</text>", fmt.Sprintf("all %d sectors", len(info.Tiers))} {
		if !strings.Contains(string(svg), legend) {
			t.Errorf("the chart lacks %q", legend)
		}
	}
}

func at(c []uint64, i int) uint64 {
	if i < len(c) {
		return c[i]
	}
	return 0
}

func nonZero(c []uint64) (n int) {
	for _, k := range c {
		if k > 0 {
			n++
		}
	}
	return n
}

// orMinus1 is an optional longest win or loss, -1 for none.
func orMinus1(r *int) int {
	if r == nil {
		return -1
	}
	return *r
}
