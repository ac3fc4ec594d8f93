package slide

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/tablesmith/tablesmith/games"
)

// The pattern-database family's side of a set's build (games.PDBFamily): the flags that
// describe a set, each group's search space, and its values' excess codes.

// BindSetFlags declares the flags that describe a set: the board, the goal, and the
// groups, listed (--groups 1,2,3/4,5) or as a partition of the tiles (--partition 7-8).
func (PDBGame) BindSetFlags(fs *flag.FlagSet) func() (games.PDBSetSpec, error) {
	rows := fs.Int("rows", 0, "board rows (2..5)")
	cols := fs.Int("cols", 0, "board columns (2..5)")
	goal := fs.String("goal", "blank-last", "goal layout: blank-last or blank-first (Korf's 15-puzzle instances)")
	groups := fs.String("groups", "", "tile groups: tiles separated by commas, groups by slashes, e.g. 1,2,3/4,5,6")
	partition := fs.String("partition", "", "groups of consecutive tiles by size, e.g. 7-8 (tiles 1-7 and 8-15), 6-6-3, 5-5-5")
	return func() (games.PDBSetSpec, error) {
		switch {
		case *rows == 0 || *cols == 0:
			return games.PDBSetSpec{}, errors.New("--rows and --cols are required")
		case (*groups == "") == (*partition == ""):
			return games.PDBSetSpec{}, errors.New("give exactly one of --groups and --partition")
		}
		sp := PDBSpec{Rows: *rows, Cols: *cols, Goal: *goal}
		var err error
		if *groups != "" {
			sp.Groups, err = ParsePDBGroups(*groups)
		} else {
			sp.Groups, err = PDBPartition(*partition, *rows, *cols)
		}
		if err != nil {
			return games.PDBSetSpec{}, err
		}
		return sp.Set()
	}
}

// pdbSetParams are a set's shared parameters as its manifest states them (the builder
// adds the encoding).
type pdbSetParams struct {
	Rows int    `json:"rows"`
	Cols int    `json:"cols"`
	Goal string `json:"goal"`
}

// Set checks and normalizes a copy of sp (see Normalize) and returns it as the builder
// takes a set (games.PDBSetSpec). Errors name the bad input.
func (sp PDBSpec) Set() (games.PDBSetSpec, error) {
	sp.Groups = slices.Clone(sp.Groups) // Normalize replaces the groups: not the caller's
	if err := sp.Normalize(); err != nil {
		return games.PDBSetSpec{}, err
	}
	params, err := json.Marshal(pdbSetParams{Rows: sp.Rows, Cols: sp.Cols, Goal: sp.Goal})
	if err != nil {
		return games.PDBSetSpec{}, err
	}
	set := games.PDBSetSpec{
		Params: params,
		Key:    fmt.Sprintf("%d×%d %s", sp.Rows, sp.Cols, sp.Goal),
		Flags: []string{"--rows", strconv.Itoa(sp.Rows), "--cols", strconv.Itoa(sp.Cols), "--goal", sp.Goal,
			"--groups", pdbGroupsString(sp.Groups)},
	}
	for _, tiles := range sp.Groups {
		ints := make([]int, len(tiles))
		for i, t := range tiles {
			ints[i] = int(t)
		}
		set.Groups = append(set.Groups, games.PDBGroupSpec{Tiles: ints,
			Params: &PDBParams{Rows: sp.Rows, Cols: sp.Cols, Goal: sp.Goal, Tiles: slices.Clone(ints)}})
	}
	return set, nil
}

// pdbGroupsString writes groups as --groups takes them: 1,2,3/4,5.
func pdbGroupsString(groups [][]uint8) string {
	parts := make([]string, len(groups))
	for i, g := range groups {
		s := make([]string, len(g))
		for j, t := range g {
			s[j] = strconv.Itoa(int(t))
		}
		parts[i] = strings.Join(s, ",")
	}
	return strings.Join(parts, "/")
}

