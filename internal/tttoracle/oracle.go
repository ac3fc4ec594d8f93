// Package tttoracle is an independent oracle for tic-tac-toe: the value of every position
// by plain recursive minimax over raw board strings, memoised, and the counts of the whole
// game and of the part reachable from the empty board. It exists to check the tiered
// tic-tac-toe of package games/tictactoe (its value of the empty board and its counts) and
// shares nothing with it but the rules below: no symmetry, no ranks, no tiers machinery,
// no package of this module.
//
// The rules. A position is 9 characters, the cells row by row from the top-left, each
// 'X', 'O' or '.'. X moves first: a board of n stones has (n+1)/2 X's and n/2 O's (every
// such placement is a position, reachable or not), X to move when n is even, O when odd.
// A position is over when a line of three cells (3 rows, 3 columns, 2 diagonals) holds
// three stones of one colour: it is lost for the side to move, at remoteness 0 (even when
// the line is the mover's own, or both sides have one: such positions are unreachable).
// Otherwise a full board is over and drawn. Otherwise the side to move places a stone of
// its colour on any empty cell. Values are for the side to move, with remoteness in plies
// to the end of the game under optimal play: the winner hurries, the loser delays. A draw
// carries no remoteness (0).
package tttoracle

import (
	"fmt"
	"sync"
)

// The outcomes, as Value spells them.
const (
	Win  = "win"
	Loss = "loss"
	Draw = "draw"
)

