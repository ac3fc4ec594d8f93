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
// The sum is admissible but not consistent: minimising over the blank forgets which of
// the blank's regions it is in, and one move can change a group's value by more than one
// (up to 7 on the 8-puzzle with groups 1-4 and 5-8, see TestPDBInconsistent). IDA* does
// not need consistency; A* must reopen states (or propagate with pathmax). For the same
// reason values cannot be stored modulo 3 and rebuilt move by move.
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
		if len(tiles) > n-3 {
			// With fewer than two other tiles the blank cannot reach every placement
			// (the puzzle's parity shows through); such a group is the whole puzzle.
			return fmt.Errorf("tables: group %d has %d tiles; a group of a %d×%d board holds at most %d, leaving two tiles out (for the whole puzzle use `build slide`)",
				g+1, len(tiles), sp.Rows, sp.Cols, n-3)
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
	// weight[i] is the place value of the partial-permutation digit of tiles[i]:
	// (n-i-1)·(n-i-2)···(n-k+1), so rank = Σ digit[i]·weight[i].
	weight [32]uint64
}

func newPDBGroup(geo *slide.Geometry, goal slide.Goal, tiles []uint8) *pdbGroup {
	n := geo.Cells()
	gb := geo.GoalBoard(goal)
	g := &pdbGroup{n: n, k: len(tiles), tiles: tiles, pp: index.NewPartialPerm(n, len(tiles)),
		md: make([][slide.MaxCells]uint8, len(tiles))}
	w := uint64(1)
	for i := g.k - 1; i >= 0; i-- {
		g.weight[i] = w
		w *= uint64(n - i)
	}
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
	nb        [32]uint32 // nb[c]: the cells adjacent to c, as a mask
}

func newPDBSpace(geo *slide.Geometry, goal slide.Goal, tiles []uint8) *pdbSpace {
	g := newPDBGroup(geo, goal, tiles)
	gb := geo.GoalBoard(goal)
	s := &pdbSpace{geo: geo, g: g, eb: blankBits(g.n, g.k), goalBlank: uint8(slide.Blank(gb))}
	for c := range g.n {
		for _, x := range geo.Neighbors(c) {
			s.nb[c] |= 1 << x
		}
	}
	return s
}

// ZeroClosed tells the search that zero returns the blank's whole region.
func (s *pdbSpace) ZeroClosed() bool { return true }

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

// zero appends, for each slot, the slots of every cell of the blank's region: the free
// cells it reaches without moving a group tile (a flood fill over cell masks).
func (x *pdbExpander) zero(dst, src []uint64) []uint64 {
	eb, mask := x.s.eb, uint64(1)<<x.s.eb-1
	nb := &x.s.nb
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
		region := uint32(1) << nthFree(occ, s&mask)
		for todo := region; todo != 0; {
			c := bits.TrailingZeros32(todo)
			todo &= todo - 1
			add := nb[c&31] &^ occ &^ region
			region |= add
			todo |= add
		}
		for m := region; m != 0; m &= m - 1 {
			c := uint8(bits.TrailingZeros32(m))
			dst = append(dst, e<<eb|index.Digit(occ, c))
		}
	}
	return dst
}

