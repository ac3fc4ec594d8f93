package tables

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"tablesmith/builder"
	"tablesmith/format"
	"tablesmith/games/slide"
	"tablesmith/index"
)

// Additive pattern databases for sliding-tile puzzles.
//
// The tiles are split into disjoint groups. A group's table has one entry per placement of
// its k tiles on the n cells, ranked by index.PartialPerm (n!/(n-k)! entries). Its value
// is the least number of moves of the group's own tiles that bring them to their goal
// cells, moves of the other tiles being free, minimised over the blank's position: so the
// values of the groups add up to an admissible heuristic (every move moves one tile of
// one group). builder.ZeroOneBFS computes it over the abstract states (placement, blank
// cell), where blank moves into cells without a group tile cost 0.
//
// A set is a directory: one table file per group plus manifest.json.
//
// Every group move changes the group's Manhattan distance by exactly one, so a value has
// the parity of the group's Manhattan distance md, and the files store the excess
// (value - md) / 2, which is small: 4 bits per entry hold it for the 7-8 split of the
// 15-puzzle, where the values themselves need 6.

// Names in the metadata of pattern-database files and manifests.
const (
	GameSlidePDB     = "slide-pdb"
	IndexPartialPerm = "partial-perm"
	// EncodingPDBValue stores the value itself.
	EncodingPDBValue = "pdb-value"
	// EncodingPDBExcess stores (value - md) / 2, md being the Manhattan distance of the
	// group's tiles from their goal cells.
	EncodingPDBExcess = "pdb-md-excess"

	pdbManifestName   = "manifest.json"
	pdbManifestFormat = "tablesmith-pdb-set"
	pdbManifestVer    = 1
)

// MaxPDBSlots bounds the abstract space of one group (placements times blank slots): the
// search keeps three bitsets of this many bits.
const MaxPDBSlots = 1 << 34

// PDBSpec describes a set to build.
type PDBSpec struct {
	Rows, Cols int
	Goal       string    // blank-last (default) or blank-first
	Groups     [][]uint8 // disjoint sets of tiles 1..Rows*Cols-1
	Encoding   string    // EncodingPDBExcess (default) or EncodingPDBValue
}

// Normalize checks the spec, fills in the defaults and sorts each group's tiles. Errors
// name the bad input.
func (sp *PDBSpec) Normalize() error {
	geo, err := slide.NewGeometry(sp.Rows, sp.Cols)
	if err != nil {
		return err
	}
	if sp.Goal == "" {
		sp.Goal = slide.BlankLast.String()
	}
	if _, err := slide.ParseGoal(sp.Goal); err != nil {
		return err
	}
	switch sp.Encoding {
	case "":
		sp.Encoding = EncodingPDBExcess
	case EncodingPDBExcess, EncodingPDBValue:
	default:
		return fmt.Errorf("tables: unknown pattern-database encoding %q (want %s or %s)", sp.Encoding, EncodingPDBExcess, EncodingPDBValue)
	}
	n := geo.Cells()
	if len(sp.Groups) == 0 {
		return errors.New("tables: no tile groups")
	}
	owner := make(map[uint8]int)
	for g, tiles := range sp.Groups {
		if len(tiles) == 0 {
			return fmt.Errorf("tables: group %d is empty", g+1)
		}
		for _, t := range tiles {
			switch {
			case t == 0:
				return fmt.Errorf("tables: group %d holds tile 0, the blank; groups list tiles 1..%d", g+1, n-1)
			case int(t) >= n:
				return fmt.Errorf("tables: group %d holds tile %d; a %d×%d board has tiles 1..%d", g+1, t, sp.Rows, sp.Cols, n-1)
			}
			if o, dup := owner[t]; dup {
				if o == g {
					return fmt.Errorf("tables: group %d lists tile %d twice", g+1, t)
				}
				return fmt.Errorf("tables: tile %d is in groups %d and %d; groups must be disjoint", t, o+1, g+1)
			}
			owner[t] = g
		}
		if len(tiles) == n-1 {
			return fmt.Errorf("tables: group %d holds every tile: that is the whole puzzle (use `build slide`)", g+1)
		}
		sp.Groups[g] = slices.Sorted(slices.Values(tiles))
		if slots, ok := pdbSlots(n, len(tiles)); !ok || slots > MaxPDBSlots {
			return fmt.Errorf("tables: group %d has %d tiles: %d!/%d! placements times the blank's cells is too large (at most %d abstract states); use smaller groups",
				g+1, len(tiles), n, n-len(tiles), uint64(MaxPDBSlots))
		}
	}
	return nil
}

