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

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/index"
)

// Additive pattern databases for sliding-tile puzzles.
//
// The tiles are split into disjoint groups. A group's table has one entry per placement of
// its k tiles on the n cells, ranked by index.PartialPerm (n!/(n-k)! entries). Its value
// is the least number of moves of the group's own tiles that bring them to their goal
// cells, moves of the other tiles being free, minimised over the blank's position: so the
// values of the groups add up to an admissible heuristic (every move moves one tile of
// one group). builder.ZeroOneBFS computes it over the abstract states (placement, blank
// cell) of slide.PDBSpace, where blank moves into cells without a group tile cost 0.
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
		if slots, ok := slide.PDBSlots(n, len(tiles)); !ok || slots > MaxPDBSlots {
			return fmt.Errorf("tables: group %d has %d tiles: %d!/%d! placements times the blank's cells is too large (at most %d abstract states); use smaller groups",
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

// pdbGroup is the arithmetic of one group shared by the build (toExcess) and the lookup.
type pdbGroup struct {
	n, k  int
	tiles []uint8
	pp    *index.PartialPerm
	md    [][slide.MaxCells]uint8 // md[i][c]: Manhattan distance of tiles[i] at cell c
}

func newPDBGroup(geo *slide.Geometry, goal slide.Goal, tiles []uint8) *pdbGroup {
	n := geo.Cells()
	gb := geo.GoalBoard(goal)
	g := &pdbGroup{n: n, k: len(tiles), tiles: tiles, pp: index.NewPartialPerm(n, len(tiles)),
		md: make([][slide.MaxCells]uint8, len(tiles))}
	for i, t := range tiles {
		gc := slices.Index(gb, t)
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
	sp, err := slide.NewPDBSpace(geo, goal, tiles)
	if err != nil {
		return PDBGroupInfo{}, err
	}
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
		if maxCode, err = toExcess(ctx, newPDBGroup(geo, goal, tiles), res.Values, opt.Workers); err != nil {
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
