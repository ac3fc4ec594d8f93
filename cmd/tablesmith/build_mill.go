package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/tablesmith/tablesmith/build"
	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/tables"
)

const buildMillArgs = "mill (--pair W-B | --max-stones N | --sectors 3-3,4-3,…) [--workers N] [--json] -o DIR"

// runBuildMill implements `tablesmith build mill`: Nine Men's Morris sector sets by
// retrograde analysis, one sector pair at a time, skipping pairs already complete.
func runBuildMill(e *env, args []string) error {
	fs := newFlags(e, "build mill", buildMillArgs)
	pair := fs.String("pair", "", "build one sector pair W-B (its dependencies must be in DIR)")
	maxStones := fs.Int("max-stones", 0, "build every sector with at most N stones in all, and their dependencies")
	sectors := fs.String("sectors", "", "build these sectors (comma-separated W-B) and their dependencies")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers")
	out := fs.String("o", "", "the set's directory (required)")
	asJSON := fs.Bool("json", false, "print one JSON object per pair")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	given := 0
	for _, set := range []bool{*pair != "", *maxStones != 0, *sectors != ""} {
		if set {
			given++
		}
	}
	switch {
	case len(pos) != 0:
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, pos)
	case *out == "":
		return fmt.Errorf("%w: -o DIR is required", errUsage)
	case *workers < 1:
		return fmt.Errorf("%w: --workers must be at least 1", errUsage)
	case given != 1:
		return fmt.Errorf("%w: give exactly one of --pair, --max-stones and --sectors", errUsage)
	case *maxStones != 0 && (*maxStones < 6 || *maxStones > 18):
		return fmt.Errorf("%w: --max-stones %d: want 6 to 18", errUsage, *maxStones)
	}
	var plan []build.Pair
	switch {
	case *pair != "":
		p, err := build.ParsePair(*pair)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		plan = []build.Pair{p}
	case *maxStones != 0:
		plan = build.MillPlan(build.MaxStonesPairs(*maxStones))
	default:
		var want []build.Pair
		for _, f := range strings.Split(*sectors, ",") {
			p, err := build.ParsePair(f)
			if err != nil {
				return fmt.Errorf("%w: %v", errUsage, err)
			}
			want = append(want, p)
		}
		plan = build.MillPlan(want)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bar := newStatus(e, 0)
	var werr error
	opt := build.MillOptions{
		Workers: *workers,
		Build:   build.Stamp(*workers, e.args),
		Progress: func(p build.Pair, rp builder.RetroProgress) {
			what := "init"
			if rp.Stage == "depth" {
				what = fmt.Sprintf("depth %d", rp.Depth)
			}
			bar.show(fmt.Sprintf("pair %v: %s, %.1f%% of %s positions, %s decided, %s",
				p, what, 100*float64(rp.Done)/float64(max(rp.Slots, 1)), commas(rp.Slots), commas(rp.Decided), rp.Elapsed.Round(time.Second)))
		},
		PairDone: func(p build.Pair, infos []tables.SectorInfo, skipped bool) {
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
	err = build.MillSet(ctx, *out, plan, opt)
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
