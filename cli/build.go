package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/tablesmith/tablesmith/internal/humanize"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/tables"
)

// preset is a shorthand on the command line for a registered game with some parameters
// fixed and its own default scheme: `build eight` is slide 3×3 under the lex rank.
type preset struct {
	game         string
	fixed        map[string]string
	defaultIndex string
}

var presets = map[string]preset{
	"eight": {game: "slide", fixed: map[string]string{"rows": "3", "cols": "3"}, defaultIndex: "lex"},
}

func buildArgs() string {
	var kinds []string
	for name := range presets {
		kinds = append(kinds, name)
	}
	for _, g := range registry.All() {
		switch g.(type) {
		case games.PuzzleGame, games.TieredGame:
			kinds = append(kinds, g.Name())
		}
	}
	return strings.Join(append(kinds, "pdb"), "|") + " [flags] -o FILE|DIR"
}

func runBuild(e *env, args []string) (err error) {
	if len(args) == 0 {
		return fmt.Errorf("%w: want what to build first: %s", errUsage, buildArgs())
	}
	kind, args := args[0], args[1:]
	switch kind {
	case "pdb":
		return runBuildPDB(e, args)
	}
	if kind == "-h" || kind == "--help" || kind == "-help" {
		fmt.Fprintf(e.stderr, "usage: tablesmith build %s\n", buildArgs())
		return flag.ErrHelp
	}
	pre, isPreset := presets[kind]
	name := kind
	if isPreset {
		name = pre.game
	}
	g, err := registry.Lookup(name)
	if tg, ok := g.(games.TieredGame); ok && !isPreset {
		return runBuildTiers(e, tg, args)
	}
	if _, ok := g.(games.PuzzleGame); err != nil || !ok {
		return fmt.Errorf("%w: unknown table kind %q (want %s)", errUsage, kind, buildArgs())
	}
	fs := newFlags(e, "build "+kind, "[flags] -o FILE")
	params := g.NewParams()
	if err := bindGameFlags(fs, params, pre.fixed); err != nil {
		return err
	}
	defIndex := orDefault(pre.defaultIndex, g.Schemes()[0])
	index := fs.String("index", defIndex, "index scheme: "+strings.Join(g.Schemes(), ", "))
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers")
	out := fs.String("o", "", "output table file (required)")
	resume := fs.Bool("resume", false, "continue from the checkpoint OUT.ckpt of an interrupted build of the same table")
	ckpt := fs.String("checkpoint", "auto", "log every completed level to OUT.ckpt so that --resume can continue: auto (builds of 16M slots or more), always, never")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	engine := fs.String("engine", "auto", "search engine: bytes (a byte a state, exact remoteness stored), two-bit (2 bits a state stored: see --codes; "+
		"exact remoteness by descent), or auto (bytes when it fits the memory available, else two-bit)")
	codes := fs.String("codes", pipeline.CodesAuto, "what the two-bit engine's table stores: half-depth (⌊remoteness/2⌋ mod 2, searched in 2 bits a slot, each state expanded once; "+
		"spaces of two sides, such as slide under lex and lex-half), depth-mod-3 (remoteness mod 3, searched as --search-bits says), "+
		"or auto (half-depth where the space allows it and no --search-bits is given, else depth-mod-3)")
	searchBits := fs.String("search-bits", "auto", "bits a slot the two-bit engine's depth-mod-3 search holds: 3 (a recent bit: every state expanded once), "+
		"2 (lean: a third less memory, older states expanded again or unreached ones pulling: slower), or auto (3 where it fits the memory available); "+
		"2 or 3 with --codes auto mean depth-mod-3 codes")
	profile := cpuProfileFlag(fs)
	if err := parseBuildFlags(fs, args, out, "FILE", workers); err != nil {
		return err
	}
	switch *engine {
	case pipeline.EngineAuto, pipeline.EngineBytes, pipeline.EngineTwoBit:
	default:
		return fmt.Errorf("%w: --engine must be auto, bytes or two-bit", errUsage)
	}
	bitsPerSlot := map[string]int{"auto": 0, "2": 2, "3": 3}
	sb, ok := bitsPerSlot[*searchBits]
	if !ok {
		return fmt.Errorf("%w: --search-bits must be auto, 2 or 3, not %q", errUsage, *searchBits)
	}
	if sb != 0 && *engine == pipeline.EngineBytes {
		return fmt.Errorf("%w: --search-bits is the two-bit engine's: not with --engine bytes", errUsage)
	}
	switch {
	case *codes != pipeline.CodesAuto && *codes != pipeline.CodesDepthMod3 && *codes != pipeline.CodesHalfDepth:
		return fmt.Errorf("%w: --codes must be auto, %s or %s, not %q", errUsage, pipeline.CodesDepthMod3, pipeline.CodesHalfDepth, *codes)
	case *codes != pipeline.CodesAuto && *engine == pipeline.EngineBytes:
		return fmt.Errorf("%w: --codes is the two-bit engine's: not with --engine bytes (which stores the exact remoteness)", errUsage)
	case *codes == pipeline.CodesHalfDepth && sb == 3:
		return fmt.Errorf("%w: --codes half-depth searches in 2 bits a slot: not with --search-bits 3 (which is for depth-mod-3 codes)", errUsage)
	}
	opt := pipeline.PuzzleOptions{Workers: *workers, Resume: *resume, Build: pipeline.Stamp(*workers, e.args), Engine: *engine, Codes: *codes, SearchBits: sb}
	switch *ckpt {
	case "auto":
		opt.Checkpoint = pipeline.CheckpointAuto
	case "always":
		opt.Checkpoint = pipeline.CheckpointAlways
	case "never":
		opt.Checkpoint = pipeline.CheckpointNever
	default:
		return fmt.Errorf("%w: --checkpoint must be auto, always or never", errUsage)
	}
	in, err := games.New(g, params, *index)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	stopProfile, err := profile()
	if err != nil {
		return err
	}
	defer stopProfile.into(&err)
	ctx, stop := signalContext()
	defer stop()
	bar := newStatus(e, 0)
	opt.Search = func(p builder.Progress) { bar.search("search: level", p) }
	opt.Write = bar.write
	opt.Notice = func(msg string) { bar.clear(); fmt.Fprintln(e.stderr, msg) }
	res, err := pipeline.BuildPuzzle(ctx, in, *out, opt)
	bar.clear()
	if err != nil {
		return err
	}
	return printPuzzleSummary(e, *out, res, *asJSON)
}

