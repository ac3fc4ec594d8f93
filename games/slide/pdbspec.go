package slide

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxPDBSlots bounds the abstract space of one group (placements times blank slots): the
// search keeps three bitsets of this many bits.
const MaxPDBSlots = 1 << 34

// PDBSpec describes an additive pattern-database set: the board, the goal and disjoint
// groups of tiles.
type PDBSpec struct {
	Rows, Cols int
	Goal       string    // blank-last (default) or blank-first
	Groups     [][]uint8 // disjoint sets of tiles 1..Rows*Cols-1
}

// Normalize checks the spec, fills in the defaults and sorts each group's tiles. Errors
// name the bad input.
func (sp *PDBSpec) Normalize() error {
	geo, err := NewGeometry(sp.Rows, sp.Cols)
	if err != nil {
		return err
	}
	if sp.Goal == "" {
		sp.Goal = BlankLast.String()
	}
	if _, err := ParseGoal(sp.Goal); err != nil {
		return err
	}
	n := geo.Cells()
	if len(sp.Groups) == 0 {
		return errors.New("slide: no tile groups")
	}
	owner := make(map[uint8]int)
	for g, tiles := range sp.Groups {
		if len(tiles) == 0 {
			return fmt.Errorf("slide: group %d is empty", g+1)
		}
		for _, t := range tiles {
			switch {
			case t == 0:
				return fmt.Errorf("slide: group %d holds tile 0, the blank; groups list tiles 1..%d", g+1, n-1)
			case int(t) >= n:
				return fmt.Errorf("slide: group %d holds tile %d; a %d×%d board has tiles 1..%d", g+1, t, sp.Rows, sp.Cols, n-1)
			}
			if o, dup := owner[t]; dup {
				if o == g {
					return fmt.Errorf("slide: group %d lists tile %d twice", g+1, t)
				}
				return fmt.Errorf("slide: tile %d is in groups %d and %d; groups must be disjoint", t, o+1, g+1)
			}
			owner[t] = g
		}
		if len(tiles) > n-3 {
			// With fewer than two other tiles the blank cannot reach every placement
			// (the puzzle's parity shows through); such a group is the whole puzzle.
			return fmt.Errorf("slide: group %d has %d tiles; a group of a %d×%d board holds at most %d, leaving two tiles out (for the whole puzzle use `build slide`)",
				g+1, len(tiles), sp.Rows, sp.Cols, n-3)
		}
		sp.Groups[g] = slices.Sorted(slices.Values(tiles))
		if slots, ok := PDBSlots(n, len(tiles)); !ok || slots > MaxPDBSlots {
			return fmt.Errorf("slide: group %d has %d tiles: %d!/%d! placements times the blank's cells is too large (at most %d abstract states); use smaller groups",
				g+1, len(tiles), n, n-len(tiles), uint64(MaxPDBSlots))
		}
	}
	return nil
}

// ParsePDBGroups parses "1,2,3/4,5,6" (groups separated by "/", tiles by ",").
func ParsePDBGroups(s string) ([][]uint8, error) {
	var groups [][]uint8
	for i, part := range strings.Split(s, "/") {
		var g []uint8
		for _, f := range strings.Split(part, ",") {
			f = strings.TrimSpace(f)
			v, err := strconv.Atoi(f)
			if err != nil || v < 0 || v > 255 {
				return nil, fmt.Errorf("slide: group %d of %q: %q is not a tile number", i+1, s, f)
			}
			g = append(g, uint8(v))
		}
		groups = append(groups, g)
	}
	return groups, nil
}

// PDBPartition expands a shorthand like "7-8" or "6-6-3" into groups of consecutive
// tiles (7-8: tiles 1–7 and 8–15). The sizes must add up to the board's tiles.
func PDBPartition(s string, rows, cols int) ([][]uint8, error) {
	n := rows * cols
	var sizes []int
	total := 0
	for _, f := range strings.Split(s, "-") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 || k > n {
			return nil, fmt.Errorf("slide: partition %q: %q is not a group size", s, f)
		}
		sizes = append(sizes, k)
		total += k
	}
	if total != n-1 {
		return nil, fmt.Errorf("slide: partition %q covers %d tiles; a %d×%d board has %d", s, total, rows, cols, n-1)
	}
	var groups [][]uint8
	next := uint8(1)
	for _, k := range sizes {
		var g []uint8
		for range k {
			g = append(g, next)
			next++
		}
		groups = append(groups, g)
	}
	return groups, nil
}
