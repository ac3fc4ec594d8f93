package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/safefile"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/serve"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

const infoArgs = "[--json] [--plot FILE.svg|-] FILE|DIR"

func runInfo(e *env, args []string) error {
	fs := newFlags(e, "info", infoArgs)
	asJSON := fs.Bool("json", false, "print the metadata as one JSON object")
	plot := fs.String("plot", "", "also draw the value distribution as an SVG chart into `FILE` (- for stdout, instead of the metadata)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want exactly one table FILE or set DIR", errUsage)
	}
	if tables.IsSet(pos[0]) {
		s, err := tables.OpenSet(pos[0])
		if err != nil {
			return err
		}
		defer s.Close()
		if err := s.OpenMembers(); err != nil { // Info summarises every member
			return err
		}
		info := s.Info()
		if done, err := writePlot(e, *plot, serve.SetDistributionSVG(info)); done || err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e, info)
		}
		return writeText(e, func(w io.Writer) {
			fmt.Fprintf(w, "set             %s (%s, %d files)\n", info.Dir, info.Kind, len(info.Members))
			if g := s.Tiered(); g != nil {
				if args := games.RulesArgs(g); args != nil { // a rule set of a family, not its default
					fmt.Fprintf(w, "rules           %s: %s\n", args[1], g.Summary())
				}
			}
			fmt.Fprintf(w, "size            %s, %s slots\n", humanBytes(info.Bytes), commas(info.Slots))
			switch info.Values {
			case format.ValuesFull:
				fmt.Fprintf(w, "values          full: win, draw or loss with the remoteness in plies\n")
			case format.ValuesWDL:
				fmt.Fprintf(w, "values          wdl: win, draw or loss only (no remoteness, no line)\n")
			}
			if info.Totals != nil {
				fmt.Fprintf(w, "%-8s %15s %15s %15s %15s %8s %8s %10s\n", info.TierNoun, "classes", "wins", "losses", "draws", "max win", "max loss", "bytes")
				for _, t := range append(info.Tiers, *info.Totals) {
					fmt.Fprintf(w, "%-8s %15s %15s %15s %15s %8s %8s %10s\n", t.Name, commas(t.Classes), commas(t.Wins), commas(t.Losses),
						commas(t.Draws), dashIfNil(t.MaxWin), dashIfNil(t.MaxLoss), humanBytes(t.Bytes))
				}
				return
			}
			for _, m := range info.Members {
				fmt.Fprintf(w, "member          %s: %s %s, %s slots, max %d, %s\n", m.File, m.Game, m.Params,
					commas(m.Slots), m.MaxRemoteness, humanBytes(m.Bytes))
			}
		})
	}
	if err := serve.CheckNotSetDir(pos[0]); err != nil {
		return err
	}
	t, err := tables.Open(pos[0])
	if err != nil {
		return err
	}
	defer t.Close()
	info := t.Info()
	if done, err := writePlot(e, *plot, serve.DistributionSVG(info)); done || err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e, info)
	}
	return writeText(e, func(w io.Writer) { printTableInfo(w, pos[0], info) })
}

// writePlot writes the chart for --plot: to stdout for "-" (and then info is done), or to
// a file, through a temporary file renamed into place.
func writePlot(e *env, path string, svg []byte) (done bool, err error) {
	switch path {
	case "":
		return false, nil
	case "-":
		_, err := e.stdout.Write(svg)
		return true, err
	}
	return false, safefile.WriteFile(path, svg, 0o644)
}

