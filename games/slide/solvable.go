package slide

// Solvable reports whether board can reach the goal board for goal.
//
// Why it works: every move swaps the blank with a neighbouring tile, which is
// one transposition of the board read as a permutation of 0..N-1 (blank
// included), and moves the blank one cell, which changes its Manhattan
// distance d from its goal cell by exactly one. Both parities flip on every
// move, so
//
//	parity(inversions(board)) XOR parity(d(blank))
//
// is invariant, and a board can only reach the goal if its invariant equals
// the goal's (where d = 0, so the goal's invariant is its own inversion
// parity). That is also sufficient: on every M×N board with M, N ≥ 2 the
// reachable set is exactly the half of the N! boards with the goal's
// invariant (Johnson & Story 1879; tests check it by BFS on 2×2, 2×3, 3×3).
// On odd widths this reduces to the classic "tile inversions even" rule, and
// on even widths to "tile inversions + blank row distance even"; the tests
// cross-check both forms.
//
// It runs in O(N) with a bitmask and popcount and does not allocate. board
// must be a permutation of 0..Cells()-1 (see Check).
func (g *Geometry) Solvable(board []uint8, goal Goal) bool {
	p := inversionParity(board)
	p ^= g.blankParity[goal][Blank(board)]
	return p == g.goalParity[goal]
}
