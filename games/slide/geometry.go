// Package slide holds the rules of M×N sliding-tile puzzles: the board
// geometry and its moves, the two goal boards, the text notation of a state,
// solvability, and admissible heuristics (Manhattan, Hamming, discrete) plus
// the diagonal mirror used for pattern-database reflection lookups.
//
// A board is a []uint8 of length Cells(): board[cell] = tile, 0 = the blank.
// Cells are numbered row-major from 0 at the top-left. Boards range from 2×2
// up to 5×5 (rows and cols each in 2..5).
//
// Space (space.go) is a board under one permutation index scheme, the slot space
// the breadth-first builder searches and the domain a table lookup reads;
// PDBSpace (pdb.go) is the abstract space of one pattern-database group. Both
// satisfy the builder's and the lookup's interfaces structurally.
//
// The rules know nothing of files or workers. The hot-path
// functions (Slide, Neighbors, Manhattan, ManhattanDelta, Hamming, Solvable,
// Mirror) do not allocate and do not validate their board: they assume a
// permutation of 0..Cells()-1 of the right length (use Check or Parse at the
// boundary) and may panic or return nonsense otherwise. Everything that
// divides or branches on geometry is precomputed once in NewGeometry, so a
// *Geometry is immutable after construction and safe for concurrent use.
package slide

import (
	"fmt"
	"math/bits"
)

// MaxCells is the number of cells of the largest supported board (5×5, or
// e.g. 2×12). It sizes the fixed tables inside Geometry so that they need no
// allocation.
const MaxCells = 25

// The side limits: 1-row boards are a different puzzle (a rotation only), and
// every board must fit MaxCells cells, so no side exceeds MaxCells/minSide.
const (
	minSide = 2
	maxSide = MaxCells / minSide
)

// Goal selects one of the two conventional goal boards.
type Goal uint8

const (
	// BlankLast is tiles 1..N-1 in row-major order, then the blank in the
	// last cell: the usual goal and the default of the CLI.
	BlankLast Goal = iota
	// BlankFirst is the blank in the first cell, then tiles 1..N-1: the
	// goal of Korf's 15-puzzle instances (--goal blank-first).
	BlankFirst
)

// numGoals sizes the per-goal tables.
const numGoals = 2

// ParseGoal parses the CLI spelling of a goal: "blank-last" or "blank-first".
func ParseGoal(s string) (Goal, error) {
	switch s {
	case "blank-last":
		return BlankLast, nil
	case "blank-first":
		return BlankFirst, nil
	}
	return 0, fmt.Errorf("slide: unknown goal %q (want blank-last or blank-first)", s)
}

// String returns the spelling that ParseGoal accepts, or "Goal(n)" for a value
// that is no goal, so that a bad value is visible in messages.
func (g Goal) String() string {
	switch g {
	case BlankLast:
		return "blank-last"
	case BlankFirst:
		return "blank-first"
	}
	return fmt.Sprintf("Goal(%d)", uint8(g))
}

// Geometry is the shape of a board with every table the rules need,
// precomputed so that the hot paths neither divide nor allocate. Build it with
// NewGeometry; the zero value is not usable.
type Geometry struct {
	// Rows and Cols are the board size. They are read-only: the tables
	// below are derived from them in NewGeometry.
	Rows, Cols int

	cells    int
	row, col [MaxCells]uint8

	// nbr[c] is a capacity-limited window of nbrAll: the neighbours of c
	// in the order up, left, right, down (ascending cell order).
	nbrAll [4 * MaxCells]uint8
	nbr    [MaxCells][]uint8
	// vertical[c] is nbr[c] less the cells of c's own row (up, down), a window of
	// vertAll: the moves the lex schemes' rest expander makes.
	vertAll  [2 * MaxCells]uint8
	vertical [MaxCells][]uint8

	goalBoard [numGoals][MaxCells]uint8 // goal board per goal
	goalCell  [numGoals][MaxCells]uint8 // goal cell of each tile
	// dist[goal][tile][cell] is the Manhattan distance of tile at cell from
	// its goal cell; the blank's row is all zero because the blank does not
	// count in the heuristic.
	dist [numGoals][MaxCells][MaxCells]uint8
	// goalParity[goal] is the Solvable invariant of the goal board itself;
	// blankParity[goal][c] is the parity of the blank's Manhattan distance
	// from its goal cell when it is at c.
	goalParity  [numGoals]uint8
	blankParity [numGoals][MaxCells]uint8

	// Square boards only: transpose[c] is c reflected about the main
	// diagonal, and mirrorTile[goal][t] the relabelling that Mirror applies.
	transpose  [MaxCells]uint8
	mirrorTile [numGoals][MaxCells]uint8
}

