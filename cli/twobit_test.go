package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
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

// TestTwoBitDiskFull: a two-bit build, full or lean, whose disk fills (the file size
// limit fails a write with EFBIG as a full disk fails it with ENOSPC) warns that a
// checkpoint was not written and goes on, then fails naming the table, leaving nothing
// behind; an old table at the output path is kept whole.
func TestTwoBitDiskFull(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := tablesmithBinary(t)
	for _, bits := range []string{"2", "3"} {
		dir := t.TempDir()
		out := filepath.Join(dir, "eight.tsm")
		old := []byte("the old table, kept until a new one is whole")
		if err := os.WriteFile(out, old, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "-c", `ulimit -f 16 && exec "$0" build eight --engine two-bit --search-bits "$2" --checkpoint always --workers 2 -o "$1"`, bin, out, bits)
		b, err := cmd.CombinedOutput()
		msg := string(b)
		if err == nil || cmd.ProcessState.ExitCode() != exitFail || !strings.Contains(msg, "write "+out+": file too large") ||
			!strings.Contains(msg, "warning: checkpoint after level 0 not written") || strings.Contains(msg, ".ts-") {
			t.Fatalf("--search-bits %s: %v: %q; want exit 1 naming %s, and a checkpoint warning", bits, err, msg, out)
		}
		if lean := strings.Contains(msg, "a lean search"); lean != (bits == "2") {
			t.Fatalf("--search-bits %s: lean %v: %q", bits, lean, msg)
		}
		if got, _ := os.ReadFile(out); !bytes.Equal(got, old) {
			t.Errorf("--search-bits %s: the old table was not kept: %q", bits, got)
		}
		if des, _ := os.ReadDir(dir); len(des) != 1 {
			t.Errorf("--search-bits %s: left behind: %v", bits, des)
		}
	}
}
