package tttoracle

import (
	"strings"
	"testing"
)

// The oracle is anchored to published facts about tic-tac-toe (5,478 positions reachable
// from the empty board, 958 of them over, 255,168 games, 765 and 138 positions up to the
// board's symmetries, the empty board a draw) and to second computations written here
// apart from it: boards as base-3 integers instead of strings, breadth-first search
// instead of recursion, backward induction tier by tier (9 stones down to 0) instead of
// memoised minimax, games counted one by one without a memo, placements by a closed form.

// A board here is a base-3 number: cell i (row by row) is digit i, 0 empty, 1 X, 2 O.
type board uint16

var pow3 = [10]int{1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683}

func (b board) cell(i int) int { return int(b) / pow3[i] % 3 }

func (b board) String() string {
	var sb strings.Builder
	for i := range 9 {
		sb.WriteByte(".XO"[b.cell(i)])
	}
	return sb.String()
}

func (b board) stones() (x, o int) {
	for i := range 9 {
		switch b.cell(i) {
		case 1:
			x++
		case 2:
			o++
		}
	}
	return x, o
}

// won returns the colour (1, 2) holding a line, 0 when none; 3 when both do.
func (b board) won() int {
	w := 0
	for _, l := range [][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}} {
		if c := b.cell(l[0]); c != 0 && b.cell(l[1]) == c && b.cell(l[2]) == c {
			w |= c
		}
	}
	return w
}

func (b board) isOver() bool {
	x, o := b.stones()
	return b.won() != 0 || x+o == 9
}

// next lists the boards one placement away (none when the game is over).
func (b board) next() []board {
	if b.isOver() {
		return nil
	}
	x, o := b.stones()
	c := 1 + (x+o)%2
	var out []board
	for i := range 9 {
		if b.cell(i) == 0 {
			out = append(out, b+board(c*pow3[i]))
		}
	}
	return out
}

// legal reports whether b is a position: X = ceil(n/2), O = floor(n/2).
func (b board) legal() bool {
	x, o := b.stones()
	return x == o || x == o+1
}

// symmetries are the 8 permutations of the cells by the square's symmetries.
var symmetries = func() [][9]int {
	rot := [9]int{6, 3, 0, 7, 4, 1, 8, 5, 2} // cell i of the rotated board is cell rot[i]
	flip := [9]int{2, 1, 0, 5, 4, 3, 8, 7, 6}
	id := [9]int{0, 1, 2, 3, 4, 5, 6, 7, 8}
	compose := func(a, b [9]int) (c [9]int) {
		for i := range 9 {
			c[i] = a[b[i]]
		}
		return c
	}
	var out [][9]int
	p := id
	for range 4 {
		out = append(out, p, compose(p, flip))
		p = compose(p, rot)
	}
	return out
}()

func (b board) canonical() board {
	best := b
	for _, s := range symmetries {
		var c board
		for i := range 9 {
			c += board(b.cell(s[i]) * pow3[i])
		}
		best = min(best, c)
	}
	return best
}

// reachBFS is every position reached from the empty board, level by level.
func reachBFS() map[board]bool {
	seen := map[board]bool{0: true}
	level := []board{0}
	for len(level) > 0 {
		var nextLevel []board
		for _, b := range level {
			for _, c := range b.next() {
				if !seen[c] {
					seen[c] = true
					nextLevel = append(nextLevel, c)
				}
			}
		}
		level = nextLevel
	}
	return seen
}

// retro values every position by backward induction, the tier of 9 stones first, each
// tier from the values of the one below it (each move adds a stone).
func retro() map[board]value {
	byTier := make([][]board, 10)
	for b := board(0); int(b) < pow3[9]; b++ {
		if b.legal() {
			x, o := b.stones()
			byTier[x+o] = append(byTier[x+o], b)
		}
	}
	val := map[board]value{}
	for n := 9; n >= 0; n-- {
		for _, b := range byTier[n] {
			switch {
			case b.won() != 0:
				val[b] = value{Loss, 0}
				continue
			case n == 9:
				val[b] = value{Draw, 0}
				continue
			}
			win, loss, draw := 99, -1, false
			for _, c := range b.next() {
				cv := val[c] // a tier below: solved
				switch cv.outcome {
				case Loss:
					win = min(win, cv.remoteness+1)
				case Win:
					loss = max(loss, cv.remoteness+1)
				default:
					draw = true
				}
			}
			switch {
			case win < 99:
				val[b] = value{Win, win}
			case draw:
				val[b] = value{Draw, 0}
			default:
				val[b] = value{Loss, loss}
			}
		}
	}
	return val
}

func binom(n, k int) int {
	r := 1
	for i := range k {
		r = r * (n - i) / (i + 1)
	}
	return r
}

