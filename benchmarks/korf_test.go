package benchmarks

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/internal/pdbtest"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/solver"
)

// readKorf parses the embedded instances (never skipped: the data is in the repository).
func readKorf(t testing.TB) []KorfInstance {
	t.Helper()
	all, err := ParseKorf(strings.NewReader(Korf100))
	if err != nil {
		t.Fatal(err)
	}
	return all
}

func TestParseKorfFile(t *testing.T) {
	t.Parallel()
	all := readKorf(t)
	if len(all) != 100 {
		t.Fatalf("%d instances, want 100", len(all))
	}
	sum := 0
	for i, in := range all {
		if in.ID != i+1 {
			t.Fatalf("instance %d has id %d", i+1, in.ID)
		}
		sum += in.Optimal
	}
	// Korf (1985): the optimal solutions of the 100 instances are 53.05 moves long on
	// average.
	if sum != 5305 {
		t.Fatalf("optimal lengths add up to %d, want 5305", sum)
	}
	if in := all[0]; in.Optimal != 57 || in.Board[0] != 14 || in.Board[9] != 0 || in.Line != 4 {
		t.Fatalf("instance 1: %+v", in)
	}
}

func TestParseKorfErrors(t *testing.T) {
	t.Parallel()
	const good = "1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
	for _, tc := range []struct{ in, want string }{
		{"", "no instances"},
		{"# only a comment\n\n", "no instances"},
		{"1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10", "line 1: got 17 fields, want 18"},
		{"# c\n" + good + " 3", "line 2: got 19 fields"},
		{"x 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", `line 1: id "x" is not a number`},
		{"0 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", "line 1: id 0"},
		{"1 -5 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", `optimal length "-5"`},
		{"1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 16", `line 1: cell 15 "16" is not a number in 0..15`},
		{"1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 10", "line 1: instance 1: slide: tile 10 appears twice; tile 3 is missing"},
		{"1 57 13 14 15 7 11 12 9 5 6 0 2 1 4 8 10 3", "line 1: instance 1 cannot reach the blank-first goal"},
		{"1 58 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", "listed optimal length 58 has the wrong parity"},
		{"1 1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", "below its Manhattan distance 41"},
		{good + "\n\n" + good, "line 3: instance id 1 is already on line 1"},
		{strings.Repeat("9", 70000), "line 1: longer than 64 KiB"},
	} {
		_, err := ParseKorf(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.40q: err = %v, want it to mention %q", tc.in, err, tc.want)
		}
	}
	if _, err := ReadKorf("no/such/file"); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

func FuzzParseKorf(f *testing.F) {
	f.Add(Korf100)
	for _, l := range strings.Split(Korf100, "\n")[:8] {
		f.Add(l)
	}
	f.Add("1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n2 0 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15")
	f.Add("# x\n\t1\t2\n")
	f.Fuzz(func(t *testing.T, s string) {
		inst, err := ParseKorf(strings.NewReader(s))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") && err.Error() != "no instances" {
				t.Fatalf("error without a line number: %v", err)
			}
			return
		}
		geo := KorfGeometry()
		ids := map[int]bool{}
		for _, in := range inst {
			if err := geo.Check(in.Board); err != nil || !geo.Solvable(in.Board, slide.BlankFirst) {
				t.Fatalf("accepted a bad board %v: %v", in.Board, err)
			}
			if ids[in.ID] || in.ID <= 0 || in.Line <= 0 {
				t.Fatalf("accepted id %d on line %d", in.ID, in.Line)
			}
			ids[in.ID] = true
		}
	})
}

// korfQuick are the instances IDA* with Manhattan solves fastest: about 11 million
// generated nodes together, a fraction of a second (measured: 12, 79, 42, 55, 97 each
// under a million).
var korfQuick = []int{12, 79, 42, 55, 97, 19, 94, 47, 93, 9}

// TestKorfQuick solves the quickest instances for real with IDA* + Manhattan on two
// workers and checks every length against the listed optimum.
func TestKorfQuick(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 30 s")
	t.Parallel()
	in, err := SelectKorf(readKorf(t), korfQuick)
	if err != nil {
		t.Fatal(err)
	}
	h := solver.NewManhattan(KorfGeometry(), slide.BlankFirst)
	var progressed int
	rows, err := RunKorf(context.Background(), in, KorfOptions{Heuristic: h, Workers: 2, Progress: func(KorfRow) { progressed++ }})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if r.ID != korfQuick[i] || !r.OK() || r.Generated < r.Expanded || r.Expanded == 0 {
			t.Fatalf("instance %d: %+v", korfQuick[i], r)
		}
	}
	tot := KorfTotal(rows)
	if progressed != len(rows) || tot.Length != tot.Optimal {
		t.Fatalf("progress %d, total %+v", progressed, tot)
	}
	t.Logf("%d instances, %d generated nodes, %.2f s", len(rows), tot.Generated, tot.Seconds)
}