// NewGeometry returns the geometry of a rows×cols board, rows and cols each in
// 2..5. The error names the rejected size.
func NewGeometry(rows, cols int) (*Geometry, error) {
	if rows < minSide || cols < minSide || rows > maxSide || cols > maxSide || rows*cols > MaxCells {
		return nil, fmt.Errorf("slide: board size %d×%d not supported: rows and cols must each be at least %d, with at most %d cells",
			rows, cols, minSide, MaxCells)
	}
	g := &Geometry{Rows: rows, Cols: cols, cells: rows * cols}
	n := g.cells
	for c := range n {
		g.row[c], g.col[c] = uint8(c/cols), uint8(c%cols)
	}

	// Neighbours in ascending cell order: up, left, right, down.
	k := 0
	for c := range n {
		start := k
		r, q := c/cols, c%cols
		if r > 0 {
			g.nbrAll[k] = uint8(c - cols)
			k++
		}
		if q > 0 {
			g.nbrAll[k] = uint8(c - 1)
			k++
		}
		if q < cols-1 {
			g.nbrAll[k] = uint8(c + 1)
			k++
		}
		if r < rows-1 {
			g.nbrAll[k] = uint8(c + cols)
			k++
		}
		g.nbr[c] = g.nbrAll[start:k:k]
	}
	k = 0
	for c := range n {
		start := k
		for _, x := range g.nbr[c] {
			if int(x)/cols != c/cols {
				g.vertAll[k] = x
				k++
			}
		}
		g.vertical[c] = g.vertAll[start:k:k]
	}

	for goal := range Goal(numGoals) {
		gb := &g.goalBoard[goal]
		for c := range n {
			switch goal {
			case BlankLast:
				gb[c] = uint8((c + 1) % n)
			case BlankFirst:
				gb[c] = uint8(c)
			}
		}
		for c := range n {
			g.goalCell[goal][gb[c]] = uint8(c)
		}
		for t := 1; t < n; t++ {
			gc := int(g.goalCell[goal][t])
			for c := range n {
				g.dist[goal][t][c] = uint8(g.cellDist(c, gc))
			}
		}
		bc := int(g.goalCell[goal][0])
		for c := range n {
			g.blankParity[goal][c] = uint8(g.cellDist(c, bc) & 1)
		}
		// The goal's blank sits on its own goal cell, so its invariant is
		// just the parity of its permutation.
		g.goalParity[goal] = inversionParity(gb[:n])
	}

	if rows == cols {
		for c := range n {
			g.transpose[c] = g.col[c]*uint8(cols) + g.row[c]
		}
		for goal := range Goal(numGoals) {
			for t := range n {
				// Tile t goes where the goal has the tile whose goal cell is
				// t's goal cell reflected: so the goal maps to itself.
				g.mirrorTile[goal][t] = g.goalBoard[goal][g.transpose[g.goalCell[goal][t]]]
			}
		}
	}
	return g, nil
}

// String returns the size as "rows×cols", the form error messages use.
func (g *Geometry) String() string { return fmt.Sprintf("%d×%d", g.Rows, g.Cols) }

// Cells returns the number of cells, Rows*Cols, which is also the board length
// and the number of tiles counting the blank.
func (g *Geometry) Cells() int { return g.cells }

// Neighbors returns the cells adjacent to cell c, in the fixed order up, left,
// right, down — ascending cell order, so successors come out sorted. Cells are
// uint8 like tiles. The slice is shared and capacity-limited (appending to it
// copies); do not modify it. It does not allocate.
func (g *Geometry) Neighbors(c int) []uint8 { return g.nbr[c] }

// GoalBoard returns a fresh copy of the goal board for goal, so the caller may
// modify it.
func (g *Geometry) GoalBoard(goal Goal) []uint8 {
	b := make([]uint8, g.cells)
	copy(b, g.goalBoard[goal][:g.cells])
	return b
}

// Blank returns the cell of the blank (tile 0), or -1 if board has no blank.
func Blank(board []uint8) int {
	for c, t := range board {
		if t == 0 {
			return c
		}
	}
	return -1
}

// Slide applies one move in place: the tile at cell from slides into the
// blank at the adjacent cell blank, leaving the blank at from. It neither
// checks adjacency nor allocates; undoing a move is Slide(board, from, blank).
func Slide(board []uint8, blank, from int) {
	board[blank] = board[from]
	board[from] = 0
}

// NeighborStates parses a whole board and returns the boards one move away, in canonical
// notation and in the order of Neighbors of the blank (up, left, right, down).
func (g *Geometry) NeighborStates(state string) ([]string, error) {
	board, err := g.Parse(state)
	if err != nil {
		return nil, err
	}
	blank := Blank(board)
	var out []string
	for _, from := range g.Neighbors(blank) {
		Slide(board, blank, int(from))
		out = append(out, g.Format(board))
		Slide(board, int(from), blank)
	}
	return out, nil
}

// cellDist is the Manhattan distance between two cells.
func (g *Geometry) cellDist(a, b int) int {
	return absDiff(g.row[a], g.row[b]) + absDiff(g.col[a], g.col[b])
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// inversionParity returns the parity (0 or 1) of the permutation that board
// spells, blank included, in O(n): for each tile, the tiles already seen that
// are larger are its inversions, counted with one popcount of a bitmask.
func inversionParity(board []uint8) uint8 {
	var seen uint32
	inv := 0
	for _, t := range board {
		// t is not yet in seen, so seen>>t holds exactly the larger tiles.
		inv += bits.OnesCount32(seen >> t)
		seen |= 1 << t
	}
	return uint8(inv & 1)
}
