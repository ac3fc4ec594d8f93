// Package morrisoracle is a second independent oracle, for the small boards of the Morris
// family (Three, Five, Six and Seven Men's Morris, and Lasker Morris on Nine's, Six's and
// Seven's boards): the value of every raw position of a set of positions closed under
// moves, by plain forward value iteration. Like internal/milloracle (Nine Men's Morris's
// oracle) it exists to check the fast solver (games/mill and the builder) and shares
// nothing with it: it does not import games/mill, builder, index or any other package of
// the project. Its boards and rules are written here again, straight from the rules in
// DESIGN.md and the README ("The Morris family"): the only thing it shares with the
// solver is the description of the games.
//
// # Rules
//
// A position is seen from the side to move: its stones (Own), the opponent's (Opp), and
// the stones each still holds in hand, the two hands independent of each other. While
// the side to move holds a stone, its turn places one on an empty point; otherwise a
// stone slides along a line to an adjacent empty point, or, where the rules let a side
// with exactly 3 stones on the board fly, to any empty point. Under merged rules (Lasker
// Morris) the side to move may do either on every turn: place a stone from its hand, if
// it holds one, or move one of its stones, flying when its stones on the board and in
// hand number exactly 3 together. A placement or move whose stone completes a mill of its
// own side:
//
//   - where a mill wins (Three Men's Morris), ends the game, won by the mover;
//   - otherwise removes one opponent stone (one, even for two mills at once), not one
//     standing in an opponent mill unless every opponent stone does, and none when the
//     opponent has no stone on the board.
//
// A side to move whose stones on the board and in hand number fewer than 3 has lost, as
// has a side to move without a legal move. Repetition is a draw.
//
// # Values
//
// For the side to move: a win or a loss with its remoteness (plies to the end under
// optimal play, the winner hurrying, the loser delaying), or a draw. A move that ends the
// game leads to a loss in 0 for the side then to move. Round 0 decides the positions
// without a legal move (losses in 0); round r ≥ 1 regenerates the successors of every
// undecided position and decides it a win in r if one is a loss in r−1, a loss in r if
// all are wins (in at most r−1). Two rounds in a row that decide nothing end it: a later
// win needs a loss one round before, a later loss a win of the round before. The
// positions left are draws. It stores every position in a map: plainly right, not fast.
//
// SolveDense is a second mode for games too large for the map (the whole games of Five
// and Six, Lasker Morris on Nine's board): retrograde analysis with successor counters
// over whole sectors numbered densely, walking back by un-moves (dense.go). The two modes
// share the move generator and are checked against each other on small games.
package morrisoracle

import (
	"fmt"
	"math/bits"
)

// Board is a board of the family: Points points (0-based here, written 1-based), the
// lines between adjacent points, the mills.
type Board struct {
	Points int
	Lines  [][2]int
	Mills  [][3]int
}

// Rules is a game of the family.
type Rules struct {
	Name   string
	Board  Board
	Stones int  // stones of a side
	Fly    bool // a side with exactly 3 stones on the board and none in hand flies
	// MillWins: closing a mill wins at once; no stone is removed.
	MillWins bool
	// Merged: the phases are merged (Lasker Morris): on every turn the side to move may
	// place a stone from its hand or move one on the board, whichever it likes.
	Merged bool
	// FlyByTotal: with Fly, a side flies when its stones on the board and in hand
	// number exactly 3 together (Lasker's "flying at 3 in total").
	FlyByTotal bool
}

// The boards, from the descriptions. Points are numbered ring by ring from the outside,
// clockwise from each ring's top-left corner (corners and midpoints alternating), the
// centre last.

