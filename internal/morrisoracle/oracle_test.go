package morrisoracle

import (
	"go/parser"
	"go/token"
	"math/bits"
	"os"
	"strings"
	"testing"
)

// TestIndependent checks that the oracle imports nothing of the project: it shares only
// the description of the games with the solver it checks.
func TestIndependent(t *testing.T) {
	t.Parallel()
	files, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".go") || strings.HasSuffix(f.Name(), "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f.Name(), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range ast.Imports {
			if strings.Contains(im.Path.Value, "tablesmith") {
				t.Errorf("%s imports %s", f.Name(), im.Path.Value)
			}
		}
	}
}

// TestBoards checks the boards against their descriptions: the lines and mills counted,
// every mill a line of three (its middle point joined to both ends).
func TestBoards(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		r            Rules
		lines, mills int
	}{{Three, 16, 8}, {Five, 20, 8}, {Six, 20, 8}, {Seven, 24, 10}, {Lasker, 32, 16}, {LaskerSix, 20, 8}, {LaskerSeven, 24, 10}} {
		g := newGame(c.r)
		if len(c.r.Board.Lines) != c.lines || len(g.mills) != c.mills {
			t.Errorf("%s: %d lines, %d mills; want %d, %d", c.r.Name, len(c.r.Board.Lines), len(g.mills), c.lines, c.mills)
		}
		for _, m := range c.r.Board.Mills {
			if g.adj[m[1]]>>m[0]&1 == 0 || g.adj[m[1]]>>m[2]&1 == 0 {
				t.Errorf("%s: mill %v is no line", c.r.Name, m)
			}
		}
	}
}

// TestThreeEmptyBoard solves Three Men's Morris from its empty board: the first player
// wins by taking the centre (point 9) in 9 plies; a midpoint loses, a corner draws.
func TestThreeEmptyBoard(t *testing.T) {
	t.Parallel()
	empty := Pos{OwnHand: 3, OppHand: 3}
	v := Solve(Three, []Pos{empty})
	if got := v[empty]; got != (Value{Win, 9}) {
		t.Fatalf("the empty board: %v, want a win in 9", got)
	}
	for p, want := range map[int]Value{8: {Loss, 8}, 1: {Win, 7}, 0: {Draw, 0}} {
		if got := v[Pos{Opp: 1 << p, OwnHand: 3, OppHand: 2}]; got != want {
			t.Errorf("after White's first stone on %d: %v, want %v", p+1, got, want)
		}
	}
}

// TestPositions checks the enumeration of a sector against a count and a brute force: every
// raw position once, with the stones and hands asked for.
func TestPositions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		r          Rules
		w, b, h, o int
		want       int
	}{
		{Three, 0, 0, 3, 3, 1},
		{Three, 2, 3, 1, 0, 36 * 35},        // C(9,2)·C(7,3)
		{Five, 3, 2, 2, 3, 560 * 78},        // C(16,3)·C(13,2)
		{Seven, 1, 0, 6, 7, 17},             // C(17,1)
		{Lasker, 2, 2, 0, 2, 276 * 231},     // C(24,2)·C(22,2)
		{LaskerSix, 4, 4, 1, 0, 1820 * 495}, // C(16,4)·C(12,4)
	} {
		ps := Positions(c.r, c.w, c.b, c.h, c.o)
		if len(ps) != c.want {
			t.Errorf("%s %d-%d: %d positions, want %d", c.r.Name, c.w, c.b, len(ps), c.want)
		}
		seen := map[Pos]bool{}
		for _, p := range ps {
			if bits.OnesCount32(p.Own) != c.w || bits.OnesCount32(p.Opp) != c.b || p.Own&p.Opp != 0 ||
				(p.Own|p.Opp)>>c.r.Board.Points != 0 || p.OwnHand != c.h || p.OppHand != c.o || seen[p] {
				t.Fatalf("%s %d-%d: bad or repeated position %+v", c.r.Name, c.w, c.b, p)
			}
			seen[p] = true
		}
	}
}

// pts returns the mask of the points given (0-based).
func pts(ps ...int) uint32 {
	var m uint32
	for _, p := range ps {
		m |= 1 << p
	}
	return m
}

