// Package registry lists the games tablesmith builds and reads, one line each, and opens
// the instance a table's metadata names. Adding a game is adding its package and one line
// to registered; the pipelines, the lookup, info, verify and the CLI find it here and
// dispatch on the capability it offers (package games), never on its name.
package registry

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/hanoi"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/games/slide"
)

// registered lists the games, one line each.
var registered = []games.Game{
	slide.Game{},
	slide.PDBGame{},
	hanoi.Game{},
	mill.Game{},
}

// All returns the registered games in registration order.
func All() []games.Game { return slices.Clone(registered) }

// Names returns the registered games' names.
func Names() []string {
	var out []string
	for _, g := range registered {
		out = append(out, g.Name())
	}
	return out
}

// Lookup returns the game called name.
func Lookup(name string) (games.Game, error) {
	for _, g := range registered {
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
