package milloracle

import "math/bits"

// A move is generated from the point of view of the side to move: mover is the
// mask of its stones, opp the mask of the opponent's. After the move the
// opponent is to move.

// succ is one successor position, given as the new masks of the stones of the
// side that just moved and of the side now to move.
type succ struct {
	moved  uint32 // stones of the side that made the move
	toMove uint32 // stones of the side to move in the successor
}

// closesMill reports whether the stone that arrived on point to, in the new
// stone mask mover, stands in a complete mill of mover's stones: that is, the
// move closed a mill (one or two at once, it makes no difference).
func closesMill(mover uint32, to int) bool {
	m0, m1 := millsThrough[to][0], millsThrough[to][1]
	return mover&m0 == m0 || mover&m1 == m1
}

// inMills returns the stones of stones that stand in a complete mill of
// stones.
func inMills(stones uint32) uint32 {
	var in uint32
	for _, m := range millMasks {
		if stones&m == m {
			in |= m
		}
	}
	return in
}

// removable returns the opponent stones that a closed mill may take: the ones
// not standing in an opponent mill, or all of them when every opponent stone
// stands in a mill.
func removable(opp uint32) uint32 {
	free := opp &^ inMills(opp)
	if free != 0 {
		return free
	}
	return opp
}

// successors appends to buf[:0] every position reached by one legal move of
// the side with stones mover against the stones opp, and returns it. A slide
// goes to an adjacent empty point; a side with exactly 3 stones flies to any
// empty point. A move that closes a mill yields one successor per removable
// opponent stone. An empty result means the side to move has no legal move.
func successors(mover, opp uint32, buf []succ) []succ {
	buf = buf[:0]
	empty := allPoints &^ (mover | opp)
	flying := bits.OnesCount32(mover) == 3
	take := removable(opp)
	for from := mover; from != 0; from &= from - 1 {
		f := bits.TrailingZeros32(from) + 1
		targets := neighbours[f] & empty
		if flying {
			targets = empty
		}
		for to := targets; to != 0; to &= to - 1 {
			t := bits.TrailingZeros32(to) + 1
			moved := mover&^bit(f) | bit(t)
			if !closesMill(moved, t) {
				buf = append(buf, succ{moved, opp})
				continue
			}
			for c := take; c != 0; c &= c - 1 {
				buf = append(buf, succ{moved, opp &^ (c & -c)})
			}
		}
	}
	return buf
}
