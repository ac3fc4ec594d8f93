package cli

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/builder/twobit"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/pipeline"
)

// TestTwoBitCommands: build --engine two-bit (half-depth codes by default on the
// 8-puzzle under lex, depth-mod-3 asked for), info --json counts, query and --path by
// descent, verify (recomputing the search), convert both ways, plan slide, and bad usage.
func TestTwoBitCommands(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ codes, want string }{{"auto", "half-depth"}, {"depth-mod-3", "depth-mod-3"}, {"half-depth", "half-depth"}} {
		t.Run(tc.codes, func(t *testing.T) {
			t.Parallel()
			twoBitCommands(t, tc.codes, tc.want)
		})
	}
}

func twoBitCommands(t *testing.T, codes, want string) {
	dir := t.TempDir()
	tb := filepath.Join(dir, "eight2.tsm")
	code, out, stderr := runCmd(t, "", "build", "eight", "--engine", "two-bit", "--codes", codes, "--workers", "2", "--json", "-o", tb)
	if code != 0 || !strings.Contains(out, `"engine":"two-bit"`) || !strings.Contains(out, `"codes":"`+want+`"`) || !strings.Contains(stderr, "level 31: 2 states") {
		t.Fatalf("build: %d %s %s", code, out, stderr)
	}
	if half := strings.Contains(stderr, "a half-depth search: 2 bits a slot, each state expanded once"); half != (want == "half-depth") || strings.Contains(stderr, "lean") {
		t.Fatalf("build notices: %s", stderr)
	}
	code, out, _ = runCmd(t, "", "info", "--json", tb)
	var info struct {
		Encoding string   `json:"encoding"`
		Counts   []uint64 `json:"counts"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &info) != nil || info.Encoding != want || !slices.Equal(info.Counts, slide.EightPuzzleCounts) {
		t.Fatalf("info: %d %s", code, out)
	}
	if code, out, _ = runCmd(t, "", "info", tb); code != 0 || !strings.Contains(out, want) {
		t.Fatalf("info: %d %s", code, out)
	}
	code, out, _ = runCmd(t, "", "query", "--json", "--path", tb, "867254301", "123456708")
	if code != 0 || !strings.Contains(out, `"remoteness":31`) || !strings.Contains(out, `"path":["123456708","123456780"]`) {
		t.Fatalf("query: %d %s", code, out)
	}
	// --preload: the same answers from a table decoded whole before the first.
	stream := "867254301\n123456708\n812043765\n"
	_, plain, _ := runCmd(t, stream, "query", "--path", tb)
	if code, out, stderr = runCmd(t, stream, "query", "--path", "--preload", tb); code != 0 || out != plain || stderr != "" {
		t.Fatalf("query --preload: %d %q %s, without it %q", code, out, stderr, plain)
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
	again := filepath.Join(dir, "again.tsm")
	if code, out, stderr = runCmd(t, "", "convert", "--codes", codes, "--json", "-o", again, back); code != 0 || !strings.Contains(out, `"encoding":"`+want+`"`) {
		t.Fatalf("convert to %s: %d %s %s", codes, code, out, stderr)
	}
	if code, out, _ = runCmd(t, "", "verify", again); code != 0 || !strings.Contains(out, "search recomputed") {
		t.Fatalf("verify converted: %d %s", code, out)
	}
	code, out, _ = runCmd(t, "", "plan", "slide", "--rows", "3", "--cols", "5", "--json")
	if code != 0 || !strings.Contains(out, `"on_paper":true`) {
		t.Fatalf("plan slide: %d %s", code, out)
	}
	for _, args := range [][]string{
		{"build", "eight", "--engine", "nibbles", "-o", filepath.Join(dir, "x.tsm")},
		{"plan", "slide", "--rows", "5", "--cols", "5"},
		{"convert", "--codes", "nibbles", "-o", filepath.Join(dir, "y.tsm"), back},
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
	code, out, stderr := runCmd(t, "", "build", "eight", "--engine", "two-bit", "--search-bits", "2", "--codes", "depth-mod-3", "--workers", "2", "--json", "-o", tb)
	if code != 0 || !strings.Contains(out, `"search_bits":2`) || !strings.Contains(out, `"codes":"depth-mod-3"`) || !strings.Contains(stderr, "lean search") {
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
	// --search-bits 2 with --codes auto keeps its meaning: a lean depth-mod-3 search.
	if code, out, _ = runCmd(t, "", "build", "eight", "--search-bits", "2", "--json", "-o", filepath.Join(dir, "lean2.tsm")); code != 0 || !strings.Contains(out, `"encoding":"depth-mod-3"`) {
		t.Fatalf("2 bits, auto codes: %d %s", code, out)
	}
	if code, out, _ = runCmd(t, "", "build", "eight", "--codes", "half-depth", "--search-bits", "2", "-o", filepath.Join(dir, "half.tsm")); code != 0 || !strings.Contains(out, "two-bit (half-depth) engine,") {
		t.Fatalf("half-depth, 2 bits: %d %s", code, out)
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

// TestCodesFlag: --codes errors (a bad value, with the byte engine, half-depth with 3
// bits a slot, with a set directory to convert: usage errors) and half-depth refused
// where the index scheme interleaves the sides, quoting the reason.
func TestCodesFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	x := filepath.Join(dir, "x.tsm")
	for _, tc := range []struct {
		args   []string
		exit   int
		errHas string
	}{
		{[]string{"build", "eight", "--codes", "mod4", "-o", x}, 2, "--codes must be auto"},
		{[]string{"build", "eight", "--engine", "bytes", "--codes", "half-depth", "-o", x}, 2, "not with --engine bytes"},
		{[]string{"build", "eight", "--engine", "bytes", "--codes", "depth-mod-3", "-o", x}, 2, "not with --engine bytes"},
		{[]string{"build", "eight", "--codes", "half-depth", "--search-bits", "3", "-o", x}, 2, "not with --search-bits 3"},
		{[]string{"convert", "--codes", "half-depth", "-o", filepath.Join(dir, "set2"), dir}, 2, "--codes is for a puzzle table"},
		{[]string{"build", "slide", "--rows", "2", "--cols", "6", "--index", "mr", "--codes", "half-depth", "-o", x}, 1, "long runs of slots"},
	} {
		code, _, stderr := runCmd(t, "", tc.args...)
		if code != tc.exit || !strings.Contains(stderr, tc.errHas) {
			t.Errorf("%q: exit %d %s, want %d and %q", tc.args, code, stderr, tc.exit, tc.errHas)
		}
	}
}

// TestHalfDepthResume: a half-depth build's checkpoint (a search stopped after level 15,
// as a kill leaves it) is refused by --resume --codes depth-mod-3, saying how to go on;
// --resume with auto codes goes on half-depth from it and gives the 8-puzzle's table.
func TestHalfDepthResume(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "eight.tsm")
	in, err := registry.Open("slide", []byte(`{"rows":3,"cols":3,"goal":"blank-last"}`), "lex")
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("killed")
	_, err = twobit.Search(context.Background(), in.Space.(twobit.Space), twobit.Options{Workers: 2, Half: true,
		AfterLevel: func(cp *twobit.Checkpoint) error {
			if len(cp.Counts) == 16 {
				if err := twobit.WriteCheckpoint(pipeline.TwoBitCheckpointPath(out), in.Key(), cp); err != nil {
					return err
				}
				return stop
			}
			return nil
		}})
	if !errors.Is(err, stop) {
		t.Fatalf("search: %v", err)
	}
	code, _, stderr := runCmd(t, "", "build", "eight", "--resume", "--codes", "depth-mod-3", "--workers", "2", "-o", out)
	if code == 0 || !strings.Contains(stderr, "half-depth search's") || !strings.Contains(stderr, "--codes half-depth or auto") {
		t.Fatalf("depth-mod-3 resume: %d %s", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "", "build", "eight", "--resume", "--workers", "2", "--json", "-o", out)
	if code != 0 || !strings.Contains(stderr, "after level 15") || !strings.Contains(stdout, `"codes":"half-depth"`) || !strings.Contains(stdout, `"search_bits":2`) {
		t.Fatalf("resume: %d %s %s", code, stdout, stderr)
	}
	var res struct {
		Counts []uint64 `json:"counts"`
	}
	if json.Unmarshal([]byte(stdout), &res) != nil || !slices.Equal(res.Counts, slide.EightPuzzleCounts) {
		t.Fatalf("counts: %s", stdout)
	}
}