func printTableInfo(w io.Writer, file string, info tables.Info) {
	fmt.Fprintf(w, "file            %s\n", file)
	fmt.Fprintf(w, "game            %s %s (%s)\n", info.Game, info.Params, info.Kind)
	fmt.Fprintf(w, "index           %s (%s slots, %s holes)\n", info.Index, commas(info.Slots), commas(info.Holes))
	label := "remoteness"
	switch info.Kind {
	case "pdb":
		label = "value"
		fmt.Fprintf(w, "entries         %s placements, values up to %d (%s)\n", commas(info.States), info.MaxRemoteness, info.Encoding)
	case "two-player":
		fmt.Fprintf(w, "positions       %s wins, %s losses, %s draws\n", commas(info.Wins), commas(info.Losses), commas(info.Draws))
		if values.Encoding(info.Encoding) == values.EncodingWDLOnly {
			fmt.Fprintf(w, "longest         — (a win/draw/loss-only table has no remoteness)\n")
		} else {
			fmt.Fprintf(w, "longest         win %s plies, loss %s plies\n", dashIfNil(info.MaxWin), dashIfNil(info.MaxLoss))
		}
	default:
		fmt.Fprintf(w, "states          %s reach the goal, %s cannot\n", commas(info.States), commas(info.Unreachable))
		fmt.Fprintf(w, "max remoteness  %d\n", info.MaxRemoteness)
		switch values.Encoding(info.Encoding) {
		case values.EncodingHalfDepth:
			fmt.Fprintf(w, "codes           %s: ⌊remoteness/2⌋ mod 2, the exact remoteness by descent\n", info.Encoding)
		case values.EncodingDepthMod3:
			fmt.Fprintf(w, "codes           %s: remoteness mod 3, the exact remoteness by descent\n", info.Encoding)
		}
	}
	fmt.Fprintf(w, "size            %s (%.3f bits/state; %d-bit codes in %d zstd blocks of %d slots)\n",
		humanBytes(info.Bytes), info.BitsPerState, info.CodeBits, info.Blocks, info.SlotsPerBlock)
	if info.Build.Created.IsZero() {
		fmt.Fprintf(w, "built           by %s (a reproducible file: the build's time, host and command are in its set's manifest)\n", info.Build.Tool)
	} else {
		fmt.Fprintf(w, "built           %s by %s %s, %d workers, %.2fs search\n",
			info.Build.Created.Format(time.RFC3339), info.Build.Tool, info.Build.GoVersion, info.Build.Workers, info.Build.Seconds)
	}
	if len(info.Counts) == 0 {
		return
	}
	fmt.Fprintf(w, "counts          %s: states\n", label)
	for d, c := range info.Counts {
		if len(info.Counts) > 200 && d >= 100 && d < len(info.Counts)-100 {
			if d == 100 {
				fmt.Fprintf(w, "                … %d more levels (use --json for all)\n", len(info.Counts)-200)
			}
			continue
		}
		fmt.Fprintf(w, "                %4d: %s\n", d, commas(c))
	}
}

const verifyArgs = "[--json] [--checksums-only] [--workers N] [--tier NAME[,NAME…]] [--cpuprofile FILE] FILE|DIR"

func runVerify(e *env, args []string) (err error) {
	fs := newFlags(e, "verify", verifyArgs)
	asJSON := fs.Bool("json", false, "print the result as JSON, one object per file")
	sumsOnly := fs.Bool("checksums-only", false, "check only the checksums and counts, not the values themselves (fast)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers")
	tier := fs.String("tier", "", "check only this tier of a two-player game's set DIR, or these (comma-separated): its file, and its values against the tiers its moves lead to (Mühle: a sector W-B or W-B-WH-BH)")
	profile := cpuProfileFlag(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want exactly one table FILE or set DIR", errUsage)
	}
	if err := checkWorkers("workers", *workers); err != nil {
		return err
	}
	if *tier != "" && !tables.IsSet(pos[0]) {
		return fmt.Errorf("%w: --tier takes a two-player game's set directory, not %s", errUsage, pos[0])
	}
	stopProfile, err := profile()
	if err != nil {
		return err
	}
	defer stopProfile.into(&err)
	ctx, stop := signalContext()
	defer stop()
	v := &verifier{e: e, ctx: ctx, asJSON: *asJSON, sumsOnly: *sumsOnly, workers: *workers, bar: newStatus(e, 0)}
	v.opt = tables.VerifyOptions{ChecksumsOnly: *sumsOnly, Workers: *workers, Progress: func(stage string, done, total uint64) {
		if total > 0 {
			v.bar.show(fmt.Sprintf("verify %s: %.1f%% of %s slots", stage, 100*float64(done)/float64(total), commas(total)))
		}
	}}
	if tables.IsSet(pos[0]) {
		err = v.set(pos[0], *tier)
	} else {
		err = v.file(pos[0])
	}
	if err == nil && v.failed {
		err = errSilentFail
	}
	return err
}

