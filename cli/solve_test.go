package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/internal/pdbtest"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/pipeline"
)

// runFunc runs one command function in-process with the exit-status mapping of run, so
// that these tests do not depend on the command table.
func runFunc(t *testing.T, fn func(*env, []string) error, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}
	err := fn(e, args)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK, out.String(), errb.String()
	case errors.Is(err, errUsage):
		return exitUsage, out.String(), err.Error()
	case errors.Is(err, errSilentFail):
		return exitFail, out.String(), errb.String()
	default:
		return exitFail, out.String(), err.Error()
	}
}

func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var got []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q is not JSON: %v", l, err)
		}
		got = append(got, m)
	}
	return got
}

func TestSolveJSON(t *testing.T) {
	t.Parallel()
	for _, algo := range []string{"astar", "idastar"} {
		code, out, _ := runFunc(t, runSolve, "", "--json", "--algo", algo,
			"123456708", "8 6 7 / 2 5 4 / 3 0 1", "123456780", "213456780", "12345678", "113456780", "1 2 3 4 5 6")
		if code != exitFail {
			t.Fatalf("%s: exit %d, want 1 because some lines fail", algo, code)
		}
		got := jsonLines(t, out)
		if len(got) != 7 {
			t.Fatalf("%s: %d lines:\n%s", algo, len(got), out)
		}
		one := got[0]
		if one["state"] != "123456708" || one["length"] != 1.0 || one["expanded"] == nil || one["seconds"] == nil {
			t.Fatalf("%s: one move: %v", algo, one)
		}
		if p, _ := one["path"].([]any); len(p) != 2 || p[0] != "123456708" || p[1] != "123456780" {
			t.Fatalf("%s: path %v", algo, one["path"])
		}
		if _, ok := one["max_heap"]; ok != (algo == "astar") {
			t.Fatalf("%s: max_heap present: %v", algo, ok)
		}
		if far := got[1]; far["state"] != "867254301" || far["length"] != 31.0 || len(far["path"].([]any)) != 32 {
			t.Fatalf("%s: 31 moves: %v", algo, far)
		}
		if goal := got[2]; goal["length"] != 0.0 || len(goal["path"].([]any)) != 1 {
			t.Fatalf("%s: the goal: %v", algo, goal)
		}
		if u := got[3]; u["solvable"] != false || u["error"] != nil || u["length"] != nil {
			t.Fatalf("%s: unsolvable: %v", algo, u)
		}
		for _, m := range got[4:] {
			if m["error"] == nil || m["length"] != nil {
				t.Fatalf("%s: bad input answered without error: %v", algo, m)
			}
		}
		if !strings.Contains(fmt.Sprint(got[5]["error"]), "tile 1 appears twice") ||
			!strings.Contains(fmt.Sprint(got[6]["error"]), "cannot tell the board size of 6 tiles") {
			t.Fatalf("%s: errors do not name the problem: %v / %v", algo, got[5]["error"], got[6]["error"])
		}
	}
}

func TestSolveStdinText(t *testing.T) {
	t.Parallel()
	code, out, _ := runFunc(t, runSolve, "123456708\n\n123456780\n", "--algo", "astar")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "123456708: length 1; tiles to slide: 8; expanded 1, max heap ") ||
		!strings.HasPrefix(lines[1], "123456780: length 0 (the goal); expanded 0") {
		t.Fatalf("output:\n%s", out)
	}
}

func TestSolveBoards(t *testing.T) {
	t.Parallel()
	// Korf's instance 79 (42 moves), a 2×3 board and a 5×5 board a few moves out.
	code, out, _ := runFunc(t, runSolve, "", "--json", "--goal", "blank-first",
		"0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15")
	if code != exitOK || jsonLines(t, out)[0]["length"] != 42.0 {
		t.Fatalf("Korf 79: exit %d: %s", code, out)
	}
	code, out, _ = runFunc(t, runSolve, "", "--json", "--rows", "2", "--cols", "3", "--heuristic", "hamming", "4 1 2 5 0 3")
	if code != exitOK || jsonLines(t, out)[0]["length"] != 5.0 {
		t.Fatalf("2×3: exit %d: %s", code, out)
	}
	code, out, _ = runFunc(t, runSolve, "", "--json", "--algo", "astar",
		"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24")
	if code != exitOK || jsonLines(t, out)[0]["length"] != 1.0 {
		t.Fatalf("5×5: exit %d: %s", code, out)
	}
}

func TestSolveUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--algo", "bfs", "123456780"},
		{"--heuristic", "euclid", "123456780"},
		{"--heuristic", "pdb", "123456780"},
		{"--pdb", "x", "--heuristic", "manhattan", "123456780"},
		{"--rows", "3", "123456780"},
		{"--rows", "9", "--cols", "9", "123456780"},
		{"--goal", "blank-middle", "123456780"},
		{"--max-nodes", "-1", "123456780"},
		{"--bogus"},
	} {
		if code, _, stderr := runFunc(t, runSolve, "", args...); code != exitUsage {
			t.Errorf("%q: exit %d (%s), want 2", args, code, stderr)
		}
	}
	if code, _, _ := runFunc(t, runSolve, "", "-h"); code != exitOK {
		t.Errorf("-h: exit %d", code)
	}
}