// TestMergedMoves counts, by hand, the moves of positions on Six's board (outer square
// 0..7, inner 8..15, the midpoints 1 3 5 7 joined to 9 11 13 15; the sides are the mills)
// under Lasker's merged rules and under Six's.
func TestMergedMoves(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		r         Rules
		p         Pos
		next, end int
	}{
		// 0 and 4 share no mill: 11 placements, and at 3 in total (2 + 1) each stone
		// flies to any of the 11 empty points: 33 moves.
		{"flying at 3 in total", LaskerSix, Pos{Own: pts(0, 4), Opp: pts(8, 12, 14), OwnHand: 1}, 11 + 22, 0},
		// 4 in total: 11 placements and the slides 0→1, 0→7, 4→3, 4→5.
		{"4 in total slides", LaskerSix, Pos{Own: pts(0, 4), Opp: pts(8, 12, 14), OwnHand: 2}, 11 + 4, 0},
		// 3 on the board and none in hand: each of 3 stones flies to any of 10 points.
		{"3 on the board fly", LaskerSix, Pos{Own: pts(0, 4, 10), Opp: pts(8, 12, 14)}, 30, 0},
		// Six's rules: a stone in hand must be placed.
		{"Six places only", Six, Pos{Own: pts(0, 4), Opp: pts(8, 12, 14), OwnHand: 1}, 11, 0},
		// 0 1 2 3 hemmed in by 7 9 4 11: no move, and 4 in total do not fly.
		{"blocked", LaskerSix, Pos{Own: pts(0, 1, 2, 3), Opp: pts(4, 7, 9, 11)}, 0, 0},
		// The same with a stone in hand: it goes on any of the 8 empty points.
		{"blocked with a stone in hand", LaskerSix, Pos{Own: pts(0, 1, 2, 3), Opp: pts(4, 7, 9, 11), OwnHand: 1}, 8, 0},
		// Placing on 2 closes 0-1-2 and takes any of 9 11 13 (in no mill), leaving the
		// opponent 2 + 1 stones; 10 other placements; 2 stones flying to 11 points.
		{"mill by placement", LaskerSix, Pos{Own: pts(0, 1), Opp: pts(9, 11, 13), OwnHand: 1, OppHand: 1}, 3 + 10 + 22, 0},
		// The same with the opponent at 3 in total: each capture ends the game.
		{"mill by placement wins", LaskerSix, Pos{Own: pts(0, 1), Opp: pts(9, 11, 13), OwnHand: 1}, 10 + 22, 3},
		{"mill by placement wins, Six", Six, Pos{Own: pts(0, 1), Opp: pts(9, 11, 13), OwnHand: 1}, 10, 3},
		// Placing on 2 or moving 3→2 closes 0-1-2, and the opponent's 8 9 10 stand in a
		// mill, so only 15 may go: 9 placements (8 and 1 with its capture) and the 5
		// slides 0→7, 1→2, 3→2 (its capture), 3→4, 3→11.
		{"mill by a move", LaskerSix, Pos{Own: pts(0, 1, 3), Opp: pts(8, 9, 10, 15), OwnHand: 1}, 9 + 5, 0},
	} {
		next, end := newGame(c.r).successors(c.p)
		if len(next) != c.next || end != c.end {
			t.Errorf("%s: %s: %d moves and %d ending the game, want %d and %d", c.name, c.r.String(c.p), len(next), end, c.next, c.end)
		}
	}
}

// small returns merged rules (flying as asked) on a small board of its own: the lines
// given, the mills given.
func small(name string, points int, lines [][2]int, mills [][3]int, fly bool) Rules {
	return Rules{Name: name, Board: Board{Points: points, Lines: lines, Mills: mills}, Stones: 4, Merged: true, Fly: fly, FlyByTotal: fly}
}

