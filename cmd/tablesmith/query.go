package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/tablesmith/tablesmith/serve"
)

const queryArgs = "[--json] [--path] FILE|DIR [STATE ...]"

func runQuery(e *env, args []string) error {
	fs := newFlags(e, "query", queryArgs)
	asJSON := fs.Bool("json", false, "print one JSON object per state")
	withPath := fs.Bool("path", false, "also print a shortest path to the goal")
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

	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	failed := false
	write := func(line serve.Result) {
		if line.Error != "" {
			failed = true
		}
		writeQueryLine(out, *asJSON, line)
	}
	answer := func(state string) { write(serve.Probe(src, state, serve.ProbeOptions{Path: *withPath})) }
	tooLong := func(prefix string) { write(serve.TooLong(prefix)) }
	// Answers are buffered while more input is already waiting, and flushed before the
	// next read would block: a co-process gets each answer at once, a pipe of millions of
	// states is not slowed by a write per line.
	flush := func() { out.Flush() }
	if err := forEachState(context.Background(), pos[1:], e.stdin, answer, tooLong, flush); err != nil {
		out.Flush()
		return err
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("writing to standard output: %w", err)
	}
	if failed {
		return errSilentFail
	}
	return nil
}

// writeQueryLine prints one answer: a JSON object, or a line of text.
func writeQueryLine(out io.Writer, asJSON bool, line serve.Result) {
	if asJSON {
		b, _ := json.Marshal(line)
		out.Write(append(b, '\n'))
		return
	}
	switch {
	case line.Error != "":
		fmt.Fprintf(out, "%s: error: %s\n", line.State, line.Error)
	case line.Bound != nil:
		fmt.Fprintf(out, "%s: at least %d moves (pattern-database bound)\n", line.State, *line.Bound)
	case line.Value != "":
		fmt.Fprintf(out, "%s: %s", line.State, line.Value)
		if line.Remoteness != nil {
			fmt.Fprintf(out, " in %d plies", *line.Remoteness)
		}
		for i, m := range line.Moves {
			sep := "; moves "
			if i > 0 {
				sep = ", "
			}
			fmt.Fprintf(out, "%s%s (%s", sep, m.Move, m.Value)
			if m.Remoteness != nil {
				fmt.Fprintf(out, " %d", *m.Remoteness)
			}
			fmt.Fprint(out, ")")
		}
		if line.Path != nil {
			fmt.Fprintf(out, "; line %s", strings.Join(line.Path, " "))
		}
		fmt.Fprintln(out)
	case line.Remoteness == nil:
		fmt.Fprintf(out, "%s: unreachable (cannot reach the goal)\n", line.State)
	default:
		fmt.Fprintf(out, "%s: remoteness %d", line.State, *line.Remoteness)
		if line.Path != nil {
			fmt.Fprintf(out, "; path %s", strings.Join(line.Path, " -> "))
		}
		fmt.Fprintln(out)
	}
}
