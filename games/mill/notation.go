package mill

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tablesmith/tablesmith/internal/notation"
)

// ErrPosition is wrapped by every error about a malformed position, so callers can tell
// bad input apart.
var ErrPosition = errors.New("invalid mill position")

// ErrMove is wrapped by every error about a malformed move.
var ErrMove = errors.New("invalid mill move")

// Color is a side: White or Black.
type Color uint8

const (
	White Color = iota
	Black
)

// String writes the colour as in the notation, "W" or "B".
func (c Color) String() string {
	if c == White {
		return "W"
	}
	return "B"
}

// Other returns the other colour.
func (c Color) Other() Color { return c ^ 1 }

// Position is a position by colour: the points of White's and Black's stones, the stones
// each still holds in hand (both zero in the moving phase) and the side to move.
type Position struct {
	White, Black         uint32
	WhiteHand, BlackHand int
	ToMove               Color
}

// Hands returns the stones in hand of the side to move and of its opponent.
func (p Position) Hands() (own, opp int) {
	if p.ToMove == White {
		return p.WhiteHand, p.BlackHand
	}
	return p.BlackHand, p.WhiteHand
}

// withHands returns p with the side to move holding own stones and its opponent opp.
func (p Position) withHands(own, opp int) Position {
	if p.ToMove == White {
		p.WhiteHand, p.BlackHand = own, opp
	} else {
		p.WhiteHand, p.BlackHand = opp, own
	}
	return p
}

// OwnOpp returns the stones of the side to move and of its opponent.
func (p Position) OwnOpp() (own, opp uint32) {
	if p.ToMove == White {
		return p.White, p.Black
	}
	return p.Black, p.White
}

// FromOwnOpp returns the position in which the side toMove has the stones own and the
// other side the stones opp.
func FromOwnOpp(own, opp uint32, toMove Color) Position {
	if toMove == White {
		return Position{White: own, Black: opp, ToMove: White}
	}
	return Position{White: opp, Black: own, ToMove: Black}
}

// String writes the position: 24 characters W, B or . for points 1..24, a space and the
// side to move, e.g. "WWW.....BBB............. B", and in the placement phase the stones in
// hand, e.g. "W.......B............... W W:8 B:8".
func (p Position) String() string { return p.format(Points) }

// Format writes the position on the rule set's board, as Position.String does on Nine
// Men's Morris's: one character per point of the board.
func (r *Rules) Format(p Position) string { return p.format(r.Board.Points) }

// format writes the position on a board of n points.
func (p Position) format(n int) string {
	var buf [Points + 2]byte
	for q := range n {
		switch {
		case p.White>>q&1 != 0:
			buf[q] = 'W'
		case p.Black>>q&1 != 0:
			buf[q] = 'B'
		default:
			buf[q] = '.'
		}
	}
	buf[n] = ' '
	buf[n+1] = p.ToMove.String()[0]
	if p.WhiteHand == 0 && p.BlackHand == 0 {
		return string(buf[:n+2])
	}
	out := append(buf[:n+2], " W:"...)
	out = strconv.AppendInt(out, int64(p.WhiteHand), 10)
	out = append(out, " B:"...)
	return string(strconv.AppendInt(out, int64(p.BlackHand), 10))
}

// Parse reads a position: 24 characters W, B or . for points 1..24, a space and the side
// to move, W or B, then the stones in hand as "W:n B:m" (omitted, or W:0 B:0, in the moving
// phase). Surrounding white space is ignored. A colour has at most 9 stones on the board
// and in hand together, and at least 3 (with 2 the game is over); the hands fit the side
// to move: White is to move exactly when both hold the same number, and Black holds one
// more when Black is to move. Errors wrap ErrPosition and quote the input (its first 80
// characters). It reads Nine Men's Morris's positions.
func Parse(s string) (Position, error) { return Nine.Parse(s) }

// Parse reads a position of the rule set as the package's Parse does Nine Men's
// Morris's: one character per point of its board, at most Stones stones a side on the
// board and in hand together.
func (r *Rules) Parse(s string) (Position, error) {
	points, stones := r.Board.Points, r.Stones
	fail := func(format string, args ...any) (Position, error) {
		return Position{}, fmt.Errorf("%w %s: %s", ErrPosition, notation.Quote(s), fmt.Sprintf(format, args...))
	}
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return fail("empty")
	}
	board := fields[0]
	if n := utf8.RuneCountInString(board); n != points {
		return fail("the board has %d characters, want %d (W, B or . for points 1 to %d)", n, points, points)
	}
	var p Position
	q := 0
	for i, c := range board {
		switch c {
		case 'W':
			p.White |= 1 << q
		case 'B':
			p.Black |= 1 << q
		case '.':
		case utf8.RuneError:
			return fail("point %d holds the byte %#x (not UTF-8), want W, B or .", q+1, board[i])
		default:
			return fail("point %d holds %q, want W, B or .", q+1, c)
		}
		q++
	}
	if len(fields) < 2 {
		return fail("the side to move (W or B) is missing after the board")
	}
	switch fields[1] {
	case "W":
		p.ToMove = White
	case "B":
		p.ToMove = Black
	default:
		return fail("side to move %s, want W or B", notation.Quote(fields[1]))
	}
	hands, msg := parseHands(fields[2:], stones)
	if msg != "" {
		return fail("%s", msg)
	}
	p.WhiteHand, p.BlackHand = hands[0], hands[1]
	if msg := p.check(stones, r.Merged); msg != "" {
		return fail("%s", msg)
	}
	return p, nil
}