// TestKorfPDB runs the same instances with A* and IDA* on 5-5-5 pattern databases
// (Korf & Felner's shapes) with reflection.
func TestKorfPDB(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the 5-5-5 pattern databases (about a second)")
	}
	t.Parallel()
	in, err := SelectKorf(readKorf(t), korfQuick)
	if err != nil {
		t.Fatal(err)
	}
	geo := KorfGeometry()
	set, err := BuildPDBSet(context.Background(), pdbtest.SlideSpec(t, slide.PDBSpec{Rows: 4, Cols: 4, Goal: "blank-first",
		Groups: [][]uint8{{1, 2, 3, 6, 7}, {4, 5, 8, 9, 12}, {10, 11, 13, 14, 15}}}, ""), 2)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	h, err := solver.NewPDB(geo, slide.BlankFirst, set, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, algo := range []solver.Algo{solver.IDAStar, solver.AStar} {
		rows, err := RunKorf(context.Background(), in, KorfOptions{Heuristic: h, Algo: algo, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if !r.OK() {
				t.Fatalf("instance %d: length %d, optimal %d", r.ID, r.Length, r.Optimal)
			}
		}
		tot := KorfTotal(rows)
		t.Logf("%d instances, %d generated nodes, %.2f s", len(rows), tot.Generated, tot.Seconds)
	}
}

func TestRunKorfRejects(t *testing.T) {
	t.Parallel()
	geo, _ := slide.NewGeometry(4, 4)
	in := []KorfInstance{{ID: 1, Optimal: 0, Board: geo.GoalBoard(slide.BlankFirst)}}
	if _, err := RunKorf(context.Background(), in, KorfOptions{Heuristic: solver.NewManhattan(geo, slide.BlankLast)}); err == nil ||
		!strings.Contains(err.Error(), "not 4×4 blank-first") {
		t.Fatalf("wrong goal: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	hard, _ := SelectKorf(readKorf(t), []int{88})
	if _, err := RunKorf(ctx, hard, KorfOptions{Heuristic: solver.NewManhattan(geo, slide.BlankFirst)}); err == nil {
		t.Fatal("a cancelled run succeeded")
	}
	if _, err := SelectKorf(hard, []int{3}); err == nil || !strings.Contains(err.Error(), "no instance 3") {
		t.Fatalf("unknown id: %v", err)
	}
}

// TestEightAStarTable: the comparison runs, every heuristic finds the same lengths, and
// a better-informed heuristic expands fewer vertices on average.
func TestEightAStarTable(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 62 s")
	t.Parallel()
	rows, err := EightAStar(context.Background(), EightAStarOptions{Instances: 30})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(solver.HeuristicNames) {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		t.Logf("%-12s length %.2f expanded %.1f (max %d) max heap %.1f (max %d) reopened %d",
			r.Heuristic, r.MeanLength, r.MeanExpand, r.MaxExpand, r.MeanMaxHeap, r.MaxMaxHeap, r.Reopened)
		if r.MeanLength != rows[0].MeanLength {
			t.Fatalf("%s: mean length %.2f, %s found %.2f", r.Heuristic, r.MeanLength, rows[0].Heuristic, rows[0].MeanLength)
		}
		if i > 0 && r.MeanExpand >= rows[i-1].MeanExpand {
			t.Fatalf("%s expands %.1f vertices on average, no fewer than %s (%.1f)", r.Heuristic, r.MeanExpand, rows[i-1].Heuristic, rows[i-1].MeanExpand)
		}
	}
}

// BenchmarkKorf solves the quick instances with IDA* + Manhattan and reports the
// generated nodes per second.
func BenchmarkKorf(b *testing.B) {
	in, err := SelectKorf(readKorf(b), korfQuick)
	if err != nil {
		b.Fatal(err)
	}
	h := solver.NewManhattan(KorfGeometry(), slide.BlankFirst)
	var nodes uint64
	for b.Loop() {
		rows, err := RunKorf(context.Background(), in, KorfOptions{Heuristic: h, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		nodes += KorfTotal(rows).Generated
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(nodes), "ns/node")
}
