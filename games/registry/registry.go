// Package registry lists the games tablesmith builds and reads and opens the instance a
// table's metadata names. Adding a game of this repository is adding its package and one
// line to builtin; a game of another module is added by Register. The pipelines, the
// lookup (and through it info, verify and the server) and the CLI find a game here and
// dispatch on the capability it offers (package games), never on its name.
package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/hanoi"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/games/tictactoe"
)

// builtin lists the games of this repository, one line each.
var builtin = []games.Game{
	slide.Game{},
	slide.PDBGame{},
	hanoi.Game{},
	mill.Game{},
	tictactoe.Game{},
	tictactoe.Misere(),
}

// Reserved are the names a game may not take: the kinds the command line reads in the
// place of a game's name (`build pdb`, `plan verify`, `build eight`, `bench korf` …), so
// that a registered game could never shadow one of them or be shadowed by it.
var Reserved = []string{"pdb", "verify", "eight", "korf", "astar", "all", "help"}

var (
	mu         sync.RWMutex
	registered = slices.Clone(builtin)
)

// Register adds game g to the list, after the built-in games and those registered before
// it, in the manner of image.RegisterFormat: a program in its own module registers its
// games (usually from an init function) and then builds, reads, verifies and serves their
// tables through tablesmith's packages, or runs the command line over them (cli.Main).
// It refuses a game with no name, a name that is not a lower-case word (letters, digits
// and '-', as file names and URLs carry it), a reserved name, a name already taken, or a
// game that offers not exactly one capability (games.PuzzleGame, games.PDBFamily,
// games.TieredGame) or declares no index scheme.
func Register(g games.Game) error {
	if g == nil {
		return errors.New("games: Register of a nil game")
	}
	name := g.Name()
	if err := validName(name); err != nil {
		return err
	}
	if slices.Contains(Reserved, name) {
		return fmt.Errorf("games: the name %q is reserved by the command line (%s): choose another", name, strings.Join(Reserved, ", "))
	}
	if games.KindOf(g) == "unknown" {
		return fmt.Errorf("games: %s offers none of the capabilities games.PuzzleGame, games.PDBFamily, games.TieredGame", name)
	}
	if len(g.Schemes()) == 0 {
		return fmt.Errorf("games: %s declares no index scheme", name)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, h := range registered {
		if h.Name() == name {
			return fmt.Errorf("games: a game called %q is registered already", name)
		}
	}
	registered = append(registered, g)
	return nil
}

// MustRegister is Register for init functions: it panics on the error Register returns.
func MustRegister(g games.Game) {
	if err := Register(g); err != nil {
		panic(err)
	}
}

// validName reports what is wrong with a game's name, or nil.
func validName(name string) error {
	if name == "" {
		return errors.New("games: a game has no name")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return fmt.Errorf("games: the name %q is not a lower-case word (letters a-z, digits and '-')", name)
		}
	}
	if name[0] == '-' {
		return fmt.Errorf("games: the name %q starts with '-', which reads as a flag", name)
	}
	return nil
}

// All returns the registered games: the built-in ones, then those registered, in order.
func All() []games.Game {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Clone(registered)
}

// Names returns the registered games' names.
func Names() []string {
	var out []string
	for _, g := range All() {
		out = append(out, g.Name())
	}
	return out
}

// Lookup returns the game called name.
func Lookup(name string) (games.Game, error) {
	for _, g := range All() {
		if g.Name() == name {
			return g, nil
		}
	}
	return nil, fmt.Errorf("games: unknown game %q (this tablesmith knows %s)", name, strings.Join(Names(), ", "))
}

// Open recreates the instance a table's metadata names: game, parameters as JSON, index.
// An empty index means the game's default scheme.
func Open(name string, params json.RawMessage, index string) (*games.Instance, error) {
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
	return games.New(g, p, index)
}

// truncate cuts s to 80 characters for error messages.
func truncate(s string) string {
	if len(s) <= 80 {
		return s
	}
	return s[:77] + "…"
}
