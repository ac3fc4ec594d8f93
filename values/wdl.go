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
const EncodingWDL = "wdl-remoteness"

// WDLCodes is the win/loss/draw encoding at a given width.
type WDLCodes struct{ Bits int }

// Codes of the WDL encoding that are no remoteness.
const (
	WDLHole = 0
	WDLDraw = 1
)

// WDLBits is the narrowest WDL encoding that holds remoteness up to max.
func WDLBits(max uint64) (WDLCodes, error) {
	for b := 2; b <= 32; b++ {
		if max+2 < uint64(1)<<b {
			return WDLCodes{Bits: b}, nil
		}
	}
	return WDLCodes{}, fmt.Errorf("values: remoteness %d does not fit 32-bit codes", max)
}

// Valid reports whether the width is one a WDL table can have.
func (e WDLCodes) Valid() bool { return e.Bits >= 2 && e.Bits <= 32 }

// Code is the code of a win or loss at remoteness r (the parity of r must match).
func (WDLCodes) Code(o Outcome, r int) uint32 {
	if o == Draw {
		return WDLDraw
	}
	return uint32(r) + 2
}

// Decode reads code c. ok is false for a hole.
func (WDLCodes) Decode(c uint32) (o Outcome, remoteness int, ok bool) {
	switch {
	case c == WDLHole:
		return 0, 0, false
	case c == WDLDraw:
		return Draw, 0, true
	case (c-2)&1 == 0:
		return Loss, int(c - 2), true
	default:
		return Win, int(c - 2), true
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