// unit appends the moves of group tiles into the blank.
//
// The successor's rank is the entry's plus a correction: tile i moving from c to the
// blank's cell b changes its own digit, and the digit of each later tile on a cell
// strictly between b and c by one (no cell lies between for a horizontal move; cols-1
// cells do for a vertical one).
func (x *pdbExpander) unit(dst, src []uint64) []uint64 {
	eb, mask := x.s.eb, uint64(1)<<x.s.eb-1
	w := &x.s.g.weight
	for _, s := range src {
		e := s >> eb
		if e != x.last {
			x.load(e)
		}
		b := nthFree(x.occ, s&mask)
		for _, c := range x.s.geo.Neighbors(int(b)) {
			if x.occ&(1<<c) == 0 {
				continue
			}
			i := x.owner[c]
			lo, hi := min(b, c), max(b, c)
			var before, after uint64 // tiles between lo and hi before i; weights of those after
			for m := x.occ & (uint32(1)<<hi - 1) &^ (uint32(2)<<lo - 1); m != 0; m &= m - 1 {
				if j := x.owner[bits.TrailingZeros32(m)&31]; j < i {
					before++
				} else {
					after += w[j&31]
				}
			}
			var r uint64
			if b < c {
				r = e - (uint64(c-b)-before)*w[i&31] - after
			} else {
				r = e + (uint64(b-c)-before)*w[i&31] + after
			}
			occ := x.occ&^(1<<c) | 1<<b
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
	spec.Groups = slices.Clone(spec.Groups) // Normalize replaces groups: not the caller's
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

// PDBPacking selects the in-memory form of a set's tables.
type PDBPacking int

const (
	// PackAuto keeps each group's codes as the file stores them (excesses over the
	// Manhattan distance, or values), in 2 or 4 bits per entry when they fit, else a
	// byte: the smallest exact form.
	PackAuto PDBPacking = iota
	// PackBytes keeps one byte per entry holding the value itself: the plain form.
	PackBytes
	// PackNibbles keeps 4 bits per entry, the value when every value fits, else the
	// excess over the Manhattan distance, capped at 15 (which only lowers values, so
	// the heuristic stays admissible).
	PackNibbles
	// PackCrumbs keeps 2 bits per entry: the excess over the Manhattan distance capped
	// at 3. Lossy but admissible: an entry of excess x > 3 reads 2(x-3) too low.
	PackCrumbs
)

// PDBOpenOptions tune OpenPDBSetWith. The zero value is OpenPDBSet's choice.
type PDBOpenOptions struct {
	Packing PDBPacking
	Workers int // goroutines decoding the files (0: GOMAXPROCS)
}

// PDBSet is an additive pattern-database set loaded into memory for a solver's hot path.
// Its lookups are safe for concurrent use and do not allocate.
type PDBSet struct {
	m      PDBManifest
	goal   slide.Goal
	tabs   []pdbTable
	owner  [slide.MaxCells]int8
	groups [][]uint8
	bytes  uint64
	ents   uint64
}

// pdbTable is one group in memory: codes of 8>>shift bits, entry r in bits
// [(r mod per)*bits, ...) of byte r/per.
type pdbTable struct {
	tiles  []uint8
	radix  [slide.MaxCells]uint64
	md     [][slide.MaxCells]uint8
	excess bool // value = md + 2*code, else value = code
	shift  uint // log2 of the codes per byte: 0, 1 or 2
	mask   uint8
	data   []byte
}

// OpenPDBSet loads the set in dir (written by BuildPDBSet) into memory, in the smallest
// exact form (PackAuto). It checks the manifest and every file: a damaged one gives an
// error wrapping format.ErrCorrupt, a missing one an error wrapping os.ErrNotExist that
// names it.
func OpenPDBSet(dir string) (*PDBSet, error) { return OpenPDBSetWith(dir, PDBOpenOptions{}) }

// OpenPDBSetWith is OpenPDBSet with a choice of in-memory form.
func OpenPDBSetWith(dir string, opt PDBOpenOptions) (*PDBSet, error) {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	m, err := readPDBManifest(dir)
	if err != nil {
		return nil, err
	}
	s := &PDBSet{m: *m}
	s.goal, _ = slide.ParseGoal(m.Goal)
	geo, _ := slide.NewGeometry(m.Rows, m.Cols)
	for i := range s.owner {
		s.owner[i] = -1
	}
	for gi, info := range m.Groups {
		tiles := make([]uint8, len(info.Tiles))
		for i, t := range info.Tiles {
			tiles[i] = uint8(t)
			s.owner[t] = int8(gi)
		}
		s.groups = append(s.groups, tiles)
		tab, err := loadPDBTable(dir, m, gi, newPDBGroup(geo, s.goal, tiles), opt)
		if err != nil {
			return nil, err
		}
		s.tabs = append(s.tabs, tab)
		s.bytes += uint64(len(tab.data))
		s.ents += info.Entries
	}
	return s, nil
}

// readPDBManifest reads and checks dir/manifest.json.
func readPDBManifest(dir string) (*PDBManifest, error) {
	path := filepath.Join(dir, pdbManifestName)
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("tables: %s is not a pattern-database set: %s is missing: %w", dir, pdbManifestName, err)
		}
		return nil, fmt.Errorf("tables: %w", err)
	}
	bad := func(what string, args ...any) error {
		return fmt.Errorf("tables: %s: %s: %w", path, fmt.Sprintf(what, args...), format.ErrCorrupt)
	}
	var m PDBManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, bad("%v", err)
	}
	switch {
	case m.Format != pdbManifestFormat:
		return nil, bad("format %q, want %q", m.Format, pdbManifestFormat)
	case m.Version > pdbManifestVer:
		return nil, fmt.Errorf("tables: %s: manifest version %d, this tablesmith reads up to %d: %w", path, m.Version, pdbManifestVer, format.ErrVersion)
	case m.Version < 1:
		return nil, bad("version %d", m.Version)
	case m.Game != GameSlidePDB:
		return nil, bad("game %q, want %q", m.Game, GameSlidePDB)
	}
	spec := PDBSpec{Rows: m.Rows, Cols: m.Cols, Goal: m.Goal, Encoding: m.Encoding}
	for _, g := range m.Groups {
		tiles := make([]uint8, len(g.Tiles))
		for i, t := range g.Tiles {
			if t < 0 || t > 255 {
				return nil, bad("tile %d", t)
			}
			tiles[i] = uint8(t)
		}
		spec.Groups = append(spec.Groups, tiles)
	}
	if err := spec.Normalize(); err != nil {
		return nil, bad("%v", err)
	}
	for gi, g := range m.Groups {
		if !slices.Equal(intsOf(spec.Groups[gi]), g.Tiles) {
			return nil, bad("group %d: tiles %v not in increasing order", gi+1, g.Tiles)
		}
		if g.File == "" || filepath.Base(g.File) != g.File || g.File == "." || g.File == ".." {
			return nil, bad("group %d: file name %q must name a file in the set's directory", gi+1, g.File)
		}
	}
	return &m, nil
}

