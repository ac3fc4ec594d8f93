package mill

import (
	"math/bits"
	"strconv"
)

// Points is the number of points of Nine Men's Morris's board, the most of any board of
// the family: a mask of points is a uint32 of which bits 0..Points−1 may be set.
const Points = 24

// Full is the mask of all 24 points of Nine Men's Morris's board.
const Full uint32 = 1<<Points - 1

// Point is a point of the board, 0..23; point p is bit p of a mask and is written p+1.
type Point uint8

// NoPoint marks the absence of a point, e.g. the removed stone of a move without capture.
const NoPoint Point = 0xFF

// String writes the point as in the notation, 1..24 ("-" for NoPoint).
func (p Point) String() string {
	if p >= Points {
		return "-"
	}
	return strconv.Itoa(int(p) + 1)
}

// Bit is the mask of the single point p.
func (p Point) Bit() uint32 { return 1 << p }

// nine is the compiled Nine Men's Morris, which the package's functions without a rule
// set play.
var nine = Nine.compiled()

// adjacent is Nine Men's Morris's adjacency (for the tests).
var adjacent = nine.adjacent

// Adjacent returns the mask of the points joined to p by a line (2, 3 or 4 points) on
// Nine Men's Morris's board.
func Adjacent(p Point) uint32 { return nine.adjacent[p] }

// Mills returns the 16 mills of Nine Men's Morris as masks of three points: the four
// sides of the outer, middle and inner square, then the cross lines through 2, 4, 6 and 8.
func Mills() [16]uint32 { return [16]uint32(nine.millList) }

// MillsAt returns the two mills through p (every point of Nine's board lies on exactly two).
func MillsAt(p Point) [2]uint32 { return [2]uint32(nine.millsAt[p][:2]) }

// InMill reports whether the stones of mask form a complete mill through p (p itself must
// be in mask for that), on Nine Men's Morris's board.
func InMill(mask uint32, p Point) bool { return nine.inMill(mask, int(p)) }

// MillStones returns the stones of mask that lie in at least one complete mill of mask,
// on Nine Men's Morris's board.
func MillStones(mask uint32) uint32 { return nine.millStones(mask) }

// CanMove reports whether the side to move, with the stones own, has a legal move against
// the stones opp in Nine Men's Morris's moving phase. A side with 3 stones flies and can
// always move on a board with an empty point; a side without a legal move on its turn
// loses.
func CanMove(own, opp uint32) bool { return nine.canMove(own, opp) }

// complete returns the complete mills of mask, as a set of mill numbers: three lookups,
// whatever the board.
func (v *variant) complete(mask uint32) uint32 {
	return v.millIn[0][uint8(mask)] & v.millIn[1][uint8(mask>>8)] & v.millIn[2][uint8(mask>>16)]
}

// inMill reports whether mask holds a complete mill through p.
func (v *variant) inMill(mask uint32, p int) bool {
	return v.complete(mask)&v.pointMills[p] != 0
}

// millStones returns the stones of mask in at least one complete mill of mask.
func (v *variant) millStones(mask uint32) uint32 {
	c := v.complete(mask)
	return v.millUnion[0][uint8(c)] | v.millUnion[1][uint8(c>>8)] | v.millUnion[2][uint8(c>>16)]
}

// spread returns the points reachable in one move by a stone of a side with count stones
// standing on p, given the empty points: any empty point when the side flies, else the
// empty neighbours.
func (v *variant) spread(p int, empty uint32, count int) uint32 {
	if count == v.flyAt {
		return empty
	}
	return v.adjacent[p] & empty
}

// canMove reports whether the side to move, with the stones own, has a legal move in the
// moving phase against the stones opp.
func (v *variant) canMove(own, opp uint32) bool {
	empty := ^(own | opp) & v.full
	if bits.OnesCount32(own) == v.flyAt {
		return empty != 0
	}
	for r := own; r != 0; r &= r - 1 {
		if v.adjacent[bits.TrailingZeros32(r)]&empty != 0 {
			return true
		}
	}
	return false
}
