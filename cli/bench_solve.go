package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tablesmith/tablesmith/benchmarks"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/solver"
)

// The search benchmarks: `bench korf` and `bench astar`.

const (
	korfArgs  = "[--algo idastar|astar] [--heuristic manhattan|pdb|…] [--pdb DIR] [--file FILE] [--first N] [--ids 1,2,…] [--workers N] [--json]"
	astarArgs = "[--instances N] [--seed S] [--json]"
)

// runBenchKorf is `tablesmith bench korf`: Korf's 100 15-puzzle instances, each length
// checked against the listed optimum.
func runBenchKorf(e *env, args []string) error {
	fs := newFlags(e, "bench korf", korfArgs)
	sf := addSearchFlags(fs, "idastar")
	file := fs.String("file", "", "an instance file in Korf's format (default: Korf's 100, built in)")
	first := fs.Int("first", 0, "solve only the first N instances (0: all)")
	ids := fs.String("ids", "", "solve only these instances (comma-separated ids)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "instances solved at once")
	asJSON := fs.Bool("json", false, "print the rows and the total as JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, pos)
	}
	if *first < 0 {
		return fmt.Errorf("%w: --first must be ≥ 0", errUsage)
	}
	if err := checkWorkers("workers", *workers); err != nil {
		return err
	}
	inst, err := korfInstances(*file, *ids, *first)
	if err != nil {
		return err
	}
	t0 := time.Now()
	algo, set, closeSet, err := sf.setup()
	if err != nil {
		return err
	}
	defer closeSet()
	load := time.Since(t0)
	h, err := sf.heuristicFor(benchmarks.KorfGeometry(), slide.BlankFirst, set)
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	rate := func(r benchmarks.KorfRow) float64 {
		if r.Seconds == 0 {
			return 0
		}
		return float64(r.Generated) / r.Seconds
	}
	if !*asJSON {
		fmt.Fprintf(out, "Korf's 15-puzzle instances (%s): %s, %s + %s, %s, %s %s/%s\n",
			orDefault(*file, "built in"), nounCount(len(inst), "instance"), *sf.algo, h.Name(), nounCount(*workers, "worker"),
			runtime.Version(), runtime.GOOS, runtime.GOARCH)
		if set != nil {
			fmt.Fprintf(out, "pattern databases %s loaded in %.2f s\n", *sf.pdbDir, load.Seconds())
		}
		fmt.Fprintf(out, "%4s %6s %7s %15s %15s %9s %12s\n", "id", "length", "optimal", "expanded", "generated", "seconds", "generated/s")
		out.Flush()
	}
	progress := func(r benchmarks.KorfRow) {
		if *asJSON {
			return
		}
		mark := ""
		if !r.OK() {
			mark = "  WRONG"
		}
		fmt.Fprintf(out, "%4d %6d %7d %15s %15s %9.3f %12s%s\n", r.ID, r.Length, r.Optimal, commas(r.Expanded),
			commas(r.Generated), r.Seconds, commas(uint64(rate(r))), mark)
		out.Flush()
	}
	start := time.Now()
	rows, err := benchmarks.RunKorf(ctx, inst, benchmarks.KorfOptions{Algo: algo, Heuristic: h, Workers: *workers,
		Search: solver.Options{MaxNodes: *sf.maxNodes}, Progress: progress})
	if err != nil {
		return err
	}
	wall := time.Since(start)
	tot := benchmarks.KorfTotal(rows)
	var wrong []int
	for _, r := range rows {
		if !r.OK() {
			wrong = append(wrong, r.ID)
		}
	}
	if *asJSON {
		writeKorfJSON(out, korfRun{algo: *sf.algo, heuristic: h.Name(), workers: *workers, load: load, wall: wall}, rows, tot, wrong, rate)
	} else {
		fmt.Fprintf(out, "%4s %6d %7d %15s %15s %9.3f %12s\n", "all", tot.Length, tot.Optimal, commas(tot.Expanded),
			commas(tot.Generated), tot.Seconds, commas(uint64(rate(tot))))
		n := max(len(rows), 1)
		fmt.Fprintf(out, "%d instances in %.2f s wall (%.2f s in searches), %s generated nodes per instance on average\n",
			len(rows), wall.Seconds(), tot.Seconds, commas(tot.Generated/uint64(n)))
		if len(wrong) == 0 {
			fmt.Fprintln(out, "every length equals the listed optimum")
		}
	}
	if len(wrong) > 0 {
		out.Flush()
		return fmt.Errorf("instances %v: length differs from the listed optimum", wrong)
	}
	return nil
}

// korfInstances returns the instances a bench korf command asks for: Korf's 100 or those
// of file, those of ids, the first first of them (0: all).
func korfInstances(file, ids string, first int) ([]benchmarks.KorfInstance, error) {
	all := benchmarks.Korf()
	if file != "" {
		var err error
		if all, err = benchmarks.ReadKorf(file); err != nil {
			return nil, err
		}
	}
	inst := all
	if ids != "" {
		var list []int
		for _, f := range strings.Split(ids, ",") {
			id, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return nil, fmt.Errorf("%w: --ids: %q is not an instance id", errUsage, f)
			}
			list = append(list, id)
		}
		var err error
		if inst, err = benchmarks.SelectKorf(all, list); err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	if first > 0 && first < len(inst) {
		inst = inst[:first]
	}
	return inst, nil
}

// korfRun is what a bench korf run reports beside its rows.
type korfRun struct {
	algo, heuristic string
	workers         int
	load, wall      time.Duration
}

// writeKorfJSON writes a bench korf run as one JSON document.
func writeKorfJSON(out io.Writer, run korfRun, rows []benchmarks.KorfRow, tot benchmarks.KorfRow, wrong []int, rate func(benchmarks.KorfRow) float64) {
	type jsonRow struct {
		ID          int     `json:"id"`
		Length      int     `json:"length"`
		Optimal     int     `json:"optimal"`
		Expanded    uint64  `json:"expanded"`
		Generated   uint64  `json:"generated"`
		Seconds     float64 `json:"seconds"`
		NodesPerSec float64 `json:"generated_per_second"`
	}
	doc := struct {
		Algo        string    `json:"algo"`
		Heuristic   string    `json:"heuristic"`
		Workers     int       `json:"workers"`
		LoadSeconds float64   `json:"load_seconds"`
		WallSeconds float64   `json:"wall_seconds"`
		Instances   []jsonRow `json:"instances"`
		Total       jsonRow   `json:"total"`
		Wrong       []int     `json:"wrong"`
	}{Algo: run.algo, Heuristic: run.heuristic, Workers: run.workers, LoadSeconds: run.load.Seconds(), WallSeconds: run.wall.Seconds(), Wrong: wrong}
	for _, r := range rows {
		doc.Instances = append(doc.Instances, jsonRow{r.ID, r.Length, r.Optimal, r.Expanded, r.Generated, r.Seconds, rate(r)})
	}
	doc.Total = jsonRow{0, tot.Length, tot.Optimal, tot.Expanded, tot.Generated, tot.Seconds, rate(tot)}
	if doc.Wrong == nil {
		doc.Wrong = []int{}
	}
	b, _ := json.Marshal(doc)
	out.Write(append(b, '\n'))
}

// runBenchAStar is `tablesmith bench astar`: the 8-puzzle comparison (benchmarks/RESULTS.md) of A*
// under each heuristic on the same random instances.
func runBenchAStar(e *env, args []string) error {
	fs := newFlags(e, "bench astar", astarArgs)
	instances := fs.Int("instances", 200, "random solvable 8-puzzle instances")
	seed := fs.Uint64("seed", 1, "seed of the instances")
	asJSON := fs.Bool("json", false, "print the rows as JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 || *instances < 1 {
		return fmt.Errorf("%w: want no arguments and --instances ≥ 1", errUsage)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rows, err := benchmarks.EightAStar(ctx, benchmarks.EightAStarOptions{Instances: *instances, Seed: *seed})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(e.stdout).Encode(rows)
	}
	fmt.Fprintf(e.stdout, "8-puzzle A*: %d random solvable instances (seed %d, blank-last goal, mean length %.2f); PDB = tiles 1-4 / 5-8\n",
		*instances, *seed, rows[0].MeanLength)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "heuristic\texpanded (mean)\texpanded (max)\tmax heap (mean)\tmax heap (max)\treopened\tseconds\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.1f\t%s\t%.1f\t%s\t%d\t%.3f\t\n", r.Heuristic, r.MeanExpand, commas(r.MaxExpand),
			r.MeanMaxHeap, commas(uint64(r.MaxMaxHeap)), r.Reopened, r.Seconds)
	}
	return tw.Flush()
}
