package serve

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

// Source is what a probe reads: a *tables.Table or a *tables.Set.
type Source interface {
	Lookup(state string) (tables.Answer, error)
	Close() error
}

// OpenSource opens path as a set when it is a set directory, otherwise as a table file.
func OpenSource(path string) (Source, error) {
	if tables.IsSet(path) {
		return tables.OpenSet(path)
	}
	if err := CheckNotSetDir(path); err != nil {
		return nil, err
	}
	if err := CheckNotManifest(path); err != nil {
		return nil, err
	}
	return tables.Open(path)
}

// CheckNotManifest returns an error saying to give the directory when path is a set's
// manifest (DIR/manifest.json), which is no table file.
func CheckNotManifest(path string) error {
	if filepath.Base(path) == tables.ManifestName && tables.IsSet(filepath.Dir(path)) {
		return fmt.Errorf("%s is the manifest of a set, not a table file: give the set's directory, %s", path, filepath.Dir(path))
	}
	return nil
}

// IsTwoPlayer reports whether src is a two-player game's set, whose positions `query`
// answers with their moves (ProbeOptions.Moves): a game position is read through them.
func IsTwoPlayer(src Source) bool {
	s, ok := src.(*tables.Set)
	return ok && s.Tiered() != nil
}

// CheckNotSetDir returns an error naming the missing manifest when path is a directory
// without one (a set that was never assembled, or a wrong path), so that opening it as
// a table file does not say only that it is "not a regular file". Anything else is
// left to the opener to report.
func CheckNotSetDir(path string) error {
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
		return nil
	}
	m := filepath.Join(path, tables.ManifestName)
	if _, err := os.Lstat(m); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s is not a table set: %s is missing", path, m)
	}
	return nil
}

// Result is one probe's answer, the object `tablesmith query --json` prints and the API
// returns. Fields that do not apply are omitted: remoteness for a puzzle state that
// reaches the goal (or the plies of a won or lost game position; never in a
// win/draw/loss-only set, which has no remoteness), "reachable":false for
// one that cannot, bound for a pattern database, value ("win", "loss", "draw") for a
// two-player position, path with ProbeOptions.Path, error for a state that cannot be
// answered, and moves with ProbeOptions.Moves. The fields come in one fixed order — move,
// state, value, remoteness, bound, reachable, path, error, moves — and moves comes last,
// so that a result without moves is a prefix of the same result with them. A two-player
// move that ends the game (the opponent keeps 2 stones) leads to no position: it has no
// state field at all (see MarshalJSON).
type Result struct {
	Move       string `json:"move,omitempty"` // a two-player move leading to State (in Moves)
	State      string `json:"state"`
	Value      string `json:"value,omitempty"`
	Remoteness *int   `json:"remoteness,omitempty"`
	Bound      *int   `json:"bound,omitempty"`
	Reachable  *bool  `json:"reachable,omitempty"`
	// Over marks a two-player position over by the rules (a line of three, a full
	// board): its value is the rules', and it has no move. It is said where the moves
	// are asked for (moves=1, query), which is where the lookup learns it.
	Over  bool     `json:"over,omitempty"`
	Path  []string `json:"path,omitempty"`
	Error string   `json:"error,omitempty"`
	Moves []Result `json:"moves,omitempty"`

	err  error  // what Error says, for the HTTP status
	rank [2]int // the sort key of a move: better moves first
}

// resultFields and endMoveFields are Result without its methods: the first as it is, the
// second without the state of a move that ends the game. (Conversions between them
// ignore the tags.)
type (
	resultFields  Result
	endMoveFields struct {
		Move       string   `json:"move,omitempty"`
		State      string   `json:"-"`
		Value      string   `json:"value,omitempty"`
		Remoteness *int     `json:"remoteness,omitempty"`
		Bound      *int     `json:"bound,omitempty"`
		Reachable  *bool    `json:"reachable,omitempty"`
		Over       bool     `json:"over,omitempty"`
		Path       []string `json:"path,omitempty"`
		Error      string   `json:"error,omitempty"`
		Moves      []Result `json:"moves,omitempty"`

		err  error
		rank [2]int
	}
)

// endsGame reports a move with no position after it: the move ended the game.
func (r *Result) endsGame() bool { return r.Move != "" && r.State == "" }

// MarshalJSON writes r as encoding/json writes its fields, leaving out the state of a
// move that ends the game. AppendJSON writes the same bytes faster.
func (r Result) MarshalJSON() ([]byte, error) {
	if r.endsGame() {
		return json.Marshal(endMoveFields(r))
	}
	return json.Marshal(resultFields(r))
}

// Err is the error the result reports (nil when Error is empty).
func (r *Result) Err() error { return r.err }

// ProbeOptions say what a probe adds to the value.
type ProbeOptions struct {
	// Path adds a shortest path to the goal (remoteness tables).
	Path bool
	// MaxPath refuses a path longer than this many moves (0: no limit).
	MaxPath int
	// Moves adds every neighbour of the state with its value, best first.
	Moves bool
}

// ErrLineTooLong is the answer to an input line over MaxStateLine bytes.
var ErrLineTooLong = fmt.Errorf("line longer than %d bytes", MaxStateLine)

// ErrPathTooLong is the answer to a path request over ProbeOptions.MaxPath moves.
var ErrPathTooLong = tables.ErrPathTooLong

