package solver

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/tablesmith/tablesmith/games/slide"
)

// ctxEvery is how many expansions IDA* runs between looks at its context.
const ctxEvery = 1 << 20

// IDAStar finds a shortest solution from start with iterative-deepening A*: depth-first
// searches bounded by f = g + h ≤ threshold, the threshold raised each time to the
// smallest f that exceeded it. The blank never moves straight back to the cell it came
// from (inverse-move pruning), the heuristic is updated incrementally per move, and
// nothing is allocated per node. The first solution found within the threshold is
// optimal because the heuristic is admissible.
func IDAStar(ctx context.Context, h Heuristic, start []uint8, opt Options) (*Result, error) {
	if err := checkStart(h, start); err != nil {
		return nil, err
	}
	t0 := time.Now()
	geo := h.Geometry()
	s := &ida{ctx: ctx, n: geo.Cells()}
	copy(s.board[:], start)
	copy(s.goal[:], geo.GoalBoard(h.Goal()))
	for c := range s.n {
		s.nbr[c] = geo.Neighbors(c)
	}
	var h0 int
	if m, ok := h.(*Manhattan); ok {
		s.dist = &m.dist
		h0 = m.Estimate(start)
	} else {
		s.tr = h.NewTracker()
		h0 = s.tr.Reset(start)
	}
	blank := slide.Blank(start)
	res := &Result{}
	for s.bound = h0; ; s.bound = s.next {
		if s.bound >= maxDepth {
			return nil, fmt.Errorf("solver: IDA* threshold %d exceeds the longest path it can record (%d)", s.bound, maxDepth-1)
		}
		res.Iterations++
		s.next = math.MaxInt
		before := s.generated
		var found bool
		if s.dist != nil {
			found = s.dfsManhattan(0, h0, blank, -1)
		} else {
			found = s.dfs(0, h0, blank, -1)
		}
		res.Expanded, res.Generated = s.expanded, s.generated
		if s.err != nil {
			return nil, s.err
		}
		if found {
			res.Length = s.depth
			res.Path = pathFromBlanks(start, s.blanks[:s.depth])
			res.Elapsed = time.Since(t0)
			return res, nil
		}
		if opt.Iteration != nil {
			opt.Iteration(s.bound, s.generated-before)
		}
		if s.next == math.MaxInt {
			return nil, fmt.Errorf("solver: IDA* found no path from %s", geo.Format(start))
		}
	}
}

// maxDepth bounds the solution length IDA* can record: the 24-puzzle's diameter is
// at most 208 (Brüngger et al. 1999 put it at most 152 for random instances).
const maxDepth = 256

type ida struct {
	ctx       context.Context
	n         int
	board     [slide.MaxCells]uint8
	goal      [slide.MaxCells]uint8
	nbr       [slide.MaxCells][]uint8
	dist      *[slide.MaxCells * slide.MaxCells]int8 // Manhattan's table, nil for a tracker
	tr        Tracker
	bound     int
	next      int
	depth     int // the goal's depth, on success
	expanded  uint64
	generated uint64
	blanks    [maxDepth]uint8 // blanks[g] = the blank's cell after move g+1, on success
	err       error
}

// tick looks at the context every ctxEvery expansions; a done context ends the search
// as if it had found the goal, with s.err set.
func (s *ida) tick() bool {
	if s.expanded%ctxEvery == 0 {
		if err := s.ctx.Err(); err != nil {
			s.err = err
			return true
		}
	}
	return false
}

func (s *ida) isGoal() bool {
	return s.board == s.goal
}

// dfs searches below the node at depth g with estimate h (g+h ≤ bound), the blank at
// blank having come from prev (-1 at the root). It returns true on the goal (or on a
// done context, with s.err set).
func (s *ida) dfs(g, h, blank, prev int) bool {
	if h == 0 && s.isGoal() {
		s.depth = g
		return true
	}
	s.expanded++
	if s.tick() {
		return true
	}
	for _, nb := range s.nbr[blank] {
		from := int(nb)
		if from == prev {
			continue
		}
		s.generated++
		tile := s.board[from]
		h2 := s.tr.Move(tile, from, blank)
		if f := g + 1 + h2; f > s.bound {
			s.next = min(s.next, f)
			s.tr.Undo()
			continue
		}
		s.board[blank], s.board[from] = tile, 0
		if s.dfs(g+1, h2, from, blank) {
			s.blanks[g] = uint8(from)
			return true
		}
		s.board[blank], s.board[from] = 0, tile
		s.tr.Undo()
	}
	return false
}

// dfsManhattan is dfs with the Manhattan update inlined: h = 0 only at the goal.
func (s *ida) dfsManhattan(g, h, blank, prev int) bool {
	if h == 0 {
		s.depth = g
		return true
	}
	s.expanded++
	if s.tick() {
		return true
	}
	dist := s.dist
	for _, nb := range s.nbr[blank] {
		from := int(nb)
		if from == prev {
			continue
		}
		s.generated++
		tile := s.board[from]
		d := dist[int(tile)*slide.MaxCells:]
		h2 := h + int(d[blank]) - int(d[from])
		if f := g + 1 + h2; f > s.bound {
			s.next = min(s.next, f)
			continue
		}
		s.board[blank], s.board[from] = tile, 0
		if s.dfsManhattan(g+1, h2, from, blank) {
			s.blanks[g] = uint8(from)
			return true
		}
		s.board[blank], s.board[from] = 0, tile
	}
	return false
}
