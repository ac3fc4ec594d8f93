package solver

import (
	"fmt"
	"strings"

	"github.com/tablesmith/tablesmith/games/slide"
)

// Heuristic is an admissible estimate of the number of moves from a board to the goal
// of one geometry: it never exceeds the true distance, so both searches stay optimal.
//
// It has two faces. Estimate evaluates any board from scratch; A* calls it once per
// new node. NewTracker returns a Tracker for one depth-first walk; IDA* calls Move and
// Undo on it once per generated node. A Heuristic is immutable and safe for concurrent
// use; a Tracker is not (each search makes its own).
type Heuristic interface {
	// Name is the heuristic's name as NewHeuristic accepts it ("pdb+reflect" for the
	// reflected PDB).
	Name() string
	// Geometry and Goal are the problem the heuristic estimates for.
	Geometry() *slide.Geometry
	Goal() slide.Goal
	// Estimate returns the estimate for board (a valid board of Geometry) without
	// retaining it.
	Estimate(board []uint8) int
	// NewTracker returns a fresh incremental evaluator.
	NewTracker() Tracker
}

// Tracker follows one search path move by move. Reset puts it at a board; each Move is
// later matched by one Undo, innermost first, like the moves on a depth-first stack.
// Implementations keep their undo information in a stack that grows to the search
// depth once, so a warmed-up tracker does not allocate.
type Tracker interface {
	// Reset positions the tracker at board (which it does not retain) and returns the
	// estimate for it, clearing any undo history.
	Reset(board []uint8) int
	// Move records that tile slid from cell from into the blank at the adjacent cell
	// to (so the blank is now at from) and returns the estimate for the new board.
	Move(tile uint8, from, to int) int
	// Undo reverts the most recent Move not yet undone.
	Undo()
}

// HeuristicNames lists the names NewHeuristic accepts without a pattern set, then the
// PDB ones.
var HeuristicNames = []string{"discrete", "hamming", "manhattan", "pdb", "pdb+reflect"}

// NewHeuristic returns the heuristic called name for geo and goal. "pdb" and
// "pdb+reflect" need set (see NewPDB); the others ignore it.
func NewHeuristic(name string, geo *slide.Geometry, goal slide.Goal, set PatternSet) (Heuristic, error) {
	switch name {
	case "discrete":
		return NewDiscrete(geo, goal), nil
	case "hamming":
		return NewHamming(geo, goal), nil
	case "manhattan":
		return NewManhattan(geo, goal), nil
	case "pdb", "pdb+reflect":
		if set == nil {
			return nil, fmt.Errorf("solver: heuristic %q needs a pattern-database set", name)
		}
		return NewPDB(geo, goal, set, name == "pdb+reflect")
	}
	return nil, fmt.Errorf("solver: unknown heuristic %q (want one of %s)", name, strings.Join(HeuristicNames, ", "))
}

// problem is the geometry and goal every heuristic carries.
type problem struct {
	geo  *slide.Geometry
	goal slide.Goal
	gb   [slide.MaxCells]uint8 // goal board
	n    int
}

func newProblem(geo *slide.Geometry, goal slide.Goal) problem {
	p := problem{geo: geo, goal: goal, n: geo.Cells()}
	copy(p.gb[:], geo.GoalBoard(goal))
	return p
}

func (p *problem) Geometry() *slide.Geometry { return p.geo }
func (p *problem) Goal() slide.Goal          { return p.goal }

// intStack is the undo stack of the trackers whose state is one number.
type intStack struct{ s []int }

func (st *intStack) reset(h int) int {
	if st.s == nil {
		st.s = make([]int, 0, 256)
	}
	st.s = append(st.s[:0], h)
	return h
}
func (st *intStack) top() int   { return st.s[len(st.s)-1] }
func (st *intStack) push(h int) { st.s = append(st.s, h) }
func (st *intStack) pop()       { st.s = st.s[:len(st.s)-1] }

// Discrete is 0 at the goal and 1 elsewhere: the weakest admissible heuristic, the
// baseline with which A* is uniform-cost search.
type Discrete struct{ problem }

// NewDiscrete returns the discrete heuristic for geo and goal.
func NewDiscrete(geo *slide.Geometry, goal slide.Goal) *Discrete {
	return &Discrete{newProblem(geo, goal)}
}

