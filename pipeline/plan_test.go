package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/tables"
)

// unitIDs lists the units' IDs and their dependencies as "id<dep,dep".
func unitIDs(units []Unit) []string {
	var out []string
	for _, u := range units {
		out = append(out, u.ID+"<"+strings.Join(u.Deps, ","))
	}
	return out
}

// dirSums is the SHA-256 of every table file in dir, by name.
func dirSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.tsm"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no table files in %s (%v)", dir, err)
	}
	out := map[string]string{}
	for _, n := range names {
		if out[filepath.Base(n)], err = format.FileSHA256(n); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func flipByte(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x40
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMillUnitsPlan: the units of the ≤ 8-stone set, their edges, commands and estimates.
func TestMillUnitsPlan(t *testing.T) {
	racetest.SkipSlow(t, "builds Mühle sectors, slow")
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "none-yet")
	units, err := TierUnits(millGame, dir, millUpTo(8), PlanOptions{Exe: "/opt/ts"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"mill-3-3<", "mill-4-3<mill-3-3", "mill-4-4<mill-4-3", "mill-5-3<mill-4-3"}
	if got := unitIDs(units); !slices.Equal(got, want) {
		t.Fatalf("units %q, want %q", got, want)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("planning created the directory")
	}
	slots := []uint64{169626, 1520796, 3225597, 5160780}
	for i, u := range units {
		wantCmd := []string{"/opt/ts", "build", "mill", "--tier", strings.TrimPrefix(u.ID, "mill-"), "--workers", "1", "-o", dir}
		if !slices.Equal(u.Command, wantCmd) || u.Kind != "mill" || u.Slots != slots[i] || u.Cores != 1 {
			t.Errorf("unit %+v", u)
		}
		if u.MemBytes < 8*u.Slots+overheadBytes || u.MemBytes%(64<<20) != 0 || u.Seconds < overheadSeconds+safetyFactor*float64(u.Slots)/tierClassesPerSecond {
			t.Errorf("%s: estimates %d bytes, %.0f s", u.ID, u.MemBytes, u.Seconds)
		}
	}
	// A big pair asks for more cores (at most MaxCores) and its exits' memory.
	big := TierPlanUnits(millGame, "d", []TierUnit{millUnit(t, "9-8")}, PlanOptions{MaxCores: 6})[0]
	if big.Cores != 6 || big.MemBytes < 8*big.Slots+2*millUnit(t, "9-7").Slots(millGame) || !slices.Equal(big.Command[5:7], []string{"--workers", "6"}) {
		t.Errorf("9-8: %+v", big)
	}
}

// TestCriticalPath: the bound quoted in the README, and a diamond.
func TestCriticalPath(t *testing.T) {
	t.Parallel()
	total, critical, chain := CriticalPath(TierPlanUnits(millGame, "d", TierPlan(millGame, millUpTo(8)), PlanOptions{}))
	if total != 10076799 || critical != 6851202 || !slices.Equal(chain, []string{"mill-3-3", "mill-4-3", "mill-5-3"}) {
		t.Errorf("≤ 8 stones: %d, %d, %v", total, critical, chain)
	}
	total, critical, chain = CriticalPath(TierPlanUnits(millGame, "d", TierPlan(millGame, millUpTo(18)), PlanOptions{}))
	t.Logf("all 28 pairs: %d slots, the heaviest chain %d (%v): speed-up at most %.2f×", total, critical, chain, float64(total)/float64(critical))
	if total != 8904593601 || critical != 5328038462 || len(chain) != 13 || chain[0] != "mill-3-3" || chain[12] != "mill-9-9" {
		t.Errorf("all pairs: %d, %d, %v", total, critical, chain)
	}
	units := []Unit{{ID: "a", Slots: 1}, {ID: "b", Slots: 5, Deps: []string{"a"}}, {ID: "c", Slots: 7, Deps: []string{"a", "gone"}},
		{ID: "d", Slots: 1, Deps: []string{"b", "c"}}}
	if total, critical, chain := CriticalPath(units); total != 14 || critical != 9 || !slices.Equal(chain, []string{"a", "c", "d"}) {
		t.Errorf("diamond: %d, %d, %v", total, critical, chain)
	}
}

// TestMillPlanRescue: complete pairs drop out of a plan; a removed or corrupted file puts
// its pair back (and the pairs built on it only if they are missing too); building the
// plan again completes the set with the same bytes. With --jobs 3 the set is the same,
// byte for byte, as with one job.
func TestMillPlanRescue(t *testing.T) {
	racetest.SkipSlow(t, "builds Mühle sectors, slow")
	if testing.Short() {
		t.Skip("builds the ≤ 8-stone set twice: not in the short (race) pass; RunUnits's concurrency is TestRunUnits's")
	}
	t.Parallel()
	ctx := context.Background()
	tiers := millUpTo(8) // 4-4 and 5-3 can be built at once
	one, three := t.TempDir(), t.TempDir()
	var wg sync.WaitGroup
	var err1, err3 error
	wg.Go(func() { err1 = buildMillUpTo(ctx, one, 8, TierOptions{Workers: 1}) })
	wg.Go(func() { err3 = buildMillUpTo(ctx, three, 8, TierOptions{Workers: 1, Jobs: 3}) })
	wg.Wait()
	if err1 != nil || err3 != nil {
		t.Fatal(err1, err3)
	}
	want := dirSums(t, one)
	if got := dirSums(t, three); !reflect.DeepEqual(got, want) {
		t.Fatalf("--jobs 3 built %v\n--jobs 1 built %v", got, want)
	}
	plan := func(wantUnits ...string) {
		t.Helper()
		units, err := TierUnits(millGame, one, tiers, PlanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := unitIDs(units); !slices.Equal(got, wantUnits) {
			t.Fatalf("plan %q, want %q", got, wantUnits)
		}
		var ps []TierUnit
		for _, u := range units {
			ps = append(ps, millUnit(t, strings.TrimPrefix(u.ID, "mill-")))
		}
		if err := BuildTierSet(ctx, millGame, one, ps, TierOptions{Workers: 2, Jobs: 2}); err != nil {
			t.Fatal(err)
		}
		if got := dirSums(t, one); !reflect.DeepEqual(got, want) {
			t.Fatalf("after the rescue of %q: %v, want %v", wantUnits, got, want)
		}
	}
	plan() // complete: nothing to do
	os.Remove(filepath.Join(one, "sector-3-4.tsm"))
	plan("mill-4-3<")
	flipByte(t, filepath.Join(one, "sector-3-3.tsm"))
	os.Remove(filepath.Join(one, "sector-4-3.tsm"))
	os.Remove(filepath.Join(one, "sector-4-4.tsm"))
	plan("mill-3-3<", "mill-4-3<mill-3-3", "mill-4-4<mill-4-3")
}

// TestRunUnits: dependencies, order, the jobs and memory limits, failures.
func TestRunUnits(t *testing.T) {
	t.Parallel()
	units := []Unit{{ID: "a", MemBytes: 10}, {ID: "b", Deps: []string{"a"}, MemBytes: 10}, {ID: "c", Deps: []string{"a"}, MemBytes: 10},
		{ID: "d", Deps: []string{"b", "c", "done-before"}, MemBytes: 10}, {ID: "e", MemBytes: 10}}
	// e, ready from the start, and the units eWaits names run until all of those have
	// started, so that the units expected to run at once certainly do (a sleep would leave
	// it to the scheduler: under -race on one CPU, or on a loaded machine, e or b could end
	// before c started).
	run := func(opt RunOptions, fail string, eWaits ...string) (order []string, peak int, err error) {
		var mu sync.Mutex
		var now atomic.Int32
		waiting := len(eWaits)
		others := make(chan struct{})
		if waiting == 0 {
			close(others)
		}
		err = RunUnits(context.Background(), units, opt, func(ctx context.Context, i int) error {
			n := int(now.Add(1))
			defer now.Add(-1)
			mu.Lock()
			peak = max(peak, n)
			for _, d := range units[i].Deps {
				if d != "done-before" && !slices.Contains(order, d) {
					t.Errorf("%s started before %s finished", units[i].ID, d)
				}
			}
			if slices.Contains(eWaits, units[i].ID) {
				if waiting--; waiting == 0 {
					close(others)
				}
			}
			mu.Unlock()
			// e, and each unit it waits for, runs until all of those have started: they
			// certainly overlap, however late a loaded machine schedules one of them.
			if units[i].ID == "e" || slices.Contains(eWaits, units[i].ID) {
				select {
				case <-others:
				case <-time.After(time.Minute):
					t.Errorf("%v never ran beside e", eWaits)
				}
			}
			time.Sleep(20 * time.Millisecond)
			if units[i].ID == fail {
				return errors.New("unit " + fail + " failed")
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			default:
			}
			mu.Lock()
			order = append(order, units[i].ID)
			mu.Unlock()
			return nil
		})
		return order, peak, err
	}
	if order, peak, err := run(RunOptions{}, ""); err != nil || peak != 1 || !slices.Equal(order, []string{"a", "b", "c", "d", "e"}) {
		t.Errorf("one job: %v, peak %d, %v", order, peak, err)
	}
	if order, peak, err := run(RunOptions{Jobs: 3}, "", "b", "c"); err != nil || peak != 3 || len(order) != 5 {
		t.Errorf("three jobs: %v, peak %d, %v", order, peak, err)
	}
	if order, peak, err := run(RunOptions{Jobs: 3, MemBytes: 25}, "", "b"); err != nil || peak != 2 || len(order) != 5 {
		t.Errorf("memory for two: %v, peak %d, %v", order, peak, err)
	}
	if order, _, err := run(RunOptions{Jobs: 2, MemBytes: 5}, ""); err != nil || len(order) != 5 {
		t.Errorf("a unit over the budget runs alone: %v, %v", order, err)
	}
	if order, _, err := run(RunOptions{Jobs: 1}, "b"); err == nil || err.Error() != "unit b failed" || !slices.Equal(order, []string{"a"}) {
		t.Errorf("failure: %v, %v", order, err)
	}
	cycle := []Unit{{ID: "x", Deps: []string{"y"}}, {ID: "y", Deps: []string{"x"}}}
	if err := RunUnits(context.Background(), cycle, RunOptions{}, func(context.Context, int) error { return nil }); err == nil ||
		!strings.Contains(err.Error(), "cycle") {
		t.Errorf("cycle: %v", err)
	}
}

// TestPDBUnits: a set built group by group, as a plan's units, is the set BuildPDBSet builds,
// byte for byte; complete units drop out of the plan, and damage puts them back.
func TestPDBUnits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	spec := slidePDBSpec(t, slide.PDBSpec{Rows: 3, Cols: 3, Groups: [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}}, "")
	whole, units := t.TempDir(), t.TempDir()
	if _, err := BuildPDBSet(ctx, whole, spec, PDBOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	plan := func(dir string, want ...string) {
		t.Helper()
		us, err := PDBUnits(dir, spec, PlanOptions{Exe: "ts"})
		if err != nil {
			t.Fatal(err)
		}
		if got := unitIDs(us); !slices.Equal(got, want) {
			t.Fatalf("plan %q, want %q", got, want)
		}
	}
	plan(whole) // BuildPDBSet's set is complete
	plan(units, "pdb-group-1<", "pdb-group-2<", "pdb-manifest<pdb-group-1,pdb-group-2")
	us, _ := PDBUnits(units, spec, PlanOptions{Exe: "ts"})
	if c := us[1].Command; !slices.Equal(c, []string{"ts", "build", "pdb", "--rows", "3", "--cols", "3", "--goal", "blank-last",
		"--groups", "1,2,3,4/5,6,7,8", "--encoding", "excess", "--group", "2", "--workers", "1", "-o", units}) {
		t.Errorf("group 2's command %q", c)
	}
	if _, built, err := BuildPDBGroup(ctx, units, spec, 1, PDBOptions{Workers: 1}); err != nil || !built {
		t.Fatal(built, err)
	}
	plan(units, "pdb-group-1<", "pdb-manifest<pdb-group-1")
	if _, _, err := AssemblePDBSet(units, spec, PDBOptions{}); err == nil || !strings.Contains(err.Error(), "group 1 [1 2 3 4]") ||
		!strings.Contains(err.Error(), "--group 1") {
		t.Fatalf("assembling without group 1: %v", err)
	}
	if tables.IsSet(units) {
		t.Fatal("a manifest was written for half a set")
	}
	if _, built, err := BuildPDBGroup(ctx, units, spec, 0, PDBOptions{Workers: 2}); err != nil || !built {
		t.Fatal(built, err)
	}
	if _, built, err := BuildPDBGroup(ctx, units, spec, 0, PDBOptions{Workers: 2}); err != nil || built {
		t.Fatalf("a recorded group was built again: %v %v", built, err)
	}
	plan(units, "pdb-manifest<")
	m, built, err := AssemblePDBSet(units, spec, PDBOptions{})
	if err != nil || !built || len(m.Members) != 2 {
		t.Fatal(m, built, err)
	}
	if _, built, err := AssemblePDBSet(units, spec, PDBOptions{}); err != nil || built {
		t.Fatalf("assembling a complete set again: %v %v", built, err)
	}
	plan(units)
	if got, want := dirSums(t, units), dirSums(t, whole); !reflect.DeepEqual(got, want) {
		t.Fatalf("group by group %v, whole %v", got, want)
	}
	if _, err := os.Stat(filepath.Join(units, pdbPartialName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the partial record outlives the manifest: %v", err)
	}
	// A damaged group file: its unit and the manifest's come back.
	flipByte(t, filepath.Join(units, m.Members[1].File))
	plan(units, "pdb-group-2<", "pdb-manifest<pdb-group-2")
	if _, _, err := BuildPDBGroup(ctx, units, spec, 1, PDBOptions{}); err != nil {
		t.Fatal(err)
	}
	plan(units) // the same bytes again: the manifest's record holds
	if _, built, err := AssemblePDBSet(units, spec, PDBOptions{}); err != nil || built {
		t.Fatal(built, err)
	}
	if _, err := os.Stat(filepath.Join(units, pdbPartialName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the partial record outlives the manifest: %v", err)
	}
	if _, _, err := BuildPDBGroup(ctx, units, spec, 2, PDBOptions{}); err == nil {
		t.Error("group 3 of a two-group set")
	}
}

// TestVerifyUnits: one unit per group file of a pattern-database set, each naming its
// target (the units of a Mühle set: cmd/tablesmith's TestPlanMillAndVerifyUnits and
// TestPlanVerifySiblings).
func TestVerifyUnits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spec := slidePDBSpec(t, slide.PDBSpec{Rows: 2, Cols: 3, Groups: [][]uint8{{1, 2, 3}, {4, 5}}}, "")
	m, err := BuildPDBSet(context.Background(), dir, spec, PDBOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	units, err := VerifyUnits(dir, PlanOptions{Exe: "ts"})
	if err != nil || len(units) != 2 || units[1].ID != "verify-group-2" ||
		!slices.Equal(units[1].Command, []string{"ts", "verify", "--workers", "1", filepath.Join(dir, m.Members[1].File)}) {
		t.Fatalf("%+v, %v", units, err)
	}
	if _, err := VerifyUnits(t.TempDir(), PlanOptions{}); err == nil {
		t.Error("a directory with no set")
	}
}