// pdbSlots is the size of a group's abstract space: placements << blank bits.
func pdbSlots(n, k int) (uint64, bool) {
	size, ok := index.PartialPermSize(n, k)
	if !ok {
		return 0, false
	}
	eb := blankBits(n, k)
	if size > (1<<63)>>eb {
		return 0, false
	}
	return size << eb, true
}

// blankBits is the number of bits that number the blank's n-k possible cells.
func blankBits(n, k int) uint { return uint(bits.Len(uint(n - k - 1))) }

// ParsePDBGroups parses "1,2,3/4,5,6" (groups separated by "/", tiles by ",").
func ParsePDBGroups(s string) ([][]uint8, error) {
	var groups [][]uint8
	for i, part := range strings.Split(s, "/") {
		var g []uint8
		for _, f := range strings.Split(part, ",") {
			f = strings.TrimSpace(f)
			v, err := strconv.Atoi(f)
			if err != nil || v < 0 || v > 255 {
				return nil, fmt.Errorf("tables: group %d of %q: %q is not a tile number", i+1, s, f)
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
			return nil, fmt.Errorf("tables: partition %q: %q is not a group size", s, f)
		}
		sizes = append(sizes, k)
		total += k
	}
	if total != n-1 {
		return nil, fmt.Errorf("tables: partition %q covers %d tiles; a %d×%d board has %d", s, total, rows, cols, n-1)
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

// pdbGroup is the arithmetic of one group shared by the search and the lookup.
type pdbGroup struct {
	n, k     int
	tiles    []uint8
	goalCell []uint8
	pp       *index.PartialPerm
	md       [][slide.MaxCells]uint8 // md[i][c]: Manhattan distance of tiles[i] at cell c
}

func newPDBGroup(geo *slide.Geometry, goal slide.Goal, tiles []uint8) *pdbGroup {
	n := geo.Cells()
	gb := geo.GoalBoard(goal)
	g := &pdbGroup{n: n, k: len(tiles), tiles: tiles, pp: index.NewPartialPerm(n, len(tiles)),
		md: make([][slide.MaxCells]uint8, len(tiles))}
	for i, t := range tiles {
		gc := slices.Index(gb, t)
		g.goalCell = append(g.goalCell, uint8(gc))
		for c := range n {
			dr, dc := c/geo.Cols-gc/geo.Cols, c%geo.Cols-gc%geo.Cols
			g.md[i][c] = uint8(max(dr, -dr) + max(dc, -dc))
		}
	}
	return g
}

// mdOf is the group's Manhattan distance for the placement cells.
func (g *pdbGroup) mdOf(cells []uint8) int {
	s := 0
	for i, c := range cells[:g.k] {
		s += int(g.md[i][c])
	}
	return s
}

// pdbSpace is the abstract space of one group for builder.ZeroOneBFS: slot =
// placement rank << eb | the blank's digit among the free cells (index.Digit).
//
// TODO: these are rules of the game and belong in games/slide (pdb.go) once that package
// is free to change; they use only its exported Geometry.
type pdbSpace struct {
	geo       *slide.Geometry
	g         *pdbGroup
	eb        uint
	goalBlank uint8
}

func newPDBSpace(geo *slide.Geometry, goal slide.Goal, tiles []uint8) *pdbSpace {
	g := newPDBGroup(geo, goal, tiles)
	gb := geo.GoalBoard(goal)
	return &pdbSpace{geo: geo, g: g, eb: blankBits(g.n, g.k), goalBlank: uint8(slide.Blank(gb))}
}

func (s *pdbSpace) Slots() uint64      { return s.g.pp.Size() << s.eb }
func (s *pdbSpace) EntryBits() int     { return int(s.eb) }
func (s *pdbSpace) DepthBound() uint64 { return 253 }

// ExpectedStates is the number of abstract states: every placement with every blank cell.
func (s *pdbSpace) ExpectedStates() uint64 { return s.g.pp.Size() * uint64(s.g.n-s.g.k) }

func (s *pdbSpace) Goals() []uint64 {
	var occ uint32
	for _, c := range s.g.goalCell {
		occ |= 1 << c
	}
	return []uint64{s.g.pp.Rank(s.g.goalCell)<<s.eb | index.Digit(occ, s.goalBlank)}
}

// pdbExpander is one worker's move generator. Slots of the frontier arrive sorted, so
// the placement of the last entry is kept unranked for unit; zero gets the slots the
// search just claimed, mostly the successors unit has just made, so unit leaves their
// occupied cells in a small direct-mapped cache where zero finds them without unranking.
type pdbExpander struct {
	s     *pdbSpace
	last  uint64
	cells [32]uint8
	occ   uint32
	owner [32]uint8 // owner[c]: index of the group tile on cell c (when occ has c)
	cache [1 << pdbCacheBits]occEntry
}

const pdbCacheBits = 12

// occEntry caches the occupied cells of one entry.
type occEntry struct {
	entry uint64 // ^0: empty
	occ   uint32
}

func (s *pdbSpace) NewExpanders() (zero, unit func(dst, src []uint64) []uint64) {
	x := &pdbExpander{s: s, last: ^uint64(0)}
	for i := range x.cache {
		x.cache[i].entry = ^uint64(0)
	}
	return x.zero, x.unit
}

func (x *pdbExpander) load(e uint64) {
	g := x.s.g
	g.pp.Unrank(e, x.cells[:])
	var occ uint32
	for i, c := range x.cells[:g.k] {
		occ |= 1 << c
		x.owner[c] = uint8(i)
	}
	x.occ = occ
	x.last = e
}

// nthFree returns the free cell with digit d (the d-th cell, from 0, not in occ).
func nthFree(occ uint32, d uint64) uint8 {
	m := ^occ
	for ; d > 0; d-- {
		m &= m - 1
	}
	return uint8(bits.TrailingZeros32(m))
}

// zero appends the blank's moves into cells without a group tile.
func (x *pdbExpander) zero(dst, src []uint64) []uint64 {
	eb, mask := x.s.eb, uint64(1)<<x.s.eb-1
	for _, s := range src {
		e := s >> eb
		var occ uint32
		if ce := &x.cache[e&(1<<pdbCacheBits-1)]; ce.entry == e {
			occ = ce.occ
		} else {
			if e != x.last {
				x.load(e)
			}
			occ = x.occ
		}
		blank := nthFree(occ, s&mask)
		for _, c := range x.s.geo.Neighbors(int(blank)) {
			if occ&(1<<c) == 0 {
				dst = append(dst, e<<eb|index.Digit(occ, c))
			}
		}
	}
	return dst
}

// unit appends the moves of group tiles into the blank.
func (x *pdbExpander) unit(dst, src []uint64) []uint64 {
	eb, mask := x.s.eb, uint64(1)<<x.s.eb-1
	pp, k := x.s.g.pp, x.s.g.k
	for _, s := range src {
		e := s >> eb
		if e != x.last {
			x.load(e)
		}
		blank := nthFree(x.occ, s&mask)
		for _, c := range x.s.geo.Neighbors(int(blank)) {
			if x.occ&(1<<c) == 0 {
				continue
			}
			i := x.owner[c]
			x.cells[i] = blank
			r := pp.Rank(x.cells[:k])
			x.cells[i] = c
			occ := x.occ&^(1<<c) | 1<<blank
			x.cache[r&(1<<pdbCacheBits-1)] = occEntry{r, occ}
			dst = append(dst, r<<eb|index.Digit(occ, c))
		}
	}
	return dst
}

// PDBGroupInfo describes one group of a set in its manifest.
type PDBGroupInfo struct {
	Tiles    []int    `json:"tiles"`
	File     string   `json:"file"`
	Entries  uint64   `json:"entries"`
	MaxValue int      `json:"max_value"`
	Counts   []uint64 `json:"counts"` // Counts[v] = entries of value v
	CodeBits int      `json:"code_bits"`
	Bytes    int64    `json:"bytes"`
	Seconds  float64  `json:"seconds"` // search and write
}

// PDBManifest is the content of a set's manifest.json.
type PDBManifest struct {
	Format   string         `json:"format"`
	Version  int            `json:"version"`
	Game     string         `json:"game"`
	Rows     int            `json:"rows"`
	Cols     int            `json:"cols"`
	Goal     string         `json:"goal"`
	Encoding string         `json:"encoding"`
	Groups   []PDBGroupInfo `json:"groups"`
	Build    format.Build   `json:"build"`
}

// pdbParams are a group file's game parameters.
type pdbParams struct {
	Rows  int    `json:"rows"`
	Cols  int    `json:"cols"`
	Goal  string `json:"goal"`
	Tiles []int  `json:"tiles"`
}

// PDBBuildOptions tune BuildPDBSet. The zero value is usable.
type PDBBuildOptions struct {
	Workers int // 0: GOMAXPROCS
	// Search and Write, if set, report the progress of group g's search and file.
	Search func(g int, p builder.Progress)
	Write  func(g int, done, total uint64)
	// GroupDone, if set, is called after each group's file is written.
	GroupDone func(g int, info PDBGroupInfo)
	Build     format.Build // recorded in the files and the manifest (Seconds is per file)
}

// BuildPDBSet builds one table per group of spec into dir (created if needed) and writes
// dir/manifest.json last, atomically; an old manifest is removed first, so a set whose
// build failed is never taken for complete.
func BuildPDBSet(ctx context.Context, dir string, spec PDBSpec, opt PDBBuildOptions) (*PDBManifest, error) {
	if err := spec.Normalize(); err != nil {
		return nil, err
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	geo, _ := slide.NewGeometry(spec.Rows, spec.Cols)
	goal, _ := slide.ParseGoal(spec.Goal)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	if err := os.Remove(filepath.Join(dir, pdbManifestName)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("tables: %w", err)
	}
	m := &PDBManifest{Format: pdbManifestFormat, Version: pdbManifestVer, Game: GameSlidePDB,
		Rows: spec.Rows, Cols: spec.Cols, Goal: spec.Goal, Encoding: spec.Encoding, Build: opt.Build}
	m.Build.Workers = opt.Workers
	if m.Build.Tool == "" {
		m.Build.Tool = "tablesmith"
	}
	start := time.Now()
	for gi, tiles := range spec.Groups {
		info, err := buildPDBGroup(ctx, dir, geo, goal, spec, gi, tiles, opt)
		if err != nil {
			return nil, fmt.Errorf("tables: group %d %v: %w", gi+1, tiles, err)
		}
		m.Groups = append(m.Groups, info)
		if opt.GroupDone != nil {
			opt.GroupDone(gi, info)
		}
		debug.FreeOSMemory() // the search's bitsets are garbage now; keep the peak down
	}
	m.Build.Seconds = time.Since(start).Seconds()
	if m.Build.Created.IsZero() {
		m.Build.Created = time.Now().UTC().Truncate(time.Second)
	}
	m.Build.GoVersion = runtime.Version()
	if err := writeFileAtomic(filepath.Join(dir, pdbManifestName), m); err != nil {
		return nil, err
	}
	return m, nil
}

func buildPDBGroup(ctx context.Context, dir string, geo *slide.Geometry, goal slide.Goal, spec PDBSpec,
	gi int, tiles []uint8, opt PDBBuildOptions) (PDBGroupInfo, error) {
	start := time.Now()
	sp := newPDBSpace(geo, goal, tiles)
	bopt := builder.Options{Workers: opt.Workers}
	if opt.Search != nil {
		bopt.Progress = func(p builder.Progress) { opt.Search(gi, p) }
	}
	res, err := builder.ZeroOneBFS(ctx, sp, bopt)
	if err != nil {
		return PDBGroupInfo{}, err
	}
	if res.Unreached != 0 {
		return PDBGroupInfo{}, fmt.Errorf("internal error: %d placements unreached", res.Unreached)
	}
	info := PDBGroupInfo{Tiles: intsOf(tiles), File: fmt.Sprintf("group%d.tsm", gi+1),
		Entries: res.Entries, MaxValue: res.MaxValue(), Counts: res.Counts}
	maxCode := uint64(res.MaxValue())
	if spec.Encoding == EncodingPDBExcess {
		if maxCode, err = toExcess(ctx, sp.g, res.Values, opt.Workers); err != nil {
			return PDBGroupInfo{}, err
		}
	}
	info.CodeBits = max(bits.Len64(maxCode), 1)
	params, _ := json.Marshal(pdbParams{Rows: spec.Rows, Cols: spec.Cols, Goal: spec.Goal, Tiles: info.Tiles})
	extra, _ := json.Marshal(map[string]any{"value_counts": res.Counts, "max_value": res.MaxValue()})
	meta := format.Metadata{Game: GameSlidePDB, Params: params, Index: IndexPartialPerm, Encoding: spec.Encoding,
		Slots: res.Entries, CodeBits: info.CodeBits, Build: opt.Build, Extra: extra}
	meta.Build.Workers = opt.Workers
	meta.Build.Seconds = res.Elapsed.Seconds()
	if meta.Build.Tool == "" {
		meta.Build.Tool = "tablesmith"
	}
	v := res.Values
	src := func(dst []uint32, first uint64) {
		for i := range dst {
			dst[i] = uint32(v.Get(first + uint64(i)))
		}
	}
	wopt := format.WriteOptions{Workers: opt.Workers}
	if opt.Write != nil {
		wopt.Progress = func(done, total uint64) { opt.Write(gi, done, total) }
	}
	path := filepath.Join(dir, info.File)
	if _, err := format.WriteFile(ctx, path, meta, src, wopt); err != nil {
		return PDBGroupInfo{}, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return PDBGroupInfo{}, err
	}
	info.Bytes = st.Size()
	info.Seconds = time.Since(start).Seconds()
	return info, nil
}

// toExcess replaces each value v by (v - md) / 2 in place and returns the largest. A
// value of the wrong parity or below md is an internal error.
func toExcess(ctx context.Context, g *pdbGroup, v *builder.Values, workers int) (uint64, error) {
	const chunk = 1 << 16
	var next atomic.Uint64
	var maxEx atomic.Uint64
	eg, ctx := errgroup.WithContext(ctx)
	for range workers {
		eg.Go(func() error {
			var cells [32]uint8
			var top uint64
			for {
				lo := next.Add(chunk) - chunk
				if lo >= v.Len() {
					break
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				for e := lo; e < min(lo+chunk, v.Len()); e++ {
					g.pp.Unrank(e, cells[:])
					md := uint64(g.mdOf(cells[:]))
					val := v.Get(e)
					if val < md || (val-md)&1 != 0 {
						return fmt.Errorf("internal error: placement %v has value %d, Manhattan distance %d", cells[:g.k], val, md)
					}
					x := (val - md) / 2
					v.Set(e, x)
					top = max(top, x)
				}
			}
			for {
				old := maxEx.Load()
				if top <= old || maxEx.CompareAndSwap(old, top) {
					return nil
				}
			}
		})
	}
	if err := eg.Wait(); err != nil {
		return 0, err
	}
	return maxEx.Load(), nil
}

func intsOf(tiles []uint8) []int {
	out := make([]int, len(tiles))
	for i, t := range tiles {
		out[i] = int(t)
	}
	return out
}

// writeFileAtomic writes v as indented JSON to path through a synced temporary file.
func writeFileAtomic(path string, v any) (err error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	if err = f.Chmod(0o644); err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	return nil
}