// threeBoard: the square's 8 points around the centre (point 9), the centre joined to
// every one of them; the mills are the 3 rows, the 3 columns and the 2 diagonals.
func threeBoard() Board {
	// The 3×3 grid, row by row, as point numbers (0-based): the ring clockwise from
	// the top-left corner is 0..7, the centre 8.
	grid := [3][3]int{{0, 1, 2}, {7, 8, 3}, {6, 5, 4}}
	b := Board{Points: 9}
	for i := range 8 {
		b.Lines = append(b.Lines, [2]int{i, (i + 1) % 8}, [2]int{8, i})
	}
	for i := range 3 {
		b.Mills = append(b.Mills, [3]int{grid[i][0], grid[i][1], grid[i][2]}) // rows
		b.Mills = append(b.Mills, [3]int{grid[0][i], grid[1][i], grid[2][i]}) // columns
	}
	b.Mills = append(b.Mills, [3]int{grid[0][0], grid[1][1], grid[2][2]}, [3]int{grid[0][2], grid[1][1], grid[2][0]})
	return b
}

// squares returns k squares of 8 points each (the outer 0..7, the next 8..15, …),
// consecutive points of a square joined, each midpoint (odd index) joined to the same
// midpoint of the next square; the sides (corner, midpoint, corner) are mills.
func squares(k int) Board {
	b := Board{Points: 8 * k}
	for s := range k {
		for i := range 8 {
			b.Lines = append(b.Lines, [2]int{8*s + i, 8*s + (i+1)%8})
		}
		for c := 0; c < 8; c += 2 {
			b.Mills = append(b.Mills, [3]int{8*s + c, 8*s + c + 1, 8*s + (c+2)%8})
		}
		for m := 1; s+1 < k && m < 8; m += 2 {
			b.Lines = append(b.Lines, [2]int{8*s + m, 8*(s+1) + m})
		}
	}
	return b
}

// squaresBoard: two squares (outer 0..7, inner 8..15); the 8 sides are the mills.
func squaresBoard() Board { return squares(2) }

// nineBoard: three squares (outer 0..7, middle 8..15, inner 16..23); the mills are the 12
// sides and the 4 cross lines of midpoints (2-10-18, 4-12-20, 6-14-22, 8-16-24 written
// 1-based).
func nineBoard() Board {
	b := squares(3)
	for m := 1; m < 8; m += 2 {
		b.Mills = append(b.Mills, [3]int{m, 8 + m, 16 + m})
	}
	return b
}

// sevenBoard: the two squares and a centre (point 17, 0-based 16) joined to the inner
// square's midpoints; the mills are the 8 sides and the two lines through the centre,
// inner midpoint to opposite inner midpoint.
func sevenBoard() Board {
	b := squaresBoard()
	b.Points = 17
	for m := 9; m < 16; m += 2 {
		b.Lines = append(b.Lines, [2]int{16, m})
	}
	b.Mills = append(b.Mills, [3]int{9, 16, 13}, [3]int{11, 16, 15})
	return b
}

// The games.
var (
	Three = Rules{Name: "three", Board: threeBoard(), Stones: 3, MillWins: true}
	Five  = Rules{Name: "five", Board: squaresBoard(), Stones: 5}
	Six   = Rules{Name: "six", Board: squaresBoard(), Stones: 6}
	Seven = Rules{Name: "seven", Board: sevenBoard(), Stones: 7, Fly: true}
	// Lasker Morris: merged phases, flying at 3 in total, on Nine's board with 10 stones,
	// on Five's and Six's with 6, on Seven's with 7.
	Lasker      = Rules{Name: "lasker", Board: nineBoard(), Stones: 10, Fly: true, Merged: true, FlyByTotal: true}
	LaskerSix   = Rules{Name: "lasker-six", Board: squaresBoard(), Stones: 6, Fly: true, Merged: true, FlyByTotal: true}
	LaskerSeven = Rules{Name: "lasker-seven", Board: sevenBoard(), Stones: 7, Fly: true, Merged: true, FlyByTotal: true}
)

// Pos is a position from the side to move's view.
type Pos struct {
	Own, Opp         uint32
	OwnHand, OppHand int
}

// Outcome is a value's kind for the side to move.
type Outcome int8

const (
	Draw Outcome = iota
	Win
	Loss
)

func (o Outcome) String() string { return [...]string{"draw", "win", "loss"}[o] }