// bindGameFlags declares the game's parameter flags on fs, except those fixed by a
// preset, which are set to their values.
func bindGameFlags(fs *flag.FlagSet, params any, fixed map[string]string) error {
	b, ok := params.(games.FlagBinder)
	if !ok {
		return nil
	}
	tmp := flag.NewFlagSet("", flag.ContinueOnError)
	b.BindFlags(tmp)
	var err error
	tmp.VisitAll(func(f *flag.Flag) {
		if v, isFixed := fixed[f.Name]; isFixed {
			if e := tmp.Set(f.Name, v); e != nil && err == nil {
				err = e
			}
			return
		}
		fs.Var(f.Value, f.Name, f.Usage)
	})
	return err
}

// printPuzzleSummary reopens the new table, as a reader would, and prints one line (or a
// JSON object) about it.
func printPuzzleSummary(e *env, out string, res *pipeline.PuzzleResult, asJSON bool) error {
	t, err := tables.Open(out)
	if err != nil {
		return fmt.Errorf("reopening the new table: %w", err)
	}
	defer t.Close()
	info := t.Info()
	if asJSON {
		return writeJSON(e, map[string]any{
			"file": out, "game": info.Game, "params": info.Params, "index": info.Index,
			"slots": info.Slots, "states": info.States, "unreachable": info.Unreachable,
			"holes": info.Holes, "max_remoteness": info.MaxRemoteness, "bytes": info.Bytes,
			"bits_per_state": info.BitsPerState, "search_seconds": res.SearchSeconds,
			"write_seconds": res.WriteSeconds, "engine": res.Engine, "search_bits": res.SearchBits, "codes": res.Codes, "encoding": info.Encoding, "counts": info.Counts,
		})
	}
	engine := res.Engine
	switch {
	case res.Codes == pipeline.CodesHalfDepth:
		engine += " (half-depth)"
	case res.Engine == pipeline.EngineTwoBit && res.SearchBits == 2:
		engine += " (lean)"
	}
	return printf(e, "%s: %s %s, index %s, %s states (%s unreachable), max remoteness %d, %s slots, %s (%.2f bits/state), %s engine, search %.2fs, write %.2fs\n",
		out, info.Game, info.Params, info.Index, commas(info.States),
		commas(info.Unreachable), info.MaxRemoteness, commas(info.Slots),
		humanBytes(info.Bytes), info.BitsPerState, engine, res.SearchSeconds, res.WriteSeconds)
}

// writeJSON writes v as one line of JSON to stdout, reporting a failed write.
func writeJSON(e *env, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return printf(e, "%s\n", b)
}

// printf writes to stdout and reports a failed write (a closed pipe, a full disk) as an
// error naming stdout.
func printf(e *env, f string, args ...any) error {
	if _, err := fmt.Fprintf(e.stdout, f, args...); err != nil {
		return fmt.Errorf("writing to standard output: %w", err)
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func commas(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func humanBytes(n int64) string { return humanize.Bytes(uint64(max(n, 0))) }

var _ = errors.New

// parseBuildFlags parses a build's flags (no positional arguments allowed) and checks what
// every build needs: -o (a FILE or a DIR, as what says), and --workers (and --jobs, if fs
// has it) from 1 to maxWorkers.
func parseBuildFlags(fs *flag.FlagSet, args []string, out *string, what string, _ *int) error {
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, pos)
	case *out == "":
		return fmt.Errorf("%w: -o %s is required", errUsage, what)
	}
	return checkWorkerFlags(fs)
}

// cpuProfileFlag declares --cpuprofile on fs; the returned func starts the profile it
// names (if any) and returns the func that stops it and closes the file, reporting a
// profile that did not reach the disk whole.
func cpuProfileFlag(fs *flag.FlagSet) func() (stop profileStop, err error) {
	path := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (for go tool pprof)")
	return func() (profileStop, error) {
		if *path == "" {
			return func() error { return nil }, nil
		}
		f, err := os.Create(*path)
		if err != nil {
			return nil, err
		}
		w := &firstErrWriter{w: f}
		if err := pprof.StartCPUProfile(w); err != nil {
			f.Close()
			return nil, err
		}
		return func() error {
			pprof.StopCPUProfile() // it drops write errors: w kept the first
			err := w.err
			if e := f.Close(); err == nil {
				err = e
			}
			if err != nil {
				return fmt.Errorf("--cpuprofile %s: %w", *path, err)
			}
			return nil
		}, nil
	}
}

// profileStop stops a CPU profile and reports whether it reached its file whole.
type profileStop func() error

// into stops the profile and, if *err is nil, sets it to the outcome: a deferred call
// makes a lost profile the command's error.
func (stop profileStop) into(err *error) {
	if e := stop(); *err == nil {
		*err = e
	}
}

// firstErrWriter passes writes on and keeps the first error.
type firstErrWriter struct {
	w   io.Writer
	err error
}

func (w *firstErrWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}
