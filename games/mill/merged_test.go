package mill_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/values"
)

// laskerState writes a Lasker Morris position (Nine's board) with the given 1-based
// points, the side to move and the hands.
func laskerState(white, black []int, toMove mill.Color, whiteHand, blackHand int) string {
	p := mill.Position{WhiteHand: whiteHand, BlackHand: blackHand, ToMove: toMove}
	for _, q := range white {
		p.White |= bit(q)
	}
	for _, q := range black {
		p.Black |= bit(q)
	}
	return mill.Lasker.Format(p)
}

// laskerMoves returns the moves of a Lasker Morris position by name, sorted.
func laskerMoves(t *testing.T, state string) map[string]games.Move {
	t.Helper()
	g := mill.ForRules(mill.Lasker)
	tier, err := g.TierOf(state)
	if err != nil {
		t.Fatal(err)
	}
	d := g.DescribeTier(tier)
	board, hand := d["board"].([2]int), d["hand"].([2]int)
	sp, err := mill.Lasker.NewSectorSpace(board[0], board[1], hand[0], hand[1])
	if err != nil {
		t.Fatal(err)
	}
	moves, over, err := sp.Moves(state)
	if err != nil || over != 0 {
		t.Fatalf("%s: %v, %v", state, over, err)
	}
	out := map[string]games.Move{}
	for _, m := range moves {
		if _, dup := out[m.Name]; dup {
			t.Fatalf("%s: move %s twice", state, m.Name)
		}
		out[m.Name] = m
	}
	return out
}

// TestLaskerMoves checks Lasker Morris's merged phases on positions worked by hand: a
// turn places or moves while either is possible, flying counts the stones on the board
// and in hand together, a mill with no opponent stone on the board removes nothing, and
// a capture that leaves the opponent 2 stones in all wins.
func TestLaskerMoves(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		state string
		count int
		has   []string // moves that must be listed
		not   []string // moves that must not
	}{
		// White 1, 2 on the board and 2 in hand (4 in all: no flying); Black 9, 10.
		// Placements: 20 empty points, the one on 3 closing 1-2-3 and taking 9 or 10: 21.
		// Moves: 1-8 and 2-3 (point 2's other neighbours are taken): 23.
		{"places or moves", laskerState([]int{1, 2}, []int{9, 10}, mill.White, 2, 3), 23,
			[]string{"4", "3x9", "3x10", "1-8", "2-3"}, []string{"3", "1-3", "2-4"}},
		// The same with 1 in hand: 3 in all, so the stones on the board fly: 21
		// placements and 2 × 20 flights, none closing a mill (2 stones on the board).
		{"flies at 3 in all", laskerState([]int{1, 2}, []int{9, 10}, mill.White, 1, 3), 61,
			[]string{"1-24", "2-17", "3x9"}, nil},
		// 3 on the board and 1 in hand: 4 in all, no flying, though 3 stand on the board.
		{"3 on the board and 1 in hand slide", laskerState([]int{1, 2, 7}, []int{9, 10}, mill.White, 1, 3), 19 + 2 + 4,
			[]string{"7-6", "7-8", "1-8", "2-3"}, []string{"7-24"}},
		// Black has no stone on the board: White's 4-3 closes 1-2-3 and removes nothing.
		{"a mill against an empty board", laskerState([]int{1, 2, 4, 5}, nil, mill.White, 0, 6), -1,
			[]string{"4-3"}, []string{"4-3x1"}},
		// White's hand is empty, Black's is not: White moves (the hands are free).
		{"moves while the opponent holds stones", laskerState([]int{1, 2, 4}, []int{9, 10, 11, 13}, mill.White, 0, 3), -1,
			[]string{"4-3x13"}, []string{"5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			moves := laskerMoves(t, tt.state)
			if tt.count >= 0 && len(moves) != tt.count {
				names := make([]string, 0, len(moves))
				for n := range moves {
					names = append(names, n)
				}
				slices.Sort(names)
				t.Errorf("%s: %d moves %v, want %d", tt.state, len(moves), names, tt.count)
			}
			for _, n := range tt.has {
				if _, ok := moves[n]; !ok {
					t.Errorf("%s: no move %s", tt.state, n)
				}
			}
			for _, n := range tt.not {
				if _, ok := moves[n]; ok {
					t.Errorf("%s: move %s listed", tt.state, n)
				}
			}
		})
	}
	// A placement keeps the mover's hand one lower, a move keeps it; the side to move
	// alternates either way.
	moves := laskerMoves(t, laskerState([]int{1, 2}, []int{9, 10}, mill.White, 2, 3))
	if got, want := moves["4"].Next, laskerState([]int{1, 2, 4}, []int{9, 10}, mill.Black, 1, 3); got != want {
		t.Errorf("placement 4: %q, want %q", got, want)
	}
	if got, want := moves["1-8"].Next, laskerState([]int{2, 8}, []int{9, 10}, mill.Black, 2, 3); got != want {
		t.Errorf("move 1-8: %q, want %q", got, want)
	}
	// Black with 1 on the board and 2 in hand: taking it leaves 2 in all, a win.
	moves = laskerMoves(t, laskerState([]int{1, 2}, []int{9}, mill.White, 2, 2))
	if m := moves["3x9"]; m.End != values.Loss || m.Next != "" {
		t.Errorf("3x9 leaving Black 2 stones: %+v, want the game over, lost by Black", m)
	}
}

