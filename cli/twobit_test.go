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

// TestLeanSearchBits: build --search-bits 2 (a lean two-bit search) gives the 8-puzzle's
// counts and says so in its summary and JSON; a bad --search-bits, or one with the byte
// engine, is a usage error.
func TestLeanSearchBits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tb := filepath.Join(dir, "lean.tsm")
	code, out, stderr := runCmd(t, "", "build", "eight", "--engine", "two-bit", "--search-bits", "2", "--workers", "2", "--json", "-o", tb)
	if code != 0 || !strings.Contains(out, `"search_bits":2`) || !strings.Contains(stderr, "lean search") {
		t.Fatalf("build: %d %s %s", code, out, stderr)
	}
	var res struct {
		Counts []uint64 `json:"counts"`
	}
	if json.Unmarshal([]byte(out), &res) != nil || !slices.Equal(res.Counts, slide.EightPuzzleCounts) {
		t.Fatalf("counts: %s", out)
	}
	if code, out, _ = runCmd(t, "", "build", "eight", "--search-bits", "3", "-o", filepath.Join(dir, "full.tsm")); code != 0 || !strings.Contains(out, "two-bit engine,") {
		t.Fatalf("3 bits: %d %s", code, out)
	}
	if code, out, _ = runCmd(t, "", "verify", tb); code != 0 {
		t.Fatalf("verify: %d %s", code, out)
	}
	for _, args := range [][]string{
		{"build", "eight", "--search-bits", "4", "-o", filepath.Join(dir, "x.tsm")},
		{"build", "eight", "--engine", "bytes", "--search-bits", "2", "-o", filepath.Join(dir, "y.tsm")},
	} {
		if code, _, stderr := runCmd(t, "", args...); code != 2 || !strings.Contains(stderr, "--search-bits") {
			t.Fatalf("%q: exit %d %s", args, code, stderr)
		}
	}
}