// TestEveryValueByBackwardInduction: every position's value, as the oracle says it,
// against backward induction over base-3 boards.
func TestEveryValueByBackwardInduction(t *testing.T) {
	t.Parallel()
	want := retro()
	if len(want) != 6046 {
		t.Fatalf("backward induction valued %d positions, want 6,046", len(want))
	}
	for b, w := range want {
		o, r, err := Value(b.String())
		if err != nil || o != w.outcome || r != w.remoteness {
			t.Fatalf("Value(%s) = %s %d %v, backward induction says %s %d", b, o, r, err, w.outcome, w.remoteness)
		}
	}
	if n := len(all()); n != len(want) {
		t.Errorf("the oracle holds %d positions, want %d", n, len(want))
	}
}

// TestPlacementsPerTier: the positions of n stones number C(9,n)·C(n,⌊n/2⌋) (choose the
// cells, then which of them hold O's), 6,046 in all; and the tier counts add up.
func TestPlacementsPerTier(t *testing.T) {
	t.Parallel()
	total := 0
	for n, c := range Counts() {
		want := binom(9, n) * binom(n, n/2)
		total += c.Positions
		if c.Positions != want {
			t.Errorf("tier %d: %d positions, want C(9,%d)·C(%d,%d) = %d", n, c.Positions, n, n, n/2, want)
		}
		if c.Wins+c.Losses+c.Draws != c.Positions {
			t.Errorf("tier %d: %d wins + %d losses + %d draws ≠ %d positions", n, c.Wins, c.Losses, c.Draws, c.Positions)
		}
		sum := func(m map[int]int) (s int) {
			for _, k := range m {
				s += k
			}
			return s
		}
		if sum(c.WinsAt) != c.Wins || sum(c.LossesAt) != c.Losses {
			t.Errorf("tier %d: remoteness counts %d wins, %d losses; want %d, %d", n, sum(c.WinsAt), sum(c.LossesAt), c.Wins, c.Losses)
		}
		// Remoteness never runs past the end of the board: at most 9 − n plies.
		if c.LongestWin > 9-n || c.LongestLoss > 9-n {
			t.Errorf("tier %d: longest win %d, loss %d: more plies than empty cells", n, c.LongestWin, c.LongestLoss)
		}
		// Every win is in an odd number of plies, every loss in an even one.
		for r := range c.WinsAt {
			if r%2 != 1 {
				t.Errorf("tier %d: a win at %d plies", n, r)
			}
		}
		for r := range c.LossesAt {
			if r%2 != 0 {
				t.Errorf("tier %d: a loss at %d plies", n, r)
			}
		}
	}
	if total != 6046 {
		t.Errorf("%d positions over all tiers, want 6,046", total)
	}
	if n := len(placements()); n != 6046 {
		t.Errorf("placements lists %d boards, want 6,046", n)
	}
}

// TestReachable: the published counts of the positions reached from the empty board
// (5,478, 958 of them over: X won 626, O won 316, drawn 16), each also counted by
// breadth-first search here.
func TestReachable(t *testing.T) {
	t.Parallel()
	r := Reachable()
	bfs := reachBFS()
	var perTier, overPerTier [10]int
	over, xWon, oWon, drawn := 0, 0, 0, 0
	for b := range bfs {
		x, o := b.stones()
		perTier[x+o]++
		if b.isOver() {
			over++
			overPerTier[x+o]++
			switch b.won() {
			case 1:
				xWon++
			case 2:
				oWon++
			case 0:
				drawn++
			default:
				t.Errorf("%s reached with both lines", b)
			}
		}
	}
	for _, tc := range []struct {
		name             string
		oracle, bfs, pub any
	}{
		{"positions", r.Positions, len(bfs), 5478},
		{"over", r.Over, over, 958},
		{"X won", r.XWon, xWon, 626},
		{"O won", r.OWon, oWon, 316},
		{"drawn", r.Drawn, drawn, 16},
		{"per tier", r.PerTier, perTier, [10]int{1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78}},
		{"over per tier", r.OverPerTier, overPerTier, [10]int{0, 0, 0, 0, 0, 120, 148, 444, 168, 78}},
	} {
		if tc.oracle != tc.bfs || tc.oracle != tc.pub {
			t.Errorf("%s: oracle %v, breadth-first search %v, published %v", tc.name, tc.oracle, tc.bfs, tc.pub)
		}
	}
}

// TestSymmetryClasses: up to the 8 symmetries of the square, 765 positions are reachable,
// 138 of them over (X won 91, O won 44, drawn 3): published figures.
func TestSymmetryClasses(t *testing.T) {
	t.Parallel()
	classes, over := map[board]bool{}, map[board]int{}
	for b := range reachBFS() {
		c := b.canonical()
		classes[c] = true
		if b.isOver() {
			over[c] = b.won()
		}
	}
	byEnd := map[int]int{}
	for _, w := range over {
		byEnd[w]++
	}
	if len(classes) != 765 || len(over) != 138 || byEnd[1] != 91 || byEnd[2] != 44 || byEnd[0] != 3 {
		t.Errorf("classes: %d reachable, %d over (X %d, O %d, drawn %d); want 765, 138 (91, 44, 3)",
			len(classes), len(over), byEnd[1], byEnd[2], byEnd[0])
	}
	// The oracle's values do not depend on the symmetry (it knows none).
	for b := range classes {
		want, wr, _ := Value(b.String())
		for _, s := range symmetries {
			var c board
			for i := range 9 {
				c += board(b.cell(s[i]) * pow3[i])
			}
			if o, r, _ := Value(c.String()); o != want || r != wr {
				t.Fatalf("%s is %s %d, its image %s %s %d", b, want, wr, c, o, r)
			}
		}
	}
}

