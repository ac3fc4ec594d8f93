package slide

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/index"
)

// PDBGroup is one group of an additive pattern-database set as its file is read: the
// placements of the group's k tiles on the n cells, ranked by index.PartialPerm (entry r
// holds the placement of rank r, cells listed in the order of the group's tiles), the
// Manhattan distance of each placement, and the lookup of a whole board. It is immutable
// and safe for concurrent use.
type PDBGroup struct {
	p     PDBParams
	geo   *Geometry
	goal  Goal
	tiles []uint8
	pp    *index.PartialPerm
	md    [][MaxCells]uint8 // md[i][c]: Manhattan distance of tiles[i] on cell c
	home  []uint8           // home[i]: the goal cell of tiles[i]
	nb    [MaxCells]uint32  // nb[c]: the cells adjacent to c
}

// NewPDBGroup checks p and prepares the group's tables.
func NewPDBGroup(p PDBParams) (*PDBGroup, error) {
	geo, err := NewGeometry(p.Rows, p.Cols)
	if err != nil {
		return nil, err
	}
	goal, err := ParseGoal(p.Goal)
	if err != nil {
		return nil, err
	}
	tiles, err := p.TilesUint8()
	if err != nil {
		return nil, err
	}
	n, k := geo.Cells(), len(tiles)
	if k == 0 || k > n-3 {
		return nil, fmt.Errorf("slide: a pattern-database group of %d tiles on a %v board (want 1..%d)", k, geo, n-3)
	}
	for i, t := range tiles {
		if t == 0 || int(t) >= n || (i > 0 && tiles[i-1] == t) {
			return nil, fmt.Errorf("slide: group tiles %v: want distinct tiles 1..%d", p.Tiles, n-1)
		}
	}
	if _, ok := index.PartialPermSize(n, k); !ok {
		return nil, fmt.Errorf("slide: a group of %d tiles on a %v board is too large", k, geo)
	}
	g := &PDBGroup{p: p, geo: geo, goal: goal, tiles: tiles, pp: index.NewPartialPerm(n, k),
		md: make([][MaxCells]uint8, k)}
	gb := geo.GoalBoard(goal)
	for i, t := range tiles {
		gc := slices.Index(gb, t)
		g.home = append(g.home, uint8(gc))
		for c := range n {
			g.md[i][c] = uint8(geo.cellDist(c, gc))
		}
	}
	for c := range n {
		for _, x := range geo.Neighbors(c) {
			g.nb[c] |= 1 << x
		}
	}
	return g, nil
}

// Params returns the group's parameters.
func (g *PDBGroup) Params() PDBParams { return g.p }

// Geometry returns the board geometry.
func (g *PDBGroup) Geometry() *Geometry { return g.geo }

// Goal returns the goal layout.
func (g *PDBGroup) Goal() Goal { return g.goal }

// Tiles returns the group's tiles (a fresh slice).
func (g *PDBGroup) Tiles() []uint8 { return slices.Clone(g.tiles) }

// K is the number of tiles in the group.
func (g *PDBGroup) K() int { return len(g.tiles) }

// Slots is the number of entries: n!/(n-k)! placements.
func (g *PDBGroup) Slots() uint64 { return g.pp.Size() }

// Unrank writes the cells of entry e's placement to cells (len ≥ K()).
func (g *PDBGroup) Unrank(e uint64, cells []uint8) { g.pp.Unrank(e, cells) }

// NewCursor returns a cursor at entry e, for passes over the entries in order (see
// index.PartialCursor).
func (g *PDBGroup) NewCursor(e uint64) *index.PartialCursor {
	c := g.pp.NewCursor()
	c.Seek(e)
	return c
}

// Rank returns the entry of a placement (cells[i] = cell of the i-th tile).
func (g *PDBGroup) Rank(cells []uint8) uint64 { return g.pp.Rank(cells) }

// MD is the group's Manhattan distance for the placement cells.
func (g *PDBGroup) MD(cells []uint8) int {
	s := 0
	for i, c := range cells[:len(g.tiles)] {
		s += int(g.md[i][c])
	}
	return s
}

// MDTable returns md[i][c], the Manhattan distance of the i-th tile on cell c, for hot
// loops that sum it themselves. The caller must not modify it.
func (g *PDBGroup) MDTable() [][MaxCells]uint8 { return g.md }

