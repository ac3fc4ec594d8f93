package games

// A Board is the board of a game of stones on points joined by lines (the Morris family),
// as data, with the rules a program that shows and plays its positions needs (the
// explorer draws the board from it and tells when a game is over). Points are numbered
// 1..Points as the game's notation numbers them: ring by ring from the outside, clockwise
// from each ring's top-left corner, a centre point last (a ring is 8 points: its corners
// and the midpoints of its sides).
type Board struct {
	Name   string   `json:"name"`   // the board: "nine", "three", …; rule sets may share one
	Rules  string   `json:"rules"`  // the rule set's name: "nine"
	Title  string   `json:"title"`  // the rule set's title: "Nine Men's Morris"
	Points int      `json:"points"` // the number of points
	Lines  [][2]int `json:"lines"`  // the pairs of adjacent points: a stone slides along one
	Mills  [][3]int `json:"mills"`  // the lines of three points that are mills
	Stones int      `json:"stones"` // the stones of a side, all in hand at the start
	// Flying: a side with exactly 3 stones on the board (FlyingInTotal: on the board and
	// in hand together) moves a stone to any empty point.
	Flying        bool `json:"flying"`
	FlyingInTotal bool `json:"flying_in_total,omitempty"`
	// Merged: every turn places a stone from the hand or moves one on the board, while
	// either is possible (Lasker Morris); otherwise a side places all its stones first.
	Merged bool `json:"merged,omitempty"`
	// MillWins: closing a mill wins at once (no stone is removed); otherwise it removes
	// an opponent stone, and a side left with fewer than 3 stones has lost.
	MillWins bool `json:"mill_wins"`
	// FullBoardDraw: a placement that fills the board ends the game in a draw.
	FullBoardDraw bool `json:"full_board_draw"`
}

// Boarded (optional) is implemented by a game played on a [Board], and by the table
// spaces of such a game (a table's own parameters may name the rules it plays).
type Boarded interface {
	Board() Board
}