// TooLong is the result for an input line over MaxStateLine bytes that starts with prefix.
func TooLong(prefix string) Result { return failed(prefix+"…", ErrLineTooLong) }

func failed(state string, err error) Result {
	return Result{State: state, Error: err.Error(), err: err}
}

// Probe looks up one state in src and never fails as a whole: a problem is the result's
// error, so that a stream of states goes on after a bad one.
func Probe(src Source, state string, opt ProbeOptions) Result {
	state = strings.TrimSpace(state)
	if set, ok := src.(*tables.Set); ok && set.Tiered() != nil {
		return probeGame(set, state, opt)
	}
	var a tables.Answer
	var path []string
	var err error
	if t, ok := src.(*tables.Table); ok && opt.Path {
		a, path, err = t.LookupPath(state, opt.MaxPath) // one walk of a two-bit table's line
		if errors.Is(err, tables.ErrPathTooLong) {
			return failed(a.State, fmt.Errorf("%w: the path of %d moves is longer than the limit of %d", ErrPathTooLong, a.Remoteness, opt.MaxPath))
		}
		if err != nil && a.State != "" {
			return failed(a.State, err)
		}
	} else {
		a, err = src.Lookup(state)
	}
	if err != nil {
		return failed(state, err)
	}
	r := resultOf(a)
	r.Path = path
	if opt.Moves {
		if r.Moves, err = moves(src, a.State); err != nil {
			return failed(a.State, err)
		}
	}
	return r
}

// resultOf turns an answer into a result without path or moves.
func resultOf(a tables.Answer) Result {
	r := Result{State: a.State, Over: a.Over && a.State != ""}
	d := a.Remoteness
	switch a.Outcome {
	case values.Remoteness:
		r.Remoteness, r.rank = &d, [2]int{0, d}
	case values.Bound:
		r.Bound, r.rank = &d, [2]int{0, d}
	case values.Unreachable:
		f := false
		r.Reachable, r.rank = &f, [2]int{3, 0}
	// A two-player value is the side to move's: after a move it is the opponent's, so
	// the best move leaves a loss (soonest first), then a draw, then a win (latest first).
	case values.Loss:
		r.Value, r.Remoteness, r.rank = a.Outcome.String(), &d, [2]int{0, d}
	case values.Draw:
		r.Value, r.rank = a.Outcome.String(), [2]int{1, 0}
	case values.Win:
		r.Value, r.Remoteness, r.rank = a.Outcome.String(), &d, [2]int{2, -d}
	}
	if a.NoRemoteness { // a win/draw/loss-only set: the value alone
		r.Remoteness, r.rank[1] = nil, 0
	}
	return r
}

// neighborer is a domain that lists the states one move away (puzzles, and the whole
// boards of a pattern-database group).
type neighborer interface {
	Neighbors(state string) ([]string, error)
}

// domainOf returns the domain that generates src's moves, or nil.
func domainOf(src Source) tables.Domain {
	switch s := src.(type) {
	case *tables.Table:
		return s.Domain()
	case *tables.Set:
		if ts := s.Tables(); len(ts) > 0 {
			return ts[0].Domain()
		}
	}
	return nil
}

// moves answers every neighbour of state, best first; ties keep the game's move order.
func moves(src Source, state string) ([]Result, error) {
	nb, ok := domainOf(src).(neighborer)
	if !ok {
		return nil, nil
	}
	states, err := nb.Neighbors(state)
	if err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(states))
	for _, s := range states {
		a, err := src.Lookup(s)
		if err != nil {
			return nil, fmt.Errorf("move to %s: %w", s, err)
		}
		out = append(out, resultOf(a))
	}
	slices.SortStableFunc(out, func(a, b Result) int {
		return cmp.Or(cmp.Compare(a.rank[0], b.rank[0]), cmp.Compare(a.rank[1], b.rank[1]))
	})
	return out, nil
}

// probeGame answers a position of a two-player game's sector set: its value, with
// opt.Moves every legal move with the value of the position it leads to (for the
// opponent), best first, and with opt.Path the principal line to the end of the game
// (positions and the moves between them; a win/draw/loss-only set has none and answers
// tables.ErrNoRemoteness).
//
// Without opt.Moves and opt.Path the position's own tier answers alone: no move is
// generated and no other tier read (a damaged or missing tier a move leads into does not
// matter to it).
func probeGame(s *tables.Set, state string, opt ProbeOptions) Result {
	var (
		a   tables.Answer
		ms  []tables.MoveAnswer
		err error
	)
	if opt.Moves {
		a, ms, err = s.Moves(state)
	} else {
		a, err = s.Lookup(state)
	}
	if err != nil {
		return failed(state, err)
	}
	r := resultOf(a)
	r.Moves = make([]Result, 0, len(ms))
	for _, m := range ms {
		mr := resultOf(m.Answer)
		mr.Move = m.Move
		r.Moves = append(r.Moves, mr)
	}
	if opt.Path && a.Outcome != values.Draw {
		if opt.MaxPath > 0 && a.Remoteness > opt.MaxPath {
			return failed(a.State, fmt.Errorf("%w: the line of %d plies is longer than the limit of %d", ErrPathTooLong, a.Remoteness, opt.MaxPath))
		}
		positions, moves, err := s.Line(a.State)
		if err != nil {
			return failed(a.State, err)
		}
		for i, p := range positions {
			if i > 0 {
				r.Path = append(r.Path, moves[i-1])
			}
			r.Path = append(r.Path, p)
		}
	}
	return r
}
