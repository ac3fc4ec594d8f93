package milloracle

import "fmt"

// The board, written out by hand from the drawing in docs/DESIGN.md:
//
//	1-----------2-----------3
//	|   9-------10------11  |
//	|   |   17--18--19  |   |
//	8---16--24      20--12--4
//	|   |   23--22--21  |   |
//	|   15------14------13  |
//	7-----------6-----------5
//
// Points are numbered 1..24 as in the drawing; in a stone mask, bit p-1 stands
// for point p.

// NumPoints is the number of points on the board.
const NumPoints = 24

// allPoints is the mask with every point set.
const allPoints uint32 = 1<<NumPoints - 1

// edges lists the 32 lines joining adjacent points: the sides of the three
// squares (consecutive points, 8 next to 1, 16 next to 9, 24 next to 17) and
// the four cross lines 2-10-18, 4-12-20, 6-14-22, 8-16-24.
var edges = [32][2]int{
	// outer square
	{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 1},
	// middle square
	{9, 10}, {10, 11}, {11, 12}, {12, 13}, {13, 14}, {14, 15}, {15, 16}, {16, 9},
	// inner square
	{17, 18}, {18, 19}, {19, 20}, {20, 21}, {21, 22}, {22, 23}, {23, 24}, {24, 17},
	// cross lines
	{2, 10}, {10, 18},
	{4, 12}, {12, 20},
	{6, 14}, {14, 22},
	{8, 16}, {16, 24},
}

// mills lists the 16 mills: the four sides of each square and the four cross
// lines.
var mills = [16][3]int{
	// outer square
	{1, 2, 3}, {3, 4, 5}, {5, 6, 7}, {7, 8, 1},
	// middle square
	{9, 10, 11}, {11, 12, 13}, {13, 14, 15}, {15, 16, 9},
	// inner square
	{17, 18, 19}, {19, 20, 21}, {21, 22, 23}, {23, 24, 17},
	// cross lines
	{2, 10, 18}, {4, 12, 20}, {6, 14, 22}, {8, 16, 24},
}

// bit returns the mask of point p (1..24).
func bit(p int) uint32 { return 1 << (p - 1) }

// neighbours[p] is the mask of the points adjacent to point p (index 0 unused).
var neighbours [NumPoints + 1]uint32

// millMasks[i] is the mask of mills[i].
var millMasks [len(mills)]uint32

// millsThrough[p] holds the masks of the two mills that contain point p.
var millsThrough [NumPoints + 1][2]uint32

func init() {
	for _, e := range edges {
		neighbours[e[0]] |= bit(e[1])
		neighbours[e[1]] |= bit(e[0])
	}
	for i, m := range mills {
		millMasks[i] = bit(m[0]) | bit(m[1]) | bit(m[2])
		for _, p := range m {
			if millsThrough[p][0] == 0 {
				millsThrough[p][0] = millMasks[i]
			} else if millsThrough[p][1] == 0 {
				millsThrough[p][1] = millMasks[i]
			} else {
				panic(fmt.Sprintf("milloracle: point %d in more than two mills", p))
			}
		}
	}
}
