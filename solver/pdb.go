package solver

import (
	"fmt"

	"github.com/tablesmith/tablesmith/games/slide"
)

// PatternSet is what the PDB heuristics need of a set of disjoint, additive pattern
// databases: each group of tiles has a table of the moves of its own tiles needed to
// bring them home, indexed by their cells, whatever the other tiles and the blank do.
// Disjoint groups add up to an admissible estimate because each move moves one tile.
// *PDBSet (files built by the builder) implements it; so does the tests' oracle.
type PatternSet interface {
	Rows() int
	Cols() int
	// Goal is the goal's CLI spelling: "blank-first" or "blank-last".
	Goal() string
	// Groups lists the tiles of each group.
	Groups() [][]uint8
	// GroupOf returns the group of tile, or -1 for a tile in no group.
	GroupOf(tile uint8) int
	// GroupValue returns group g's value for pos (pos[tile] = cell, tile 0 = blank,
	// len Rows*Cols). It must not allocate: IDA* calls it once or twice per node.
	GroupValue(g int, pos []uint8) int
}

// PDB is the additive heuristic of a PatternSet: the sum of its groups' values. With
// reflection (square boards only) it is the maximum of that sum and the sum on the
// board mirrored about the main diagonal (slide.Geometry.Mirror), which is as far from
// the goal as the board itself — the same tables then bound a second partition of the
// tiles for free.
type PDB struct {
	problem
	set     PatternSet
	reflect bool
	ngroups int
	groupOf [slide.MaxCells]int8
	// transpose[c] is cell c reflected; mtile[t] is tile t's label on the mirrored
	// board, as slide.Geometry.Mirror relabels it.
	transpose [slide.MaxCells]uint8
	mtile     [slide.MaxCells]uint8
}

// NewPDB returns the PDB heuristic of set for geo and goal, with the reflection lookup
// if reflect is set. It checks that the set is for the same board and goal and that its
// groups are disjoint sets of tiles (never the blank) that agree with GroupOf.
func NewPDB(geo *slide.Geometry, goal slide.Goal, set PatternSet, reflect bool) (*PDB, error) {
	if set.Rows() != geo.Rows || set.Cols() != geo.Cols {
		return nil, fmt.Errorf("solver: the pattern databases are for a %d×%d board, not %v", set.Rows(), set.Cols(), geo)
	}
	if set.Goal() != goal.String() {
		return nil, fmt.Errorf("solver: the pattern databases are for the %s goal, not %v", set.Goal(), goal)
	}
	n := geo.Cells()
	p := &PDB{problem: newProblem(geo, goal), set: set, reflect: reflect}
	for t := range p.groupOf {
		p.groupOf[t] = -1
	}
	groups := set.Groups()
	p.ngroups = len(groups)
	for g, tiles := range groups {
		if len(tiles) == 0 {
			return nil, fmt.Errorf("solver: pattern group %d is empty", g)
		}
		for _, t := range tiles {
			switch {
			case t == 0 || int(t) >= n:
				return nil, fmt.Errorf("solver: pattern group %d has tile %d, want tiles 1..%d", g, t, n-1)
			case p.groupOf[t] >= 0:
				return nil, fmt.Errorf("solver: tile %d is in pattern groups %d and %d; additive groups must be disjoint", t, p.groupOf[t], g)
			}
			p.groupOf[t] = int8(g)
		}
	}
	for t := range n {
		if got := set.GroupOf(uint8(t)); got != int(p.groupOf[t]) {
			return nil, fmt.Errorf("solver: the pattern set puts tile %d in group %d, but its group lists say %d", t, got, p.groupOf[t])
		}
	}
	if reflect {
		if geo.Rows != geo.Cols {
			return nil, fmt.Errorf("solver: the reflection lookup needs a square board, not %v", geo)
		}
		for c := range n {
			p.transpose[c] = uint8(c%geo.Cols*geo.Cols + c/geo.Cols)
		}
		// Mirror the board whose tile at cell c is c: tile c lands at transpose[c]
		// with its new label.
		id := make([]uint8, n)
		for c := range id {
			id[c] = uint8(c)
		}
		m := make([]uint8, n)
		if err := geo.Mirror(m, id, goal); err != nil {
			return nil, err
		}
		for t := range n {
			p.mtile[t] = m[p.transpose[t]]
		}
		if p.mtile[0] != 0 {
			return nil, fmt.Errorf("solver: the mirror moves the blank's label on %v (%v goal)", geo, goal)
		}
	}
	return p, nil
}