// TestSolvePDB builds a pattern-database set with `build pdb` and solves with it.
func TestSolvePDB(t *testing.T) {
	mem := filepath.Join(t.TempDir(), "pdb")
	if code, _, stderr := runFunc(t, runBuildPDB, "", "--rows", "3", "--cols", "3", "--groups", "1,2,3,4/5,6,7,8", "-o", mem); code != exitOK {
		t.Fatalf("build pdb: exit %d: %s", code, stderr)
	}
	for _, algo := range []string{"astar", "idastar"} {
		code, out, stderr := runFunc(t, runSolve, "", "--json", "--pdb", mem, "--algo", algo, "867254301", "2 1 3 4 5 6 7 8 0")
		got := jsonLines(t, out)
		if code != exitOK || got[0]["length"] != 31.0 || got[1]["solvable"] != false {
			t.Fatalf("%s: exit %d: %s %s", algo, code, out, stderr)
		}
	}
	if code, out, _ := runFunc(t, runSolve, "", "--pdb", mem, "--reflect=false", "867254301"); code != exitOK || !strings.Contains(out, "length 31") {
		t.Fatalf("no reflection: exit %d: %s", code, out)
	}
	if code, _, stderr := runFunc(t, runSolve, "", "--pdb", mem, "--goal", "blank-first", "867254301"); code != exitUsage ||
		!strings.Contains(stderr, "blank-last goal") {
		t.Fatalf("goal mismatch: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runFunc(t, runSolve, "", "--pdb", filepath.Join(t.TempDir(), "elsewhere"), "867254301"); code != exitFail ||
		!strings.Contains(stderr, "elsewhere") {
		t.Fatalf("missing set: exit %d: %s", code, stderr)
	}
	// A state of another size than the set's is a line error.
	if code, out, _ := runFunc(t, runSolve, "", "--pdb", mem, "1 2 3 0"); code != exitFail || !strings.Contains(out, "3×3 board has 9") {
		t.Fatalf("wrong size: exit %d: %s", code, out)
	}
}

func TestBenchKorfQuick(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 13 s")
	t.Parallel()
	code, out, stderr := runFunc(t, runBenchKorf, "", "--ids", "12,79", "--workers", "2")
	if code != exitOK || !strings.Contains(out, "every length equals the listed optimum") || !strings.Contains(out, "  79     42      42") {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	code, out, _ = runFunc(t, runBenchKorf, "", "--ids", "12", "--json", "--algo", "astar")
	var doc struct {
		Instances []map[string]any `json:"instances"`
		Total     map[string]any   `json:"total"`
		Wrong     []int            `json:"wrong"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != exitOK || err != nil || len(doc.Instances) != 1 ||
		doc.Instances[0]["length"] != 45.0 || doc.Total["generated"] == nil || len(doc.Wrong) != 0 {
		t.Fatalf("json: exit %d, %v: %s", code, err, out)
	}

	// A wrong listed optimum (of the right parity) fails the run.
	bad := filepath.Join(t.TempDir(), "korf.txt")
	if err := os.WriteFile(bad, []byte("79 44 0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runFunc(t, runBenchKorf, "", "--file", bad)
	if code != exitFail || !strings.Contains(out, "WRONG") || !strings.Contains(stderr, "instances [79]") {
		t.Fatalf("wrong optimum: exit %d: %s %s", code, out, stderr)
	}
	for _, args := range [][]string{{"--ids", "x"}, {"--ids", "101"}, {"--first", "-1"}, {"extra"}, {"--heuristic", "pdb"}} {
		if code, _, stderr := runFunc(t, runBenchKorf, "", args...); code != exitUsage {
			t.Errorf("%q: exit %d (%s), want 2", args, code, stderr)
		}
	}
	if code, _, stderr := runFunc(t, runBenchKorf, "", "--file", "no/such/file"); code != exitFail || !strings.Contains(stderr, "no/such/file") {
		t.Errorf("missing file: exit %d: %s", code, stderr)
	}
}

func TestBenchAStar(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 21 s")
	t.Parallel()
	code, out, _ := runFunc(t, runBenchAStar, "", "--instances", "5")
	if code != exitOK || !strings.Contains(out, "pdb+reflect") || !strings.Contains(out, "max heap (mean)") {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// TestSolvePDBFiles runs solve on a pattern-database directory written by the builder.
func TestSolvePDBFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spec := pdbtest.SlideSpec(t, slide.PDBSpec{Rows: 3, Cols: 3, Goal: "blank-first", Groups: [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}}, "")
	if _, err := pipeline.BuildPDBSet(context.Background(), dir, spec, pipeline.PDBOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	// The goal comes from the set: blank-first.
	code, out, stderr := runFunc(t, runSolve, "012345678\n102345678\n", "--json", "--pdb", dir, "--algo", "astar")
	got := jsonLines(t, out)
	if code != exitOK || len(got) != 2 || got[0]["length"] != 0.0 || got[1]["length"] != 1.0 || got[1]["max_heap"] == nil {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	if code, _, stderr := runFunc(t, runSolve, "", "--pdb", t.TempDir(), "012345678"); code != exitFail || !strings.Contains(stderr, "manifest.json is missing") {
		t.Fatalf("not a set: exit %d: %s", code, stderr)
	}
}