// Value is a position's value: an outcome and, for a win or a loss, its remoteness.
type Value struct {
	Outcome    Outcome
	Remoteness int
}

// game holds a rule set's masks.
type game struct {
	r     Rules
	all   uint32
	adj   []uint32
	mills []uint32
}

func newGame(r Rules) *game {
	g := &game{r: r, all: 1<<r.Board.Points - 1, adj: make([]uint32, r.Board.Points)}
	for _, l := range r.Board.Lines {
		g.adj[l[0]] |= 1 << l[1]
		g.adj[l[1]] |= 1 << l[0]
	}
	for _, m := range r.Board.Mills {
		g.mills = append(g.mills, 1<<m[0]|1<<m[1]|1<<m[2])
	}
	return g
}

// closes reports whether the stone on p completes a mill of stones.
func (g *game) closes(stones uint32, p int) bool {
	for _, m := range g.mills {
		if m>>p&1 != 0 && stones&m == m {
			return true
		}
	}
	return false
}

// removable returns the opponent stones a mill may take.
func (g *game) removable(opp uint32) uint32 {
	var inMill uint32
	for _, m := range g.mills {
		if opp&m == m {
			inMill |= m
		}
	}
	if free := opp &^ inMill; free != 0 {
		return free
	}
	return opp
}

// successors lists the positions the moves of p lead to, and how many moves end the game
// at once (won by the mover: a mill where it wins, or the opponent left with fewer than
// 3 stones).
func (g *game) successors(p Pos) (next []Pos, ends int) { return g.appendSuccessors(nil, p) }

// appendSuccessors is successors appending to next.
func (g *game) appendSuccessors(next []Pos, p Pos) (_ []Pos, ends int) {
	empty := g.all &^ (p.Own | p.Opp)
	// after adds what the stones stones (the mover's after placing or moving onto to, its
	// hand then ownHand) lead to.
	after := func(stones uint32, to, ownHand int) {
		if !g.closes(stones, to) {
			next = append(next, Pos{Own: p.Opp, Opp: stones, OwnHand: p.OppHand, OppHand: ownHand})
			return
		}
		if g.r.MillWins {
			ends++
			return
		}
		if p.Opp == 0 {
			next = append(next, Pos{Own: p.Opp, Opp: stones, OwnHand: p.OppHand, OppHand: ownHand})
			return
		}
		for c := g.removable(p.Opp); c != 0; c &= c - 1 {
			left := p.Opp &^ (c & -c)
			if bits.OnesCount32(left)+p.OppHand < 3 {
				ends++
				continue
			}
			next = append(next, Pos{Own: left, Opp: stones, OwnHand: p.OppHand, OppHand: ownHand})
		}
	}
	if p.OwnHand > 0 {
		for t := range g.r.Board.Points {
			if empty>>t&1 != 0 {
				after(p.Own|1<<t, t, p.OwnHand-1)
			}
		}
		if !g.r.Merged {
			return next, ends
		}
	}
	count := bits.OnesCount32(p.Own)
	if g.r.FlyByTotal {
		count += p.OwnHand
	}
	flies := g.r.Fly && count == 3
	for f := range g.r.Board.Points {
		if p.Own>>f&1 == 0 {
			continue
		}
		to := g.adj[f] & empty
		if flies {
			to = empty
		}
		for t := range g.r.Board.Points {
			if to>>t&1 != 0 {
				after(p.Own&^(1<<f)|1<<t, t, p.OwnHand)
			}
		}
	}
	return next, ends
}

