package pipeline

import (
	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/builder/twobit"
	"github.com/tablesmith/tablesmith/builder/zeroone"
	"github.com/tablesmith/tablesmith/games"
)

// The engines spell the optional interfaces of package games again, in their own
// packages (they import no game package): each pair converts both ways, so the two are one
// and the same interface and a game that offers one offers the other.
var (
	_ bfs.Holed           = games.Holed(nil)
	_ games.Holed         = bfs.Holed(nil)
	_ bfs.NeighbourRuns   = games.NeighbourRuns(nil)
	_ games.NeighbourRuns = bfs.NeighbourRuns(nil)
	_ twobit.Reversible   = games.Reversible(nil)
	_ games.Reversible    = twobit.Reversible(nil)
	_ twobit.Sided        = games.Sided(nil)
	_ games.Sided         = twobit.Sided(nil)
	_ twobit.Shifted      = games.Shifted(nil)
	_ games.Shifted       = twobit.Shifted(nil)
	_ bfs.DepthHinter     = games.DepthHinter(nil)
	_ games.DepthHinter   = bfs.DepthHinter(nil)
	_ bfs.Expecter        = games.Expecter(nil)
	_ games.Expecter      = bfs.Expecter(nil)
	_ zeroone.ZeroClosed  = games.ZeroClosed(nil)
	_ games.ZeroClosed    = zeroone.ZeroClosed(nil)
	_ puzzleSpace         = games.PuzzleSpace(nil) // what the BFS needs, a puzzle space has
)
