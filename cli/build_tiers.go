package cli

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tablesmith/tablesmith/builder/retro"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/pipeline"
)

// buildTiersArgs is the usage of `build GAME` for a tiered two-player game.
func buildTiersArgs(g games.TieredGame) string {
	return fmt.Sprintf("%s [--tier NAME | selection flags; none: the whole game] [--values full|wdl] [--jobs K] [--workers N] [--json] [--cpuprofile FILE] -o DIR", g.Name())
}

// valuesFlag declares --values, what a tiered game's set stores; the returned func checks
// it once fs is parsed.
func valuesFlag(fs *flag.FlagSet) func() (format.ValueKind, error) {
	v := fs.String("values", string(format.ValuesFull), "what the set stores: full (win, draw or loss with the remoteness in plies) or "+
		"wdl (win, draw or loss alone: far smaller; queries answer no remoteness and no line)")
	return func() (format.ValueKind, error) {
		k := format.ValueKind(*v)
		if k != format.ValuesFull && k != format.ValuesWDL {
			return "", fmt.Errorf("%w: --values must be %s or %s, not %q", errUsage, format.ValuesFull, format.ValuesWDL, *v)
		}
		return k, nil
	}
}

// tierPlanFlags declares the flags that choose the units of a tiered game's set: the
// game's own selection flags, --rules for a game that plays a family of rule sets
// (games.RuleSets) and, with single, --tier; the returned func checks them once fs is
// parsed and returns the game playing the rules chosen and the units in dependency order
// (a single unit alone).
func tierPlanFlags(fs *flag.FlagSet, g0 games.TieredGame, single bool) func() (games.TieredGame, []pipeline.TierUnit, error) {
	var tier *string
	if single {
		tier = fs.String("tier", "", fmt.Sprintf("build the one unit holding this %s (what it depends on must be in DIR)", g0.TierNoun()))
	}
	selected := g0.BindTierFlags(fs)
	var rules *string
	rs, family := g0.(games.RuleSets)
	if family {
		names := rs.RuleSetNames()
		rules = fs.String("rules", names[0], "the rule set: "+strings.Join(names, ", "))
	}
	return func() (games.TieredGame, []pipeline.TierUnit, error) {
		g := g0
		if family && *rules != rs.RuleSetNames()[0] {
			var err error
			if g, err = rs.WithRules(*rules); err != nil {
				return nil, nil, fmt.Errorf("%w: --rules: %v", errUsage, err)
			}
			// The selection flags were bound to the default rule set's game: bind them
			// to this one's and give them the values parsed.
			vfs := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
			vfs.SetOutput(io.Discard)
			selected = g.BindTierFlags(vfs)
			var err2 error
			fs.Visit(func(f *flag.Flag) {
				if vfs.Lookup(f.Name) != nil && err2 == nil {
					err2 = vfs.Set(f.Name, f.Value.String())
				}
			})
			if err2 != nil {
				return nil, nil, fmt.Errorf("%w: %v", errUsage, err2)
			}
		}
		if tier != nil && *tier != "" {
			others := 0
			fs.Visit(func(f *flag.Flag) {
				if f.Name != "tier" && f.Name != "rules" && !slices.Contains(unitFlags, f.Name) {
					others++
				}
			})
			if others > 0 {
				return nil, nil, fmt.Errorf("%w: --tier builds one unit: give no selection flag with it", errUsage)
			}
			u, err := pipeline.TierUnitOf(g, *tier)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: --tier: %v", errUsage, err)
			}
			return g, []pipeline.TierUnit{u}, nil
		}
		tiers, err := selected()
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		return g, pipeline.TierPlan(g, tiers), nil
	}
}

// unitFlags are the flags of `build` that do not select tiers.
var unitFlags = []string{"jobs", "workers", "o", "json", "cpuprofile", "values"}

