package milloracle

import "fmt"

// The 16 board symmetries are derived from coordinates of the drawing: the
// centre of the board is (0, 0), x grows to the right and y upwards, and the
// outer, middle and inner squares have half-widths 3, 2 and 1. Point k of a
// square (k = 0..7, clockwise from the top-left corner: 1, 2, … 8 on the
// outer square) sits at step[k] times the half-width.
var step = [8][2]int{
	{-1, 1},  // top-left corner
	{0, 1},   // top
	{1, 1},   // top-right corner
	{1, 0},   // right
	{1, -1},  // bottom-right corner
	{0, -1},  // bottom
	{-1, -1}, // bottom-left corner
	{-1, 0},  // left
}

// coordOf returns the coordinates of point p (1..24).
func coordOf(p int) (x, y int) {
	square, k := (p-1)/8, (p-1)%8
	d := 3 - square // outer 3, middle 2, inner 1
	return step[k][0] * d, step[k][1] * d
}

// pointAt returns the point at (x, y), or 0 when there is none.
func pointAt(x, y int) int {
	for p := 1; p <= NumPoints; p++ {
		if px, py := coordOf(p); px == x && py == y {
			return p
		}
	}
	return 0
}

// squareMaps are the 8 symmetries of the square acting on coordinates: the
// four rotations and the four reflections.
var squareMaps = [8]func(x, y int) (int, int){
	func(x, y int) (int, int) { return x, y },   // identity
	func(x, y int) (int, int) { return y, -x },  // rotate 90° clockwise
	func(x, y int) (int, int) { return -x, -y }, // rotate 180°
	func(x, y int) (int, int) { return -y, x },  // rotate 270° clockwise
	func(x, y int) (int, int) { return -x, y },  // mirror left-right
	func(x, y int) (int, int) { return x, -y },  // mirror top-bottom
	func(x, y int) (int, int) { return y, x },   // mirror in the diagonal y = x
	func(x, y int) (int, int) { return -y, -x }, // mirror in the diagonal y = -x
}

// swapSquares exchanges the inner and the outer square, keeping the middle
// one: a point at half-width d moves to half-width 4-d on the same ray.
func swapSquares(x, y int) (int, int) {
	d := max(abs(x), abs(y))
	return x / d * (4 - d), y / d * (4 - d)
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// NumSymmetries is the number of board symmetries.
const NumSymmetries = 16

// symmetries[s][p] is the image of point p under symmetry s (index 0 unused).
// Symmetry s applies squareMaps[s%8], after swapping the inner and outer
// squares when s ≥ 8. Symmetry 0 is the identity.
var symmetries [NumSymmetries][NumPoints + 1]int

// symByte[s][i][v] is the image under symmetry s of the mask v<<(8i): a mask
// maps byte by byte.
var symByte [NumSymmetries][3][256]uint32

func init() {
	for s := range NumSymmetries {
		for p := 1; p <= NumPoints; p++ {
			x, y := coordOf(p)
			if s >= 8 {
				x, y = swapSquares(x, y)
			}
			x, y = squareMaps[s%8](x, y)
			q := pointAt(x, y)
			if q == 0 {
				panic(fmt.Sprintf("milloracle: symmetry %d maps point %d off the board", s, p))
			}
			symmetries[s][p] = q
		}
		for i := range 3 {
			for v := range 256 {
				var m uint32
				for j := range 8 {
					if v&(1<<j) != 0 {
						m |= bit(symmetries[s][8*i+j+1])
					}
				}
				symByte[s][i][v] = m
			}
		}
	}
}

// Symmetry returns the image of point p (1..24) under board symmetry s
// (0..15), symmetry 0 being the identity.
func Symmetry(s, p int) int { return symmetries[s][p] }

// mapMask returns the image of a stone mask under symmetry s.
func mapMask(s int, m uint32) uint32 {
	return symByte[s][0][m&0xff] | symByte[s][1][m>>8&0xff] | symByte[s][2][m>>16&0xff]
}

// canonical returns the least key (mover<<24 | opp) over the 16 images of a
// position given from the side to move: the name of its symmetry class.
func canonical(mover, opp uint32) uint64 {
	best := ^uint64(0)
	for s := range NumSymmetries {
		if k := uint64(mapMask(s, mover))<<24 | uint64(mapMask(s, opp)); k < best {
			best = k
		}
	}
	return best
}

// IsCanonical reports whether the position (stones of the side to move, stones
// of the opponent) is the representative of its symmetry class: the one whose
// key mover<<24|opp is least among its 16 images.
func IsCanonical(mover, opp uint32) bool {
	return canonical(mover, opp) == uint64(mover)<<24|uint64(opp)
}
