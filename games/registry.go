// Package games is the game registry: every kind of table tablesmith builds and reads is a
// game registered here by one line. A game declares its name, its kind (which engine
// builds it), its typed parameters — the one JSON shape stored in a table's metadata, the
// index scheme always kept apart in the metadata's "index" — its build flags, its index
// schemes by name, and how to recreate the instance a table was built over. The build
// pipelines, the lookup, `info`, `verify` and the CLI all go through it, so adding a game
// is adding one package and one line to [registered].
//
// The game packages import nothing of this project but package index: they satisfy the
// interfaces below structurally, and the instances they return satisfy the interfaces of
// the engines (package builder) and of the lookup (package tables) in the same way.
package games

import (
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/tablesmith/tablesmith/games/hanoi"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/games/slide"
)

// registered lists the games, one line each.
var registered = []Game{
	slide.Game{},
	slide.PDBGame{},
	hanoi.Game{},
	mill.Game{},
}

// Kinds of games: which engine builds their tables and how their values read.
const (
	KindPuzzle    = "puzzle"     // remoteness to a goal, by breadth-first search
	KindPDB       = "pdb"        // a pattern-database group, by 0-1 breadth-first search
	KindTwoPlayer = "two-player" // win/loss/draw with remoteness, by retrograde analysis
)

// Game is what a game package declares to the registry.
type Game interface {
	// Name is the game's name in table metadata and on the command line.
	Name() string
	// Kind is one of KindPuzzle, KindPDB, KindTwoPlayer.
	Kind() string
	// Summary is a one-line description for help texts.
	Summary() string
	// Schemes lists the index schemes by name, the default first.
	Schemes() []string
	// NewParams returns a pointer to fresh typed parameters: JSON decodes into it, and
	// it implements [FlagBinder] so that a build can set it from the command line.
	NewParams() any
	// Open validates params (as returned by NewParams, filled in) and returns the
	// instance for the index scheme: what the engines build and the lookup reads.
	Open(params any, index string) (any, error)
}

// FlagBinder is implemented by a game's typed parameters: it declares the build flags that
// set them.
type FlagBinder interface{ BindFlags(fs *flag.FlagSet) }

// Validator is optionally implemented by typed parameters that can say, before anything
// is built, what is wrong with them.
type Validator interface{ Validate() error }

// All returns the registered games in registration order.
func All() []Game { return slices.Clone(registered) }

// Names returns the registered games' names.
func Names() []string {
	var out []string
	for _, g := range registered {
		out = append(out, g.Name())
	}
	return out
}

// Lookup returns the game called name.
func Lookup(name string) (Game, error) {
	for _, g := range registered {
		if g.Name() == name {
			return g, nil
		}
	}
	return nil, fmt.Errorf("games: unknown game %q (this tablesmith knows %s)", name, strings.Join(Names(), ", "))
}

// Instance is a game, its parameters and an index scheme, ready to build or read.
type Instance struct {
	Game   Game
	Params any    // the typed parameters (a pointer, as NewParams returned it)
	Index  string // the index scheme's name
	Space  any    // what Game.Open returned
}

// Open recreates the instance a table's metadata names: game, parameters as JSON, index.
// An empty index means the game's default scheme.
func Open(name string, params json.RawMessage, index string) (*Instance, error) {
	g, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	p := g.NewParams()
	if len(params) > 0 {
		if err := json.Unmarshal(params, p); err != nil {
			return nil, fmt.Errorf("games: %s parameters %s: %w", name, truncate(string(params)), err)
		}
	}
	return New(g, p, index)
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

// truncate cuts s to 80 characters for error messages.
func truncate(s string) string {
	if len(s) <= 80 {
		return s
	}
	return s[:77] + "…"
}
