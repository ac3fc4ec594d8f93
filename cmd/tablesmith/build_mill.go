package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/tables"
)

const buildMillArgs = "mill (--pair W-B | --max-stones N | --sectors 3-3,4-3,…) [--jobs K] [--workers N] [--json] -o DIR"

// millPairFlags declares the flags that choose the pairs of a sector set (--max-stones,
// --sectors, and with single --pair) on fs; the returned func checks them once fs is
// parsed and returns the pairs in dependency order (a single pair alone).
func millPairFlags(fs *flag.FlagSet, single bool) func() ([]pipeline.Pair, error) {
	var pair *string
	if single {
		pair = fs.String("pair", "", "build one sector pair W-B (its dependencies must be in DIR)")
	}
	maxStones := fs.Int("max-stones", 0, "every sector with at most N stones in all, and their dependencies")
	sectors := fs.String("sectors", "", "these sectors (comma-separated W-B) and their dependencies")
	return func() ([]pipeline.Pair, error) {
		given := 0
		for _, set := range []bool{pair != nil && *pair != "", *maxStones != 0, *sectors != ""} {
			if set {
				given++
			}
		}
		choices := "--max-stones and --sectors"
		if single {
			choices = "--pair, " + choices
		}
		switch {
		case given != 1:
			return nil, fmt.Errorf("%w: give exactly one of %s", errUsage, choices)
		case *maxStones != 0 && (*maxStones < 6 || *maxStones > 18):
			return nil, fmt.Errorf("%w: --max-stones %d: want 6 to 18", errUsage, *maxStones)
		case *maxStones != 0:
			return pipeline.MillPlan(pipeline.MaxStonesPairs(*maxStones)), nil
		}
		var want []pipeline.Pair
		list := *sectors
		if pair != nil && *pair != "" {
			list = *pair
		}
		for _, f := range strings.Split(list, ",") {
			p, err := pipeline.ParsePair(f)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", errUsage, err)
			}
			want = append(want, p)
		}
		if pair != nil && *pair != "" {
			return want, nil
		}
		return pipeline.MillPlan(want), nil
	}
}

// runBuildMill implements `tablesmith build mill`: Nine Men's Morris sector sets by
// retrograde analysis, one sector pair at a time (or up to --jobs at once), skipping
// pairs already complete.
func runBuildMill(e *env, args []string) error {
	fs := newFlags(e, "build mill", buildMillArgs)
	pairsOf := millPairFlags(fs, true)
	jobs := fs.Int("jobs", 1, "build up to K pairs at a time, as their dependencies and the memory available allow")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers (of each pair)")
	out := fs.String("o", "", "the set's directory (required)")
	asJSON := fs.Bool("json", false, "print one JSON object per pair")
	if err := parseBuildFlags(fs, args, out, "DIR", workers); err != nil {
		return err
	}
	if *jobs < 1 {
		return fmt.Errorf("%w: --jobs must be at least 1", errUsage)
	}
	plan, err := pairsOf()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bar := newStatus(e, 0)
	var werr error
	opt := pipeline.MillOptions{
		Workers: *workers,
		Jobs:    *jobs,
		Build:   pipeline.Stamp(*workers, e.args),
		Progress: func(p pipeline.Pair, rp builder.RetroProgress) {
			what := "init"
			if rp.Stage == "depth" {
				what = fmt.Sprintf("depth %d", rp.Depth)
			}
			bar.show(fmt.Sprintf("pair %v: %s, %.1f%% of %s positions, %s decided, %s",
				p, what, 100*float64(rp.Done)/float64(max(rp.Slots, 1)), commas(rp.Slots), commas(rp.Decided), rp.Elapsed.Round(time.Second)))
		},
		PairDone: func(p pipeline.Pair, infos []tables.SectorInfo, skipped bool) {
			bar.clear()
			for _, si := range infos {
				if werr != nil {
					return
				}
				if *asJSON {
					werr = writeJSON(e, map[string]any{"pair": p.String(), "skipped": skipped, "sector": si})
					continue
				}
				verb := "built"
				if skipped {
					verb = "already complete"
				}
				werr = printf(e, "sector %s: %s classes, %s wins, %s losses, %s draws, longest win %d, loss %d, %s, %.1fs (%s)\n",
					si.Sector, commas(si.Classes), commas(si.Wins), commas(si.Losses), commas(si.Draws), si.MaxWin, si.MaxLoss,
					humanBytes(si.Bytes), si.Build.Seconds, verb)
			}
		},
	}
	start := time.Now()
	err = pipeline.MillSet(ctx, *out, plan, opt)
	bar.clear()
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if !*asJSON {
		return printf(e, "%s: %d pairs complete in %.1fs\n", *out, len(plan), time.Since(start).Seconds())
	}
	return nil
}
