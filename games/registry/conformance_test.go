package registry

import (
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/gametest"
)

// TestTieredGamesConform runs the whole tier contract (package gametest) on every
// registered tiered game: a game added to the list is checked without a line of its own.
func TestTieredGamesConform(t *testing.T) {
	for _, g := range builtin {
		tg, ok := g.(games.TieredGame)
		if !ok {
			continue
		}
		t.Run(g.Name(), func(t *testing.T) {
			t.Parallel()
			gametest.CheckTiered(t, tg, 16)
		})
	}
}