// Name returns "pdb" or "pdb+reflect".
func (p *PDB) Name() string {
	if p.reflect {
		return "pdb+reflect"
	}
	return "pdb"
}

// Set returns the pattern set.
func (p *PDB) Set() PatternSet { return p.set }

// Estimate returns the sum of the group values of board, and with reflection the
// maximum of that and the sum for the mirrored board.
func (p *PDB) Estimate(board []uint8) int {
	var pos, mpos [slide.MaxCells]uint8
	n := p.n
	for c, t := range board {
		pos[t] = uint8(c)
	}
	h := p.sum(pos[:n])
	if p.reflect {
		for t := range n {
			mpos[p.mtile[t]] = p.transpose[pos[t]]
		}
		h = max(h, p.sum(mpos[:n]))
	}
	return h
}

func (p *PDB) sum(pos []uint8) int {
	s := 0
	for g := range p.ngroups {
		s += p.set.GroupValue(g, pos)
	}
	return s
}

// NewTracker keeps the positions of the tiles (and of the mirrored tiles) and each
// group's value; a move looks up only the moved tile's group and, with reflection, the
// mirrored tile's group on the mirrored board.
func (p *PDB) NewTracker() Tracker {
	return &pdbTracker{p: p, vals: make([]int, p.ngroups), mvals: make([]int, p.ngroups), undo: make([]pdbUndo, 0, 256)}
}

type pdbTracker struct {
	p           *PDB
	pos, mpos   [slide.MaxCells]uint8 // pos[tile] = cell, on the board and its mirror
	vals, mvals []int                 // per group
	sum, msum   int
	undo        []pdbUndo
}

// pdbUndo restores one Move: the values the move replaced (group -1: none).
type pdbUndo struct {
	tile      uint8
	from, to  uint8
	g, mg     int8
	old, mold int32
}

func (t *pdbTracker) h() int {
	if t.p.reflect {
		return max(t.sum, t.msum)
	}
	return t.sum
}

func (t *pdbTracker) Reset(board []uint8) int {
	p := t.p
	n := p.n
	for c, x := range board {
		t.pos[x] = uint8(c)
	}
	t.sum, t.msum = 0, 0
	for g := range p.ngroups {
		t.vals[g] = p.set.GroupValue(g, t.pos[:n])
		t.sum += t.vals[g]
	}
	if p.reflect {
		for x := range n {
			t.mpos[p.mtile[x]] = p.transpose[t.pos[x]]
		}
		for g := range p.ngroups {
			t.mvals[g] = p.set.GroupValue(g, t.mpos[:n])
			t.msum += t.mvals[g]
		}
	}
	t.undo = t.undo[:0]
	return t.h()
}

func (t *pdbTracker) Move(tile uint8, from, to int) int {
	p := t.p
	n := p.n
	u := pdbUndo{tile: tile, from: uint8(from), to: uint8(to), g: p.groupOf[tile], mg: -1}
	t.pos[tile], t.pos[0] = uint8(to), uint8(from)
	if g := u.g; g >= 0 {
		u.old = int32(t.vals[g])
		v := p.set.GroupValue(int(g), t.pos[:n])
		t.sum += v - t.vals[g]
		t.vals[g] = v
	}
	if p.reflect {
		mt := p.mtile[tile]
		t.mpos[mt], t.mpos[0] = p.transpose[to], p.transpose[from]
		if mg := p.groupOf[mt]; mg >= 0 {
			u.mg, u.mold = mg, int32(t.mvals[mg])
			v := p.set.GroupValue(int(mg), t.mpos[:n])
			t.msum += v - t.mvals[mg]
			t.mvals[mg] = v
		}
	}
	t.undo = append(t.undo, u)
	return t.h()
}

func (t *pdbTracker) Undo() {
	p := t.p
	u := t.undo[len(t.undo)-1]
	t.undo = t.undo[:len(t.undo)-1]
	t.pos[u.tile], t.pos[0] = u.from, u.to
	if u.g >= 0 {
		t.sum += int(u.old) - t.vals[u.g]
		t.vals[u.g] = int(u.old)
	}
	if p.reflect {
		mt := p.mtile[u.tile]
		t.mpos[mt], t.mpos[0] = p.transpose[u.from], p.transpose[u.to]
		if u.mg >= 0 {
			t.msum += int(u.mold) - t.mvals[u.mg]
			t.mvals[u.mg] = int(u.mold)
		}
	}
}
