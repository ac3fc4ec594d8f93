package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

const queryArgs = "[--json] [--path] FILE|DIR [STATE ...]"

// queryLine is one answer of `query --json`; fields absent from an answer are omitted.
type queryLine struct {
	State      string     `json:"state"`
	Value      string     `json:"value,omitempty"` // two-player games: win, loss or draw
	Remoteness *int       `json:"remoteness,omitempty"`
	Bound      *int       `json:"bound,omitempty"` // pattern databases: the lower bound
	Reachable  *bool      `json:"reachable,omitempty"`
	Moves      []moveLine `json:"moves,omitempty"` // two-player games: every legal move, best first
	Path       []string   `json:"path,omitempty"`
	Error      string     `json:"error,omitempty"`
}

// moveLine is a legal move and the value of the position it leads to, for the opponent.
type moveLine struct {
	Move       string `json:"move"`
	Value      string `json:"value"`
	Remoteness *int   `json:"remoteness,omitempty"`
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

// writeQueryLine prints one answer: a JSON object, or a line of text.
func writeQueryLine(out io.Writer, asJSON bool, line queryLine) {
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
			fmt.Fprintf(out, " in %d", *line.Remoteness)
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

// answerer is a table or a set.
type answerer interface {
	Lookup(state string) (tables.Answer, error)
}

// answerOne looks up one state; problems become the line's error, never a failure of the
// whole query, so that the other states are still answered.
func answerOne(t answerer, state string, withPath bool) queryLine {
	state = strings.TrimSpace(state)
	if set, ok := t.(*tables.Set); ok && set.SectorManifest() != nil {
		return answerGame(set, state, withPath)
	}
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

// answerGame answers a position of a two-player game's sector set: its value, every
// legal move with the value it leads to, and with withPath the principal line.
func answerGame(s *tables.Set, state string, withPath bool) queryLine {
	a, moves, err := s.Moves(state)
	if err != nil {
		return queryLine{State: state, Error: err.Error()}
	}
	line := queryLine{State: a.State, Value: a.Outcome.String(), Remoteness: remotenessOf(a), Moves: []moveLine{}}
	for _, m := range moves {
		line.Moves = append(line.Moves, moveLine{Move: m.Move, Value: m.Outcome.String(), Remoteness: remotenessOf(m.Answer)})
	}
	if withPath && a.Outcome != values.Draw {
		positions, ms, err := s.Line(a.State)
		if err != nil {
			return queryLine{State: a.State, Error: err.Error()}
		}
		for i, p := range positions {
			if i > 0 {
				line.Path = append(line.Path, ms[i-1])
			}
			line.Path = append(line.Path, p)
		}
	}
	return line
}

// remotenessOf is a won or lost answer's remoteness; draws have none.
func remotenessOf(a tables.Answer) *int {
	if a.Outcome == values.Draw {
		return nil
	}
	r := a.Remoteness
	return &r
}
