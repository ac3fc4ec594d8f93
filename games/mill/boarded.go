package mill

import "github.com/tablesmith/tablesmith/games"

var (
	_ games.Boarded = Game{}
	_ games.Boarded = (*Space)(nil)
)

// Board describes the game's board and rules as data, points numbered from 1 as the
// notation numbers them (the explorer draws it).
func (g Game) Board() games.Board { return g.rules().Describe() }

// Board describes the board and rules of the sector's rule set (Game.Board).
func (s *Space) Board() games.Board { return s.r.Describe() }

// Describe returns the rule set's board and rules as a games.Board: its points, lines
// and mills numbered from 1, the stones of a side, flying, and the rules that end a game
// other than by stones left or moves (a mill that wins, a full board's draw).
func (r *Rules) Describe() games.Board {
	b := r.Board
	d := games.Board{Name: b.Name, Rules: r.Name, Title: r.Title, Points: b.Points, Stones: r.Stones,
		Flying: r.Flying != FlyNever, FlyingInTotal: r.Flying == FlyAtThreeInTotal, Merged: r.Merged, MillWins: r.MillWins, FullBoardDraw: r.FullBoardDraw,
		Lines: make([][2]int, len(b.Lines)), Mills: make([][3]int, len(b.Mills))}
	for i, l := range b.Lines {
		d.Lines[i] = [2]int{l[0] + 1, l[1] + 1}
	}
	for i, m := range b.Mills {
		d.Mills[i] = [3]int{m[0] + 1, m[1] + 1, m[2] + 1}
	}
	return d
}
