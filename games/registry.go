// Package games holds the capability interfaces of every game tablesmith builds and reads
// (a puzzle space, a pattern-database family, a tiered two-player game, and the optional
// interfaces a tiered game may add) and what a game declares of itself: its name, its
// typed parameters (the one JSON shape stored in a table's metadata, the index scheme kept
// apart in the metadata's "index"), build flags and index schemes; and CodeGather, which
// reads the stored codes of many children at once for the one-pass solver and the forward
// check of verify. The list of games is package games/registry, open to games of other
// modules (registry.Register); each game package imports this one to assert at compile
// time the capabilities it offers, and callers dispatch on those capabilities, never on a
// game's name.
//
// This package imports nothing of the project but package values (the win/loss/draw codes
// CodeGather reads); the game packages import only it, package index, package values and
// small internal helpers (notation, cacheline) — never an engine, a pipeline, the file
// format or the lookup (internal/layers pins this).
package games

import (
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/tablesmith/tablesmith/values"
)

// Game is what every game declares of itself. Beyond it a game offers one capability —
// [PuzzleGame], [PDBFamily] or [TieredGame] — which says which engine builds its tables
// and how their values read; callers find it with a type assertion.
type Game interface {
	// Name is the game's name in table metadata and on the command line.
	Name() string
	// Summary is a one-line description for help texts.
	Summary() string
	// Schemes lists the index schemes by name, the default first.
	Schemes() []string
	// NewParams returns a pointer to fresh typed parameters: JSON decodes into it, and
	// it implements [FlagBinder] so that a build can set it from the command line.
	NewParams() any
	// Open validates params (as returned by NewParams, filled in) and returns the space
	// of one table under the index scheme: what the lookup reads.
	Open(params any, index string) (Space, error)
}

// Space is one table's states as the lookup reads them: states in the game's notation and
// their slots under an index scheme.
type Space interface {
	// Slots is the number of slots of the index scheme; it must equal the table's.
	Slots() uint64
	// Slot parses state and returns its slot. ok is false when the state is valid but the
	// scheme has no slot for it (e.g. the other parity class under a parity-halved rank).
	// A malformed state is an error naming the problem. The game may canonicalise the state
	// (e.g. Hanoi's peg symmetry) before ranking.
	Slot(state string) (slot uint64, ok bool, err error)
	// Normalize returns state in the table's canonical spelling of the notation
	// (e.g. "1 2 3 …" → "123…" for the 8-puzzle), keeping the user's labels.
	Normalize(state string) (string, error)
	// StateOf returns a state of slot in the notation (for messages); ok is false for a
	// hole.
	StateOf(slot uint64) (state string, ok bool)
}

// PuzzleGame is the capability of a one-player puzzle: remoteness to a goal for every
// state, by breadth-first search from the goals.
type PuzzleGame interface {
	Game
	OpenPuzzle(params any, index string) (PuzzleSpace, error)
}

// PuzzleSpace is a puzzle's space: what the breadth-first search builds and the lookup
// walks shortest paths with.
type PuzzleSpace interface {
	Space
	// Goals are the slots of the goal states.
	Goals() []uint64
	// DepthBound is an upper bound on the remoteness of any state.
	DepthBound() uint64
	// NewExpander returns a function for one goroutine that appends to dst the slots
	// adjacent to every slot in src (holes have none), in any order, possibly repeated.
	NewExpander() func(dst, src []uint64) []uint64
	// IsHole reports whether slot is no state.
	IsHole(slot uint64) bool
	// Neighbors returns the states one legal move away from state, in the user's own
	// labels and in Normalize's spelling, in a fixed order.
	Neighbors(state string) ([]string, error)
	// IsGoal reports whether state is a goal state.
	IsGoal(state string) (bool, error)
}

// TierSpace is one tier's table of a tiered game as the lookup reads it: besides its
// slots, the legal moves of a position. What it says must agree with the build side
// (TierWorker.Children) position for position; package gametest checks that it does.
type TierSpace interface {
	Space
	// Moves (required) lists the legal moves of a position in the game's order, each
	// with the position it leads to. A position over by the rules has no move, and over
	// is its value for the side to move (values.Loss, values.Draw, or values.Win in a game
	// with OverWins, at remoteness 0, as ChildBatch.End marks it); over is 0 for a
	// position whose game goes on (one with no legal move has then lost).
	Moves(state string) (moves []Move, over values.Outcome, err error)
}

// Move is a legal move as the lookup lists it.
type Move struct {
	Name string // in the game's notation
	// Next is the position the move leads to, in the notation; "" when the move ends the
	// game at once (a child in GameOver), End then being the value of that end for the
	// side then to move (values.Loss, values.Draw, or values.Win in a game with OverWins).
	Next string
	End  values.Outcome
}

// The names of the capabilities in JSON outputs (`info`, the HTTP API), from KindOf.
const (
	KindPuzzle    = "puzzle"
	KindPDB       = "pdb"
	KindTwoPlayer = "two-player"
)

// KindOf names a game's capability as the JSON outputs spell it.
func KindOf(g Game) string {
	switch g.(type) {
	case PuzzleGame:
		return KindPuzzle
	case PDBFamily:
		return KindPDB
	case TieredGame:
		return KindTwoPlayer
	}
	return "unknown"
}

// FlagBinder is implemented by a game's typed parameters: it declares the build flags that
// set them.
type FlagBinder interface{ BindFlags(fs *flag.FlagSet) }

// Validator is optionally implemented by typed parameters that can say, before anything
// is built, what is wrong with them.
type Validator interface{ Validate() error }

// Instance is a game, its parameters and an index scheme, ready to build or read.
type Instance struct {
	Game   Game
	Params any    // the typed parameters (a pointer, as NewParams returned it)
	Index  string // the index scheme's name
	Space  Space  // what Game.Open returned
}

// New makes the instance of game g with typed parameters p (as NewParams returned them)
// and index scheme index ("" for the default).
func New(g Game, p any, index string) (*Instance, error) {
	if index == "" {
		index = g.Schemes()[0]
	}
	if !slices.Contains(g.Schemes(), index) {
		return nil, fmt.Errorf("games: %s has no index scheme %q (want one of %s)", g.Name(), index, strings.Join(g.Schemes(), ", "))
	}
	if v, ok := p.(Validator); ok {
		if err := v.Validate(); err != nil {
			return nil, err
		}
	}
	sp, err := g.Open(p, index)
	if err != nil {
		return nil, err
	}
	return &Instance{Game: g, Params: p, Index: index, Space: sp}, nil
}

// ParamsJSON is the instance's parameters in the one JSON shape of table metadata.
func (in *Instance) ParamsJSON() (json.RawMessage, error) {
	b, err := json.Marshal(in.Params)
	if err != nil {
		return nil, fmt.Errorf("games: %s parameters: %w", in.Game.Name(), err)
	}
	return b, nil
}

// Key identifies the instance exactly: game, parameters and index scheme. Checkpoints are
// bound to it so that a resume of another build is refused.
func (in *Instance) Key() string {
	b, _ := in.ParamsJSON()
	return fmt.Sprintf("%s %s index=%s", in.Game.Name(), b, in.Index)
}