// verifier is one verify command: its options, and whether a verdict failed.
type verifier struct {
	e                *env
	ctx              context.Context
	opt              tables.VerifyOptions
	asJSON, sumsOnly bool
	workers          int
	bar              *status
	failed           bool
}

// report prints the verdict on one file: OK, CORRUPT (the file is damaged or its values
// are inconsistent) or ERROR (it could not be checked, e.g. it does not exist).
func (v *verifier) report(file string, err error, msg string) error {
	v.bar.clear()
	verdict := "OK"
	switch {
	case errors.Is(err, format.ErrCorrupt):
		verdict = "CORRUPT"
	case err != nil:
		verdict = "ERROR"
	}
	if err != nil {
		msg, v.failed = err.Error(), true
	}
	if v.asJSON {
		return writeJSON(v.e, map[string]any{"file": file, "ok": err == nil, "verdict": verdict, "message": msg})
	}
	return printf(v.e, "%s: %s: %s\n", file, verdict, msg)
}

// refuse reports err as the verdict on what could not be opened, and fails.
func (v *verifier) refuse(what string, err error) error {
	if werr := v.report(what, err, ""); werr != nil {
		return werr
	}
	return errSilentFail
}

// file verifies one table file.
func (v *verifier) file(path string) error {
	err := serve.CheckNotSetDir(path)
	var t *tables.Table
	if err == nil {
		t, err = tables.Open(path)
	}
	if err != nil {
		return v.refuse(path, err)
	}
	defer t.Close()
	return v.table(t)
}

// table verifies one table: its blocks and counts, and where the table alone allows it
// its values.
func (v *verifier) table(t *tables.Table) error {
	what := "checksums, counts and values"
	if v.sumsOnly {
		what = "checksums and counts"
	}
	err := t.Verify(v.ctx, v.opt)
	info := t.Info()
	msg := fmt.Sprintf("%d blocks, %s slots: %s match", info.Blocks, commas(info.Slots), what)
	if err == nil && !v.sumsOnly && values.IsTwoBit(values.Encoding(info.Encoding)) {
		// The local checks cannot see a forged cycle of codes: recompute where small.
		if info.Slots <= pipeline.RecomputeLimit {
			v.bar.show("verify: recomputing the search")
			err = pipeline.RecomputeTwoBit(v.ctx, t.Instance(), t.Reader(), v.workers)
			msg += "; search recomputed: every code matches"
		} else {
			msg += fmt.Sprintf(" (the search is recomputed only up to %s slots)", commas(pipeline.RecomputeLimit))
		}
	}
	if info.Kind == "two-player" {
		msg = fmt.Sprintf("%d blocks, %s slots: checksums and counts match (a game's values are checked when its set directory is verified)",
			info.Blocks, commas(info.Slots))
	}
	return v.report(t.File(), err, msg)
}

// set verifies a set directory: a tiered game's as a whole (or the tiers of tierFlag), a
// pattern-database set member by member and then against its manifest.
func (v *verifier) set(dir, tierFlag string) error {
	s, err := tables.OpenSet(dir)
	if err != nil {
		return v.refuse(dir, err)
	}
	defer s.Close()
	if s.Tiered() != nil || tierFlag != "" {
		return v.tierSet(dir, s, tierFlag)
	}
	for _, t := range s.Tables() {
		if err := v.table(t); err != nil {
			return err
		}
	}
	if err := s.CheckMembers(); err != nil {
		return v.refuse(dir, err)
	}
	n, of := unsummed(s.Manifest(), nil)
	return v.report(dir, nil, fmt.Sprintf("manifest and %d member files agree", len(s.Tables()))+unsummedNote(n, of, "member"))
}

