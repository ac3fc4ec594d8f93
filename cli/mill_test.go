package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tablesmith/tablesmith/internal/racetest"
)

var (
	millOnce sync.Once
	millDir  string
	millErr  string
)

// millSet builds the sectors with at most 7 stones once, through the CLI.
func millSet(t *testing.T) string {
	t.Helper()
	millOnce.Do(func() {
		tmp, err := os.MkdirTemp("", "tablesmith-cmd-mill-*")
		if err != nil {
			millErr = err.Error()
			return
		}
		dir := filepath.Join(tmp, "mill")
		if code, _, stderr := runCmd(t, "", "build", "mill", "--max-stones", "7", "--workers", "2", "-o", dir); code != exitOK {
			millErr = stderr
			return
		}
		millDir = dir
	})
	if millDir == "" {
		t.Fatalf("build mill: %s", millErr)
	}
	return millDir
}

func TestMillQuery(t *testing.T) {
	racetest.SkipSlow(t, "shares the Mühle set of ≤ 7 stones (up to 120 s)")
	dir := millSet(t)
	// Black (3) to move can close 9-10-11? No: White to move wins by 14-2 closing 1-2-3.
	code, out, stderr := runCmd(t, "", "query", "--json", "--path", dir, "W.W.....B.B..W......B... W")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var line struct {
		State      string `json:"state"`
		Value      string `json:"value"`
		Remoteness *int   `json:"remoteness"`
		Moves      []struct {
			Move       string `json:"move"`
			Value      string `json:"value"`
			Remoteness *int   `json:"remoteness"`
		} `json:"moves"`
		Path []string `json:"path"`
	}
	if err := json.Unmarshal([]byte(out), &line); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if line.Value != "win" || line.Remoteness == nil || *line.Remoteness != 1 || len(line.Moves) == 0 ||
		line.Moves[0].Move != "14-2x9" || line.Moves[0].Value != "loss" || *line.Moves[0].Remoteness != 0 {
		t.Fatalf("answer %s", out)
	}
	for i := 1; i < len(line.Moves); i++ { // best first: the opponent's quickest loss, draws, its slowest win
		a, b := line.Moves[i-1], line.Moves[i]
		if a.Value == "win" && b.Value != "win" || a.Value == "draw" && b.Value == "loss" {
			t.Fatalf("moves out of order: %v then %v", a, b)
		}
	}
	if len(line.Path) != 3 || line.Path[1] != "14-2x9" {
		t.Fatalf("path %v", line.Path)
	}
	// Either side to move; every bad line answered with an error, the others still answered.
	in := strings.Join([]string{
		"WWW.....BBB............. B",
		"WWW.....BBB............. W W:3 B:0",
		"WWWWWWWWWW..BBB......... W",
		"WW......BBB............. W",
		"WWW.....BBB.............",
		"WWWWWW..BBB............. W",
		"WWW.....BBB............. B",
	}, "\n")
	code, out, _ = runCmd(t, in, "query", "--json", dir)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitFail || len(lines) != 7 {
		t.Fatalf("exit %d, %d lines:\n%s", code, len(lines), out)
	}
	for i, want := range []string{`"value":"win"`, "White moves when both hold the same number", "10 stones", "2 stones", "side to move", "not in this set", `"value":"win"`} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d %q lacks %q", i+1, lines[i], want)
		}
	}
}

func TestMillInfoVerify(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 120 s (it builds the Mühle set of ≤ 7 stones)")
	dir := millSet(t)
	code, out, stderr := runCmd(t, "", "info", "--json", dir)
	if code != exitOK {
		t.Fatalf("info: exit %d: %s", code, stderr)
	}
	var info struct {
		Tiers []struct {
			Name    string `json:"name"`
			Classes uint64 `json:"classes"`
			Wins    uint64 `json:"wins"`
			Losses  uint64 `json:"losses"`
			Draws   uint64 `json:"draws"`
			MaxWin  *int   `json:"max_win"`
			MaxLoss *int   `json:"max_loss"`
			Bytes   int64  `json:"bytes"`
		} `json:"tiers"`
		Totals struct {
			Classes uint64 `json:"classes"`
		} `json:"totals"`
	}
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatal(err)
	}
	if len(info.Tiers) != 3 || info.Tiers[0].Name != "3-3" || info.Tiers[0].Classes != 169626 ||
		*info.Tiers[0].MaxLoss != 26 || info.Totals.Classes != 169626+2*760398 {
		t.Fatalf("info %s", out)
	}
	if code, out, _ := runCmd(t, "", "verify", dir); code != exitOK || !strings.Contains(out, "forward consistency") {
		t.Fatalf("verify: exit %d: %s", code, out)
	}
}

func TestMillInfoPlot(t *testing.T) {
	racetest.SkipSlow(t, "shares the Mühle set of ≤ 7 stones (up to 120 s)")
	dir := millSet(t)
	// The set: a panel of all the sectors, then one per sector; wins, losses and draws.
	code, out, stderr := runCmd(t, "", "info", "--plot", "-", dir)
	if bars, panels := svgBars(t, []byte(out)); code != exitOK || panels != 4 || bars < 10 {
		t.Fatalf("set: exit %d, %d bars in %d panels: %s", code, bars, panels, stderr)
	}
	for _, want := range []string{`data-key="all"`, `data-key="3-3"`, `data-value="win"`, `data-value="loss"`, `data-value="draw"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the set's chart lacks %s", want)
		}
	}
	// One sector file: its own panel, with the same bars.
	code, one, _ := runCmd(t, "", "info", "--plot", "-", filepath.Join(dir, "sector-3-3.tsm"))
	if bars, panels := svgBars(t, []byte(one)); code != exitOK || panels != 1 || bars < 10 || !strings.Contains(one, "<title>25: ") {
		t.Errorf("sector 3-3: exit %d, %d bars in %d panels", code, bars, panels)
	}
	// info --json has the counts per remoteness.
	_, js, _ := runCmd(t, "", "info", "--json", filepath.Join(dir, "sector-3-3.tsm"))
	var info struct {
		Wins       uint64   `json:"wins"`
		WinCounts  []uint64 `json:"win_counts"`
		LossCounts []uint64 `json:"loss_counts"`
	}
	if err := json.Unmarshal([]byte(js), &info); err != nil || len(info.WinCounts) != 26 || len(info.LossCounts) != 27 || info.WinCounts[1] == 0 {
		t.Errorf("info --json: %v %s", err, js)
	}
}
