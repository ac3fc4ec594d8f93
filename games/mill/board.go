package mill

import (
	"math/bits"
	"strconv"
)

// Points is the number of points of the board.
const Points = 24

// Full is the mask of all 24 points.
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

// The board is three squares of eight points, one byte of a mask each: outer (points
// 1–8, byte 0), middle (9–16, byte 1), inner (17–24, byte 2). Within a square, index j
// (0..7) runs clockwise from the top-left corner: even j are corners, odd j the midpoints
// of the sides, which the cross lines join to the same midpoint of the other squares.
const (
	cornerBits = 0x55 // j = 0, 2, 4, 6 within a square byte
	midBits    = 0xAA // j = 1, 3, 5, 7
)

var (
	adjacent [Points]uint32    // adjacent[p]: the points joined to p by a line
	millList [16]uint32        // the 16 mills: 12 square sides, then 4 cross lines
	millsAt  [Points][2]uint32 // millsAt[p]: the two mills through p
	// sideMills[x] is the set of points of the square byte x that lie in a complete side
	// mill of that square (cross lines are handled apart).
	sideMills [256]uint8
)

func init() {
	for p := range Points {
		s, j := p/8, p%8
		adjacent[p] |= 1<<(8*s+(j+1)%8) | 1<<(8*s+(j+7)%8)
		if j%2 == 1 {
			if s > 0 {
				adjacent[p] |= 1 << (p - 8)
			}
			if s < 2 {
				adjacent[p] |= 1 << (p + 8)
			}
		}
	}
	n := 0
	for s := range 3 {
		for j := 0; j < 8; j += 2 {
			millList[n] = 1<<(8*s+j) | 1<<(8*s+j+1) | 1<<(8*s+(j+2)%8)
			n++
		}
	}
	for j := 1; j < 8; j += 2 {
		millList[n] = 0x010101 << j
		n++
	}
	var count [Points]int
	for _, m := range millList {
		for r := m; r != 0; r &= r - 1 {
			p := bits.TrailingZeros32(r)
			millsAt[p][count[p]] = m
			count[p]++
		}
	}
	for x := range 256 {
		var in uint8
		for j := 0; j < 8; j += 2 {
			side := uint8(1<<j | 1<<(j+1) | 1<<((j+2)%8))
			if uint8(x)&side == side {
				in |= side
			}
		}
		sideMills[x] = in
	}
}

// Adjacent returns the mask of the points joined to p by a line (2, 3 or 4 points).
func Adjacent(p Point) uint32 { return adjacent[p] }

// Mills returns the 16 mills as masks of three points: the four sides of the outer,
// middle and inner square, then the cross lines through 2, 4, 6 and 8.
func Mills() [16]uint32 { return millList }

// MillsAt returns the two mills through p (every point lies on exactly two).
func MillsAt(p Point) [2]uint32 { return millsAt[p] }

// InMill reports whether the stones of mask form a complete mill through p (p itself must
// be in mask for that).
func InMill(mask uint32, p Point) bool {
	m := &millsAt[p]
	return mask&m[0] == m[0] || mask&m[1] == m[1]
}

// MillStones returns the stones of mask that lie in at least one complete mill of mask.
func MillStones(mask uint32) uint32 {
	b0, b1, b2 := uint8(mask), uint8(mask>>8), uint8(mask>>16)
	cross := uint32(b0 & b1 & b2 & midBits)
	return uint32(sideMills[b0]) | uint32(sideMills[b1])<<8 | uint32(sideMills[b2])<<16 | cross*0x010101
}

// spread returns the points reachable in one move by a stone of a side with count stones
// standing on p, given the empty points: any empty point when the side flies (exactly 3
// stones), else the empty neighbours.
func spread(p int, empty uint32, count int) uint32 {
	if count == 3 {
		return empty
	}
	return adjacent[p] & empty
}

// CanMove reports whether the side to move, with the stones own, has a legal move against
// the stones opp. A side with 3 stones flies and can always move on a board with an empty
// point; a side without a legal move on its turn loses.
func CanMove(own, opp uint32) bool {
	empty := ^(own | opp) & Full
	if bits.OnesCount32(own) == 3 {
		return empty != 0
	}
	for r := own; r != 0; r &= r - 1 {
		if adjacent[bits.TrailingZeros32(r)]&empty != 0 {
			return true
		}
	}
	return false
}
