// Package tictactoe is tic-tac-toe as a tiered game: the small, plainly written example of
// the two-player side of tablesmith, and the template for a new game (docs/adding-a-game.md
// walks through it). It uses every required part of the tier contract of package games and
// one optional part, positions over by the rules (a line of three, a full board); it leaves
// out the optimisations a large game needs (symmetry classes, combinatorial ranks, counted
// children, orders of its own), which package mill shows.
//
// Rules. Nine cells, numbered 1..9 row by row from the top left. X moves first; each turn
// places a stone of the side to move on an empty cell. A position is every placement of
// n stones with (n+1)/2 of X and n/2 of O, X to move when n is even. It is over when a
// line of three cells (3 rows, 3 columns, 2 diagonals) holds three stones of one colour —
// lost for the side to move (in play only the player who just moved can have a line;
// positions where the side to move has one as well are unreachable and counted lost all
// the same) — or else when the board is full: drawn.
//
// Notation. A position is 9 characters for the cells 1..9, each X, O or '.' (lower case
// and '-' for an empty cell are read too, and '/' between rows is skipped:
// "XO./.X./..O"); the side to move follows from the counts. A move is the number of the
// cell it fills.
//
// Tiers. Tier n holds the positions with n stones (0..9); every move leads from tier n to
// tier n+1, so each tier is solved in one pass from the next. Within a tier, positions
// are numbered in the increasing order of the board read as a base-3 number (cell 1 the
// most significant digit; empty 0, X 1, O 2): all 3^9 boards are listed once, at start,
// and each tier's are ranked by a table. That is the plainest index there is, and fine
// for 6,046 positions; a game of billions ranks by arithmetic instead (package mill).
package tictactoe

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"strconv"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/notation"
	"github.com/tablesmith/tablesmith/values"
)

// Cells is the number of cells of the board.
const Cells = 9

// boards is 3^9: every filling of the cells, stones counted or not.
const boards = 19683

