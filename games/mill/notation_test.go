package mill_test

import (
	"errors"
	"math/bits"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
)

func TestParse(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("W", 200)
	tests := []struct {
		in   string
		want string // the position written back; "" for an error
		err  string // substring of the error
	}{
		{"WWW.....BBB............. B", "WWW.....BBB............. B", ""},
		{"  WWW.....BBB............. W  ", "WWW.....BBB............. W", ""},
		{"WWW.....BBB............. W W:0 B:0", "WWW.....BBB............. W", ""},
		{"WWWWWWWWWBBBBBBBBB...... W", "WWWWWWWWWBBBBBBBBB...... W", ""},
		{"", "", "empty"},
		{"WWW.....BBB............ W", "", "the board has 23 characters, want 24"},
		{"WWW.....BBB.............. W", "", "the board has 25 characters, want 24"},
		{"WWW.....BBB......x...... W", "", "point 18 holds 'x'"},
		{"WWW.....BBB......é...... W", "", "point 18 holds 'é'"},
		{"WWW.....BBB.....\xff....... W", "", "point 17 holds the byte 0xff (not UTF-8)"},
		{"WWW.....BBB.............", "", "side to move (W or B) is missing"},
		{"WWW.....BBB............. X", "", `side to move "X", want W or B`},
		{"WWW.....BBB............. w", "", `side to move "w"`},
		{"........................ W W:9 B:9", "........................ W W:9 B:9", ""},
		{"W....................... B W:8 B:9", "W....................... B W:8 B:9", ""},
		{"W.......B............... W W:8 B:8", "W.......B............... W W:8 B:8", ""},
		{"WWW.....BB.............. B W:0 B:1", "WWW.....BB.............. B W:0 B:1", ""},
		{"WWW.....BBB............. W W:2 B:0", "", "White is to move with W:2 B:0 in hand"},
		{"WWW.....BBB............. B W:2 B:2", "", "Black is to move with W:2 B:2 in hand"},
		{"WWW.....BBB............. B W:2 B:4", "", "Black moves holding one stone more than White"},
		{"WWW.....BBB............. W W:0 B:9", "", "black has 3 stones on the board and 9 in hand, at most 9 in all"},
		{"WWWWW...BBB............. W W:5 B:5", "", "white has 5 stones on the board and 5 in hand, at most 9 in all"},
		{"........................ W W:1 B:1", "", "white has 0 stones on the board and 1 in hand, at least 3"},
		{"W.......B............... B W:1 B:2", "", "white has 1 stones on the board and 1 in hand, at least 3"},
		{"WWW.....BBB............. W W:+1 B:1", "", `stones in hand "W:+1"`},
		{"WWW.....BBB............. W W:10 B:0", "", `stones in hand "W:10", want a number 0 to 9`},
		{"WWW.....BBB............. W W:x B:0", "", `stones in hand "W:x"`},
		{"WWW.....BBB............. W B:0 W:0", "", "want nothing or stones in hand as W:n B:m"},
		{"WWW.....BBB............. W extra", "", `unexpected "extra" after the side to move`},
		{"WWWWWWWWWW..BBB......... W", "", "white has 10 stones on the board and 0 in hand, at most 9"},
		{"WWW..BBBBBBBBBBB........ B", "", "black has 11 stones on the board and 0 in hand, at most 9"},
		{"WW......BBB............. W", "", "white has 2 stones on the board and 0 in hand, at least 3"},
		{"WWW..................... W", "", "black has 0 stones on the board and 0 in hand, at least 3"},
		{long, "", `"` + strings.Repeat("W", 80) + `"…`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			p, err := mill.Parse(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, mill.ErrPosition) {
					t.Fatalf("Parse(%q) error = %v, want one containing %q", tt.in, err, tt.err)
				}
				if len(err.Error()) > 250 {
					t.Errorf("Parse(%q): error %d bytes long", tt.in, len(err.Error()))
				}
				return
			}
			if err != nil || p.String() != tt.want {
				t.Fatalf("Parse(%q) = %v, %v; want %s", tt.in, p, err, tt.want)
			}
		})
	}
}