// check says what makes p no position of the game, or "": merged, the phases are merged
// and the hands say nothing of the side to move.
func (p Position) check(stones int, merged bool) string {
	for _, side := range []struct {
		name string
		mask uint32
		hand int
	}{{"white", p.White, p.WhiteHand}, {"black", p.Black, p.BlackHand}} {
		switch n := bits.OnesCount32(side.mask); {
		case n+side.hand > stones:
			return fmt.Sprintf("%s has %d stones on the board and %d in hand, at most %d in all", side.name, n, side.hand, stones)
		case n+side.hand < MinStones:
			return fmt.Sprintf("%s has %d stones on the board and %d in hand, at least %d (with 2 the game is over)", side.name, n, side.hand, MinStones)
		}
	}
	switch {
	case merged:
	case p.ToMove == White && p.WhiteHand != p.BlackHand:
		return fmt.Sprintf("White is to move with W:%d B:%d in hand: White moves when both hold the same number", p.WhiteHand, p.BlackHand)
	case p.ToMove == Black && p.BlackHand != p.WhiteHand+1 && (p.WhiteHand != 0 || p.BlackHand != 0):
		return fmt.Sprintf("Black is to move with W:%d B:%d in hand: Black moves holding one stone more than White", p.WhiteHand, p.BlackHand)
	}
	return ""
}

// parseHands reads the optional stones-in-hand suffix "W:n B:m" and returns the hands, or
// a description of what is wrong with it.
func parseHands(fields []string, stones int) ([2]int, string) {
	var hand [2]int
	switch {
	case len(fields) == 0:
		return hand, ""
	case len(fields) != 2 || !strings.HasPrefix(fields[0], "W:") || !strings.HasPrefix(fields[1], "B:"):
		return hand, fmt.Sprintf("unexpected %s after the side to move, want nothing or stones in hand as W:n B:m",
			notation.Quote(strings.Join(fields, " ")))
	}
	for i, f := range fields {
		n, err := strconv.Atoi(f[2:])
		if err != nil || n < 0 || n > stones || f[2:] != strconv.Itoa(n) {
			return hand, fmt.Sprintf("stones in hand %s, want a number 0 to %d", notation.Quote(f), stones)
		}
		hand[i] = n
	}
	return hand, ""
}

// ParseMove reads a move written "a-b" or "a-bxc" (a stone from a to b, removing the
// opponent's stone on c), or a placement "a" or "axc", with points 1..24. It checks the
// notation only, not whether the move is legal in some position.
func ParseMove(s string) (Move, error) {
	fail := func(format string, args ...any) (Move, error) {
		return Move{}, fmt.Errorf("%w %s: %s", ErrMove, notation.Quote(s), fmt.Sprintf(format, args...))
	}
	from, rest, ok := strings.Cut(s, "-")
	if !ok {
		// A placement: "a" or "axc".
		to, removed, capture := strings.Cut(s, "x")
		m := Move{From: NoPoint, Remove: NoPoint}
		for _, f := range []struct {
			name string
			text string
			dst  *Point
			want bool
		}{{"placement", to, &m.To, true}, {"removed", removed, &m.Remove, capture}} {
			if !f.want {
				continue
			}
			n, err := strconv.Atoi(f.text)
			if err != nil || n < 1 || n > Points || f.text[0] == '+' || f.text[0] == '0' {
				return fail("%s point %s, want 1 to %d (a move is a-b, a-bxc, or a placement a or axc)", f.name, notation.Quote(f.text), Points)
			}
			*f.dst = Point(n - 1)
		}
		if capture && m.Remove == m.To {
			return fail("the removed stone is on the placed stone's point")
		}
		return m, nil
	}
	to, removed, capture := strings.Cut(rest, "x")
	m := Move{Remove: NoPoint}
	for _, f := range []struct {
		name string
		text string
		dst  *Point
		want bool
	}{{"from", from, &m.From, true}, {"to", to, &m.To, true}, {"removed", removed, &m.Remove, capture}} {
		if !f.want {
			continue
		}
		n, err := strconv.Atoi(f.text)
		if err != nil || n < 1 || n > Points || f.text[0] == '+' || f.text[0] == '0' {
			return fail("%s point %s, want 1 to %d", f.name, notation.Quote(f.text), Points)
		}
		*f.dst = Point(n - 1)
	}
	switch {
	case m.From == m.To:
		return fail("from and to are the same point")
	case capture && (m.Remove == m.From || m.Remove == m.To):
		return fail("the removed stone is on the moving stone's point")
	}
	return m, nil
}