// tierSet verifies a tiered game's set, or the tiers tierFlag names (comma-separated).
func (v *verifier) tierSet(dir string, s *tables.Set, tierFlag string) error {
	g := s.Tiered()
	noun := "tier"
	var names []string
	if tierFlag != "" {
		names = strings.Split(tierFlag, ",")
	}
	for i, name := range names {
		switch {
		case name == "":
			return fmt.Errorf("%w: --tier %q: name %d of %d is empty", errUsage, tierFlag, i+1, len(names))
		case slices.Contains(names[:i], name):
			return fmt.Errorf("%w: --tier %q: %s named twice", errUsage, tierFlag, name)
		}
	}
	if g != nil {
		noun = g.TierNoun()
		for _, name := range names {
			if _, err := g.ParseTier(name); err != nil {
				return fmt.Errorf("%w: --tier: %v", errUsage, err)
			}
		}
	}
	// A manifest of an earlier format may record no SHA-256 of some members: the verdict
	// says what was not checked, never that it matched.
	unsummed, of := unsummed(s.Manifest(), names)
	checked := []string{"checksums", "counts"}
	if unsummed < of {
		checked = append(checked, "SHA-256")
	}
	if !v.sumsOnly {
		checked = append(checked, "the forward consistency of every value")
	}
	what := strings.Join(checked[:len(checked)-1], ", ") + " and " + checked[len(checked)-1]
	var err error
	// The manifest's count: Tables would open every member, which --tier need not.
	msg := fmt.Sprintf("%d %ss: %s match", len(s.Manifest().Members), noun, what)
	if len(names) > 0 {
		err = s.VerifyTiers(v.ctx, names, v.opt)
		msg = fmt.Sprintf("%s %s: %s match", noun, strings.Join(names, ", "), what)
		if len(names) > 1 {
			msg = fmt.Sprintf("%ss %s: %s match", noun, strings.Join(names, ", "), what)
		}
	} else {
		err = s.Verify(v.ctx, v.opt)
	}
	return v.report(dir, err, msg+unsummedNote(unsummed, of, noun))
}

// writeText runs f on a buffered stdout and reports a failed write or flush.
func writeText(e *env, f func(w io.Writer)) error {
	w := &errWriter{w: e.stdout}
	f(w)
	if w.err != nil {
		return fmt.Errorf("writing to standard output: %w", w.err)
	}
	return nil
}

// errWriter remembers the first write error, so a run of Fprintf calls is checked once.
type errWriter struct {
	w   io.Writer
	err error
}

func (w *errWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.w.Write(p)
	w.err = err
	return n, err
}

// unsummed counts the members of m (those called names; all when names is empty) whose
// SHA-256 the manifest does not record (a manifest of an earlier format), of how many.
func unsummed(m *format.Manifest, names []string) (n, of int) {
	for _, x := range m.Members {
		if len(names) > 0 && !slices.Contains(names, x.Name) {
			continue
		}
		of++
		if x.SHA256 == "" {
			n++
		}
	}
	return n, of
}

// unsummedNote is what a verdict adds when n of the of members checked have no SHA-256
// recorded: that their SHA-256 was not checked, and why.
func unsummedNote(n, of int, noun string) string {
	switch {
	case n == 0:
		return ""
	case n == of:
		return "; SHA-256 not checked: the manifest, of an earlier format, records none"
	}
	return fmt.Sprintf("; SHA-256 not checked for %d of the %d %ss: the manifest, of an earlier format, records none for them", n, of, noun)
}