// TestGames: 255,168 games (X wins 131,184, O 77,904, drawn 46,080; ending after 5, 6, 7,
// 8, 9 plies: 1,440, 5,328, 47,952, 72,576, 127,872), the published figures, each game
// also counted here one by one.
func TestGames(t *testing.T) {
	t.Parallel()
	var at [10]int
	x, o, d := 0, 0, 0
	var walk func(b board, n int)
	walk = func(b board, n int) {
		if b.isOver() {
			at[n]++
			switch b.won() {
			case 1:
				x++
			case 2:
				o++
			default:
				d++
			}
			return
		}
		for _, c := range b.next() {
			walk(c, n+1)
		}
	}
	walk(0, 0)
	r := Reachable()
	pubAt := [10]int{0, 0, 0, 0, 0, 1440, 5328, 47952, 72576, 127872}
	for _, tc := range []struct {
		name              string
		oracle, walk, pub any
	}{
		{"games", r.Games, x + o + d, 255168},
		{"X wins", r.XWonGames, x, 131184},
		{"O wins", r.OWonGames, o, 77904},
		{"drawn", r.DrawnGames, d, 46080},
		{"by length", r.GamesAt, at, pubAt},
	} {
		if tc.oracle != tc.walk || tc.oracle != tc.pub {
			t.Errorf("%s: oracle %v, counted one by one %v, published %v", tc.name, tc.oracle, tc.walk, tc.pub)
		}
	}
}

// TestValues: positions whose values are known by hand, the empty board's first.
func TestValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		board, outcome string
		remoteness     int
	}{
		{".........", Draw, 0}, // a draw: the published value of tic-tac-toe
		{"X........", Draw, 0}, // every first move draws
		{".X.......", Draw, 0},
		{"....X....", Draw, 0},
		{"XXX.OO...", Loss, 0}, // X has a line: O to move has lost
		{"XX..OO...", Win, 1},  // X completes the top row
		{"XX.OXO...", Loss, 2}, // O to move: X threatens cells 3, 8 and 9; O has no line to make
		{"XX.OO.X..", Win, 1},  // X to move completes the top row
		{"XXXOOOXO.", Loss, 0}, // both lines (unreachable): lost for the side to move
		{"XOXXOOOXX", Draw, 0}, // full, no line
		{"OOOXX.XX.", Loss, 0}, // the mover's own line (unreachable): lost all the same
		// A corner answered by anything but the centre loses; X's two stones make one
		// threat at most, which O blocks, so X needs its third: 5 plies.
		{"X.O......", Win, 5},
	} {
		o, r, err := Value(tc.board)
		if err != nil || o != tc.outcome || r != tc.remoteness {
			t.Errorf("Value(%s) = %s %d %v, want %s %d", tc.board, o, r, err, tc.outcome, tc.remoteness)
		}
	}
	for _, tc := range []struct{ board, want string }{
		{"XX.......", "2 X and 0 O"},
		{"........", "want 9 cells"},
		{"x........", "cell 1"},
		{"O........", "0 X and 1 O"},
	} {
		if _, _, err := Value(tc.board); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Value(%q) = %v, want an error saying %q", tc.board, err, tc.want)
		}
	}
	r := Reachable()
	if r.EmptyOutcome != Draw || len(r.FirstMoves) != 9 {
		t.Errorf("empty board %s, %d first moves", r.EmptyOutcome, len(r.FirstMoves))
	}
	for b, o := range r.FirstMoves {
		if o != Draw {
			t.Errorf("first move %s: %s, want a draw", b, o)
		}
	}
}

// TestCountsTable logs the figures of every tier (go test -v -run CountsTable), the ones
// the tiered game's counts are checked against.
func TestCountsTable(t *testing.T) {
	t.Parallel()
	t.Logf("%2s %9s %6s %6s %6s %5s %5s %5s %9s %5s", "n", "positions", "wins", "losses", "draws", "lwin", "lloss", "over", "reachable", "rover")
	for _, c := range Counts() {
		t.Logf("%2d %9d %6d %6d %6d %5d %5d %5d %9d %5d", c.Stones, c.Positions, c.Wins, c.Losses, c.Draws,
			c.LongestWin, c.LongestLoss, c.Over, c.Reachable, c.ReachableOver)
	}
	for _, c := range Counts() {
		t.Logf("n=%d wins at %v, losses at %v", c.Stones, c.WinsAt, c.LossesAt)
	}
	o, r, _ := Value(".........")
	t.Logf("empty board: %s %d", o, r)
}
