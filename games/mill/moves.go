package mill

import (
	"math/bits"
	"strings"
)

// Move is a move of the side to move: a stone slides or flies from From to To, or is
// placed on To from the hand (From = NoPoint); when it closes a mill, the opponent's stone
// on Remove is taken (Remove = NoPoint otherwise).
type Move struct {
	From, To, Remove Point
}

// Placement reports whether the move places a stone from the hand.
func (m Move) Placement() bool { return m.From == NoPoint }

// Capture reports whether the move removes an opponent stone.
func (m Move) Capture() bool { return m.Remove != NoPoint }

// String writes the move as "a-b", or "a-bxc" for a capture, and a placement as "b" or
// "bxc", with 1-based points.
func (m Move) String() string {
	var sb strings.Builder
	if !m.Placement() {
		sb.WriteString(m.From.String())
		sb.WriteByte('-')
	}
	sb.WriteString(m.To.String())
	if m.Capture() {
		sb.WriteByte('x')
		sb.WriteString(m.Remove.String())
	}
	return sb.String()
}

// Succ is a successor of a position: the position after Move, normalised to the new side
// to move (the old opponent): Own are the stones of the side now to move, Opp those of the
// side that just moved. After a capture Own has one stone fewer; with 2 stones left
// (bits.OnesCount32(Own) == 2) the successor is terminal: the side to move has lost.
type Succ struct {
	Own, Opp uint32
	Move     Move
	// End says whether the move ended the game at once (Three and Twelve Men's Morris);
	// one field, not two, so that a Succ stays four words the compiler keeps in
	// registers.
	End Ending
}

// Ending says how a move ended the game at once, if it did.
type Ending uint8

const (
	// NotOver: the game goes on (or ends by the count of the stones left, as Succ says).
	NotOver Ending = iota
	// MillWon: the move closed a mill where a mill wins; the side now to move has lost.
	MillWon
	// BoardFilled: the placement filled the board where that draws.
	BoardFilled
)

// removable returns the opponent stones a capture may take: those in no mill, or all of
// them when every stone is in a mill.
func (v *variant) removable(opp uint32) uint32 {
	if r := opp &^ v.millStones(opp); r != 0 {
		return r
	}
	return opp
}

// Successors appends to dst the successors of the position of Nine Men's Morris's moving
// phase in which the side to move has the stones own and the opponent the stones opp, and
// returns the extended slice. It does not allocate when dst has room. A capturing move
// gives one successor per stone it may remove. No successors means the side to move is
// blocked and has lost.
func Successors(dst []Succ, own, opp uint32) []Succ { return nine.successors(dst, own, opp) }

// Successors is the package's Successors under the rule set; where a mill wins, a move
// closing one gives one successor, marked MillWon.
func (r *Rules) Successors(dst []Succ, own, opp uint32) []Succ {
	return r.compiled().successors(dst, own, opp)
}

func (v *variant) successors(dst []Succ, own, opp uint32) []Succ {
	empty := ^(own | opp) & v.full
	victims := v.removable(opp)
	count := bits.OnesCount32(own)
	for fs := own; fs != 0; fs &= fs - 1 {
		f := bits.TrailingZeros32(fs)
		rest := own &^ (1 << f)
		for ts := v.spread(f, empty, count); ts != 0; ts &= ts - 1 {
			t := bits.TrailingZeros32(ts)
			moved := rest | 1<<t
			if !v.inMill(moved, t) {
				dst = append(dst, Succ{Own: opp, Opp: moved, Move: Move{Point(f), Point(t), NoPoint}})
				continue
			}
			if v.millWins {
				dst = append(dst, Succ{Own: opp, Opp: moved, Move: Move{Point(f), Point(t), NoPoint}, End: MillWon})
				continue
			}
			for cs := victims; cs != 0; cs &= cs - 1 {
				c := bits.TrailingZeros32(cs)
				dst = append(dst, Succ{Own: opp &^ (1 << c), Opp: moved, Move: Move{Point(f), Point(t), Point(c)}})
			}
		}
	}
	return dst
}

// Placements appends to dst the successors of a placement-phase position in which the
// side to move, holding a stone in hand, has the stones own on the board and the opponent
// the stones opp: a stone placed on each empty point, and where it closes a mill (one or
// two at once) one successor per opponent stone it may remove (none when the opponent has
// no stone on the board). Successors are normalised as in Successors. It does not
// allocate when dst has room. It plays Nine Men's Morris.
func Placements(dst []Succ, own, opp uint32) []Succ { return nine.placements(dst, own, opp) }

// Placements is the package's Placements under the rule set; where a mill wins, a
// placement closing one gives one successor, marked MillWon, and where a full board
// draws, the placement filling it is marked BoardFilled.
func (r *Rules) Placements(dst []Succ, own, opp uint32) []Succ {
	return r.compiled().placements(dst, own, opp)
}

func (v *variant) placements(dst []Succ, own, opp uint32) []Succ {
	empty := ^(own | opp) & v.full
	victims := v.removable(opp)
	for ts := empty; ts != 0; ts &= ts - 1 {
		t := bits.TrailingZeros32(ts)
		placed := own | 1<<t
		if v.millWins && v.inMill(placed, t) {
			dst = append(dst, Succ{Own: opp, Opp: placed, Move: Move{NoPoint, Point(t), NoPoint}, End: MillWon})
			continue
		}
		if opp == 0 || !v.inMill(placed, t) {
			end := NotOver
			if placed|opp == v.drawFull {
				end = BoardFilled
			}
			dst = append(dst, Succ{Own: opp, Opp: placed, Move: Move{NoPoint, Point(t), NoPoint}, End: end})
			continue
		}
		for cs := victims; cs != 0; cs &= cs - 1 {
			c := bits.TrailingZeros32(cs)
			dst = append(dst, Succ{Own: opp &^ (1 << c), Opp: placed, Move: Move{NoPoint, Point(t), Point(c)}})
		}
	}
	return dst
}
