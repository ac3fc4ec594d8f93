package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games/slide"
)

// TestTwoBitCommands: build --engine two-bit, info --json counts, query and --path by
// descent, verify (recomputing the search), convert both ways, plan slide, and bad usage.
func TestTwoBitCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tb := filepath.Join(dir, "eight2.tsm")
	code, out, stderr := runCmd(t, "", "build", "eight", "--engine", "two-bit", "--workers", "2", "--json", "-o", tb)
	if code != 0 || !strings.Contains(out, `"engine":"two-bit"`) || !strings.Contains(stderr, "level 31: 2 states") {
		t.Fatalf("build: %d %s %s", code, out, stderr)
	}
	code, out, _ = runCmd(t, "", "info", "--json", tb)
	var info struct {
		Encoding string   `json:"encoding"`
		Counts   []uint64 `json:"counts"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &info) != nil || info.Encoding != "depth-mod-3" || !slices.Equal(info.Counts, slide.EightPuzzleCounts) {
		t.Fatalf("info: %d %s", code, out)
	}
	code, out, _ = runCmd(t, "", "query", "--json", "--path", tb, "867254301", "123456708")
	if code != 0 || !strings.Contains(out, `"remoteness":31`) || !strings.Contains(out, `"path":["123456708","123456780"]`) {
		t.Fatalf("query: %d %s", code, out)
	}
	code, out, _ = runCmd(t, "", "verify", tb)
	if code != 0 || !strings.Contains(out, "search recomputed") {
		t.Fatalf("verify: %d %s", code, out)
	}
	back := filepath.Join(dir, "eight1.tsm")
	if code, out, stderr = runCmd(t, "", "convert", "-o", back, tb); code != 0 || !strings.Contains(out, "remoteness table") {
		t.Fatalf("convert: %d %s %s", code, out, stderr)
	}
	code, out, _ = runCmd(t, "", "query", back, "867254301")
	if code != 0 || !strings.Contains(out, "remoteness 31") {
		t.Fatalf("query converted: %d %s", code, out)
	}
	code, out, _ = runCmd(t, "", "plan", "slide", "--rows", "3", "--cols", "5", "--json")
	if code != 0 || !strings.Contains(out, `"on_paper":true`) {
		t.Fatalf("plan slide: %d %s", code, out)
	}
	for _, args := range [][]string{
		{"build", "eight", "--engine", "nibbles", "-o", filepath.Join(dir, "x.tsm")},
		{"plan", "slide", "--rows", "5", "--cols", "5"},
	} {
		if code, _, _ := runCmd(t, "", args...); code != 2 {
			t.Fatalf("%q: exit %d, want 2", args, code)
		}
	}
}