func TestOwnOpp(t *testing.T) {
	t.Parallel()
	p, err := mill.Parse("WWW.....BBBB............ B")
	if err != nil {
		t.Fatal(err)
	}
	own, opp := p.OwnOpp()
	if own != 0xF00 || opp != 0x7 {
		t.Fatalf("OwnOpp() = %x, %x; want Black's f00 and White's 7", own, opp)
	}
	if q := mill.FromOwnOpp(own, opp, mill.Black); q != p {
		t.Fatalf("FromOwnOpp = %v, want %v", q, p)
	}
	if q := mill.FromOwnOpp(opp, own, mill.White); q.White != p.White || q.Black != p.Black || q.ToMove != mill.White {
		t.Fatalf("FromOwnOpp(White) = %v", q)
	}
	if mill.White.Other() != mill.Black || mill.Black.Other() != mill.White {
		t.Fatal("Other")
	}
}

func TestMoveNotation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want mill.Move
		err  string
	}{
		{"1-2", mill.Move{From: 0, To: 1, Remove: mill.NoPoint}, ""},
		{"24-3x17", mill.Move{From: 23, To: 2, Remove: 16}, ""},
		{"12-4", mill.Move{From: 11, To: 3, Remove: mill.NoPoint}, ""},
		{"1", mill.Move{From: mill.NoPoint, To: 0, Remove: mill.NoPoint}, ""},
		{"24x3", mill.Move{From: mill.NoPoint, To: 23, Remove: 2}, ""},
		{"5x5", mill.Move{}, "removed stone is on the placed stone's point"},
		{"25", mill.Move{}, `placement point "25"`},
		{"x3", mill.Move{}, `placement point ""`},
		{"a", mill.Move{}, "a placement a or axc"},
		{"0-2", mill.Move{}, `from point "0", want 1 to 24`},
		{"1-25", mill.Move{}, `to point "25"`},
		{"1-2x", mill.Move{}, `removed point ""`},
		{"+1-2", mill.Move{}, `from point "+1"`},
		{"01-2", mill.Move{}, `from point "01"`},
		{"3-3", mill.Move{}, "same point"},
		{"3-4x4", mill.Move{}, "removed stone is on the moving stone's point"},
		{"1-2x3x4", mill.Move{}, `removed point "3x4"`},
	}
	for _, tt := range tests {
		m, err := mill.ParseMove(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, mill.ErrMove) {
				t.Errorf("ParseMove(%q) error = %v, want one containing %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || m != tt.want || m.String() != tt.in {
			t.Errorf("ParseMove(%q) = %+v (%v), %v; want %+v", tt.in, m, m, err, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"WWW.....BBB............. B", "WWWWWWWWWBBBBBBBBB...... W", " WWW.....BBB............. W W:0 B:0 ",
		"WWW.....BBB............. W W:1 B:0", "WW......BBB............. W", "WWWWWWWWWW..BBB......... W",
		"WWW.....BBB......é...... W", "WWW.....BBB............ W", "", "\xff", strings.Repeat("B", 100),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := mill.Parse(s)
		if err != nil {
			if p != (mill.Position{}) || !errors.Is(err, mill.ErrPosition) {
				t.Fatalf("Parse(%q): position %v with error %v", s, p, err)
			}
			// At most 80 input characters, each quoted in at most 10 bytes, and the reason.
			if len(err.Error()) > 80*10+200 {
				t.Fatalf("Parse(%q): error too long: %v", s, err)
			}
			return
		}
		if p.White&p.Black != 0 || (p.White|p.Black)&^mill.Full != 0 || p.ToMove > mill.Black {
			t.Fatalf("Parse(%q) = %+v: overlapping or off-board stones", s, p)
		}
		// A colour's stones on the board and in hand together: 3 to 9 (fewer than 3 on
		// the board while stones are still in hand).
		for _, c := range [][2]int{{bits.OnesCount32(p.White), p.WhiteHand}, {bits.OnesCount32(p.Black), p.BlackHand}} {
			if n := c[0] + c[1]; c[1] < 0 || n < mill.MinStones || n > mill.MaxStones {
				t.Fatalf("Parse(%q) = %v: %d stones on the board and %d in hand", s, p, c[0], c[1])
			}
		}
		q, err := mill.Parse(p.String())
		if err != nil || q != p {
			t.Fatalf("round trip of %q: %v, %v; want %v", s, q, err, p)
		}
	})
}
