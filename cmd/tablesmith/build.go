package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/hanoi"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/tables"
)

// buildSpec is a space ready to build plus what its table's metadata says of it.
type buildSpec struct {
	game   string
	params any
	index  string
	space  builder.Space
}

const buildArgs = "eight|slide|hanoi|pdb [flags] -o FILE|DIR"

func runBuild(e *env, args []string) error {
	if len(args) > 0 && args[0] == "pdb" {
		return runBuildPDB(e, args[1:])
	}
	fs := newFlags(e, "build", buildArgs)
	index := fs.String("index", "", "index scheme (eight: lex|lex-half|mr|branch767359, default lex; slide: default lex-half; hanoi: classes|seed|plain, default classes)")
	goal := fs.String("goal", "blank-last", "sliding puzzles: goal layout, blank-last or blank-first")
	rows := fs.Int("rows", 0, "slide: board rows")
	cols := fs.Int("cols", 0, "slide: board columns")
	pegs := fs.Int("pegs", 3, "hanoi: number of pegs (3..6)")
	disks := fs.Int("disks", 0, "hanoi: number of disks")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers")
	out := fs.String("o", "", "output table file (required)")
	resume := fs.Bool("resume", false, "continue from the checkpoint OUT.ckpt of an interrupted build of the same table")
	ckpt := fs.String("checkpoint", "auto", "log every completed level to OUT.ckpt so that --resume can continue: auto (builds of 16M slots or more), always, never")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the build to this file (for go tool pprof)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want one of eight, slide, hanoi, pdb (got %q)", errUsage, pos)
	}
	if *out == "" {
		return fmt.Errorf("%w: -o FILE is required", errUsage)
	}
	if *workers < 1 {
		return fmt.Errorf("%w: --workers must be at least 1", errUsage)
	}
	if err := onlyFlags(fs, buildFlags[pos[0]]...); err != nil {
		return err
	}
	var spec buildSpec
	switch pos[0] {
	case "eight":
		spec, err = slideSpec(3, 3, *goal, orDefault(*index, "lex"))
	case "slide":
		if *rows == 0 || *cols == 0 {
			return fmt.Errorf("%w: slide needs --rows and --cols", errUsage)
		}
		spec, err = slideSpec(*rows, *cols, *goal, orDefault(*index, "lex-half"))
	case "hanoi":
		if *disks == 0 {
			return fmt.Errorf("%w: hanoi needs --disks", errUsage)
		}
		spec, err = hanoiSpec(*pegs, *disks, orDefault(*index, "classes"))
	default:
		return fmt.Errorf("%w: unknown table kind %q (want eight, slide or hanoi)", errUsage, pos[0])
	}
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := planMemory(spec.space); err != nil {
		return err
	}
	var checkpointing bool
	switch *ckpt {
	case "auto":
		checkpointing = spec.space.Slots() >= 16<<20 || *resume
	case "always":
		checkpointing = true
	case "never":
		checkpointing = false
	default:
		return fmt.Errorf("%w: --checkpoint must be auto, always or never", errUsage)
	}

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return buildTable(ctx, e, spec, *out, *workers, *resume, checkpointing, *asJSON)
}

// buildFlags are the flags each kind of build reads besides the common ones; a flag of
// another kind is a usage error rather than silently ignored.
var buildFlags = map[string][]string{
	"eight": {"index", "goal"},
	"slide": {"index", "goal", "rows", "cols"},
	"hanoi": {"index", "pegs", "disks"},
}

var commonBuildFlags = []string{"workers", "o", "resume", "checkpoint", "json", "cpuprofile"}

// onlyFlags returns a usage error naming the first flag set on the command line that is
// neither common nor among allowed.
func onlyFlags(fs *flag.FlagSet, allowed ...string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err == nil && !slices.Contains(allowed, f.Name) && !slices.Contains(commonBuildFlags, f.Name) {
			err = fmt.Errorf("%w: --%s does not apply to this kind of build", errUsage, f.Name)
		}
	})
	return err
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func slideSpec(rows, cols int, goal, index string) (buildSpec, error) {
	p := slide.Params{Rows: rows, Cols: cols, Goal: goal, Index: index}
	sp, err := slide.NewSpace(p)
	if err != nil {
		return buildSpec{}, err
	}
	p = sp.Params()
	return buildSpec{game: tables.GameSlide, index: index, space: sp,
		params: map[string]any{"rows": p.Rows, "cols": p.Cols, "goal": p.Goal}}, nil
}

