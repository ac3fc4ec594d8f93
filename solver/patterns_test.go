package solver

import (
	"fmt"

	"github.com/tablesmith/tablesmith/games/slide"
)

// maxPatternSlots bounds one group's search table (cells of the group's tiles and of
// the blank, packed): 2^26 bytes. That admits every group of the 8-puzzle and groups of
// up to 5 tiles on the 15-puzzle; larger sets are built to files by the builder.
const maxPatternSlots = 1 << 26

// Patterns is a PatternSet held in memory, built in-process by BuildPatterns. A
// group's value for a placement of its tiles is the fewest moves of those tiles that
// bring them to their goal cells, minimised over the blank's cell, where moves of other
// tiles are free: the standard disjoint additive pattern database (Korf & Felner 2002).
//
// Its index is the group's cells packed in 4-bit fields (5-bit beyond 16 cells), so the
// table has holes but the lookup is a few shifts. It is meant for small boards, for
// tests and as an independent oracle for pattern databases read from files.
type Patterns struct {
	rows, cols int
	goal       slide.Goal
	bits       uint
	groups     [][]uint8
	groupOf    [slide.MaxCells]int8
	tables     [][]uint8
}

var _ PatternSet = (*Patterns)(nil)

// BuildPatterns builds the pattern databases of groups (disjoint sets of tiles, not
// the blank) for geo and goal by 0-1 breadth-first search from the goal placement.
// The error names a bad group or one too large to build in memory.
func BuildPatterns(geo *slide.Geometry, goal slide.Goal, groups [][]uint8) (*Patterns, error) {
	n := geo.Cells()
	p := &Patterns{rows: geo.Rows, cols: geo.Cols, goal: goal, bits: 4}
	if n > 16 {
		p.bits = 5
	}
	for t := range p.groupOf {
		p.groupOf[t] = -1
	}
	for g, tiles := range groups {
		if len(tiles) == 0 {
			return nil, fmt.Errorf("solver: pattern group %d is empty", g)
		}
		if slots := uint64(1) << (p.bits * uint(len(tiles)+1)); slots > maxPatternSlots || len(tiles) >= n {
			return nil, fmt.Errorf("solver: pattern group %d has %d tiles; in memory a %v group has at most %d",
				g, len(tiles), geo, maxGroupTiles(p.bits, n))
		}
		for _, t := range tiles {
			switch {
			case t == 0 || int(t) >= n:
				return nil, fmt.Errorf("solver: pattern group %d has tile %d, want tiles 1..%d", g, t, n-1)
			case p.groupOf[t] >= 0:
				return nil, fmt.Errorf("solver: tile %d is in pattern groups %d and %d; groups must be disjoint", t, p.groupOf[t], g)
			}
			p.groupOf[t] = int8(g)
		}
		p.groups = append(p.groups, append([]uint8(nil), tiles...))
	}
	for _, tiles := range p.groups {
		p.tables = append(p.tables, buildGroup(geo, goal, tiles, p.bits))
	}
	return p, nil
}

func maxGroupTiles(bits uint, n int) int {
	k := 0
	for uint64(1)<<(bits*uint(k+2)) <= maxPatternSlots && k+2 < n {
		k++
	}
	return k
}

// buildGroup runs the 0-1 BFS over placements of tiles plus the blank (field k of the
// packed index is the blank): sliding a group tile costs 1, sliding any other tile —
// the blank wandering among non-group cells — costs 0. The value of a placement of
// the group is the minimum over the blank's cells.
func buildGroup(geo *slide.Geometry, goal slide.Goal, tiles []uint8, bits uint) []uint8 {
	const unset = 0xff
	k := len(tiles)
	mask := uint32(1)<<bits - 1
	full := make([]uint8, 1<<(bits*uint(k+1)))
	for i := range full {
		full[i] = unset
	}
	gb := geo.GoalBoard(goal)
	var goalCell [slide.MaxCells]uint32
	for c, t := range gb {
		goalCell[t] = uint32(c)
	}
	var start uint32
	for i, t := range tiles {
		start |= goalCell[t] << (bits * uint(i))
	}
	start |= goalCell[0] << (bits * uint(k))
	full[start] = 0

	// Buckets by distance: a state popped with a larger distance than its final one is
	// stale and skipped; 0-cost successors join the current bucket.
	cur, next := []uint32{start}, []uint32(nil)
	var cells [slide.MaxCells + 1]uint32
	for d := 0; len(cur) > 0; d++ {
		for len(cur) > 0 {
			s := cur[len(cur)-1]
			cur = cur[:len(cur)-1]
			if int(full[s]) != d {
				continue
			}
			var occupied uint32 // bitmask of the group's cells
			for i := range k + 1 {
				cells[i] = s >> (bits * uint(i)) & mask
				if i < k {
					occupied |= 1 << cells[i]
				}
			}
			blank := cells[k]
			for _, nb := range geo.Neighbors(int(blank)) {
				c := uint32(nb)
				t := s&^(mask<<(bits*uint(k))) | c<<(bits*uint(k))
				cost := 0
				if occupied&(1<<c) != 0 {
					cost = 1
					for i := range k {
						if cells[i] == c {
							t = t&^(mask<<(bits*uint(i))) | blank<<(bits*uint(i))
							break
						}
					}
				}
				if nd := d + cost; full[t] == unset || int(full[t]) > nd {
					full[t] = uint8(nd)
					if cost == 0 {
						cur = append(cur, t)
					} else {
						next = append(next, t)
					}
				}
			}
		}
		cur, next = next, cur[:0]
	}

	table := make([]uint8, 1<<(bits*uint(k)))
	for i := range table {
		table[i] = unset
	}
	low := uint32(1)<<(bits*uint(k)) - 1
	for s, v := range full {
		if v != unset && v < table[uint32(s)&low] {
			table[uint32(s)&low] = v
		}
	}
	return table
}

// Rows returns the board's rows.
func (p *Patterns) Rows() int { return p.rows }

// Cols returns the board's columns.
func (p *Patterns) Cols() int { return p.cols }

// Goal returns the goal's spelling, "blank-first" or "blank-last".
func (p *Patterns) Goal() string { return p.goal.String() }

// Groups returns the tiles of each group (shared; do not modify).
func (p *Patterns) Groups() [][]uint8 { return p.groups }

// GroupOf returns tile's group, or -1.
func (p *Patterns) GroupOf(tile uint8) int {
	if int(tile) >= len(p.groupOf) {
		return -1
	}
	return int(p.groupOf[tile])
}

// GroupValue returns group g's value for pos (pos[tile] = cell).
func (p *Patterns) GroupValue(g int, pos []uint8) int {
	var idx uint32
	for i, t := range p.groups[g] {
		idx |= uint32(pos[t]) << (p.bits * uint(i))
	}
	return int(p.tables[g][idx])
}

// H returns the sum of the group values for pos.
func (p *Patterns) H(pos []uint8) int {
	s := 0
	for g := range p.groups {
		s += p.GroupValue(g, pos)
	}
	return s
}
