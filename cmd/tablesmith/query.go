package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
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

// writeQueryLine prints one answer: a JSON object, or a line of text (appended to the
// writer's free buffer: no formatting machinery or allocation per line).
func writeQueryLine(out *bufio.Writer, asJSON bool, line serve.Result) {
	if asJSON {
		b, _ := json.Marshal(line)
		out.Write(append(b, '\n'))
		return
	}
	b := append(out.AvailableBuffer(), line.State...)
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
	out.Write(append(b, '\n'))
}
