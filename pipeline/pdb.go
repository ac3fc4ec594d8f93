package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/builder/zeroone"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/parallel"
	"github.com/tablesmith/tablesmith/internal/safefile"
	"github.com/tablesmith/tablesmith/values"
)

// Additive pattern-database sets, of any family (games.PDBFamily: the sliding-tile
// puzzles').
//
// The tiles are split into disjoint groups. A group's table has one entry per placement of
// its k tiles on the n cells (for the sliding tiles, ranked by index.PartialPerm:
// n!/(n-k)! entries). Its value is the least number of moves of the group's own tiles
// that bring them to their goal cells, moves of the other tiles being free, minimised over
// the blank's position: so the values of the groups add up to an admissible heuristic
// (every move moves one tile of one group). zeroone.Search computes it over the group's
// abstract space, which the family supplies (games.PDBBuild; the sliding tiles' folds the
// blank's free moves among cells without a group tile into its region, so each abstract
// state is reached once).
//
// The sum is admissible but not consistent: minimising over the blank forgets which of
// the blank's regions it is in, and one move can change a group's value by more than one
// (up to 7 on the 8-puzzle with groups 1-4 and 5-8). IDA* does not need consistency; A*
// must reopen states. For the same reason values cannot be stored modulo 3 and rebuilt
// move by move; the files store the excess over the Manhattan distance instead
// (values.EncodingPDBExcess).

// PDBBuildSpec describes a set to build: its family, its groups as the family describes them
// (checked and normalized by the family: see games.PDBFamily.BindSetFlags) and the
// files' value encoding.
type PDBBuildSpec struct {
	Family games.PDBFamily
	games.PDBSetSpec
	Encoding string // values.EncodingPDBExcess (default) or values.EncodingPDBValue
}

// Normalize checks the spec and fills in the default encoding.
func (sp *PDBBuildSpec) Normalize() error {
	switch {
	case sp.Family == nil:
		return fmt.Errorf("build: a pattern-database set without its family")
	case len(sp.Groups) == 0:
		return fmt.Errorf("build: a pattern-database set of %s without groups", sp.Family.Name())
	}
	switch values.Encoding(sp.Encoding) {
	case "":
		sp.Encoding = string(values.EncodingPDBExcess)
	case values.EncodingPDBExcess, values.EncodingPDBValue:
	default:
		return fmt.Errorf("build: unknown pattern-database encoding %q (want %s or %s)",
			sp.Encoding, values.EncodingPDBExcess, values.EncodingPDBValue)
	}
	return nil
}

// PDBOptions tune BuildPDBSet. The zero value is usable.
type PDBOptions struct {
	Workers int // 0: GOMAXPROCS
	// Search and Write, if set, report the progress of group g's search and file.
	Search func(g int, p builder.Progress)
	Write  func(g int, done, total uint64)
	// GroupDone, if set, is called after each group's file is written.
	GroupDone func(g int, info PDBGroupInfo)
	Build     format.Build // recorded in the files and the manifest (Seconds is per file)
}

// PDBGroupInfo is one group's file as a build wrote or found it: its member of the
// manifest (file, size, SHA-256, its parameters and build seconds) and, for messages,
// the numbers of the file's own checksummed metadata (the manifest states none of them).
type PDBGroupInfo struct {
	format.Member
	Tiles    []int    `json:"tiles"`
	Entries  uint64   `json:"entries"`
	MaxValue int      `json:"max_value"`
	Counts   []uint64 `json:"counts"` // Counts[v] = entries of value v
	CodeBits int      `json:"code_bits"`
}

// Seconds is the time the group's search and file took (0 if not recorded).
func (g PDBGroupInfo) Seconds() float64 {
	if g.Build == nil {
		return 0
	}
	return g.Build.Seconds
}

// pdbSetParams are the parameters of the set spec in its manifest: what every group
// shares (the family's JSON object) with the files' encoding added as its last member.
func pdbSetParams(spec PDBBuildSpec) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, spec.Params); err != nil || b.Len() < 2 || b.Bytes()[b.Len()-1] != '}' {
		b.Reset()
		b.WriteString("{}")
	}
	enc, _ := json.Marshal(spec.Encoding)
	out := b.Bytes()[:b.Len()-1]
	if len(out) > 1 {
		out = append(out, ',')
	}
	out = append(out, `"encoding":`...)
	return append(append(out, enc...), '}')
}

