package serve_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/serve"
	"github.com/tablesmith/tablesmith/tables"
)

// TestMillAPIWDL: the API serves a win/draw/loss-only set: the list says what it stores,
// a probe answers values without remoteness with the moves ranked by value (a move that
// ends the game first), and a line is refused with status 400 rather than followed.
func TestMillAPIWDL(t *testing.T) {
	racetest.SkipSlow(t, "builds Mühle sets, slow")
	t.Parallel()
	g := mill.Game{}
	tier, _ := g.ParseTier("3-3")
	dir := filepath.Join(t.TempDir(), "mill-wdl")
	if err := pipeline.BuildTierSet(context.Background(), g, dir, pipeline.TierPlan(g, []games.Tier{tier}),
		pipeline.TierOptions{Workers: 2, Values: format.ValuesWDL}); err != nil {
		t.Fatal(err)
	}
	_, ts := newServer(t, serve.Options{}, dir)
	code, _, body := get(t, ts.URL+"/api/v1/tables")
	var list struct {
		Tables []struct {
			Name string
			Info tables.SetInfo
		}
	}
	if err := json.Unmarshal([]byte(body), &list); code != 200 || err != nil || len(list.Tables) != 1 || list.Tables[0].Info.Values != format.ValuesWDL ||
		list.Tables[0].Info.Totals.MaxWin != nil {
		t.Fatalf("%d %v: %s", code, err, body)
	}
	name := list.Tables[0].Name
	code, _, body = get(t, probeURL(ts.URL, name, millWin))
	var p millProbe
	if err := json.Unmarshal([]byte(body), &p); code != 200 || err != nil {
		t.Fatalf("%d %v: %s", code, err, body)
	}
	if p.Value != "win" || p.Remoteness != nil || len(p.Moves) == 0 || p.Moves[0].Value != "loss" || p.Moves[0].State != "" ||
		strings.Contains(body, "remoteness") {
		t.Fatalf("the win: %s", body)
	}
	rank := map[string]int{"loss": 0, "draw": 1, "win": 2}
	for i := 1; i < len(p.Moves); i++ {
		if rank[p.Moves[i-1].Value] > rank[p.Moves[i].Value] {
			t.Fatalf("moves out of order: %s", body)
		}
	}
	code, _, body = get(t, probeURL(ts.URL, name, millWin, "path=1"))
	if code != 400 || !strings.Contains(body, "no remoteness to follow a line") {
		t.Fatalf("path of a win/draw/loss-only set: %d %s", code, body)
	}
}
