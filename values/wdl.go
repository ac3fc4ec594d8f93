package values

import "fmt"

// EncodingWDL is the code layout of two-player game tables: the value for the side to
// move and, for wins and losses, the remoteness r in plies to the end of the game under
// optimal play (the winner hurries, the loser delays). A game ends with the loser to move,
// so a loss has even remoteness and a win odd: the remoteness alone tells them apart.
//
//	code 0        a slot that is no position (a hole of the index scheme)
//	code 1        a draw
//	code 2 + r    remoteness r: a loss when r is even, a win when r is odd
//
// That holds while every game ends with the loser to move. A game some of whose positions
// are over as a win for the side to move (a win at remoteness 0) breaks the parity, and
// its tables use EncodingWDLSplit instead.
const EncodingWDL Encoding = "wdl-remoteness"

// EncodingWDLSplit is the code layout of two-player game tables in which wins and losses
// of any remoteness occur (games.OverWins): outcome and remoteness apart.
//
//	code 0          a slot that is no position
//	code 1          a draw
//	code 2 + 2r     a loss in r plies
//	code 3 + 2r     a win in r plies
//
// As in EncodingWDL, an even code from 2 up is a loss and an odd one from 3 up a win, and
// within each kind the code grows with the remoteness; so the rules that compare codes
// (CodeOfMoves, OutcomeCode) serve both layouts but for the step from a loss to the win
// it gives (WDLCodes.WinStep). Twice the codes of EncodingWDL: one bit more a position.
const EncodingWDLSplit Encoding = "wdl-remoteness-split"

// WDLCodes is the win/loss/draw encoding at a given width, in one of the two layouts:
// EncodingWDL (the zero value of Split) or EncodingWDLSplit.
type WDLCodes struct {
	Bits  int
	Split bool // outcome and remoteness apart (EncodingWDLSplit)
}

// WDLLayout returns the codes of a two-player encoding's layout (Bits unset), and false
// for an encoding that is none of EncodingWDL and EncodingWDLSplit.
func WDLLayout(encoding Encoding) (WDLCodes, bool) {
	switch encoding {
	case EncodingWDL:
		return WDLCodes{}, true
	case EncodingWDLSplit:
		return WDLCodes{Split: true}, true
	}
	return WDLCodes{}, false
}

// Encoding is the name of the layout.
func (e WDLCodes) Encoding() Encoding {
	if e.Split {
		return EncodingWDLSplit
	}
	return EncodingWDL
}

// WinStep is what a loss's code adds to give the code of the win one ply longer that a
// move to it gives the mover: 1 in EncodingWDL, 3 in EncodingWDLSplit.
func (e WDLCodes) WinStep() uint32 {
	if e.Split {
		return 3
	}
	return 1
}

// Codes of the WDL encoding that are no remoteness.
const (
	WDLHole = 0
	WDLDraw = 1
)

// WDLBits is the narrowest WDL encoding (EncodingWDL) that holds remoteness up to max.
func WDLBits(max uint64) (WDLCodes, error) { return WDLCodes{}.Narrowest(max) }

// Narrowest is the narrowest encoding of e's layout that holds remoteness up to max.
func (e WDLCodes) Narrowest(max uint64) (WDLCodes, error) {
	top := max + 2 // the largest code of EncodingWDL
	if e.Split {
		top = 2*max + 3
	}
	for b := 2; b <= 32; b++ {
		if top < uint64(1)<<b {
			return WDLCodes{Bits: b, Split: e.Split}, nil
		}
	}
	return WDLCodes{}, fmt.Errorf("values: remoteness %d does not fit 32-bit codes", max)
}

// Valid reports whether the width is one a WDL table can have.
func (e WDLCodes) Valid() bool { return e.Bits >= 2 && e.Bits <= 32 }

// Code is the code of a win or loss at remoteness r (in EncodingWDL the parity of r must
// match: a win at an even remoteness, or a loss at an odd one, has no code there).
func (e WDLCodes) Code(o Outcome, r int) uint32 {
	switch {
	case o == Draw:
		return WDLDraw
	case !e.Split:
		return uint32(r) + 2
	case o == Win:
		return 3 + 2*uint32(r)
	}
	return 2 + 2*uint32(r)
}

// Max16 is the largest remoteness whose codes fit 16 bits in e's layout (the width the
// engines hold codes in): 65533 in EncodingWDL, 32766 in EncodingWDLSplit.
func (e WDLCodes) Max16() int {
	if e.Split {
		return (0xFFFF - 3) / 2
	}
	return 0xFFFF - 2
}

// Holds reports whether outcome o at remoteness r has a code in e's layout.
func (e WDLCodes) Holds(o Outcome, r int) bool {
	switch o {
	case Draw:
		return true
	case Win:
		return e.Split || r%2 == 1
	case Loss:
		return e.Split || r%2 == 0
	}
	return false
}

// Decode reads code c. ok is false for a hole.
func (e WDLCodes) Decode(c uint32) (o Outcome, remoteness int, ok bool) {
	r := c - 2
	if e.Split {
		r = (c - 2) >> 1
	}
	switch {
	case c == WDLHole:
		return 0, 0, false
	case c == WDLDraw:
		return Draw, 0, true
	case c&1 == 0:
		return Loss, int(r), true
	default:
		return Win, int(r), true
	}
}

// WDLSummary is what the per-code counts of a WDL table say.
type WDLSummary struct {
	Wins, Losses, Draws, Holes uint64
	MaxWin, MaxLoss            int // the largest remoteness of a win / a loss (-1: none)
}

// Summary reads the per-code counts of a WDL table.
func (e WDLCodes) Summary(codeCounts []uint64) WDLSummary {
	s := WDLSummary{MaxWin: -1, MaxLoss: -1}
	for c, k := range codeCounts {
		if k == 0 {
			continue
		}
		o, r, ok := e.Decode(uint32(c))
		switch {
		case !ok:
			s.Holes += k
		case o == Draw:
			s.Draws += k
		case o == Win:
			s.Wins += k
			s.MaxWin = max(s.MaxWin, r)
		default:
			s.Losses += k
			s.MaxLoss = max(s.MaxLoss, r)
		}
	}
	return s
}