// GoalEntry is the entry of the goal placement: every tile of the group at home.
func (g *PDBGroup) GoalEntry() uint64 { return g.pp.Rank(g.home) }

// Slot parses a whole board and returns the entry of its group tiles' placement.
func (g *PDBGroup) Slot(state string) (uint64, bool, error) {
	board, err := g.geo.Parse(state)
	if err != nil {
		return 0, false, err
	}
	return g.EntryOf(board), true, nil
}

// EntryOf returns the entry of the group tiles' placement on a valid board.
func (g *PDBGroup) EntryOf(board []uint8) uint64 {
	var cells [MaxCells]uint8
	for c, t := range board {
		if i, ok := slices.BinarySearch(g.tiles, t); ok {
			cells[i] = uint8(c)
		}
	}
	return g.pp.Rank(cells[:len(g.tiles)])
}

// Normalize returns a board in canonical notation.
func (g *PDBGroup) Normalize(state string) (string, error) {
	board, err := g.geo.Parse(state)
	if err != nil {
		return "", err
	}
	return g.geo.Format(board), nil
}

// Neighbors returns the whole boards one move away from state (see
// Geometry.NeighborStates), so that a set's answer can be given for every move.
func (g *PDBGroup) Neighbors(state string) ([]string, error) { return g.geo.NeighborStates(state) }

// PDBConnected is set in an entry NewMoves returns when the cells free of group tiles form
// one region after the move, so the blank can be anywhere among them at no cost: the
// contract of games.PDBSpace.
const PDBConnected = games.PDBConnected

// NewMoves returns a function for one worker (never called concurrently) that returns
// the Manhattan distance of entry e and appends to dst every placement one group-tile
// move away (a tile slides onto an adjacent cell free of group tiles), each entry with
// PDBConnected set when the free cells form one region after the move.
func (g *PDBGroup) NewMoves() func(e uint64, dst []uint64) (md int, moves []uint64) {
	cells := make([]uint8, MaxCells)
	k := len(g.tiles)
	n := g.geo.Cells()
	all := uint32(1)<<n - 1
	return func(e uint64, dst []uint64) (int, []uint64) {
		g.pp.Unrank(e, cells)
		var occ uint32
		for _, c := range cells[:k] {
			occ |= 1 << c
		}
		md := g.MD(cells)
		for i := range k {
			c := cells[i]
			for m := g.nb[c] &^ occ; m != 0; m &= m - 1 {
				to := uint8(bits.TrailingZeros32(m))
				cells[i] = to
				after := occ&^(1<<c) | 1<<to
				r := g.pp.Rank(cells[:k])
				if g.connected(all &^ after) {
					r |= PDBConnected
				}
				dst = append(dst, r)
				cells[i] = c
			}
		}
		return md, dst
	}
}

// connected reports whether the cells of free form one region.
func (g *PDBGroup) connected(free uint32) bool {
	if free == 0 {
		return true
	}
	region := free & -free
	for todo := region; todo != 0; {
		c := bits.TrailingZeros32(todo)
		todo &= todo - 1
		add := g.nb[c] & free &^ region
		region |= add
		todo |= add
	}
	return region == free
}

// EntryMD is the Manhattan distance of entry e's placement.
func (g *PDBGroup) EntryMD(e uint64) int {
	var cells [MaxCells]uint8
	g.pp.Unrank(e, cells[:])
	return g.MD(cells[:])
}

// StateOf writes entry e's placement as a board with the group's tiles on their cells,
// the blank on the first free cell and the other tiles in increasing order on the rest:
// one board of the many that share the entry, for naming it in messages.
func (g *PDBGroup) StateOf(e uint64) (string, bool) {
	if e >= g.Slots() {
		return "", false
	}
	n := g.geo.Cells()
	var cells [MaxCells]uint8
	g.pp.Unrank(e, cells[:])
	board := make([]uint8, n)
	used := make([]bool, n)
	inGroup := make([]bool, n)
	for i, t := range g.tiles {
		board[cells[i]] = t
		used[cells[i]] = true
		inGroup[t] = true
	}
	next := uint8(0)
	for c := range n {
		if used[c] {
			continue
		}
		for next < uint8(n) && inGroup[next] {
			next++
		}
		board[c] = next
		next++
	}
	return g.geo.Format(board), true
}
