package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/internal/racetest"
)

// TestMillWDL: `build mill --values wdl` builds a win/draw/loss-only set that query, info
// and verify read (values without remoteness, moves ranked by value, no --path line);
// `convert` derives the same files from a full set; a build of the other kind, or a bad
// --values, is refused.
func TestMillWDL(t *testing.T) {
	racetest.SkipSlow(t, "builds Mühle sets, slow")
	t.Parallel()
	tmp := t.TempDir()
	full, wdl, conv := filepath.Join(tmp, "full"), filepath.Join(tmp, "wdl"), filepath.Join(tmp, "conv")
	if code, _, stderr := runCmd(t, "", "build", "mill", "--stones", "3", "--workers", "2", "-o", full); code != exitOK {
		t.Fatalf("build full: exit %d: %s", code, stderr)
	}
	code, out, stderr := runCmd(t, "", "build", "mill", "--stones", "3", "--values", "wdl", "--workers", "2", "-o", wdl)
	if code != exitOK || !strings.Contains(out, "longest win —, loss —") {
		t.Fatalf("build --values wdl: exit %d: %s%s", code, out, stderr)
	}
	if code, out, stderr := runCmd(t, "", "convert", "--workers", "2", "-o", conv, full); code != exitOK || !strings.Contains(out, "win/draw/loss only") {
		t.Fatalf("convert: exit %d: %s%s", code, out, stderr)
	}
	entries, _ := os.ReadDir(wdl)
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".tsm" {
			continue
		}
		a, _ := os.ReadFile(filepath.Join(wdl, e.Name()))
		b, _ := os.ReadFile(filepath.Join(conv, e.Name()))
		if string(a) != string(b) {
			t.Errorf("%s: converted and built files differ", e.Name())
		}
	}

	// White to move closes a mill (1-2-3) with 13-2 in the moving phase: a win.
	const pos = "W.W.....B.B.W.......B... W"
	code, out, stderr = runCmd(t, "", "query", "--json", wdl, pos)
	if code != exitOK {
		t.Fatalf("query: exit %d: %s", code, stderr)
	}
	var line map[string]any
	if err := json.Unmarshal([]byte(out), &line); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	moves, _ := line["moves"].([]any)
	if _, has := line["remoteness"]; line["value"] != "win" || has || len(moves) == 0 {
		t.Fatalf("query: %s", out)
	}
	rank := map[string]int{"loss": 0, "draw": 1, "win": 2}
	last := -1
	for _, m := range moves {
		mv := m.(map[string]any)
		if _, has := mv["remoteness"]; has || rank[mv["value"].(string)] < last {
			t.Fatalf("moves not ranked by value alone, or with remoteness: %s", out)
		}
		last = rank[mv["value"].(string)]
	}
	if first := moves[0].(map[string]any); first["value"] != "loss" || first["state"] != nil {
		t.Errorf("the best move is not one that ends the game: %v", first)
	}
	if code, out, _ := runCmd(t, "", "query", wdl, pos); code != exitOK || !strings.HasPrefix(out, pos+": win; moves ") || strings.Contains(out, "plies") {
		t.Errorf("query text: exit %d: %s", code, out)
	}
	// --path is refused up front, a usage error, whatever the position (issue 38, item 5).
	const draw = ".WW.....BBB....W........ B" // a draw: the old refusal was per line, for wins and losses only
	for _, p := range []string{pos, draw} {
		code, out, stderr = runCmd(t, "", "query", "--path", wdl, p)
		if code != exitUsage || out != "" || !strings.Contains(stderr, "no remoteness to follow a line") {
			t.Errorf("query --path %s: exit %d: %s%s", p, code, out, stderr)
		}
	}

	code, out, stderr = runCmd(t, "", "info", "--json", wdl)
	var info struct {
		Values string `json:"values"`
		Tiers  []struct {
			Name    string `json:"name"`
			Wins    uint64 `json:"wins"`
			MaxWin  *int   `json:"max_win"`
			MaxLoss *int   `json:"max_loss"`
		} `json:"tiers"`
		Manifest struct {
			Values string `json:"values"`
		} `json:"manifest"`
	}
	if err := json.Unmarshal([]byte(out), &info); code != exitOK || err != nil || info.Values != "wdl" || info.Manifest.Values != "wdl" ||
		len(info.Tiers) != 7 || info.Tiers[0].MaxWin != nil || info.Tiers[0].MaxLoss != nil || info.Tiers[0].Wins == 0 {
		t.Fatalf("info --json: exit %d, %v: %s%s", code, err, out, stderr)
	}
	if code, out, _ := runCmd(t, "", "info", wdl); code != exitOK || !strings.Contains(out, "values          wdl") {
		t.Errorf("info: exit %d: %s", code, out)
	}
	if code, out, _ := runCmd(t, "", "verify", wdl); code != exitOK || !strings.Contains(out, "forward consistency") {
		t.Errorf("verify: exit %d: %s", code, out)
	}

	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"build", "mill", "--stones", "3", "-o", wdl}, exitFail, "win/draw/loss-only set"},
		{[]string{"build", "mill", "--stones", "3", "--values", "wdl", "-o", full}, exitFail, "tablesmith convert"},
		{[]string{"build", "mill", "--stones", "3", "--values", "xyz", "-o", filepath.Join(tmp, "x")}, exitUsage, "--values must be full or wdl"},
		{[]string{"convert", "--values", "full", "-o", filepath.Join(tmp, "y"), full}, exitUsage, "converts only to wdl"},
		{[]string{"convert", full}, exitUsage, "-o OUT is required"},
		{[]string{"convert", "-o", filepath.Join(tmp, "z"), wdl}, exitFail, "win/draw/loss-only set already"},
		{[]string{"plan", "mill", "--stones", "3", "--values", "xyz", "-o", filepath.Join(tmp, "p")}, exitUsage, "--values must be"},
	} {
		code, _, stderr := runCmd(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, want %d with %q: %s", c.args, code, c.code, c.want, stderr)
		}
	}
	// A plan of a win/draw/loss-only set builds its units with --values wdl.
	code, out, stderr = runCmd(t, "", "plan", "mill", "--stones", "3", "--values", "wdl", "--emit", "json", "-o", filepath.Join(tmp, "planned"))
	var plan struct {
		Units []struct {
			Command []string `json:"command"`
		} `json:"units"`
	}
	if err := json.Unmarshal([]byte(out), &plan); code != exitOK || err != nil || len(plan.Units) != 7 {
		t.Fatalf("plan --values wdl: exit %d, %v: %s%s", code, err, out, stderr)
	}
	for _, u := range plan.Units {
		if !strings.Contains(strings.Join(u.Command, " "), " --values wdl -o ") {
			t.Errorf("plan --values wdl: unit command %q", u.Command)
		}
	}
}