// BuildPDBSet builds one table per group of spec into dir (created if needed) and then
// switches dir/manifest.json to the new set atomically. Until that rename an old set in
// dir stays whole and usable: each group's file is named after the group's identity
// (board, goal, encoding, tiles), so a file the old manifest names is only ever replaced,
// atomically, by a file of the same group; files no manifest names any more are removed
// after the switch. The files are reproducible (the same bytes from every build, on any
// machine, with any workers); what changes from run to run is in the manifest. For a set
// built group by group, as separate units of work, see BuildPDBGroup and AssemblePDBSet.
func BuildPDBSet(ctx context.Context, dir string, spec PDBBuildSpec, opt PDBOptions) (*format.Manifest, error) {
	spec, err := normalizedPDBSpec(spec)
	if err != nil {
		return nil, err
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if err := prepareSetDir(dir); err != nil {
		return nil, err
	}
	m := newPDBManifest(spec, opt)
	start := time.Now()
	for gi := range spec.Groups {
		info, err := buildPDBGroup(ctx, dir, spec, gi, opt)
		if err != nil {
			return nil, err
		}
		m.Members = append(m.Members, info.Member)
		if opt.GroupDone != nil {
			opt.GroupDone(gi, info)
		}
		debug.FreeOSMemory() // the search's bitsets are garbage now; keep the peak down
	}
	m.Build.Seconds = time.Since(start).Seconds()
	if err := writePDBManifest(dir, m, nil); err != nil {
		return nil, err
	}
	return m, nil
}

// normalizedPDBSpec returns a normalized copy of spec.
func normalizedPDBSpec(spec PDBBuildSpec) (PDBBuildSpec, error) {
	return spec, spec.Normalize()
}

// newPDBManifest starts the manifest of the set spec: the game, and the set's parameters
// (board, goal, encoding); the groups are its members.
func newPDBManifest(spec PDBBuildSpec, opt PDBOptions) *format.Manifest {
	m := format.NewManifest(format.SetPDB, spec.Family.Name(), "")
	m.Params = pdbSetParams(spec)
	b := opt.Build
	if opt.Workers > 0 {
		b.Workers = opt.Workers
	}
	b.Tool = orString(b.Tool, "tablesmith")
	m.Build = &b
	return m
}

// writePDBManifest stamps m, switches dir/manifest.json to it, and removes the group files
// that neither m nor keep names.
func writePDBManifest(dir string, m *format.Manifest, keep []format.Member) error {
	if m.Build.Created.IsZero() {
		m.Build.Created = time.Now().UTC().Truncate(time.Second)
	}
	m.Build.GoVersion = runtime.Version()
	if err := format.WriteManifest(dir, m); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	removeUnlisted(dir, append(slices.Clone(m.Members), keep...))
	return nil
}

// A set built group by group: BuildPDBGroup writes one group's file and records it, with its
// SHA-256 and its build time, in dir/manifest.partial.json (under the set's lock, so
// that units running at once lose nothing); AssemblePDBSet turns the records into the
// manifest once every group is there. Until then an old set in dir stays whole, as with
// BuildPDBSet.
const (
	pdbPartialName   = "manifest.partial.json"
	pdbPartialFormat = "tablesmith-pdb-partial"
)

// pdbPartial is the content of manifest.partial.json: groups built but in no manifest
// yet, of any set, each as the manifest's member it will be. (A record of an earlier
// version, with "groups", reads as empty: those groups are built again.)
type pdbPartial struct {
	Format  string          `json:"format"`
	Members []format.Member `json:"members"`
}

// readPDBPartial reads dir's partial record; a missing or unreadable one reads as empty
// (its groups are then built again: the files are reproducible).
func readPDBPartial(dir string) *pdbPartial {
	p := &pdbPartial{Format: pdbPartialFormat}
	b, err := os.ReadFile(filepath.Join(dir, pdbPartialName))
	if err != nil || json.Unmarshal(b, p) != nil || p.Format != pdbPartialFormat {
		return &pdbPartial{Format: pdbPartialFormat}
	}
	return p
}

// readPDBManifest reads dir's manifest if it is a pattern-database set of family g.
func readPDBManifest(dir string, g games.PDBFamily) (*format.Manifest, error) {
	m, err := format.ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	if m.Kind != format.SetPDB || m.Game != g.Name() {
		return nil, fmt.Errorf("build: %s holds a %s set of %s, not a pattern-database set", dir, m.Kind, m.Game)
	}
	return m, nil
}

// recordedGroup returns the record of the group file name from dir's manifest or partial
// record, if the file is there with the SHA-256 recorded and the parameters want.
func recordedGroup(dir string, g games.PDBFamily, name string, want json.RawMessage) (format.Member, bool) {
	var recs []format.Member
	if m, err := readPDBManifest(dir, g); err == nil {
		recs = m.Members
	}
	recs = append(recs, readPDBPartial(dir).Members...)
	sum := ""
	for _, x := range recs {
		if x.File != name || x.SHA256 == "" || !sameJSON(x.Params, want) {
			continue
		}
		if sum == "" {
			var err error
			if sum, err = format.FileSHA256(filepath.Join(dir, name)); err != nil {
				return format.Member{}, false
			}
		}
		if sum == x.SHA256 {
			return x, true
		}
	}
	return format.Member{}, false
}

// pdbGroupParamsJSON is the parameters of group gr, as its file's metadata and its
// member of the manifest state them.
func pdbGroupParamsJSON(gr games.PDBGroupSpec) json.RawMessage {
	b, _ := json.Marshal(gr.Params)
	return b
}

// sameJSON reports whether a and b are the same JSON but for insignificant space (a
// record written indented, parameters marshalled compact).
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// recordedGroupInfo reads the numbers of a recorded group's file from its checksummed
// metadata.
func recordedGroupInfo(dir string, x format.Member, tiles []int) (PDBGroupInfo, error) {
	r, err := format.Open(filepath.Join(dir, x.File))
	if err != nil {
		return PDBGroupInfo{}, fmt.Errorf("build: %w", err)
	}
	defer r.Close()
	meta := r.Meta()
	info := PDBGroupInfo{Member: x, Tiles: slices.Clone(tiles), Entries: meta.Slots, CodeBits: meta.CodeBits}
	var extra struct {
		Counts []uint64 `json:"value_counts"`
		Max    int      `json:"max_value"`
	}
	if json.Unmarshal(meta.Extra, &extra) == nil {
		info.Counts, info.MaxValue = extra.Counts, extra.Max
	}
	return info, nil
}

// BuildPDBGroup builds group gi (from 0) of the set spec into dir as one unit of work and
// records it (see pdbPartialName). It does nothing, and reports built false, when the
// group's file is already recorded, in the partial record or the manifest, with the same
// SHA-256. The file is the one BuildPDBSet writes, byte for byte.
func BuildPDBGroup(ctx context.Context, dir string, spec PDBBuildSpec, gi int, opt PDBOptions) (info PDBGroupInfo, built bool, err error) {
	if spec, err = normalizedPDBSpec(spec); err != nil {
		return info, false, err
	}
	if gi < 0 || gi >= len(spec.Groups) {
		return info, false, fmt.Errorf("build: group %d: the set has groups 1 to %d", gi+1, len(spec.Groups))
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if err := prepareSetDir(dir); err != nil {
		return info, false, err
	}
	gr := spec.Groups[gi]
	if x, ok := recordedGroup(dir, spec.Family, pdbFileName(spec, gi, gr.Tiles), pdbGroupParamsJSON(gr)); ok {
		info, err = recordedGroupInfo(dir, x, gr.Tiles)
		return info, false, err
	}
	if info, err = buildPDBGroup(ctx, dir, spec, gi, opt); err != nil {
		return info, false, err
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return info, false, err
	}
	defer unlock()
	p := readPDBPartial(dir)
	p.Members = append(slices.DeleteFunc(p.Members, func(x format.Member) bool { return x.File == info.File }), info.Member)
	return info, true, writeJSONAtomic(filepath.Join(dir, pdbPartialName), p)
}

// AssemblePDBSet writes dir/manifest.json for the set spec from its groups' files, built by
// BuildPDBGroup, and removes the group files that no manifest or record names any more. It
// does nothing, and reports built false, when the manifest already describes spec with
// every file in place; a group not built (or whose file changed) is an error naming it.
func AssemblePDBSet(dir string, spec PDBBuildSpec, opt PDBOptions) (m *format.Manifest, built bool, err error) {
	if spec, err = normalizedPDBSpec(spec); err != nil {
		return nil, false, err
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, false, fmt.Errorf("build: %s holds no groups of the set: build them first (tablesmith build pdb … --group K -o %s)", dir, dir)
	}
	if err := format.CheckManifestPath(dir); err != nil {
		return nil, false, fmt.Errorf("build: %w", err)
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return nil, false, err
	}
	defer unlock()
	complete, err := pdbManifestComplete(dir, spec)
	if err != nil {
		return nil, false, err
	}
	if complete {
		m, err = readPDBManifest(dir, spec.Family)
	} else {
		m, err = assemblePDBManifest(dir, spec, opt)
	}
	if err != nil {
		return nil, false, err
	}
	// The groups in the manifest need no record any more.
	p := readPDBPartial(dir)
	n := len(p.Members)
	p.Members = slices.DeleteFunc(p.Members, func(x format.Member) bool {
		return slices.ContainsFunc(m.Members, func(y format.Member) bool { return y.File == x.File })
	})
	switch {
	case len(p.Members) == n:
	case len(p.Members) == 0:
		err = os.Remove(filepath.Join(dir, pdbPartialName))
	default:
		err = writeJSONAtomic(filepath.Join(dir, pdbPartialName), p)
	}
	return m, !complete, err
}

// assemblePDBManifest writes the manifest of spec from the groups' records (the caller
// holds the lock).
func assemblePDBManifest(dir string, spec PDBBuildSpec, opt PDBOptions) (*format.Manifest, error) {
	m := newPDBManifest(spec, opt)
	for gi, gr := range spec.Groups {
		x, ok := recordedGroup(dir, spec.Family, pdbFileName(spec, gi, gr.Tiles), pdbGroupParamsJSON(gr))
		if !ok {
			return nil, fmt.Errorf("build: group %d %v of the set is not built in %s, or its file is not the one recorded: build it first (tablesmith build pdb … --group %d -o %s)",
				gi+1, gr.Tiles, dir, gi+1, dir)
		}
		m.Members = append(m.Members, x)
		if x.Build != nil {
			m.Build.Seconds += x.Build.Seconds
		}
	}
	return m, writePDBManifest(dir, m, readPDBPartial(dir).Members)
}

// pdbManifestComplete reports whether dir's manifest is the set spec's with every group
// file in place (the SHA-256 it records).
func pdbManifestComplete(dir string, spec PDBBuildSpec) (bool, error) {
	m, err := readPDBManifest(dir, spec.Family)
	if err != nil || len(m.Members) != len(spec.Groups) {
		return false, nil // none, another set's, or unreadable: write it (again)
	}
	if !sameJSON(m.Params, pdbSetParams(spec)) {
		return false, nil
	}
	for gi, x := range m.Members {
		gr := spec.Groups[gi]
		if x.File != pdbFileName(spec, gi, gr.Tiles) || x.SHA256 == "" || !sameJSON(x.Params, pdbGroupParamsJSON(gr)) {
			return false, nil
		}
		if sum, err := format.FileSHA256(filepath.Join(dir, x.File)); err != nil || sum != x.SHA256 {
			return false, nil
		}
	}
	return true, nil
}

// pdbFileName names a group's file after the group's identity: the set's key (its shared
// parameters), the encoding and the tiles.
func pdbFileName(spec PDBBuildSpec, gi int, tiles []int) string {
	id := fmt.Sprintf("%s %s %v", spec.Key, spec.Encoding, tiles)
	return fmt.Sprintf("group%d-%08x.tsm", gi+1, crc32.Checksum([]byte(id), crc32.MakeTable(crc32.Castagnoli)))
}

// removeUnlisted removes the group files of earlier sets in dir that groups do not name.
// Only names of the pattern the builder writes are touched.
func removeUnlisted(dir string, groups []format.Member) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, "group") || !strings.HasSuffix(name, ".tsm") {
			continue
		}
		if !slices.ContainsFunc(groups, func(x format.Member) bool { return x.File == name }) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// buildPDBGroup builds group gi's file into dir; its errors name the group.
func buildPDBGroup(ctx context.Context, dir string, spec PDBBuildSpec, gi int, opt PDBOptions) (info PDBGroupInfo, err error) {
	gr := spec.Groups[gi]
	tiles := gr.Tiles
	defer func() {
		if err != nil {
			err = fmt.Errorf("build: group %d %v: %w", gi+1, tiles, err)
		}
	}()
	start := time.Now()
	sp, err := spec.Family.NewPDBBuild(gr.Params)
	if err != nil {
		return PDBGroupInfo{}, err
	}
	bopt := zeroone.Options{Workers: opt.Workers}
	if opt.Search != nil {
		bopt.Progress = func(p builder.Progress) { opt.Search(gi, p) }
	}
	res, err := zeroone.Search(ctx, sp, bopt)
	if err != nil {
		return PDBGroupInfo{}, err
	}
	if res.Unreached != 0 {
		return PDBGroupInfo{}, fmt.Errorf("internal error: %d placements unreached", res.Unreached)
	}
	info = PDBGroupInfo{Member: format.Member{Name: games.GroupName(tiles), File: pdbFileName(spec, gi, tiles)},
		Tiles: slices.Clone(tiles), Entries: res.Entries, MaxValue: res.MaxValue(), Counts: res.Counts}
	maxCode := uint64(res.MaxValue())
	if values.Encoding(spec.Encoding) == values.EncodingPDBExcess {
		if maxCode, err = toExcess(ctx, sp, res.Values, opt.Workers); err != nil {
			return PDBGroupInfo{}, err
		}
	}
	info.CodeBits = max(bits.Len64(maxCode), 1)
	pj := pdbGroupParamsJSON(gr)
	info.Params = pj
	extra, _ := json.Marshal(map[string]any{"value_counts": res.Counts, "max_value": res.MaxValue()})
	meta := format.Metadata{Game: spec.Family.Name(), Params: pj, Index: spec.Family.Schemes()[0], Encoding: spec.Encoding,
		Slots: res.Entries, CodeBits: info.CodeBits, Extra: extra,
		Build: format.Build{Tool: "tablesmith"}} // reproducible: the volatile part goes to the manifest
	src := valueCodes(res.Values, func(x uint64) uint32 { return uint32(x) }) // every entry is reached
	wopt := format.WriteOptions{Workers: opt.Workers, Reproducible: true}
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
	if info.SHA256, err = format.FileSHA256(path); err != nil {
		return PDBGroupInfo{}, err
	}
	b := opt.Build // the volatile part of the build, kept out of the reproducible file
	b.Tool = orString(b.Tool, "tablesmith")
	b.GoVersion = runtime.Version()
	b.Created = time.Now().UTC().Truncate(time.Second)
	b.Workers = opt.Workers
	b.Seconds = time.Since(start).Seconds()
	info.Build = &b
	return info, nil
}

// A family's group build is a 0-1 search space, checked here at compile time.
var (
	_ zeroone.Space      = games.PDBBuild(nil)
	_ zeroone.ZeroClosed = games.PDBBuild(nil)
)

// excessChunk is the number of entries toExcess converts in one call of
// PDBBuild.ExcessCodes.
const excessChunk = 1 << 16

// toExcess replaces each value of v by its excess code (see games.PDBBuild.ExcessCodes)
// in place and returns the largest. A value of the wrong parity or below the distance is
// an internal error. The values go to the family a chunk at a time, as plain bytes.
func toExcess(ctx context.Context, sp games.PDBBuild, v *builder.Values, workers int) (uint64, error) {
	if v.Max() > 255 {
		return 0, fmt.Errorf("internal error: values of %d bytes for the excess encoding", v.Width())
	}
	// Each goroutine keeps the largest excess it wrote; the largest of all is the answer.
	type state struct {
		top uint64
		buf []uint8
	}
	var mu sync.Mutex
	var states []*state
	newState := func() *state {
		st := &state{buf: make([]uint8, excessChunk)}
		mu.Lock()
		states = append(states, st)
		mu.Unlock()
		return st
	}
	err := parallel.ForEach(ctx, workers, v.Len(), excessChunk, newState, func(st *state, lo, hi uint64) error {
		buf := st.buf[:hi-lo]
		for i := range buf {
			buf[i] = uint8(v.Get(lo + uint64(i)))
		}
		top, err := sp.ExcessCodes(lo, buf)
		if err != nil {
			return fmt.Errorf("internal error: %w", err)
		}
		for i, c := range buf {
			v.Set(lo+uint64(i), uint64(c))
		}
		st.top = max(st.top, top)
		return nil
	})
	if err != nil {
		return 0, err
	}
	var maxEx uint64
	for _, st := range states {
		maxEx = max(maxEx, st.top)
	}
	return maxEx, nil
}

// writeJSONAtomic writes v as indented JSON to path through a locked temporary file in
// the same directory, synced and renamed into place (see internal/safefile); a path that
// exists and is not a regular file is refused.
func writeJSONAtomic(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := safefile.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	return nil
}

// makeSetDir creates a set's directory, refusing a path that exists and is no directory.
func makeSetDir(dir string) error {
	if st, err := os.Lstat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("build: %s exists and is not a directory (%v); a set is written to a directory", dir, st.Mode().Type())
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	return nil
}
