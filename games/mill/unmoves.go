package mill

import "math/bits"

// Pred is a predecessor of a position: the position before Move, normalised to its side
// to move, which is the opponent of the position's side to move: Own are the stones of
// the side that made Move, Opp those of the side to move in the position (plus the stone
// Move removed, for a capture).
type Pred struct {
	Own, Opp uint32
	Move     Move
}

// MaxStones is the largest number of stones of a side in Nine Men's Morris.
const MaxStones = 9

// maxStones is the largest number of stones of a side in any rule set of the family
// (Twelve Men's Morris): the tables' bounds.
const maxStones = 12

// Predecessors appends to dst the predecessors of the position in which the side to move
// has the stones own (w of them) and the opponent the stones opp (b of them), and returns
// the extended slice; it does not allocate when dst has room. The opponent made the last
// move, from an empty point f to one of its stones t (f adjacent to t, or anywhere empty
// when b = 3):
//
//   - if the stone on t is in no mill of opp, the move closed none: the predecessor has
//     opp with t moved back to f and own unchanged (sector (b, w));
//   - if it is, the move closed a mill and removed a stone of own from an empty point
//     c ≠ f, where the removal was legal: c was in no mill of own+c, or every stone of
//     own+c was in a mill. Such predecessors have w+1 stones for the side that was
//     captured (sector (b, w+1)) and exist only when w is below the rule set's stones.
//
// Every predecessor lists the position among its Successors, and the other way round. It
// plays Nine Men's Morris.
func Predecessors(dst []Pred, own, opp uint32) []Pred { return nine.predecessors(dst, own, opp) }

// Predecessors is the package's Predecessors under the rule set (where a mill wins, a
// move closing one has no position after it, so no predecessor stands in a mill).
func (r *Rules) Predecessors(dst []Pred, own, opp uint32) []Pred {
	return r.compiled().predecessors(dst, own, opp)
}

func (v *variant) predecessors(dst []Pred, own, opp uint32) []Pred {
	empty := ^(own | opp) & v.full
	count := bits.OnesCount32(opp)
	canGrow := bits.OnesCount32(own) < v.stones && !v.millWins
	spots, spotsKnown := uint32(0), false
	for ts := opp; ts != 0; ts &= ts - 1 {
		t := bits.TrailingZeros32(ts)
		rest := opp &^ (1 << t)
		fs := v.spread(t, empty, count)
		if !v.inMill(opp, t) {
			for ; fs != 0; fs &= fs - 1 {
				f := bits.TrailingZeros32(fs)
				dst = append(dst, Pred{Own: rest | 1<<f, Opp: own, Move: Move{Point(f), Point(t), NoPoint}})
			}
			continue
		}
		if !canGrow {
			continue
		}
		if !spotsKnown {
			spots, spotsKnown = v.captureSpots(own, empty), true
		}
		for ; fs != 0; fs &= fs - 1 {
			f := bits.TrailingZeros32(fs)
			for cs := spots &^ (1 << f); cs != 0; cs &= cs - 1 {
				c := bits.TrailingZeros32(cs)
				dst = append(dst, Pred{Own: rest | 1<<f, Opp: own | 1<<c, Move: Move{Point(f), Point(t), Point(c)}})
			}
		}
	}
	return dst
}

// captureSpots returns the empty points c from which a stone of own could have been
// removed legally: c is in no mill of own+c, or every stone of own+c is in a mill.
func (v *variant) captureSpots(own, empty uint32) uint32 {
	var spots uint32
	for cs := empty; cs != 0; cs &= cs - 1 {
		c := bits.TrailingZeros32(cs)
		victims := own | 1<<c
		if !v.inMill(victims, c) || v.millStones(victims) == victims {
			spots |= 1 << c
		}
	}
	return spots
}
