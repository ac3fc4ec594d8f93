package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

const queryArgs = "[--json] [--path] FILE|DIR [STATE ...]"

// queryLine is one answer of `query --json`; fields absent from an answer are omitted.
type queryLine struct {
	State      string   `json:"state"`
	Remoteness *int     `json:"remoteness,omitempty"`
	Bound      *int     `json:"bound,omitempty"` // pattern databases: the lower bound
	Reachable  *bool    `json:"reachable,omitempty"`
	Path       []string `json:"path,omitempty"`
	Error      string   `json:"error,omitempty"`
}

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
	var t answerer
	if tables.IsSet(pos[0]) {
		s, err := tables.OpenSet(pos[0])
		if err != nil {
			return err
		}
		defer s.Close()
		t = s
	} else {
		tab, err := tables.Open(pos[0])
		if err != nil {
			return err
		}
		defer tab.Close()
		t = tab
	}

	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	failed := false
	answer := func(state string) {
		line := answerOne(t, state, *withPath)
		if line.Error != "" {
			failed = true
		}
		writeQueryLine(out, *asJSON, line)
	}
	tooLong := func(prefix string) {
		failed = true
		writeQueryLine(out, *asJSON, queryLine{State: prefix + "…", Error: fmt.Sprintf("line longer than %d bytes", maxStateLine)})
	}
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
func writeQueryLine(out *bufio.Writer, asJSON bool, line queryLine) {
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

// answerer is a table or a set.
type answerer interface {
	Lookup(state string) (tables.Answer, error)
}

// answerOne looks up one state; problems become the line's error, never a failure of the
// whole query, so that the other states are still answered.
func answerOne(t answerer, state string, withPath bool) queryLine {
	state = strings.TrimSpace(state)
	a, err := t.Lookup(state)
	if err != nil {
		return queryLine{State: state, Error: err.Error()}
	}
	line := queryLine{State: a.State}
	if a.Outcome == values.Bound {
		b := a.Remoteness
		line.Bound = &b
		return line
	}
	if !a.Reachable {
		f := false
		line.Reachable = &f
		return line
	}
	d := a.Remoteness
	line.Remoteness = &d
	if tab, ok := t.(*tables.Table); ok && withPath {
		if line.Path, err = tab.Path(a.State); err != nil {
			return queryLine{State: a.State, Error: err.Error()}
		}
	}
	return line
}
