package cli

import (
	"bufio"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/serve"
	"github.com/tablesmith/tablesmith/tables"
)

const queryArgs = "[--json] [--path] [--preload] FILE|DIR [STATE ...]"

func runQuery(e *env, args []string) error {
	fs := newFlags(e, "query", queryArgs)
	asJSON := fs.Bool("json", false, "print one JSON object per state")
	withPath := fs.Bool("path", false, "also print a shortest path to the goal")
	preload := fs.Bool("preload", false, "decode the whole table into memory before the first answer (a stream of many lookups, a two-bit table's descents); refused where it would take more than half the memory available")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return fmt.Errorf("%w: missing table FILE", errUsage)
	}
	src, err := serve.OpenSource(pos[0])
	if err != nil {
		return err
	}
	defer src.Close()
	if *withPath {
		if err := checkPathFlag(pos[0], src); err != nil {
			return err
		}
	}

	if *preload {
		if err := preloadSource(e, pos[0], src); err != nil {
			return err
		}
	}

	opt := serve.ProbeOptions{Path: *withPath, Moves: serve.IsTwoPlayer(src)}
	answer := func(dst []byte, state string, long bool) ([]byte, bool) {
		var line serve.Result
		if long {
			line = serve.TooLong(state)
		} else {
			line = serve.Probe(src, state, opt)
		}
		return appendQueryLine(dst, *asJSON, line), line.Error != ""
	}
	out := bufio.NewWriterSize(e.stdout, 64<<10)
	var failed bool
	if len(pos) > 1 {
		var b []byte
		for _, s := range pos[1:] {
			var f bool
			b, f = answer(b[:0], strings.TrimSpace(s), false)
			failed = failed || f
			out.Write(b)
		}
	} else {
		failed, err = answerLines(context.Background(), e.stdin, out, runtime.GOMAXPROCS(0), answer)
		if err != nil {
			out.Flush()
			return fmt.Errorf("reading states from stdin: %w", err)
		}
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("writing to standard output: %w", err)
	}
	if failed {
		return errSilentFail
	}
	return nil
}

// preloadSource decodes a table file whole before the first answer, showing its progress
// on a terminal.
func preloadSource(e *env, arg string, src serve.Source) error {
	tab, ok := src.(*tables.Table)
	if !ok {
		return fmt.Errorf("%w: --preload: %s is a set of tables; preload takes one table file", errUsage, arg)
	}
	ctx, stop := signalContext() // SIGINT or SIGTERM during a preload of minutes: "interrupted"
	defer stop()
	bar := newStatus(e, 0)
	defer bar.clear()
	return tab.Preload(ctx, 0, func(done, total uint64) {
		bar.show(fmt.Sprintf("preload %s: %.1f%% of %s blocks", arg, 100*float64(done)/float64(total), commas(total)))
	})
}

// appendQueryLine appends one answer to b: a JSON object, or a line of text (no
// formatting machinery or allocation per line).
func appendQueryLine(b []byte, asJSON bool, line serve.Result) []byte {
	if asJSON {
		return append(line.AppendJSON(b), '\n')
	}
	b = append(b, line.State...)
	switch {
	case line.Error != "":
		b = append(append(b, ": error: "...), line.Error...)
	case line.Bound != nil:
		b = strconv.AppendInt(append(b, ": at least "...), int64(*line.Bound), 10)
		b = append(b, " moves (pattern-database bound)"...)
	case line.Value != "":
		b = append(append(b, ": "...), line.Value...)
		if line.Remoteness != nil {
			b = append(strconv.AppendInt(append(b, " in "...), int64(*line.Remoteness), 10), " plies"...)
		}
		if line.Over {
			b = append(b, " (over by the rules)"...)
		}
		for i, m := range line.Moves {
			sep := "; moves "
			if i > 0 {
				sep = ", "
			}
			b = append(append(append(append(b, sep...), m.Move...), " ("...), m.Value...)
			if m.Remoteness != nil {
				b = strconv.AppendInt(append(b, ' '), int64(*m.Remoteness), 10)
			}
			b = append(b, ')')
		}
		if line.Path != nil {
			b = append(append(b, "; line "...), strings.Join(line.Path, " ")...)
		}
	case line.Remoteness == nil:
		b = append(b, ": unreachable (cannot reach the goal)"...)
	default:
		b = strconv.AppendInt(append(b, ": remoteness "...), int64(*line.Remoteness), 10)
		if line.Path != nil {
			b = append(append(b, "; path "...), strings.Join(line.Path, " -> ")...)
		}
	}
	return append(b, '\n')
}

// checkPathFlag refuses --path, before any state is read, where no state could have a
// path or line: a win/draw/loss-only set (no remoteness to follow, whatever the
// position), and a lone tier file of a two-player game (a line crosses tiers: the set's
// directory answers it).
func checkPathFlag(arg string, src serve.Source) error {
	switch s := src.(type) {
	case *tables.Set:
		if s.Values() == format.ValuesWDL {
			return fmt.Errorf("%w: --path: %s is a win/draw/loss-only set, which has no remoteness to follow a line; drop --path, or query a full set", errUsage, arg)
		}
	case *tables.Table:
		if in := s.Instance(); in != nil && games.KindOf(in.Game) == games.KindTwoPlayer {
			return fmt.Errorf("%w: --path: %s is one %s file of a set, and a line crosses them; query the set's directory (%s) for a line",
				errUsage, arg, tierNounOf(in.Game), filepath.Dir(arg))
		}
	}
	return nil
}

// tierNounOf is what a two-player game calls its tiers ("tier" when it is not tiered).
func tierNounOf(g games.Game) string {
	if tg, ok := g.(games.TieredGame); ok {
		return tg.TierNoun()
	}
	return "tier"
}