// Solve returns the value of every position of roots and of every position their moves
// reach, by plain forward value iteration (see the package comment).
func Solve(r Rules, roots []Pos) map[Pos]Value {
	g := newGame(r)
	// The closure of roots under moves.
	index := map[Pos]int{}
	var all []Pos
	add := func(p Pos) {
		if _, ok := index[p]; !ok {
			index[p] = len(all)
			all = append(all, p)
		}
	}
	for _, p := range roots {
		add(p)
	}
	for i := 0; i < len(all); i++ {
		next, _ := g.successors(all[i])
		for _, q := range next {
			add(q)
		}
	}
	type entry struct {
		next    []int
		ends    int
		decided bool
		v       Value
	}
	es := make([]entry, len(all))
	for i, p := range all {
		next, ends := g.successors(p)
		es[i].ends = ends
		for _, q := range next {
			es[i].next = append(es[i].next, index[q])
		}
	}
	for i := range es {
		if len(es[i].next) == 0 && es[i].ends == 0 {
			es[i].decided, es[i].v = true, Value{Loss, 0}
		}
	}
	type decision struct {
		i int
		v Value
	}
	for r, idle := 1, 0; idle < 2; r++ {
		var round []decision
		for i := range es {
			e := &es[i]
			if e.decided {
				continue
			}
			if r == 1 && e.ends > 0 {
				round = append(round, decision{i, Value{Win, 1}})
				continue
			}
			win, allWins := false, e.ends == 0
			for _, j := range e.next {
				c := &es[j]
				if c.decided && c.v.Outcome == Loss && c.v.Remoteness == r-1 {
					win = true
				}
				if !c.decided || c.v.Outcome != Win {
					allWins = false
				}
			}
			switch {
			case win:
				round = append(round, decision{i, Value{Win, r}})
			case allWins:
				round = append(round, decision{i, Value{Loss, r}})
			}
		}
		for _, d := range round {
			es[d.i].decided, es[d.i].v = true, d.v
		}
		if len(round) == 0 {
			idle++
		} else {
			idle = 0
		}
	}
	out := make(map[Pos]Value, len(all))
	for i, p := range all {
		out[p] = es[i].v // the undecided: the zero Value, a draw
	}
	return out
}

// Positions returns every raw position with w stones of the side to move and b of the
// opponent on the board of r, the hands given, in no particular order.
func Positions(r Rules, w, b, ownHand, oppHand int) []Pos {
	n := r.Board.Points
	var out []Pos
	for own := range subsets(n, w) {
		free := (uint32(1)<<n - 1) &^ own
		for opp := range subsets(n-w, b) {
			out = append(out, Pos{Own: own, Opp: deposit(opp, free), OwnHand: ownHand, OppHand: oppHand})
		}
	}
	return out
}

// subsets yields the sets of k of the points 0..n-1 as masks, in increasing order (by
// Gosper's hack: the next larger number with as many bits).
func subsets(n, k int) func(func(uint32) bool) {
	return func(yield func(uint32) bool) {
		if k == 0 {
			yield(0)
			return
		}
		if k > n {
			return
		}
		for x := uint64(1)<<k - 1; x < 1<<n; {
			if !yield(uint32(x)) {
				return
			}
			c := x & -x
			r := x + c
			x = ((r^x)>>2)/c | r
		}
	}
}

// deposit spreads the low bits of x over the set bits of mask, lowest first: bit i of x
// goes to mask's i-th point.
func deposit(x, mask uint32) uint32 {
	var out uint32
	for ; x != 0 && mask != 0; mask &= mask - 1 {
		if x&1 != 0 {
			out |= mask & -mask
		}
		x >>= 1
	}
	return out
}

// String writes p as the notation does, White to move when the hands are equal, Black
// when its hand holds one more (and White in the moving phase). Under merged rules the
// hands do not tell whose turn it is: the side to move is written White.
func (r Rules) String(p Pos) string {
	white, black, wh, bh, side := p.Own, p.Opp, p.OwnHand, p.OppHand, "W"
	if p.OwnHand != p.OppHand && !r.Merged {
		white, black, wh, bh, side = p.Opp, p.Own, p.OppHand, p.OwnHand, "B"
	}
	buf := make([]byte, r.Board.Points)
	for q := range buf {
		switch {
		case white>>q&1 != 0:
			buf[q] = 'W'
		case black>>q&1 != 0:
			buf[q] = 'B'
		default:
			buf[q] = '.'
		}
	}
	s := string(buf) + " " + side
	if wh != 0 || bh != 0 {
		s += fmt.Sprintf(" W:%d B:%d", wh, bh)
	}
	return s
}