func hanoiSpec(pegs, disks int, index string) (buildSpec, error) {
	sp, err := hanoi.NewSpace(hanoi.Params{Pegs: pegs, Disks: disks, Index: index})
	if err != nil {
		return buildSpec{}, err
	}
	return buildSpec{game: tables.GameHanoi, index: index, space: sp,
		params: map[string]any{"pegs": pegs, "disks": disks}}, nil
}

// buildTable runs the search (resuming, and logging every level, as asked), writes the
// table and prints a one-line summary. The level log OUT.ckpt is removed once the table
// is in place.
func buildTable(ctx context.Context, e *env, spec buildSpec, out string, workers int, resume, checkpointing, asJSON bool) error {
	params, err := json.Marshal(spec.params)
	if err != nil {
		return err
	}
	ckptPath := out + ".ckpt"
	key := fmt.Sprintf("%s %s index=%s", spec.game, params, spec.index)
	opt := builder.Options{Workers: workers}
	var log *builder.LevelLog
	closeLog := func() {
		if log != nil {
			log.Close()
			log = nil
		}
	}
	defer closeLog()
	if resume {
		cp, l, err := builder.ResumeLevelLog(ckptPath, key)
		switch {
		case err == nil:
			opt.Resume, log = cp, l
			fmt.Fprintf(e.stderr, "resuming from %s after level %d\n", ckptPath, len(cp.Counts)-1)
		case errors.Is(err, os.ErrNotExist):
			fmt.Fprintf(e.stderr, "no checkpoint %s: starting from the goal\n", ckptPath)
		default:
			return err
		}
	}
	if log == nil && checkpointing {
		width, err := builder.WidthFor(spec.space.DepthBound())
		if err != nil {
			return err
		}
		if log, err = builder.CreateLevelLog(ckptPath, key, spec.space.Slots(), width); err != nil {
			return err
		}
	}
	if log != nil {
		opt.AfterLevel = log.Append
	}
	bar := newStatus(e, spec.space.Slots())
	opt.Progress = bar.search
	res, err := builder.BFS(ctx, spec.space, opt)
	bar.clear()
	if err != nil {
		if log != nil && !errors.Is(err, builder.ErrCheckpoint) {
			return fmt.Errorf("%w (run the same command with --resume to continue from the last completed level)", err)
		}
		return err
	}
	meta := format.Metadata{
		Game: spec.game, Params: params, Index: spec.index,
		Build: format.Build{
			Tool: "tablesmith", GoVersion: runtime.Version(), Created: time.Now().UTC(),
			Workers: workers, Seconds: res.Elapsed.Seconds(),
			Command: "tablesmith build " + strings.Join(os.Args[min(2, len(os.Args)):], " "),
		},
	}
	if host, err := os.Hostname(); err == nil {
		meta.Build.Host = host
	}
	writeStart := time.Now()
	meta, err = tables.WritePuzzle(ctx, out, res, meta, format.WriteOptions{Workers: workers, Progress: bar.write})
	bar.clear()
	if err != nil {
		return err
	}
	if log != nil {
		closeLog()
		os.Remove(ckptPath)
	}
	t, err := tables.Open(out)
	if err != nil {
		return fmt.Errorf("reopening the new table: %w", err)
	}
	defer t.Close()
	info := t.Info()
	if asJSON {
		return json.NewEncoder(e.stdout).Encode(map[string]any{
			"file": out, "game": info.Game, "params": info.Params, "index": info.Index,
			"slots": info.Slots, "states": info.States, "unreachable": info.Unreachable,
			"holes": info.Holes, "max_remoteness": info.MaxRemoteness, "bytes": info.Bytes,
			"bits_per_state": info.BitsPerState, "search_seconds": res.Elapsed.Seconds(),
			"write_seconds": time.Since(writeStart).Seconds(),
		})
	}
	fmt.Fprintf(e.stdout, "%s: %s %s, index %s, %s states (%s unreachable), max remoteness %d, %s slots, %s (%.2f bits/state), search %.2fs, write %.2fs\n",
		out, spec.game, params, spec.index, commas(info.States),
		commas(info.Unreachable), info.MaxRemoteness, commas(info.Slots),
		humanBytes(info.Bytes), info.BitsPerState, res.Elapsed.Seconds(), time.Since(writeStart).Seconds())
	return nil
}

func commas(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
