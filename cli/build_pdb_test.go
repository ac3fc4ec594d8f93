package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/solver"
	"github.com/tablesmith/tablesmith/values"
)

// runPDB calls runBuildPDB in-process, as `tablesmith build pdb ARGS` would.
func runPDB(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, args: append([]string{"build", "pdb"}, args...)}
	err := runBuildPDB(e, args)
	return out.String(), errb.String(), err
}

func TestBuildPDB(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "set")
	out, _, err := runPDB(t, "--rows", "3", "--cols", "3", "--partition", "4-4", "--workers", "2", "-o", dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "group 1 [1-4]: 3,024 entries, max ") ||
		!strings.HasPrefix(lines[1], "group 2 [5-8]: 3,024 entries") || !strings.Contains(lines[2], "2 groups, 6,048 entries") ||
		!strings.Contains(lines[2], "bytes/entry") {
		t.Fatalf("output:\n%s", out)
	}
	s, err := solver.OpenPDBSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Rows() != 3 || len(s.Groups()) != 2 || s.Goal() != "blank-last" {
		t.Fatalf("set %d×%d %s %v", s.Rows(), s.Cols(), s.Goal(), s.Groups())
	}
	if m := s.Manifest(); !strings.Contains(m.Build.Command, "--partition 4-4") || m.Build.Workers != 2 {
		t.Fatalf("build info %+v", m.Build)
	}

	// --groups, --json, blank-first, value encoding, flags after the output.
	dir2 := filepath.Join(t.TempDir(), "set2")
	out, _, err = runPDB(t, "--rows", "2", "--cols", "3", "--groups", "1,3/2", "-o", dir2, "--json", "--goal", "blank-first", "--encoding", "value")
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Manifest format.Manifest `json:"manifest"`
		Entries  uint64          `json:"entries"`
		MemBPE   float64         `json:"memory_bytes_per_entry"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	var p struct{ Goal, Encoding string }
	if err := json.Unmarshal(j.Manifest.Params, &p); err != nil {
		t.Fatal(err)
	}
	if j.Entries != 30+6 || p.Goal != "blank-first" || values.Encoding(p.Encoding) != values.EncodingPDBValue || j.MemBPE <= 0 || len(j.Manifest.Members) != 2 {
		t.Fatalf("json %+v", j)
	}
	if _, err := os.Stat(filepath.Join(dir2, j.Manifest.Members[1].File)); err != nil {
		t.Fatal(err)
	}

	// On a terminal the progress line is drawn on stderr and erased again.
	var o, eb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &o, stderr: &eb, stderrIsTerm: true}
	if err := runBuildPDB(e, []string{"--rows", "2", "--cols", "3", "--partition", "3-2", "-o", filepath.Join(t.TempDir(), "s")}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(eb.String(), "group 1/2: write") || !strings.HasSuffix(eb.String(), "\r") {
		t.Fatalf("stderr %q", eb.String())
	}
}

func TestBuildPDBUsage(t *testing.T) {
	t.Parallel()
	o := filepath.Join(t.TempDir(), "x")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--rows", "3", "--cols", "3", "--partition", "4-4"}, "-o DIR"},
		{[]string{"--rows", "3", "--partition", "4-4", "-o", o}, "--rows and --cols"},
		{[]string{"--rows", "3", "--cols", "3", "-o", o}, "exactly one of --groups and --partition"},
		{[]string{"--rows", "3", "--cols", "3", "--groups", "1", "--partition", "4-4", "-o", o}, "exactly one"},
		{[]string{"--rows", "3", "--cols", "3", "--groups", "1,2/2,3", "-o", o}, "disjoint"},
		{[]string{"--rows", "3", "--cols", "3", "--groups", "0,1", "-o", o}, "blank"},
		{[]string{"--rows", "3", "--cols", "3", "--groups", "1,9", "-o", o}, "tile 9"},
		{[]string{"--rows", "3", "--cols", "3", "--groups", "1,a", "-o", o}, "not a tile"},
		{[]string{"--rows", "3", "--cols", "3", "--partition", "4-3", "-o", o}, "covers 7 tiles"},
		{[]string{"--rows", "4", "--cols", "4", "--partition", "7-8", "--goal", "middle", "-o", o}, "goal"},
		{[]string{"--rows", "9", "--cols", "3", "--groups", "1", "-o", o}, "board size"},
		{[]string{"--rows", "3", "--cols", "3", "--groups", "1", "--encoding", "zip", "-o", o}, "--encoding"},
		{[]string{"--rows", "3", "--cols", "3", "--groups", "1", "--workers", "0", "-o", o}, "--workers"},
		{[]string{"--rows", "3", "--cols", "3", "--groups", "1", "-o", o, "extra"}, "unexpected"},
		{[]string{"--bogus"}, "bogus"},
	} {
		_, _, err := runPDB(t, c.args...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want a usage error mentioning %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(o); err == nil {
		t.Error("a failed call created the output directory")
	}
}

func TestTileList(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   []int
		want string
	}{{[]int{1, 2, 3}, "[1-3]"}, {[]int{1, 4, 5, 6, 8}, "[1,4-6,8]"}, {[]int{7}, "[7]"}} {
		if got := tileList(c.in); got != c.want {
			t.Errorf("tileList(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPDBManifestCountsCannotMislead: a pattern-database set's manifest states no count
// about a group (entries, values, code bits): info reads them from each file's
// checksummed metadata, so counts added to the manifest by hand change nothing that info
// reports, and verify still checks the files. What the manifest does state about a group
// (its parameters, size and SHA-256) is checked: an edit fails verify.
func TestPDBManifestCountsCannotMislead(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "pdb")
	if code, _, stderr := runCmd(t, "", "build", "pdb", "--rows", "2", "--cols", "3", "--groups", "1,2,3/4,5", "--workers", "1", "-o", dir); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	_, before, _ := runCmd(t, "", "info", dir)
	_, beforeJSON, _ := runCmd(t, "", "info", "--json", dir)
	path := filepath.Join(dir, "manifest.json")
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(member map[string]any)) {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal(orig, &m); err != nil {
			t.Fatal(err)
		}
		f(m["members"].([]any)[0].(map[string]any))
		b, _ := json.Marshal(m)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit(func(x map[string]any) {
		x["max_value"], x["counts"], x["code_bits"], x["entries"] = 99, []int{1, 2, 3}, 7, 12345
	})
	if code, stdout, stderr := runCmd(t, "", "verify", dir); code != 0 {
		t.Fatalf("verify with counts added to the manifest: exit %d: %s%s", code, stdout, stderr)
	}
	if _, after, _ := runCmd(t, "", "info", dir); after != before {
		t.Errorf("info after the edit:\n%s\nbefore:\n%s", after, before)
	}
	_, afterJSON, _ := runCmd(t, "", "info", "--json", dir)
	var a, b struct{ Members []map[string]any }
	if json.Unmarshal([]byte(afterJSON), &a) != nil || json.Unmarshal([]byte(beforeJSON), &b) != nil ||
		fmt.Sprint(a.Members) != fmt.Sprint(b.Members) || strings.Contains(afterJSON, "max_value\":99") {
		t.Errorf("info --json after the edit:\n%s\nbefore:\n%s", afterJSON, beforeJSON)
	}
	for _, c := range []struct {
		name string
		f    func(x map[string]any)
	}{
		{"params", func(x map[string]any) { x["params"].(map[string]any)["tiles"] = []int{1, 2, 4} }},
		{"bytes", func(x map[string]any) { x["bytes"] = x["bytes"].(float64) + 1 }},
		{"sha256", func(x map[string]any) { x["sha256"] = strings.Repeat("0", 64) }},
	} {
		edit(c.f)
		if code, stdout, stderr := runCmd(t, "", "verify", dir); code != exitFail {
			t.Errorf("verify with the member's %s edited: exit %d: %s%s", c.name, code, stdout, stderr)
		}
	}
}