// Name returns "discrete".
func (*Discrete) Name() string { return "discrete" }

// Estimate returns slide.Discrete of board and the goal board.
func (d *Discrete) Estimate(board []uint8) int { return slide.Discrete(board, d.gb[:d.n]) }

// NewTracker counts the cells that differ from the goal; the estimate is 1 while any do.
func (d *Discrete) NewTracker() Tracker { return &discreteTracker{p: &d.problem} }

type discreteTracker struct {
	p   *problem
	off intStack // cells (blank included) that differ from the goal
}

func (t *discreteTracker) Reset(board []uint8) int {
	off := 0
	for c, x := range board {
		if x != t.p.gb[c] {
			off++
		}
	}
	t.off.reset(off)
	return min(off, 1)
}

func (t *discreteTracker) Move(tile uint8, from, to int) int {
	gb := &t.p.gb
	off := t.off.top()
	// The tile and the blank swap cells from and to.
	off += b2i(gb[to] != tile) - b2i(gb[from] != tile) + b2i(gb[from] != 0) - b2i(gb[to] != 0)
	t.off.push(off)
	return min(off, 1)
}

func (t *discreteTracker) Undo() { t.off.pop() }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Hamming counts the tiles (not the blank) off their goal cells.
type Hamming struct{ problem }

// NewHamming returns the Hamming heuristic for geo and goal.
func NewHamming(geo *slide.Geometry, goal slide.Goal) *Hamming {
	return &Hamming{newProblem(geo, goal)}
}

// Name returns "hamming".
func (*Hamming) Name() string { return "hamming" }

// Estimate returns slide.Geometry.Hamming.
func (h *Hamming) Estimate(board []uint8) int { return h.geo.Hamming(board, h.goal) }

// NewTracker updates the count by the moved tile only.
func (h *Hamming) NewTracker() Tracker { return &hammingTracker{p: &h.problem} }

type hammingTracker struct {
	p *problem
	h intStack
}

func (t *hammingTracker) Reset(board []uint8) int {
	return t.h.reset(t.p.geo.Hamming(board, t.p.goal))
}

func (t *hammingTracker) Move(tile uint8, from, to int) int {
	gb := &t.p.gb
	h := t.h.top() + b2i(gb[from] == tile) - b2i(gb[to] == tile)
	t.h.push(h)
	return h
}

func (t *hammingTracker) Undo() { t.h.pop() }

// Manhattan sums each tile's row and column distance from its goal cell. IDA* runs it
// in a specialised loop that reads the distance table directly.
type Manhattan struct {
	problem
	// dist[tile*MaxCells+cell] is tile's distance from its goal cell when at cell.
	dist [slide.MaxCells * slide.MaxCells]int8
}

// NewManhattan returns the Manhattan heuristic for geo and goal.
func NewManhattan(geo *slide.Geometry, goal slide.Goal) *Manhattan {
	m := &Manhattan{problem: newProblem(geo, goal)}
	n := geo.Cells()
	var goalCell [slide.MaxCells]int
	for c := range n {
		goalCell[m.gb[c]] = c
	}
	for t := 1; t < n; t++ {
		for c := range n {
			// The distance at the goal cell is 0, so the delta from it is the distance.
			m.dist[t*slide.MaxCells+c] = int8(geo.ManhattanDelta(uint8(t), goalCell[t], c, goal))
		}
	}
	return m
}

// Name returns "manhattan".
func (*Manhattan) Name() string { return "manhattan" }

// Estimate returns slide.Geometry.Manhattan.
func (m *Manhattan) Estimate(board []uint8) int { return m.geo.Manhattan(board, m.goal) }

// NewTracker updates the sum by the moved tile's delta.
func (m *Manhattan) NewTracker() Tracker { return &manhattanTracker{m: m} }

type manhattanTracker struct {
	m *Manhattan
	h intStack
}

func (t *manhattanTracker) Reset(board []uint8) int {
	return t.h.reset(t.m.Estimate(board))
}

func (t *manhattanTracker) Move(tile uint8, from, to int) int {
	d := t.m.dist[int(tile)*slide.MaxCells:]
	h := t.h.top() + int(d[to]) - int(d[from])
	t.h.push(h)
	return h
}

func (t *manhattanTracker) Undo() { t.h.pop() }