// runBuildTiers implements `tablesmith build GAME` for a tiered two-player game: the set
// of its tiers by retrograde analysis, one unit (tiers that reach each other) at a time,
// or up to --jobs at once, skipping units already complete.
func runBuildTiers(e *env, g games.TieredGame, args []string) (err error) {
	fs := newFlags(e, "build "+g.Name(), buildTiersArgs(g)[len(g.Name())+1:])
	plan := tierPlanFlags(fs, g, true)
	jobs := fs.Int("jobs", 1, "build up to K units at a time, as their dependencies and the memory available allow")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers (of each unit)")
	out := fs.String("o", "", "the set's directory (required)")
	asJSON := fs.Bool("json", false, fmt.Sprintf("print one JSON object per %s", g.TierNoun()))
	valueKind := valuesFlag(fs)
	profile := cpuProfileFlag(fs)
	if err := parseBuildFlags(fs, args, out, "DIR", workers); err != nil {
		return err
	}
	kind, err := valueKind()
	if err != nil {
		return err
	}
	g, units, err := plan()
	if err != nil {
		return err
	}
	stopProfile, err := profile()
	if err != nil {
		return err
	}
	defer stopProfile.into(&err)
	ctx, stop := signalContext()
	defer stop()
	bar := newStatus(e, 0)
	var werr error
	noun := g.TierNoun()
	opt := pipeline.TierOptions{
		Workers: *workers,
		Jobs:    *jobs,
		Build:   pipeline.Stamp(*workers, e.args),
		Values:  kind,
		Progress: func(unit string, p retro.Progress) {
			what := "init"
			if p.Stage == "depth" {
				what = fmt.Sprintf("depth %d", p.Depth)
			}
			bar.show(fmt.Sprintf("%s %s: %s, %.1f%% of %s positions, %s decided, %s", noun, unit, what,
				100*float64(p.Done)/float64(max(p.Slots, 1)), commas(p.Slots), commas(p.Decided), p.Elapsed.Round(time.Second)))
		},
		UnitDone: func(u pipeline.TierUnit, members []pipeline.TierMember, skipped bool) {
			bar.clear()
			for _, x := range members {
				if werr != nil {
					return
				}
				c := x.Counts
				if *asJSON {
					werr = writeJSON(e, map[string]any{"unit": u.Name, "skipped": skipped, noun: x.Name, "classes": x.Slots,
						"wins": c.Wins, "losses": c.Losses, "draws": c.Draws, "max_win": optionalMax(c.MaxWin),
						"max_loss": optionalMax(c.MaxLoss), "bytes": x.Bytes, "file": x.File, "sha256": x.SHA256, "build": x.Build})
					continue
				}
				verb := "built"
				if skipped {
					verb = "already complete"
				}
				secs := ""
				if x.Build != nil {
					secs = fmt.Sprintf(", %.1fs", x.Build.Seconds)
				}
				werr = printf(e, "%s %s: %s classes, %s wins, %s losses, %s draws, longest win %s, loss %s, %s%s (%s)\n",
					noun, x.Name, commas(x.Slots), commas(c.Wins), commas(c.Losses), commas(c.Draws), dashIfNone(c.MaxWin),
					dashIfNone(c.MaxLoss), humanBytes(x.Bytes), secs, verb)
			}
		},
	}
	start := time.Now()
	err = pipeline.BuildTierSet(ctx, g, *out, units, opt)
	bar.clear()
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if !*asJSON {
		return printf(e, "%s: %d units complete in %.1fs\n", *out, len(units), time.Since(start).Seconds())
	}
	return nil
}

// optionalMax is a longest win or loss for JSON: null when there is none (-1).
func optionalMax(r int) *int {
	if r < 0 {
		return nil
	}
	return &r
}

// dashIfNone writes a longest win or loss, "—" when there is none (-1).
func dashIfNone(r int) string {
	if r < 0 {
		return "—"
	}
	return strconv.Itoa(r)
}

// dashIfNil writes an optional longest win or loss, "—" when there is none.
func dashIfNil(r *int) string {
	if r == nil {
		return "—"
	}
	return strconv.Itoa(*r)
}