// lines are the 8 lines of three cells.
var lines = [8][3]int{
	{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, // rows
	{0, 3, 6}, {1, 4, 7}, {2, 5, 8}, // columns
	{0, 4, 8}, {2, 4, 6}, // diagonals
}

// value is a position's value for the side to move.
type value struct {
	outcome    string
	remoteness int
}

// check reads a board and returns its number of stones, or an error naming what is wrong.
func check(board string) (int, error) {
	if len(board) != 9 {
		return 0, fmt.Errorf("tttoracle: board %q: want 9 cells, got %d characters", board, len(board))
	}
	x, o := 0, 0
	for i := 0; i < 9; i++ {
		switch board[i] {
		case 'X':
			x++
		case 'O':
			o++
		case '.':
		default:
			return 0, fmt.Errorf("tttoracle: board %q: cell %d is %q, want X, O or '.'", board, i+1, board[i])
		}
	}
	if n := x + o; x != (n+1)/2 || o != n/2 {
		return 0, fmt.Errorf("tttoracle: board %q: %d X and %d O, want X = O or X = O+1", board, x, o)
	}
	return x + o, nil
}

// hasLine reports whether some line holds three stones of one colour.
func hasLine(board string) bool {
	for _, l := range lines {
		if c := board[l[0]]; c != '.' && board[l[1]] == c && board[l[2]] == c {
			return true
		}
	}
	return false
}

// over reports whether the game is over at board, and its value then; in misère play a
// line is lost for the player who made it, so won for the side to move.
func over(board string, n int, misere bool) (value, bool) {
	if hasLine(board) && misere {
		return value{Win, 0}, true
	}
	if hasLine(board) {
		return value{Loss, 0}, true
	}
	if n == 9 {
		return value{Draw, 0}, true
	}
	return value{}, false
}

// mover is the colour of the side to move at a board of n stones.
func mover(n int) byte {
	if n%2 == 0 {
		return 'X'
	}
	return 'O'
}

// children lists the boards one placement away, in cell order.
func children(board string, n int) []string {
	var out []string
	c := mover(n)
	for i := 0; i < 9; i++ {
		if board[i] == '.' {
			out = append(out, board[:i]+string(c)+board[i+1:])
		}
	}
	return out
}

// solver memoises values by board.
type solver struct {
	memo   map[string]value
	misere bool
}

// solve is minimax: a move to a lost position wins (the quickest such), else a move to a
// draw draws, else every move leads to a won position and the position is lost (at the
// slowest).
func (s *solver) solve(board string, n int) value {
	if v, ok := s.memo[board]; ok {
		return v
	}
	v, done := over(board, n, s.misere)
	if !done {
		bestWin, worstLoss, draw := -1, -1, false
		for _, c := range children(board, n) {
			cv := s.solve(c, n+1)
			switch cv.outcome {
			case Loss:
				if bestWin < 0 || cv.remoteness+1 < bestWin {
					bestWin = cv.remoteness + 1
				}
			case Draw:
				draw = true
			case Win:
				worstLoss = max(worstLoss, cv.remoteness+1)
			}
		}
		switch {
		case bestWin >= 0:
			v = value{Win, bestWin}
		case draw:
			v = value{Draw, 0}
		default:
			v = value{Loss, worstLoss}
		}
	}
	s.memo[board] = v
	return v
}

// all is every position with its value, computed once.
var all = sync.OnceValue(func() map[string]value {
	s := &solver{memo: map[string]value{}}
	for _, b := range placements() {
		n, _ := check(b)
		s.solve(b, n)
	}
	return s.memo
})

// placements lists every board that is a position: each of the 3^9 fillings kept when its
// counts are right.
func placements() []string {
	var out []string
	cells := []byte("XO.")
	b := make([]byte, 9)
	var fill func(i int)
	fill = func(i int) {
		if i == 9 {
			if _, err := check(string(b)); err == nil {
				out = append(out, string(b))
			}
			return
		}
		for _, c := range cells {
			b[i] = c
			fill(i + 1)
		}
	}
	fill(0)
	return out
}

// allMisere is every position with its value in misère play.
var allMisere = sync.OnceValue(func() map[string]value {
	s := &solver{memo: map[string]value{}, misere: true}
	for _, b := range placements() {
		n, _ := check(b)
		s.solve(b, n)
	}
	return s.memo
})

// MisereValue is Value in misère play: a line of three loses for the player who made it.
func MisereValue(board string) (outcome string, remoteness int, err error) {
	if _, err := check(board); err != nil {
		return "", 0, err
	}
	v := allMisere()[board]
	return v.outcome, v.remoteness, nil
}

// Value returns the value of board for the side to move: Win, Loss or Draw, and for a win
// or a loss the remoteness in plies (0 for a draw). A malformed board is an error.
func Value(board string) (outcome string, remoteness int, err error) {
	if _, err := check(board); err != nil {
		return "", 0, err
	}
	v := all()[board]
	return v.outcome, v.remoteness, nil
}

// TierCounts are the counts of the positions of n stones, reachable or not.
type TierCounts struct {
	Stones                   int
	Positions                int
	Wins, Losses, Draws      int
	WinsAt, LossesAt         map[int]int // remoteness → positions
	LongestWin, LongestLoss  int         // -1 when there is none
	Over                     int         // positions over by the rules (a line, or a full board)
	OverLost, OverDrawn      int         // of those, lost (a line) and drawn (full, no line)
	Reachable, ReachableOver int         // as Reachable counts them
}

// Counts returns the counts of every tier, n = 0..9 stones.
func Counts() [10]TierCounts {
	var out [10]TierCounts
	for n := range out {
		out[n] = TierCounts{Stones: n, WinsAt: map[int]int{}, LossesAt: map[int]int{}, LongestWin: -1, LongestLoss: -1}
	}
	for b, v := range all() {
		n, _ := check(b)
		c := &out[n]
		c.Positions++
		switch v.outcome {
		case Win:
			c.Wins++
			c.WinsAt[v.remoteness]++
			c.LongestWin = max(c.LongestWin, v.remoteness)
		case Loss:
			c.Losses++
			c.LossesAt[v.remoteness]++
			c.LongestLoss = max(c.LongestLoss, v.remoteness)
		case Draw:
			c.Draws++
		}
		if ov, ok := over(b, n, false); ok {
			c.Over++
			if ov.outcome == Loss {
				c.OverLost++
			} else {
				c.OverDrawn++
			}
		}
	}
	r := Reachable()
	for n := range out {
		out[n].Reachable, out[n].ReachableOver = r.PerTier[n], r.OverPerTier[n]
	}
	return out
}

// ReachStats are the counts of the play from the empty board, stopping at positions that
// are over.
type ReachStats struct {
	Positions   int     // distinct positions reached, the empty board included
	Over        int     // of those, positions that are over
	PerTier     [10]int // positions reached by stones on the board
	OverPerTier [10]int
	// Over positions reached, by how the game ended there: a line of X, a line of O, a
	// full board with no line.
	XWon, OWon, Drawn int
	// Games are the distinct move sequences from the empty board to a position that is
	// over; GamesAt by their length in plies; and by their end as above.
	Games                int
	GamesAt              [10]int
	XWonGames, OWonGames int
	DrawnGames           int
	Values               map[string]int // the reachable positions' values: Win, Loss, Draw → count
	EmptyOutcome         string         // the empty board's value
	EmptyRemoteness      int
	FirstMoves           map[string]string // the 9 boards after X's first move → their outcome
}

// Reachable walks the play from the empty board.
func Reachable() ReachStats {
	var r ReachStats
	r.Values = map[string]int{}
	seen := map[string]bool{}
	var walk func(b string, n int)
	walk = func(b string, n int) {
		if seen[b] {
			return
		}
		seen[b] = true
		r.Positions++
		r.PerTier[n]++
		v := all()[b]
		r.Values[v.outcome]++
		if _, ok := over(b, n, false); ok {
			r.Over++
			r.OverPerTier[n]++
			switch {
			case !hasLine(b):
				r.Drawn++
			case n%2 == 1:
				r.XWon++ // X moved last
			default:
				r.OWon++
			}
			return
		}
		for _, c := range children(b, n) {
			walk(c, n+1)
		}
	}
	empty := "........."
	walk(empty, 0)

	// Games: the sequences through each position counted once per position (memoised by
	// board), by length and by end.
	type games struct {
		at      [10]int
		x, o, d int
	}
	memo := map[string]games{}
	var count func(b string, n int) games
	count = func(b string, n int) games {
		if g, ok := memo[b]; ok {
			return g
		}
		var g games
		if _, ok := over(b, n, false); ok {
			g.at[n] = 1
			switch {
			case !hasLine(b):
				g.d = 1
			case n%2 == 1:
				g.x = 1
			default:
				g.o = 1
			}
		} else {
			for _, c := range children(b, n) {
				cg := count(c, n+1)
				for i := range g.at {
					g.at[i] += cg.at[i]
				}
				g.x, g.o, g.d = g.x+cg.x, g.o+cg.o, g.d+cg.d
			}
		}
		memo[b] = g
		return g
	}
	g := count(empty, 0)
	r.GamesAt = g.at
	r.XWonGames, r.OWonGames, r.DrawnGames = g.x, g.o, g.d
	r.Games = g.x + g.o + g.d

	v := all()[empty]
	r.EmptyOutcome, r.EmptyRemoteness = v.outcome, v.remoteness
	r.FirstMoves = map[string]string{}
	for _, c := range children(empty, 0) {
		r.FirstMoves[c] = all()[c].outcome
	}
	return r
}
