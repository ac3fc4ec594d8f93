package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/tablesmith/tablesmith/benchmarks"
	"github.com/tablesmith/tablesmith/games/hanoi"
	"github.com/tablesmith/tablesmith/pipeline"
)

const benchArgs = "[eight|hanoi|korf|astar|mill] [flags] [--json] (-h after the kind for its flags)"

// runBench dispatches the comparisons: eight (the default), hanoi, korf, astar and mill.
func runBench(e *env, args []string) error {
	kind := "eight"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		kind, args = args[0], args[1:]
	}
	switch kind {
	case "eight":
		return runBenchEight(e, args)
	case "hanoi":
		return runBenchHanoi(e, args)
	case "korf":
		return runBenchKorf(e, args)
	case "astar":
		return runBenchAStar(e, args)
	case "mill":
		return runBenchMill(e, args)
	}
	return fmt.Errorf("%w: unknown benchmark %q (want eight, hanoi, korf, astar or mill)", errUsage, kind)
}

// addBFSBenchFlags adds the flags the BFS benches (eight, hanoi) share.
func addBFSBenchFlags(fs *flag.FlagSet) (workers *int, asJSON *bool) {
	workers = fs.Int("workers", runtime.GOMAXPROCS(0), "BFS workers")
	asJSON = fs.Bool("json", false, "print the rows as JSON")
	return workers, asJSON
}

// parseNoArgs parses args into fs and rejects positional arguments.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, pos)
	}
	return nil
}

// parseBFSBenchFlags parses args into fs and checks them: no positional arguments and
// --workers (the flag addBFSBenchFlags returned) at least 1.
func parseBFSBenchFlags(fs *flag.FlagSet, args []string, workers *int) error {
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	return checkWorkers("workers", *workers)
}

// runBenchHanoi compares the symmetry-reduced Hanoi schemes with the plain one.
func runBenchHanoi(e *env, args []string) error {
	fs := newFlags(e, "bench hanoi", "--pegs K --disks N [--workers N] [--json]")
	workers, asJSON := addBFSBenchFlags(fs)
	pegs := fs.Int("pegs", 4, "number of pegs")
	disks := fs.Int("disks", 12, "number of disks")
	if err := parseBFSBenchFlags(fs, args, workers); err != nil {
		return err
	}
	for _, scheme := range hanoi.SchemeNames() {
		sp, err := hanoi.NewSpace(hanoi.Params{Pegs: *pegs, Disks: *disks, Index: scheme})
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		if err := pipeline.CheckSearchMemory(sp); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rows, err := benchmarks.HanoiSchemes(ctx, *pegs, *disks, *workers, "")
	if err != nil {
		return err
	}
	plain := rows[len(rows)-1]
	if *asJSON {
		var out []map[string]any
		for _, r := range rows {
			out = append(out, map[string]any{"scheme": r.Scheme, "slots": r.Slots, "states": r.States,
				"holes": r.Holes, "max_remoteness": r.MaxDepth, "search_ms": float64(r.Search.Microseconds()) / 1000,
				"write_ms": float64(r.Write.Microseconds()) / 1000, "table_bytes": r.TableBytes})
		}
		return json.NewEncoder(e.stdout).Encode(out)
	}
	fmt.Fprintf(e.stdout, "Towers of Hanoi, %d pegs, %d disks: BFS with %d workers, %s %s/%s\n",
		*pegs, *disks, *workers, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scheme\tslots\tholes\tsearch ms\twrite ms\ttable bytes\ttime vs plain\tsize vs plain\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f\t%.1f\t%s\t%.3f\t%.3f\t\n", r.Scheme, commas(r.Slots), commas(r.Holes),
			float64(r.Search.Microseconds())/1000, float64(r.Write.Microseconds())/1000, commas(uint64(r.TableBytes)),
			(r.Search+r.Write).Seconds()/(plain.Search+plain.Write).Seconds(), float64(r.TableBytes)/float64(plain.TableBytes))
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "every scheme found max remoteness %d\n", rows[0].MaxDepth)
	return nil
}

// runBenchEight compares the 8-puzzle's index schemes.
func runBenchEight(e *env, args []string) error {
	fs := newFlags(e, "bench eight", "[--quick] [--workers N] [--json]")
	workers, asJSON := addBFSBenchFlags(fs)
	quick := fs.Bool("quick", false, "fewer repetitions (for smoke tests)")
	if err := parseBFSBenchFlags(fs, args, workers); err != nil {
		return err
	}
	opt := benchmarks.EightOptions{Workers: *workers}
	if *quick {
		opt.Rounds, opt.Repeats = 2, 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rows, err := benchmarks.EightSchemes(ctx, opt)
	if err != nil {
		return err
	}
	if *asJSON {
		type jsonRow struct {
			Scheme       string   `json:"scheme"`
			RankNs       *float64 `json:"rank_ns"`
			UnrankNs     *float64 `json:"unrank_ns"`
			UpdateNs     *float64 `json:"update_ns"`
			Slots        uint64   `json:"slots"`
			SlotsPerPerm *float64 `json:"slots_per_perm"`
			TableBytes   int64    `json:"table_bytes"`
			BFSMs        float64  `json:"bfs_ms"`
			Counts       []uint64 `json:"counts"`
		}
		var out []jsonRow
		for _, r := range rows {
			out = append(out, jsonRow{r.Scheme, nilIfNaN(r.RankNs), nilIfNaN(r.UnrankNs), nilIfNaN(r.UpdateNs), r.Slots,
				nilIfNaN(r.SlotsPerPerm), r.TableBytes, float64(r.BFS.Microseconds()) / 1000, r.Counts})
		}
		return json.NewEncoder(e.stdout).Encode(out)
	}
	fmt.Fprintf(e.stdout, "8-puzzle index schemes: all 9! = 362,880 permutations (181,440 reachable), BFS with %d workers, %s %s/%s\n",
		*workers, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scheme\tns/rank\tns/unrank\tns/update\tslots\tslots/perm\ttable bytes\tBFS ms\t")
	cell := func(x float64, f string) string {
		if math.IsNaN(x) {
			return "-"
		}
		return fmt.Sprintf(f, x)
	}
	for _, r := range rows {
		slots, table := "hash set", "-"
		if r.Slots > 0 {
			slots = commas(r.Slots)
		}
		if r.TableBytes > 0 {
			table = commas(uint64(r.TableBytes))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.1f\t\n", r.Scheme, cell(r.RankNs, "%.1f"), cell(r.UnrankNs, "%.1f"),
			cell(r.UpdateNs, "%.1f"), slots, cell(r.SlotsPerPerm, "%.3f"), table, float64(r.BFS.Microseconds())/1000)
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "every scheme found the same %d distance levels (%s states, max remoteness %d)\n",
		len(rows[0].Counts), commas(sum(rows[0].Counts)), len(rows[0].Counts)-1)
	return nil
}

// nilIfNaN returns nil for NaN (what a scheme cannot do: null in JSON), else &x.
func nilIfNaN(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}

func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}
