package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/signal"
	"runtime"
	"text/tabwriter"

	"tablesmith/benchmarks"
)

func runBench(e *env, args []string) error {
	fs := newFlags(e, "bench", "[--quick] [--workers N] [--json]")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "BFS workers")
	quick := fs.Bool("quick", false, "fewer repetitions (for smoke tests)")
	asJSON := fs.Bool("json", false, "print the rows as JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, pos)
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
		num := func(x float64) *float64 {
			if math.IsNaN(x) {
				return nil
			}
			return &x
		}
		var out []jsonRow
		for _, r := range rows {
			out = append(out, jsonRow{r.Scheme, num(r.RankNs), num(r.UnrankNs), num(r.UpdateNs), r.Slots,
				num(r.SlotsPerPerm), r.TableBytes, float64(r.BFS.Microseconds()) / 1000, r.Counts})
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

func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}
