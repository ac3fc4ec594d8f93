package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestTicTacToeCommandLine runs the example game through the command line as a user
// would: build, verify, info --json, query with --path (text and JSON), positions over by
// the rules, and bad positions.
func TestTicTacToeCommandLine(t *testing.T) {
	t.Parallel()
	for _, game := range []string{"tictactoe", "tictactoe-misere"} {
		dir := filepath.Join(t.TempDir(), game)
		if code, _, stderr := runCmd(t, "", "build", game, "--workers", "2", "-o", dir); code != exitOK {
			t.Fatalf("build %s: exit %d: %s", game, code, stderr)
		}
		if code, out, stderr := runCmd(t, "", "verify", dir); code != exitOK || !strings.Contains(out, "OK") {
			t.Fatalf("verify %s: exit %d: %s%s", game, code, out, stderr)
		}
		code, out, _ := runCmd(t, "", "info", "--json", dir)
		var info struct {
			Tiers []struct {
				Name    string `json:"name"`
				Classes uint64 `json:"classes"`
			} `json:"tiers"`
		}
		if code != exitOK || json.Unmarshal([]byte(out), &info) != nil || len(info.Tiers) != 10 {
			t.Fatalf("info --json %s: exit %d: %s", game, code, out)
		}
		var total uint64
		for _, x := range info.Tiers {
			total += x.Classes
		}
		if total != 6046 {
			t.Errorf("%s: %d positions in all, want 6,046", game, total)
		}
		// A line of three: lost for the side to move, or won in misère play; over.
		want := map[string]string{"tictactoe": "loss", "tictactoe-misere": "win"}[game]
		code, out, _ = runCmd(t, "", "query", "--json", "--path", dir, "XXXOO....", "XOXXOOOXX")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != exitOK || len(lines) != 2 ||
			!strings.Contains(lines[0], `"value":"`+want+`","remoteness":0,"over":true`) ||
			!strings.Contains(lines[1], `"value":"draw","over":true`) {
			t.Errorf("%s: query of positions over: exit %d:\n%s", game, code, out)
		}
		code, out, _ = runCmd(t, "", "query", dir, "XXXOO....")
		if code != exitOK || !strings.Contains(out, "0 plies (over by the rules)") {
			t.Errorf("%s: query text: exit %d: %s", game, code, out)
		}
		code, out, _ = runCmd(t, "", "query", dir, "XXX......", "XO.", "........")
		if code != exitFail || strings.Count(out, "error:") != 3 {
			t.Errorf("%s: bad positions: exit %d: %s", game, code, out)
		}
	}
	// The principal line of a won position ends in the line of three.
	dir := filepath.Join(t.TempDir(), "ttt")
	if code, _, stderr := runCmd(t, "", "build", "tictactoe", "-o", dir); code != exitOK {
		t.Fatal(stderr)
	}
	code, out, _ := runCmd(t, "", "query", "--path", dir, "XX.OO....")
	if code != exitOK || !strings.Contains(out, "win in 1 plies") || !strings.Contains(out, "line XX.OO.... 3 XXXOO....") {
		t.Errorf("query --path XX.OO....: exit %d: %s", code, out)
	}
	if code, _, stderr := runCmd(t, "", "query", "--preload", dir, "XX.OO...."); code != exitUsage || !strings.Contains(stderr, "preload takes one table file") {
		t.Errorf("query --preload of a set: exit %d: %s", code, stderr)
	}
}