// NewPDBBuild returns the search space of the group params (a *PDBParams) for a build:
// its PDBSpace, with the excess codes of its values.
func (PDBGame) NewPDBBuild(params any) (games.PDBBuild, error) {
	var p PDBParams
	switch q := params.(type) {
	case *PDBParams:
		p = *q
	case PDBParams:
		p = q
	default:
		return nil, fmt.Errorf("slide: parameters of type %T", params)
	}
	g, err := NewPDBGroup(p)
	if err != nil {
		return nil, err
	}
	sp, err := NewPDBSpace(g.Geometry(), g.Goal(), g.tiles)
	if err != nil {
		return nil, err
	}
	return &pdbBuild{PDBSpace: sp, g: g}, nil
}

// pdbBuild is one group's build: the search space and the group's Manhattan distances.
type pdbBuild struct {
	*PDBSpace
	g *PDBGroup
}

// ExcessCodes replaces each value of entries lo.. by its excess code (v − md) / 2 and
// returns the largest. A value of the wrong parity or below md is an error naming the
// placement.
//
// It goes through the placements in blocks that share all tiles but the last: the last
// tile takes the block's free cells in increasing order, so a block costs one step of a
// cursor (which redoes only the tiles that moved, and their distances) and a pass over
// the bits of a mask. A chunk may begin and end inside a block.
func (b *pdbBuild) ExcessCodes(lo uint64, values []uint8) (uint64, error) {
	if len(values) == 0 {
		return 0, nil
	}
	g := b.g
	k := len(g.tiles)
	all := uint32(1)<<g.geo.Cells() - 1
	block := uint64(g.geo.Cells() - k + 1) // the values of the last tile's digit
	hi := lo + uint64(len(values))
	first := lo - lo%block
	cur := g.NewCursor(first)
	md := g.md
	last := &md[k-1]
	var sum [MaxCells + 1]uint64 // sum[i]: the distance of the first i tiles
	var top uint64
	from := 0
	for e := first; e < hi; e += block {
		if e > first {
			from = cur.Seek(e)
		}
		cells := cur.Cells()
		for i := from; i < k-1; i++ {
			sum[i+1] = sum[i] + uint64(md[i][cells[i]])
		}
		base := sum[k-1]
		free := all &^ cur.Used(k-1)
		x := e
		for ; x < lo; x++ { // a chunk that begins inside the block
			free &= free - 1
		}
		vs := values[x-lo : min(e+block, hi)-lo]
		for i, v := range vs {
			d := base + uint64(last[bits.TrailingZeros32(free)])
			free &= free - 1
			if uint64(v) < d || (uint64(v)-d)&1 != 0 {
				cur.Seek(x + uint64(i))
				return 0, fmt.Errorf("placement %v: %d is no pattern-database value at Manhattan distance %d", cur.Cells(), v, d)
			}
			c := (uint64(v) - d) >> 1
			vs[i] = uint8(c)
			top = max(top, c)
		}
	}
	return top, nil
}

// SetOfGroups checks that groups (*PDBParams) form one set: one board and goal, disjoint
// tiles.
func (PDBGame) SetOfGroups(groups []any) (games.PDBSetSpec, error) {
	var sp PDBSpec
	for i, g := range groups {
		p, ok := g.(*PDBParams)
		if !ok {
			return games.PDBSetSpec{}, fmt.Errorf("slide: group %d: parameters of type %T", i+1, g)
		}
		if i == 0 {
			sp.Rows, sp.Cols, sp.Goal = p.Rows, p.Cols, p.Goal
		} else if p.Rows != sp.Rows || p.Cols != sp.Cols || p.Goal != sp.Goal {
			return games.PDBSetSpec{}, fmt.Errorf("slide: group %d is for %d×%d %s, group 1 for %d×%d %s", i+1, p.Rows, p.Cols, p.Goal, sp.Rows, sp.Cols, sp.Goal)
		}
		tiles, err := p.TilesUint8()
		if err != nil {
			return games.PDBSetSpec{}, fmt.Errorf("slide: group %d: %w", i+1, err)
		}
		sp.Groups = append(sp.Groups, tiles)
	}
	return sp.Set()
}