// loadPDBTable reads group gi's file and packs it.
func loadPDBTable(dir string, m *PDBManifest, gi int, g *pdbGroup, opt PDBOpenOptions) (pdbTable, error) {
	info := m.Groups[gi]
	path := filepath.Join(dir, info.File)
	fail := func(err error) (pdbTable, error) {
		return pdbTable{}, fmt.Errorf("tables: pattern database group %d %v: %w", gi+1, info.Tiles, err)
	}
	r, err := format.Open(path)
	if err != nil {
		return fail(err)
	}
	defer r.Close()
	meta := r.Meta()
	var p pdbParams
	bad := func(what string, args ...any) (pdbTable, error) {
		return fail(fmt.Errorf("%s: %s: %w", path, fmt.Sprintf(what, args...), format.ErrCorrupt))
	}
	if err := json.Unmarshal(orEmpty(meta.Params), &p); err != nil {
		return bad("parameters %s", meta.Params)
	}
	switch {
	case meta.Game != GameSlidePDB || meta.Index != IndexPartialPerm:
		return bad("a %s/%s table, want %s/%s", meta.Game, meta.Index, GameSlidePDB, IndexPartialPerm)
	case meta.Encoding != m.Encoding:
		return bad("encoding %q, the manifest says %q", meta.Encoding, m.Encoding)
	case p.Rows != m.Rows || p.Cols != m.Cols || p.Goal != m.Goal || !slices.Equal(p.Tiles, info.Tiles):
		return bad("made for %d×%d %s tiles %v, the manifest says %d×%d %s tiles %v",
			p.Rows, p.Cols, p.Goal, p.Tiles, m.Rows, m.Cols, m.Goal, info.Tiles)
	case meta.Slots != g.pp.Size() || info.Entries != meta.Slots:
		return bad("%d entries, want %d", meta.Slots, g.pp.Size())
	case meta.CodeCounts == nil || len(meta.CodeCounts) == 0:
		return bad("no code counts")
	}
	maxCode := len(meta.CodeCounts) - 1
	fileExcess := meta.Encoding == EncodingPDBExcess

	t := pdbTable{tiles: g.tiles, md: g.md, excess: fileExcess}
	for i := range g.k {
		t.radix[i] = uint64(g.n - i)
	}
	switch {
	case opt.Packing == PackBytes:
		t.shift, t.excess = 0, false
	case opt.Packing == PackNibbles:
		t.shift = 1
		if !fileExcess && maxCode > 15 {
			t.excess = true
		}
	case opt.Packing == PackCrumbs:
		t.shift, t.excess = 2, true
	case maxCode <= 3:
		t.shift = 2
	case maxCode <= 15:
		t.shift = 1
	}
	if !t.excess && info.MaxValue > 255 {
		return bad("value %d does not fit a byte", info.MaxValue)
	}
	bitsPer := uint(8) >> t.shift
	t.mask = uint8(1<<bitsPer - 1)
	per := uint64(1) << t.shift
	n := meta.Slots
	t.data = make([]byte, (n+per-1)/per)

	// Decode on several goroutines in chunks of whole bytes (and of many blocks, so that
	// Codes reuses its buffer), recounting the codes.
	const chunk = 1 << 20
	var next atomic.Uint64
	counts := make([][]uint64, opt.Workers)
	eg, ctx := errgroup.WithContext(context.Background())
	for w := range opt.Workers {
		eg.Go(func() error {
			codes := make([]uint32, chunk)
			cnt := make([]uint64, maxCode+1)
			var cells [32]uint8
			for {
				lo := next.Add(chunk) - chunk
				if lo >= n || ctx.Err() != nil {
					break
				}
				buf := codes[:min(chunk, n-lo)]
				if err := r.Codes(buf, lo); err != nil {
					return err
				}
				for i, c := range buf {
					if int(c) > maxCode {
						return fmt.Errorf("%s: code %d above the largest counted %d: %w", path, c, maxCode, format.ErrCorrupt)
					}
					cnt[c]++
					x := c
					if fileExcess != t.excess { // convert through the value
						e := lo + uint64(i)
						g.pp.Unrank(e, cells[:])
						md := uint32(g.mdOf(cells[:]))
						if fileExcess {
							x = md + 2*c
						} else if c < md || (c-md)&1 != 0 {
							return fmt.Errorf("%s: entry %d has value %d, below or off the parity of its Manhattan distance %d: %w",
								path, e, c, md, format.ErrCorrupt)
						} else {
							x = (c - md) / 2
						}
					}
					x = min(x, uint32(t.mask)) // PackNibbles and PackCrumbs cap; the other forms fit
					e := lo + uint64(i)
					t.data[e>>t.shift] |= uint8(x) << ((e & (per - 1)) * uint64(bitsPer))
				}
			}
			counts[w] = cnt
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return fail(err)
	}
	for c, want := range meta.CodeCounts {
		var got uint64
		for _, cnt := range counts {
			got += cnt[c]
		}
		if got != want {
			return bad("code %d occurs %d times, the metadata says %d", c, got, want)
		}
	}
	return t, nil
}

// Rows returns the board's rows.
func (s *PDBSet) Rows() int { return s.m.Rows }

// Cols returns the board's columns.
func (s *PDBSet) Cols() int { return s.m.Cols }

// Goal returns the goal layout: "blank-last" or "blank-first".
func (s *PDBSet) Goal() string { return s.m.Goal }

// Manifest returns the set's manifest.
func (s *PDBSet) Manifest() PDBManifest { return s.m }

// Groups returns the tiles of each group (fresh slices, increasing order).
func (s *PDBSet) Groups() [][]uint8 {
	out := make([][]uint8, len(s.groups))
	for i, g := range s.groups {
		out[i] = slices.Clone(g)
	}
	return out
}

// GroupOf returns the group holding tile, or -1 for a tile in no group (and the blank).
func (s *PDBSet) GroupOf(tile uint8) int {
	if int(tile) >= len(s.owner) {
		return -1
	}
	return int(s.owner[tile])
}

// GroupValue returns group g's value for a board given as pos[tile] = cell (tile 0 is
// the blank, len(pos) = Rows*Cols): the least number of moves of the group's tiles that
// bring them home, whatever the blank's position. It neither checks pos nor allocates.
func (s *PDBSet) GroupValue(g int, pos []uint8) int {
	t := &s.tabs[g]
	var used uint32
	var r uint64
	md := 0
	for i, tile := range t.tiles {
		c := pos[tile] & 31
		r = r*t.radix[i] + uint64(c) - uint64(bits.OnesCount32(used&(1<<c-1)))
		used |= 1 << c
		md += int(t.md[i][c])
	}
	sh := t.shift
	code := int(t.data[r>>sh] >> ((r & (1<<sh - 1)) << (3 - sh)) & t.mask)
	if t.excess {
		return md + 2*code
	}
	return code
}

// H is the additive heuristic: the sum of GroupValue over all groups. It is admissible
// but not consistent (see the notes at the top of pdb.go).
func (s *PDBSet) H(pos []uint8) int {
	h := 0
	for g := range s.tabs {
		h += s.GroupValue(g, pos)
	}
	return h
}

// BytesPerEntry is the memory the tables take per entry.
func (s *PDBSet) BytesPerEntry() float64 {
	if s.ents == 0 {
		return 0
	}
	return float64(s.bytes) / float64(s.ents)
}

// Bytes is the memory the tables take.
func (s *PDBSet) Bytes() uint64 { return s.bytes }

// Close releases the tables; the set must not be used afterwards.
func (s *PDBSet) Close() error {
	s.tabs = nil
	return nil
}
