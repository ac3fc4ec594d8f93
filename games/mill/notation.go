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

// Position is a moving-phase position by colour: the points of White's and Black's stones
// and the side to move.
type Position struct {
	White, Black uint32
	ToMove       Color
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
// side to move, e.g. "WWW.....BBB............. B".
func (p Position) String() string {
	var buf [Points + 2]byte
	for q := range Points {
		switch {
		case p.White>>q&1 != 0:
			buf[q] = 'W'
		case p.Black>>q&1 != 0:
			buf[q] = 'B'
		default:
			buf[q] = '.'
		}
	}
	buf[Points] = ' '
	buf[Points+1] = p.ToMove.String()[0]
	return string(buf[:])
}

// Parse reads a moving-phase position: 24 characters W, B or . for points 1..24, a space
// and the side to move, W or B, optionally followed by the stones in hand as "W:0 B:0"
// (only zero is accepted: the placement phase is not supported). Surrounding white space
// is ignored. Each side needs 3 to 9 stones. Errors wrap ErrPosition and quote the input
// (its first 80 characters).
func Parse(s string) (Position, error) {
	fail := func(format string, args ...any) (Position, error) {
		return Position{}, fmt.Errorf("%w %s: %s", ErrPosition, notation.Quote(s), fmt.Sprintf(format, args...))
	}
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return fail("empty")
	}
	board := fields[0]
	if n := utf8.RuneCountInString(board); n != Points {
		return fail("the board has %d characters, want %d (W, B or . for points 1 to 24)", n, Points)
	}
	var p Position
	q := 0
	for i, r := range board {
		switch r {
		case 'W':
			p.White |= 1 << q
		case 'B':
			p.Black |= 1 << q
		case '.':
		case utf8.RuneError:
			return fail("point %d holds the byte %#x (not UTF-8), want W, B or .", q+1, board[i])
		default:
			return fail("point %d holds %q, want W, B or .", q+1, r)
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
	if err := checkInHand(fields[2:]); err != "" {
		return fail("%s", err)
	}
	for _, side := range []struct {
		name  string
		mask  uint32
		color Color
	}{{"white", p.White, White}, {"black", p.Black, Black}} {
		switch n := bits.OnesCount32(side.mask); {
		case n > MaxStones:
			return fail("%s has %d stones, at most %d", side.name, n, MaxStones)
		case n < MinStones:
			return fail("%s has %d stones, at least %d (with 2 the game is over)", side.name, n, MinStones)
		}
	}
	return p, nil
}

// checkInHand checks the optional stones-in-hand suffix "W:n B:m" and returns a
// description of what is wrong with it, or "".
func checkInHand(fields []string) string {
	switch {
	case len(fields) == 0:
		return ""
	case len(fields) != 2 || !strings.HasPrefix(fields[0], "W:") || !strings.HasPrefix(fields[1], "B:"):
		return fmt.Sprintf("unexpected %s after the side to move, want nothing or stones in hand as W:n B:m",
			notation.Quote(strings.Join(fields, " ")))
	}
	var hand [2]int
	for i, f := range fields {
		n, err := strconv.Atoi(f[2:])
		if err != nil || n < 0 || n > MaxStones {
			return fmt.Sprintf("stones in hand %s, want a number 0 to %d", notation.Quote(f), MaxStones)
		}
		hand[i] = n
	}
	if hand[0] > 0 || hand[1] > 0 {
		return fmt.Sprintf("stones in hand W:%d B:%d: the placement phase is not supported", hand[0], hand[1])
	}
	return ""
}

// ParseMove reads a move written "a-b" or "a-bxc" with points 1..24. It checks the
// notation only, not whether the move is legal in some position.
func ParseMove(s string) (Move, error) {
	fail := func(format string, args ...any) (Move, error) {
		return Move{}, fmt.Errorf("%w %s: %s", ErrMove, notation.Quote(s), fmt.Sprintf(format, args...))
	}
	from, rest, ok := strings.Cut(s, "-")
	if !ok {
		return fail("want a-b or a-bxc")
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