// TestLaskerSectors checks the sectors of merged phases: any hands (the side to move may
// hold none while the opponent holds some), the notation's side to move free of the
// hands, and the tier graph: a move leads to the twin with the hands swapped, a
// placement to a sector with one stone fewer in hand.
func TestLaskerSectors(t *testing.T) {
	t.Parallel()
	g := mill.ForRules(mill.Lasker)
	state := laskerState([]int{1, 2, 4}, []int{9, 10}, mill.White, 0, 3)
	tier, err := g.TierOf(state)
	if err != nil {
		t.Fatal(err)
	}
	if name := g.TierName(tier); name != "3-2-0-3" {
		t.Errorf("%s: sector %s, want 3-2-0-3", state, name)
	}
	if _, err := mill.Nine.Parse(mill.Nine.Format(mustParse(t, mill.Lasker, state))); err == nil {
		t.Errorf("Nine Men's Morris reads %s, whose hands do not fit its side to move", state)
	}
	names := func(ts []games.Tier) []string {
		var out []string
		for _, c := range ts {
			out = append(out, g.TierName(c))
		}
		return out
	}
	for _, tt := range []struct{ sector, children string }{
		{"3-2-0-3", "2-3-3-0 1-3-3-0"},                 // moves only, a capture leaving Black 4 in all
		{"3-4-2-1", "4-3-1-2 3-3-1-2 4-4-1-1 3-4-1-1"}, // moves and placements, each with a capture
		{"0-1-3-2", "1-1-2-2"},                         // no stone to move: a placement, no mill
		{"1-1-2-2", "1-1-2-2 1-2-2-1"},                 // the twin of 1-1-2-2 is itself
	} {
		tier, err := g.ParseTier(tt.sector)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(names(g.TierChildren(tier)), " "); got != tt.children {
			t.Errorf("sector %s leads to %s, want %s", tt.sector, got, tt.children)
		}
	}
	if _, err := g.ParseTier("3-2-0-9"); err == nil {
		t.Error("sector 3-2-0-9 (Black with 11 stones) parses")
	}
	if _, err := mill.Nine.Parse(strings.Repeat(".", 24) + " W W:0 B:3"); !errors.Is(err, mill.ErrPosition) {
		t.Errorf("Nine Men's Morris reads White to move with W:0 B:3: %v", err)
	}
}

func mustParse(t *testing.T, r *mill.Rules, state string) mill.Position {
	t.Helper()
	p, err := r.Parse(state)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
