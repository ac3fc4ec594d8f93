package solver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tablesmith/tablesmith/games/slide"
)

// ErrUnsolvable is wrapped by the error for a start board that cannot reach the goal.
var ErrUnsolvable = errors.New("unsolvable")

// ErrNodeLimit is wrapped by the error of an A* search that stored Options.MaxNodes
// nodes without reaching the goal.
var ErrNodeLimit = errors.New("node limit reached")

// Options tune a search. The zero value is no limits.
type Options struct {
	// MaxNodes bounds the nodes A* stores (about 40 bytes each with the hash table);
	// 0 means no limit. IDA* stores no nodes and ignores it.
	MaxNodes int
	// Iteration, if set, is called by IDA* after each threshold it searched in full,
	// with the threshold and the nodes generated in that iteration: for diagnostics
	// and for extrapolating the cost of a search cut short.
	Iteration func(threshold int, generated uint64)
}

// Result is an optimal solution and what it cost to find.
type Result struct {
	// Path lists the boards from the start to the goal, each one move from the one
	// before; Length = len(Path)-1 moves.
	Path   [][]uint8
	Length int
	// Expanded counts the nodes whose successors were generated, Generated the
	// successors (IDA*: not counting the pruned inverse move; both over all
	// iterations).
	Expanded, Generated uint64
	// MaxHeap is the longest the A* open list grew; Stored the nodes A* kept (open and
	// closed); Reopened the closed nodes A* reopened (0 with a consistent heuristic).
	MaxHeap, Stored int
	Reopened        uint64
	// Iterations is the number of IDA* thresholds searched.
	Iterations int
	Elapsed    time.Duration
}

// Algo is a search: AStar or IDAStar.
type Algo func(ctx context.Context, h Heuristic, start []uint8, opt Options) (*Result, error)

// AlgoNames lists the names AlgoByName accepts.
var AlgoNames = []string{"astar", "idastar"}

// AlgoByName returns "astar" or "idastar".
func AlgoByName(name string) (Algo, error) {
	switch name {
	case "astar":
		return AStar, nil
	case "idastar":
		return IDAStar, nil
	}
	return nil, fmt.Errorf("solver: unknown algorithm %q (want one of %s)", name, strings.Join(AlgoNames, ", "))
}

// checkStart validates a start board before a search.
func checkStart(h Heuristic, start []uint8) error {
	geo, goal := h.Geometry(), h.Goal()
	if err := geo.Check(start); err != nil {
		return err
	}
	if !geo.Solvable(start, goal) {
		return fmt.Errorf("%w: %s cannot reach the %v goal of the %v board (it is in the other parity class)",
			ErrUnsolvable, geo.Format(start), goal, geo)
	}
	return nil
}

// pathFromBlanks replays the blank's cells after each move from start.
func pathFromBlanks(start []uint8, blanks []uint8) [][]uint8 {
	path := make([][]uint8, 0, len(blanks)+1)
	b := append([]uint8(nil), start...)
	path = append(path, append([]uint8(nil), b...))
	blank := slide.Blank(b)
	for _, c := range blanks {
		slide.Slide(b, blank, int(c))
		blank = int(c)
		path = append(path, append([]uint8(nil), b...))
	}
	return path
}

// Moves returns the tiles slid along path, one per move: the compact form of a
// solution.
func Moves(path [][]uint8) []uint8 {
	var moves []uint8
	for i := 1; i < len(path); i++ {
		// The moved tile is where the blank is now.
		moves = append(moves, path[i-1][slide.Blank(path[i])])
	}
	return moves
}

// CheckPath reports whether path is a legal solution on geo: every board valid, each
// one legal move from the one before, the last the goal.
func CheckPath(geo *slide.Geometry, goal slide.Goal, path [][]uint8) error {
	if len(path) == 0 {
		return errors.New("solver: empty path")
	}
	for i, b := range path {
		if err := geo.Check(b); err != nil {
			return fmt.Errorf("solver: path board %d: %w", i, err)
		}
		if i == 0 {
			continue
		}
		prev := path[i-1]
		from, to := slide.Blank(b), slide.Blank(prev)
		adjacent := false
		for _, c := range geo.Neighbors(to) {
			adjacent = adjacent || int(c) == from
		}
		if !adjacent {
			return fmt.Errorf("solver: path board %d is not one move from board %d", i, i-1)
		}
		for c := range b {
			if c != from && c != to && b[c] != prev[c] || c == to && b[c] != prev[from] {
				return fmt.Errorf("solver: path board %d is not one move from board %d", i, i-1)
			}
		}
	}
	last, gb := path[len(path)-1], geo.GoalBoard(goal)
	for c := range gb {
		if last[c] != gb[c] {
			return fmt.Errorf("solver: the path ends at %s, not the %v goal", geo.Format(last), goal)
		}
	}
	return nil
}
