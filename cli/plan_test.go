package cli

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/settest"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/values"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestPlanSlurmGolden: the script for the ≤ 8-stone set with every Slurm option, with the
// binary's and the set's paths replaced by fixed ones; then run with a stand-in sbatch
// that records its arguments, to see the job ids flow into the dependencies.
func TestPlanSlurmGolden(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "mill8")
	code, out, stderr := runCmd(t, "", "plan", "mill", "--max-stones", "8", "-o", dir, "--emit", "slurm", "--partition", "short",
		"--account", "proj", "--sbatch-flag=--qos=low", "--sbatch-flag", "--comment=two words")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	exe, _ := os.Executable()
	got := strings.ReplaceAll(strings.ReplaceAll(out, exe, "/opt/tablesmith/bin/tablesmith"), dir, "/shared/mill8")
	golden := filepath.Join("testdata", "plan-mill8.slurm")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("the script differs from %s (go test -run TestPlanSlurmGolden -update):\n%s", golden, got)
	}
	bin, calls := fakeSbatch(t)
	cmd := exec.Command("bash", "-c", out)
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	ids, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, ids)
	}
	if string(ids) != "mill-3-3 101\nmill-4-3 102\nmill-4-4 103\nmill-5-3 104\n" {
		t.Fatalf("the script printed %q", ids)
	}
	jobs := calls()
	if len(jobs) != 4 || !strings.Contains(jobs[2], "--dependency=afterok:102\n") || strings.Contains(jobs[0], "--dependency") ||
		!strings.Contains(jobs[3], "--comment=two words\n") || !strings.Contains(jobs[3], "--wrap="+exe+" build mill --tier 5-3 --workers 1 -o "+dir+"\n") {
		t.Fatalf("sbatch calls:\n%s", strings.Join(jobs, "----\n"))
	}
	if st, err := os.Stat(filepath.Join(dir, "logs")); err != nil || !st.IsDir() {
		t.Fatalf("the script made no log directory: %v", err)
	}
}

// fakeSbatch makes a directory with a stand-in sbatch that prints ids 101, 102, … (as
// "id;cluster") and logs its arguments; calls returns them, one string per call, one
// argument per line.
func fakeSbatch(t *testing.T) (bin string, calls func() []string) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin = t.TempDir()
	log := filepath.Join(bin, "calls")
	fake := "#!/usr/bin/env bash\nn=$(( $(cat " + log + ".n 2>/dev/null || echo 100) + 1 ))\necho $n > " + log + ".n\n" +
		"printf '%s\\n' \"$@\" >> " + log + "\necho ---- >> " + log + "\necho \"$n;cluster\"\n"
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, func() []string {
		b, _ := os.ReadFile(log)
		return strings.Split(strings.TrimSuffix(string(b), "----\n"), "----\n")
	}
}

// TestPlanSubmit: --submit saves the script in DIR/logs, runs it and prints the ids (with
// a stand-in sbatch first on PATH: not parallel).
func TestPlanSubmit(t *testing.T) {
	bin, calls := fakeSbatch(t)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	dir := filepath.Join(t.TempDir(), "set")
	code, out, stderr := runCmd(t, "", "plan", "mill", "--max-stones", "7", "-o", dir, "--submit", "--slurm-partition", "p")
	if code != exitOK || out != "mill-3-3 101\nmill-4-3 102\n" {
		t.Fatalf("exit %d, %q, %s", code, out, stderr)
	}
	if c := calls(); len(c) != 2 || !strings.Contains(c[1], "--partition=p\n") || !strings.Contains(c[1], "--dependency=afterok:101\n") {
		t.Fatalf("calls %q", c)
	}
	if saved, _ := filepath.Glob(filepath.Join(dir, "logs", "submit-*.sh")); len(saved) != 1 {
		t.Fatalf("saved scripts %q", saved)
	}
	// sbatch failing fails the submission.
	os.WriteFile(filepath.Join(bin, "sbatch"), []byte("#!/bin/sh\necho 'sbatch: error: invalid partition' >&2\nexit 1\n"), 0o755)
	code, out, stderr = runCmd(t, "", "plan", "mill", "--max-stones", "7", "-o", dir, "--submit")
	if code != exitFail || out != "" || !strings.Contains(stderr, "invalid partition") || !strings.Contains(stderr, "submitting") {
		t.Fatalf("failing sbatch: exit %d, %q, %q", code, out, stderr)
	}
}