// TestMergedValues solves positions on small boards whose values are worked out by hand.
func TestMergedValues(t *testing.T) {
	t.Parallel()
	// A path 0-1-2-3-4-5-6-7, the mills 1-2-3 and 4-5-6; no flying.
	path := small("path", 8, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}}, [][3]int{{1, 2, 3}, {4, 5, 6}}, false)
	unmerged := path
	unmerged.Merged = false
	// Two mills 0-1-2 and 4-5-6, a point 3 joined to 2 and 6, and 3-7-8 behind it.
	twin := small("twin", 9, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 6}, {4, 5}, {5, 6}, {3, 7}, {7, 8}}, [][3]int{{0, 1, 2}, {4, 5, 6}}, false)
	// The mill 0-1-2; 3 joined to 1 alone; 2-4-5-6 a path, 4-5-6 a mill; flying.
	fork := small("fork", 7, [][2]int{{0, 1}, {1, 2}, {1, 3}, {2, 4}, {4, 5}, {5, 6}}, [][3]int{{0, 1, 2}, {4, 5, 6}}, true)
	byBoard := fork
	byBoard.FlyByTotal = false
	for _, c := range []struct {
		name string
		r    Rules
		p    Pos
		want Value
		not  bool // the value is anything but want
	}{
		// Both kinds of move are legal and only the move wins: sliding 2→3 leaves the
		// opponent's 4 5 6 7 no move (loss in 0). Placing on 0 lets it answer 4→3,
		// which leaves 0 1 2 no move; placing on 3 closes 1-2-3 and must take 7 (4 5 6
		// stand in a mill), which frees 6→7, then 1→0 and 7→6 are forced, a mill that
		// leaves the side 2 stones.
		{"only the move wins", path, Pos{Own: pts(1, 2), Opp: pts(4, 5, 6, 7), OwnHand: 1}, Value{Win, 1}, false},
		// Under unmerged rules the stone in hand must be placed: a loss in 4 (the longer
		// of the two lines above: 1 + 3).
		{"only placing, unmerged", unmerged, Pos{Own: pts(1, 2), Opp: pts(4, 5, 6, 7), OwnHand: 1}, Value{Loss, 4}, false},
		// A blocked side: 0 1 2 with no move against 3 5 6 7 and nothing in hand.
		{"blocked", path, Pos{Own: pts(0, 1, 2), Opp: pts(3, 5, 6, 7)}, Value{Loss, 0}, false},
		// With a stone in hand it is no longer blocked: placing on 4 (the only empty
		// point) blocks the opponent instead.
		{"blocked, a stone in hand", path, Pos{Own: pts(0, 1, 2), Opp: pts(3, 5, 6, 7), OwnHand: 1}, Value{Win, 1}, false},
		// A forced mill: 3 must go to 2 or 6, and the opponent places its stone on the
		// other, closing a mill that leaves the side 2 stones.
		{"forced mill", twin, Pos{Own: pts(3, 7, 8), Opp: pts(0, 1, 4, 5), OppHand: 1}, Value{Loss, 2}, false},
		{"forced mill, unmerged", func() Rules { r := twin; r.Merged = false; return r }(), Pos{Own: pts(3, 7, 8), Opp: pts(0, 1, 4, 5), OppHand: 1}, Value{Loss, 2}, false},
		// Flying at 3 in total (2 on the board, 1 in hand): 0 flies to 2 and the
		// opponent's 3 4 5 6 (4 in total, no flying) have no move. Placing on 2 would
		// close 0-1-2 and take 3, letting the 3 left fly; sliding 1→2 frees 1 for 3.
		{"flying at 3 in total", fork, Pos{Own: pts(0, 1), Opp: pts(3, 4, 5, 6), OwnHand: 1}, Value{Win, 1}, false},
		// Flying counted on the board alone: 2 stones do not fly, and no move wins at
		// once.
		{"flying by the board", byBoard, Pos{Own: pts(0, 1), Opp: pts(3, 4, 5, 6), OwnHand: 1}, Value{Win, 1}, true},
	} {
		v := Solve(c.r, []Pos{c.p})[c.p]
		if (v == c.want) == c.not {
			op := ""
			if c.not {
				op = "anything but "
			}
			t.Errorf("%s: %s: %v in %d, want %s%v in %d", c.name, c.r.String(c.p), v.Outcome, v.Remoteness, op, c.want.Outcome, c.want.Remoteness)
		}
	}
}