// lines are the eight lines of three cells (0-based).
var lines = [8][3]int{
	{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, // rows
	{0, 3, 6}, {1, 4, 7}, {2, 5, 8}, // columns
	{0, 4, 8}, {2, 4, 6}, // diagonals
}

// Cell contents.
const (
	empty = 0
	x     = 1
	o     = 2
)

// Board is the cells' contents as a base-3 number, cell 1 the most significant digit.
type Board uint16

// cell returns the content of cell i (0-based).
func (b Board) cell(i int) int { return int(b) / pow3[Cells-1-i] % 3 }

// with returns b with stone c placed on empty cell i.
func (b Board) with(i, c int) Board { return b + Board(c*pow3[Cells-1-i]) }

// without returns b with the stone on cell i taken away.
func (b Board) without(i int) Board { return b - Board(b.cell(i)*pow3[Cells-1-i]) }

var pow3 = [Cells]int{1, 3, 9, 27, 81, 243, 729, 2187, 6561}

// stones returns the stones of X and of O.
func (b Board) stones() (nx, no int) {
	for i := range Cells {
		switch b.cell(i) {
		case x:
			nx++
		case o:
			no++
		}
	}
	return nx, no
}

// valid reports whether b is a position: X has as many stones as O, or one more.
func (b Board) valid() bool {
	nx, no := b.stones()
	return nx == no || nx == no+1
}

// toMove is the colour to move: X after an even number of stones.
func (b Board) toMove() int {
	if nx, no := b.stones(); nx == no {
		return x
	}
	return o
}

// Over returns the value of b for the side to move when the game is over: a loss when a
// line holds three stones of one colour (a win in misère play, where the line's maker
// loses), else a draw on a full board; 0 while it goes on.
func (b Board) Over(misere bool) values.Outcome {
	for _, l := range lines {
		if c := b.cell(l[0]); c != empty && b.cell(l[1]) == c && b.cell(l[2]) == c {
			if misere {
				return values.Win
			}
			return values.Loss
		}
	}
	if nx, no := b.stones(); nx+no == Cells {
		return values.Draw
	}
	return 0
}

// String writes b in the notation.
func (b Board) String() string {
	var s [Cells]byte
	for i := range Cells {
		s[i] = ".XO"[b.cell(i)]
	}
	return string(s[:])
}

// ErrPosition marks a malformed position.
var ErrPosition = errors.New("tictactoe: not a position")

// Parse reads a position in the notation.
func Parse(state string) (Board, error) {
	var b Board
	n := 0
	for i := 0; i < len(state); i++ {
		var c int
		switch state[i] {
		case '/':
			continue
		case 'X', 'x':
			c = x
		case 'O', 'o':
			c = o
		case '.', '-':
			c = empty
		default:
			return 0, fmt.Errorf("%w %s: character %d is %s, not X, O or '.'", ErrPosition, notation.Quote(state), i+1, notation.Quote(state[i:i+1]))
		}
		if n == Cells {
			return 0, fmt.Errorf("%w %s: more than %d cells", ErrPosition, notation.Quote(state), Cells)
		}
		b, n = b*3+Board(c), n+1
	}
	if n != Cells {
		return 0, fmt.Errorf("%w %s: %d cells, want %d", ErrPosition, notation.Quote(state), n, Cells)
	}
	if !b.valid() {
		nx, no := b.stones()
		return 0, fmt.Errorf("%w %s: X has %d stones and O %d; X, who begins, has as many as O or one more", ErrPosition, notation.Quote(state), nx, no)
	}
	return b, nil
}

// The index: every position's slot in its tier, and every tier's positions in slot order.
var (
	slotOf [boards]uint16     // the slot of a position in its tier
	tiers  [Cells + 1][]Board // tiers[n]: the positions with n stones, by increasing Board
)

func init() {
	for b := Board(0); b < boards; b++ {
		if !b.valid() {
			continue
		}
		nx, no := b.stones()
		n := nx + no
		slotOf[b] = uint16(len(tiers[n]))
		tiers[n] = append(tiers[n], b)
	}
}

// Game is tic-tac-toe as a tiered game; Misere() is its misère variant.
type Game struct {
	// misere: whoever completes a line loses, so that a position over by a line is won
	// for the side to move (games.OverWins): the example of a game with wins over.
	misere bool
}

// Misere returns misère tic-tac-toe: the same board and moves, but a line of three loses
// for the player who made it.
func Misere() Game { return Game{misere: true} }

var (
	_ games.TieredGame = Game{}
	_ games.OverWins   = Game{}
	_ games.TierSpace  = (*Space)(nil)
)

// Name is the game's name in table metadata and on the command line.
func (g Game) Name() string {
	if g.misere {
		return "tictactoe-misere"
	}
	return "tictactoe"
}

// Summary describes the game.
func (g Game) Summary() string {
	if g.misere {
		return "misère tic-tac-toe: a line of three loses for the player who made it (positions won by the rules)"
	}
	return "tic-tac-toe, the small example of a tiered game: one tier per number of stones on the board"
}

// HasOverWins reports whether positions are won by the rules: in misère play.
func (g Game) HasOverWins() bool { return g.misere }

// Scheme is the index scheme of a tier's table: the positions by increasing base-3 board.
const Scheme = "board-order"

// Schemes lists the one index scheme.
func (Game) Schemes() []string { return []string{Scheme} }

// Params name one tier's table: the stones on the board.
type Params struct {
	Stones int `json:"stones"`
}

// BindFlags declares a flag that sets p (one tier; a whole game is built with build
// tictactoe).
func (p *Params) BindFlags(fs *flag.FlagSet) {
	fs.IntVar(&p.Stones, "stones-on-board", p.Stones, "the tier: stones on the board (0..9)")
}

// Validate says what is wrong with p.
func (p *Params) Validate() error {
	if p.Stones < 0 || p.Stones > Cells {
		return fmt.Errorf("tictactoe: %d stones on the board: want 0 to %d", p.Stones, Cells)
	}
	return nil
}

// NewParams returns fresh parameters.
func (Game) NewParams() any { return &Params{} }

// Open returns the space of the tier that params name.
func (g Game) Open(params any, index string) (games.Space, error) {
	p, ok := params.(*Params)
	if !ok {
		return nil, fmt.Errorf("tictactoe: parameters of type %T", params)
	}
	if index != Scheme {
		return nil, fmt.Errorf("tictactoe: no index scheme %q (want %s)", index, Scheme)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Space{n: p.Stones, misere: g.misere}, nil
}

// Rules states the rules the tables are built under; RulesID fingerprints it.
const Rules = "tic-tac-toe: X first, each turn places a stone on an empty cell of 3x3; a line of three of one colour " +
	"ends the game, lost for the side to move; else a full board is a draw"

// MisereRules states the rules of misère play.
const MisereRules = "misère tic-tac-toe: X first, each turn places a stone on an empty cell of 3x3; a line of three of " +
	"one colour ends the game, lost for the player who made it (won for the side to move); else a full board is a draw"

// RulesID fingerprints Rules (or MisereRules): a set built under other rules is refused.
func (g Game) RulesID() string {
	rules, prefix := Rules, "tictactoe-v1-"
	if g.misere {
		rules, prefix = MisereRules, "tictactoe-misere-v1-"
	}
	sum := sha256.Sum256([]byte(rules))
	return prefix + hex.EncodeToString(sum[:8])
}

// TierNoun is what the game calls a tier.
func (Game) TierNoun() string { return "tier" }

// Tiers lists the ten tiers, the full board first: each comes after the one its moves
// lead into.
func (Game) Tiers() []games.Tier {
	out := make([]games.Tier, 0, Cells+1)
	for n := Cells; n >= 0; n-- {
		out = append(out, games.Tier(n))
	}
	return out
}

// BindTierFlags declares no flag: the game is small enough to be built whole.
func (g Game) BindTierFlags(fs *flag.FlagSet) func() ([]games.Tier, error) {
	return func() ([]games.Tier, error) { return g.Tiers(), nil }
}

// TierName writes a tier as its number of stones.
func (Game) TierName(t games.Tier) string { return strconv.FormatUint(uint64(t), 10) }

// ParseTier reads a tier's name.
func (Game) ParseTier(name string) (games.Tier, error) {
	n, err := strconv.Atoi(name)
	if err != nil || n < 0 || n > Cells || strconv.Itoa(n) != name {
		return 0, fmt.Errorf("tictactoe: no tier %s: a tier is the stones on the board, 0 to %d", notation.Quote(name), Cells)
	}
	return games.Tier(n), nil
}

// TierChildren lists the tier a move leads into: one more stone (none from a full board).
func (Game) TierChildren(t games.Tier) []games.Tier {
	if t >= Cells {
		return nil
	}
	return []games.Tier{t + 1}
}

// TierSize is the number of positions of tier t.
func (Game) TierSize(t games.Tier) uint64 {
	if t > Cells {
		return 0
	}
	return uint64(len(tiers[t]))
}

// TierParams names the table of tier t.
func (Game) TierParams(t games.Tier) any { return &Params{Stones: int(t)} }

// TierOf returns the tier of a position.
func (Game) TierOf(state string) (games.Tier, error) {
	b, err := Parse(state)
	if err != nil {
		return 0, err
	}
	nx, no := b.stones()
	return games.Tier(nx + no), nil
}

// NewTierWorker returns a move generator; it holds nothing, so any number may run.
func (g Game) NewTierWorker() games.TierWorker { return worker{misere: g.misere} }

// worker generates moves and un-moves from the boards.
type worker struct{ misere bool }

// Children lists, for each position of slots lo..hi−1 of tier t, the positions its moves
// lead to, cell 1 first; a position over by the rules is marked so, with no move.
func (w worker) Children(t games.Tier, lo, hi uint64, b *games.ChildBatch) {
	b.Reset()
	for _, p := range tiers[t][lo:hi] {
		if v := p.Over(w.misere); v != 0 {
			b.End(v)
			continue
		}
		c := p.toMove()
		for i := range Cells {
			if p.cell(i) == empty {
				q := p.with(i, c)
				b.Pos = append(b.Pos, games.TierPosition{Tier: t + 1, Slot: uint64(slotOf[q])})
			}
		}
		b.Close()
	}
}

// Parents lists, for each position of slots of tier t, the positions of tier from (t−1)
// whose moves lead to it: the stone of the player who moved last taken away, where the
// position left is not over.
func (w worker) Parents(t games.Tier, slots []uint64, from games.Tier, b *games.ParentBatch) {
	b.Reset()
	for _, s := range slots {
		if t > 0 && from == t-1 {
			p := tiers[t][s]
			last := x + o - p.toMove() // the colour of the last stone placed
			for i := range Cells {
				if p.cell(i) == last {
					if q := p.without(i); q.Over(w.misere) == 0 {
						b.Slots = append(b.Slots, uint64(slotOf[q]))
					}
				}
			}
		}
		b.Close()
	}
}

// Space is one tier as the lookup reads it.
type Space struct {
	n      int
	misere bool
}

// Slots is the number of positions of the tier.
func (s *Space) Slots() uint64 { return uint64(len(tiers[s.n])) }

// parseIn parses a position and checks it belongs to this tier.
func (s *Space) parseIn(state string) (Board, error) {
	b, err := Parse(state)
	if err != nil {
		return 0, err
	}
	if nx, no := b.stones(); nx+no != s.n {
		return 0, fmt.Errorf("%w %s: %d stones, this table holds tier %d", ErrPosition, notation.Quote(state), nx+no, s.n)
	}
	return b, nil
}

// Slot returns the slot of a position of this tier.
func (s *Space) Slot(state string) (uint64, bool, error) {
	b, err := s.parseIn(state)
	if err != nil {
		return 0, false, err
	}
	return uint64(slotOf[b]), true, nil
}

// Normalize writes a position in the canonical spelling.
func (s *Space) Normalize(state string) (string, error) {
	b, err := s.parseIn(state)
	if err != nil {
		return "", err
	}
	return b.String(), nil
}

// StateOf returns the position of slot.
func (s *Space) StateOf(slot uint64) (string, bool) {
	if slot >= s.Slots() {
		return "", false
	}
	return tiers[s.n][slot].String(), true
}

// Moves lists the moves of a position, cell 1 first, or says that it is over.
func (s *Space) Moves(state string) ([]games.Move, values.Outcome, error) {
	b, err := s.parseIn(state)
	if err != nil {
		return nil, 0, err
	}
	if v := b.Over(s.misere); v != 0 {
		return nil, v, nil
	}
	var moves []games.Move
	c := b.toMove()
	for i := range Cells {
		if b.cell(i) == empty {
			moves = append(moves, games.Move{Name: strconv.Itoa(i + 1), Next: b.with(i, c).String()})
		}
	}
	return moves, 0, nil
}

var _ games.TierDescriber = Game{}

// DescribeTier gives the stones on the board of X and of O, for `info --json`.
func (Game) DescribeTier(t games.Tier) map[string]any {
	return map[string]any{"x": (int(t) + 1) / 2, "o": int(t) / 2}
}