// runUnits runs a plan's unit commands in-process, in order, as the jobs would.
func runUnits(t *testing.T, units []pipeline.Unit) {
	t.Helper()
	for _, u := range units {
		if code, _, stderr := runCmd(t, "", u.Command[1:]...); code != exitOK {
			t.Fatalf("unit %s: exit %d: %s", u.ID, code, stderr)
		}
	}
}

// planJSON runs `plan ARGS --emit json` and returns the units.
func planJSON(t *testing.T, args ...string) []pipeline.Unit {
	t.Helper()
	code, out, stderr := runCmd(t, "", append(append([]string{"plan"}, args...), "--emit", "json")...)
	if code != exitOK {
		t.Fatalf("plan %q: exit %d: %s", args, code, stderr)
	}
	var p struct {
		Units []pipeline.Unit `json:"units"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return p.Units
}

func sums(t *testing.T, dir string) map[string]string {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.tsm"))
	out := map[string]string{}
	for _, n := range names {
		s, err := format.FileSHA256(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = s
	}
	if len(out) == 0 {
		t.Fatalf("no table files in %s", dir)
	}
	return out
}

// TestPlanPDBUnits: the units of `plan pdb`, run one by one, make the set `build pdb`
// makes, byte for byte; then the plan is empty.
func TestPlanPDBUnits(t *testing.T) {
	t.Parallel()
	whole, dir := filepath.Join(t.TempDir(), "whole"), filepath.Join(t.TempDir(), "units")
	spec := []string{"--rows", "3", "--cols", "3", "--partition", "4-4"}
	if code, _, stderr := runCmd(t, "", append(append([]string{"build", "pdb"}, spec...), "-o", whole)...); code != exitOK {
		t.Fatal(stderr)
	}
	units := planJSON(t, append(append([]string{"pdb"}, spec...), "-o", dir)...)
	if len(units) != 3 || units[2].ID != "pdb-manifest" {
		t.Fatalf("units %+v", units)
	}
	runUnits(t, units)
	if got, want := sums(t, dir), sums(t, whole); !reflect.DeepEqual(got, want) {
		t.Fatalf("unit by unit %v, whole %v", got, want)
	}
	if u := planJSON(t, append(append([]string{"pdb"}, spec...), "-o", dir)...); len(u) != 0 {
		t.Fatalf("a complete set plans %+v", u)
	}
	code, out, _ := runCmd(t, "", append(append([]string{"build", "pdb"}, spec...), "--group", "2", "-o", dir)...)
	if code != exitOK || !strings.Contains(out, "group 2 [5-8]") || !strings.Contains(out, "(already complete)") {
		t.Fatalf("a complete group: exit %d, %q", code, out)
	}
	if code, out, _ := runCmd(t, "", "plan", "pdb", "--rows", "3", "--cols", "3", "--partition", "4-4", "-o", dir); code != exitOK ||
		!strings.Contains(out, "complete, nothing to run") {
		t.Fatalf("exit %d, %q", code, out)
	}
	if code, _, stderr := runCmd(t, "", "verify", dir); code != exitOK {
		t.Fatal(stderr)
	}
}

// TestPlanVerifySiblings: the verification plan of a game with a placement phase takes
// the placement sectors of one board (siblings) as one unit, `verify --tier A,B,…`, which
// checks them side by side: every sector in one unit, each unit one family; a value
// forged in one sibling fails the unit naming that sibling (the first named, where two
// are forged); empty and repeated names are usage errors.
func TestPlanVerifySiblings(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the four-stone game: not in the short (race) pass")
	}
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "mill4")
	if code, _, stderr := runCmd(t, "", "build", "mill", "--stones", "4", "-o", dir); code != exitOK {
		t.Fatal(stderr)
	}
	g := mill.Game{}
	vu := planJSON(t, "verify", dir)
	var group, planned []string
	for _, u := range vu {
		tiers := strings.Split(u.Command[slices.Index(u.Command, "--tier")+1], ",")
		first, err := g.ParseTier(tiers[0])
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range tiers {
			if x, err := g.ParseTier(name); err != nil || !slices.Contains(g.TierSiblings(first), x) {
				t.Fatalf("unit %s holds %v: %s is no sibling of %s (%v)", u.ID, tiers, name, tiers[0], err)
			}
		}
		planned = append(planned, tiers...)
		if len(tiers) > len(group) {
			group = tiers
		}
	}
	var files []string
	entries, _ := filepath.Glob(filepath.Join(dir, "sector-*.tsm"))
	for _, e := range entries {
		files = append(files, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(e), "sector-"), ".tsm"))
	}
	if slices.Sort(planned); !slices.Equal(planned, slices.Sorted(slices.Values(files))) || len(group) < 2 {
		t.Fatalf("the units check %v, the set holds %v; the largest unit %v: want every sector once and siblings together", planned, files, group)
	}
	runUnits(t, vu)
	list := strings.Join(group, ",")
	code, out, _ := runCmd(t, "", "verify", "--tier", list, dir)
	if want := "sectors " + strings.Join(group, ", ") + ": checksums"; code != exitOK || !strings.Contains(out, want) {
		t.Fatalf("verify --tier %s: exit %d, %q, want %q", list, code, out, want)
	}
	// forge changes slot 0 of a sector (resealed: only the forward check can tell),
	// returning the change's undoing.
	forge := func(name string) (undo func()) {
		var was uint32
		settest.Rewrite(t, dir, "sector-"+name+".tsm", func(_ *format.Metadata, codes []uint32) {
			was = codes[0]
			if codes[0] == values.WDLDraw {
				codes[0] = values.WDLDraw + 1 // a draw has moves: it is not lost at once
			} else {
				codes[0] = values.WDLDraw
			}
		})
		return func() {
			settest.Rewrite(t, dir, "sector-"+name+".tsm", func(_ *format.Metadata, codes []uint32) { codes[0] = was })
		}
	}
	named := func(list string, victim string) {
		t.Helper()
		code, out, _ := runCmd(t, "", "verify", "--tier", list, dir)
		if code != exitFail || !strings.Contains(out, "CORRUPT") || !strings.Contains(out, "sector-"+victim+".tsm: the values are inconsistent at slot 0 ") {
			t.Fatalf("verify --tier %s, %s forged at slot 0: exit %d, %q", list, victim, code, out)
		}
	}
	last := group[len(group)-1]
	undo := forge(last)
	named(list, last)
	undoFirst := forge(group[0])
	named(list, group[0]) // the first named of the two
	reversed := slices.Clone(group)
	slices.Reverse(reversed)
	named(strings.Join(reversed, ","), last)
	undo()
	undoFirst()
	if code, out, _ := runCmd(t, "", "verify", "--tier", list, dir); code != exitOK {
		t.Fatalf("after the forged values were undone: exit %d, %q", code, out)
	}
	for _, bad := range []string{group[0] + ",9-9-9-9", group[0] + ",," + group[1], group[0] + "," + group[0], group[0] + ","} {
		if code, _, stderr := runCmd(t, "", "verify", "--tier", bad, dir); code != exitUsage {
			t.Fatalf("verify --tier %q: exit %d (%s), want %d", bad, code, stderr, exitUsage)
		}
	}
}

// TestPlanMillAndVerifyUnits: the mill plan as a table and as units run in-process (with
// --jobs 2 for a rescue), `verify --tier`, and the verification plan.
func TestPlanMillAndVerifyUnits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and verifies Mühle sectors: not in the short (race) pass")
	}
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "mill")
	code, out, _ := runCmd(t, "", "plan", "mill", "--sectors", "4-3", "-o", dir)
	if code != exitOK || !strings.Contains(out, "unit  cores") || !strings.Contains(out, "mill-4-3  ") ||
		!strings.Contains(out, "2 units to run, 1,690,422 slots, about 660.3 KiB of files; the longest chain, mill-3-3 → mill-4-3") ||
		!strings.Contains(out, "   disk  ") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	runUnits(t, planJSON(t, "mill", "--sectors", "4-3", "-o", dir))
	if u := planJSON(t, "mill", "--sectors", "4-3", "-o", dir); len(u) != 0 {
		t.Fatalf("a complete set plans %+v", u)
	}
	// verify --tier and the verification plan.
	if code, out, _ := runCmd(t, "", "verify", "--tier", "4-3", dir); code != exitOK || !strings.Contains(out, "sector 4-3: checksums") {
		t.Fatalf("verify --tier: exit %d, %q", code, out)
	}
	vu := planJSON(t, "verify", dir)
	if len(vu) != 3 || vu[1].ID != "verify-4-3" {
		t.Fatalf("verify units %+v", vu)
	}
	runUnits(t, vu)
	if code, out, _ := runCmd(t, "", "verify", "--tier", "5-5", dir); code != exitFail || !strings.Contains(out, "not in") {
		t.Fatalf("a sector not in the set: exit %d, %q", code, out)
	}
	// Damage 3-4: its verification fails, its pair is planned again, --jobs 2 rescues it.
	path := filepath.Join(dir, "sector-3-4.tsm")
	before := sums(t, dir)
	b, _ := os.ReadFile(path)
	b[len(b)/2] ^= 1
	os.WriteFile(path, b, 0o644)
	if code, out, _ := runCmd(t, "", "verify", "--tier", "3-4", dir); code != exitFail || !strings.Contains(out, "CORRUPT") {
		t.Fatalf("verify of a damaged sector: exit %d, %q", code, out)
	}
	if u := planJSON(t, "mill", "--sectors", "4-3", "-o", dir); len(u) != 1 || u[0].ID != "mill-4-3" || len(u[0].Deps) != 0 {
		t.Fatalf("rescue plan %+v", u)
	}
	if code, _, stderr := runCmd(t, "", "build", "mill", "--sectors", "4-3", "--jobs", "2", "-o", dir); code != exitOK {
		t.Fatal(stderr)
	}
	if got := sums(t, dir); !reflect.DeepEqual(got, before) {
		t.Fatalf("after the rescue %v, before %v", got, before)
	}
}

func TestPlanUsage(t *testing.T) {
	t.Parallel()
	o := filepath.Join(t.TempDir(), "x")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plan"}, "|pdb|verify"},
		{[]string{"plan", "chess", "-o", o}, "unknown plan"},
		{[]string{"plan", "mill", "--max-stones", "8"}, "-o DIR"},
		{[]string{"plan", "mill", "--max-stones", "8", "--sectors", "3-3", "-o", o}, "not --max-stones and --sectors"},
		{[]string{"plan", "mill", "--max-stones", "0", "-o", o}, "want 6 to 18"},
		{[]string{"build", "mill", "--tier", "3-3", "--max-stones", "8", "-o", o}, "no selection flag"},
		{[]string{"build", "mill", "--tier", "3-10", "-o", o}, "W-B"},
		{[]string{"plan", "mill", "--max-stones", "5", "-o", o}, "want 6 to 18"},
		{[]string{"plan", "mill", "--sectors", "2-3", "-o", o}, "W-B"},
		{[]string{"plan", "mill", "--max-stones", "8", "-o", o, "--emit", "yaml"}, "--emit"},
		{[]string{"plan", "mill", "--max-stones", "8", "-o", o, "--emit", "json", "--submit"}, "--submit"},
		{[]string{"plan", "mill", "--max-stones", "8", "-o", o, "--cores", "0"}, "--cores"},
		{[]string{"plan", "mill", "--max-stones", "8", "-o", o, "--time-scale", "0.5"}, "--time-scale"},
		{[]string{"plan", "pdb", "--rows", "3", "--cols", "3", "-o", o}, "exactly one of --groups and --partition"},
		{[]string{"plan", "verify"}, "DIR"},
		{[]string{"plan", "verify", "-o", o, o}, "no -o"},
		{[]string{"build", "mill", "--max-stones", "8", "--jobs", "0", "-o", o}, "--jobs"},
		{[]string{"build", "pdb", "--rows", "3", "--cols", "3", "--partition", "4-4", "--group", "3", "-o", o}, "2 groups"},
		{[]string{"build", "pdb", "--rows", "3", "--cols", "3", "--partition", "4-4", "--group", "1", "--assemble", "-o", o}, "--assemble"},
		{[]string{"verify", "--tier", "3-3", o}, "two-player game's set"},
	} {
		code, _, stderr := runCmd(t, "", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want 2 mentioning %q", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(o); err == nil {
		t.Error("a failed call created the output directory")
	}
	// Assembling a set none of whose groups is built fails, naming the first.
	code, _, stderr := runCmd(t, "", "build", "pdb", "--rows", "3", "--cols", "3", "--partition", "4-4", "--assemble", "-o", o)
	if code != exitFail || !strings.Contains(stderr, "--group") {
		t.Errorf("--assemble with no groups: exit %d, %q", code, stderr)
	}
}
