package slide

import (
	"bytes"
	"fmt"
)

// Manhattan returns the sum over tiles (blank excluded) of each tile's
// row-plus-column distance from its goal cell: an admissible and consistent
// lower bound on the moves to goal, since a move shifts one tile by one cell.
// It reads a precomputed (tile, cell) table and does not allocate.
func (g *Geometry) Manhattan(board []uint8, goal Goal) int {
	d := &g.dist[goal]
	s := 0
	for c, t := range board {
		s += int(d[t][c])
	}
	return s
}

// ManhattanDelta returns the change in Manhattan distance when tile moves from
// cell from to cell to: the O(1) incremental update for IDA*. It is ±1 for a
// legal move of a tile and 0 for the blank, which Manhattan does not count.
func (g *Geometry) ManhattanDelta(tile uint8, from, to int, goal Goal) int {
	d := &g.dist[goal][tile]
	return int(d[to]) - int(d[from])
}

// Hamming returns the number of tiles not on their goal cell, blank not
// counted (counting it would overestimate by one next to the goal). It is
// admissible because each misplaced tile needs at least one move.
func (g *Geometry) Hamming(board []uint8, goal Goal) int {
	gb := &g.goalBoard[goal]
	s := 0
	for c, t := range board {
		if t != 0 && t != gb[c] {
			s++
		}
	}
	return s
}

// Discrete returns 0 if board equals goalBoard and 1 otherwise: the weakest
// admissible heuristic, the baseline that turns A* into uniform-cost search.
func Discrete(board, goalBoard []uint8) int {
	if bytes.Equal(board, goalBoard) {
		return 0
	}
	return 1
}

// Mirror writes into dst the board reflected about the main diagonal (cell
// (r, c) goes to (c, r)) with its tiles relabelled so that the goal board
// maps to itself: tile t becomes the tile whose goal cell is the reflection of
// t's goal cell. For the 4×4 blank-last goal that swaps 2↔5, 3↔9, 4↔13, 7↔10,
// 8↔14, 12↔15 and keeps 1, 6, 11 and the blank. Reflection is a symmetry of
// the move graph that fixes the goal, so a board and its mirror are equally far
// from the goal: a pattern database built for one set of tiles also bounds the
// mirrored set (the PDB "reflection" lookup). Mirror is an involution.
//
// Mirror works only on square boards, and dst and board must have Cells()
// entries; otherwise it returns an error. dst may be board itself. It does
// not allocate on success.
func (g *Geometry) Mirror(dst, board []uint8, goal Goal) error {
	if g.Rows != g.Cols {
		return fmt.Errorf("slide: mirror needs a square board, not %v", g)
	}
	n := g.cells
	if len(board) != n || len(dst) != n {
		return fmt.Errorf("slide: mirror of a %v board needs %d cells, got board %d and dst %d",
			g, n, len(board), len(dst))
	}
	// Copy first so that dst may alias board.
	var src [MaxCells]uint8
	copy(src[:], board)
	m := &g.mirrorTile[goal]
	for c := range n {
		dst[g.transpose[c]] = m[src[c]]
	}
	return nil
}
