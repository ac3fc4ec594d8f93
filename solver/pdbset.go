package solver

// Opening a pattern-database set written by pipeline.BuildPDBSet, packing its tables in memory,
// and the lookups a solver makes on its hot path.

import (
	"context"
	"encoding/json"
	"fmt"
	"math/bits"
	"path/filepath"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/internal/parallel"
	"github.com/tablesmith/tablesmith/values"
)

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
// Its lookups are safe for concurrent use and do not allocate. It implements PatternSet.
type PDBSet struct {
	m      *format.Manifest
	p      pdbSetParams
	tabs   []pdbTable
	owner  [slide.MaxCells]int8
	groups [][]uint8
	maxH   int
	bytes  uint64
	ents   uint64
}

// pdbSetParams are a pattern-database set's parameters in its manifest: the board, the
// goal and the files' value encoding.
type pdbSetParams struct {
	Rows     int    `json:"rows"`
	Cols     int    `json:"cols"`
	Goal     string `json:"goal"`
	Encoding string `json:"encoding"`
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

// OpenPDBSet loads the set in dir (written by pipeline.BuildPDBSet) into memory, in the
// smallest exact form (PackAuto). It checks the manifest and every file: a damaged one
// gives an error wrapping format.ErrCorrupt, a missing one an error wrapping
// os.ErrNotExist that names it. The SHA-256 sums of the files are `tablesmith verify`'s
// to check; the codes and their counts are checked here as they are loaded.
func OpenPDBSet(dir string) (*PDBSet, error) { return OpenPDBSetWith(dir, PDBOpenOptions{}) }

// OpenPDBSetWith is OpenPDBSet with a choice of in-memory form.
func OpenPDBSetWith(dir string, opt PDBOpenOptions) (*PDBSet, error) {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	m, err := format.ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("solver: %w", err)
	}
	s := &PDBSet{m: m}
	groups, err := s.readManifest(dir)
	if err != nil {
		return nil, err
	}
	for i := range s.owner {
		s.owner[i] = -1
	}
	for gi, gp := range groups {
		g, err := slide.NewPDBGroup(gp)
		if err != nil {
			return nil, fmt.Errorf("solver: %s: group %d: %v: %w", dir, gi+1, err, format.ErrCorrupt)
		}
		for _, t := range g.Tiles() {
			s.owner[t] = int8(gi)
		}
		s.groups = append(s.groups, g.Tiles())
		tab, maxValue, err := loadPDBTable(dir, m.Members[gi], gp, s.p.Encoding, g, opt)
		if err != nil {
			return nil, err
		}
		s.tabs = append(s.tabs, tab)
		s.bytes += uint64(len(tab.data))
		s.ents += g.Slots()
		s.maxH += maxValue
	}
	return s, nil
}

// readManifest checks that s.m is a sliding-tile pattern-database set's manifest, sets
// s.p from it and returns each group's parameters (board, goal, tiles).
func (s *PDBSet) readManifest(dir string) ([]slide.PDBParams, error) {
	m := s.m
	path := filepath.Join(dir, format.ManifestName)
	bad := func(what string, args ...any) error {
		return fmt.Errorf("solver: %s: %s: %w", path, fmt.Sprintf(what, args...), format.ErrCorrupt)
	}
	if m.Kind != format.SetPDB || m.Game != (slide.PDBGame{}).Name() {
		return nil, fmt.Errorf("solver: %s is a %s set of %s, not a pattern-database set of %s", dir, m.Kind, m.Game, slide.PDBGame{}.Name())
	}
	if err := json.Unmarshal(m.Params, &s.p); err != nil {
		return nil, bad("set parameters %s: %v", m.Params, err)
	}
	if !values.IsPDB(values.Encoding(s.p.Encoding)) {
		return nil, bad("encoding %q", s.p.Encoding)
	}
	spec := slide.PDBSpec{Rows: s.p.Rows, Cols: s.p.Cols, Goal: s.p.Goal}
	var out []slide.PDBParams
	for _, x := range m.Members {
		var gp slide.PDBParams
		if err := json.Unmarshal(x.Params, &gp); err != nil {
			return nil, bad("group %s: parameters %s: %v", x.Name, x.Params, err)
		}
		if gp.Rows != s.p.Rows || gp.Cols != s.p.Cols || gp.Goal != s.p.Goal {
			return nil, bad("group %s is for a %d×%d board, goal %s; the set for %d×%d, goal %s",
				x.Name, gp.Rows, gp.Cols, gp.Goal, s.p.Rows, s.p.Cols, s.p.Goal)
		}
		tiles, err := gp.TilesUint8()
		if err != nil {
			return nil, bad("group %s: %v", x.Name, err)
		}
		spec.Groups = append(spec.Groups, tiles)
		out = append(out, gp)
	}
	if spec.Goal == "" {
		return nil, bad("no goal")
	}
	if err := spec.Normalize(); err != nil {
		return nil, bad("%v", err)
	}
	return out, nil
}

// loadPDBTable reads group x's file and packs it; it returns the table and the group's
// largest value (from the file's checksummed metadata).
func loadPDBTable(dir string, x format.Member, gp slide.PDBParams, encoding string, g *slide.PDBGroup, opt PDBOpenOptions) (pdbTable, int, error) {
	path := filepath.Join(dir, x.File)
	fail := func(err error) (pdbTable, int, error) {
		return pdbTable{}, 0, fmt.Errorf("solver: pattern database group %s: %w", x.Name, err)
	}
	r, err := format.Open(path)
	if err != nil {
		return fail(err)
	}
	defer r.Close()
	meta := r.Meta()
	bad := func(what string, args ...any) (pdbTable, int, error) {
		return fail(fmt.Errorf("%s: %s: %w", path, fmt.Sprintf(what, args...), format.ErrCorrupt))
	}
	var fp slide.PDBParams
	if err := json.Unmarshal(meta.Params, &fp); err != nil {
		return bad("parameters %s: %v", meta.Params, err)
	}
	var extra struct {
		Max *int `json:"max_value"`
	}
	if len(meta.Extra) > 0 {
		if err := json.Unmarshal(meta.Extra, &extra); err != nil {
			return bad("metadata extra %s: %v", meta.Extra, err)
		}
	}
	switch {
	case x.Bytes >= 0 && r.FileSize() != x.Bytes:
		return bad("%d bytes, the manifest says %d", r.FileSize(), x.Bytes)
	case meta.Game != (slide.PDBGame{}).Name():
		return bad("a %s/%s table, want %s", meta.Game, meta.Index, slide.PDBGame{}.Name())
	case meta.Encoding != encoding:
		return bad("encoding %q, the manifest says %q", meta.Encoding, encoding)
	case fp.Rows != gp.Rows || fp.Cols != gp.Cols || fp.Goal != gp.Goal || !slices.Equal(fp.Tiles, gp.Tiles):
		return bad("made for %d×%d %s tiles %v, the manifest says %d×%d %s tiles %v",
			fp.Rows, fp.Cols, fp.Goal, fp.Tiles, gp.Rows, gp.Cols, gp.Goal, gp.Tiles)
	case meta.Slots != g.Slots():
		return bad("%d entries, want %d", meta.Slots, g.Slots())
	case meta.CodeCounts == nil || len(meta.CodeCounts) == 0:
		return bad("no code counts")
	}
	maxCode := len(meta.CodeCounts) - 1
	fileExcess := values.Encoding(meta.Encoding) == values.EncodingPDBExcess
	maxValue := maxCode // a file of values
	if fileExcess {
		if extra.Max == nil || *extra.Max < maxCode {
			return bad("no largest value, or one below the largest excess %d", maxCode)
		}
		maxValue = *extra.Max
	}

	n := uint64(g.Geometry().Cells())
	t := pdbTable{tiles: g.Tiles(), md: g.MDTable(), excess: fileExcess}
	for i := range g.K() {
		t.radix[i] = n - uint64(i)
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
	if !t.excess && maxValue > 255 {
		return bad("value %d does not fit a byte", maxValue)
	}
	bitsPer := uint(8) >> t.shift
	t.mask = uint8(1<<bitsPer - 1)
	per := uint64(1) << t.shift
	n = meta.Slots
	t.data = make([]byte, (n+per-1)/per)

	counts := make([][]uint64, opt.Workers)
	var loadErr error
	if meta.CodeBits <= int(bitsPer) && fileExcess == t.excess && maxCode <= int(t.mask) &&
		uint64(r.SlotsPerBlock())*uint64(bitsPer)%8 == 0 && !forceRepack {
		loadErr = copyPacked(r, meta.Slots, t.data, uint(meta.CodeBits), bitsPer, counts)
	} else {
		loadErr = repack(r, &t, g, path, fileExcess, maxCode, counts)
	}
	if loadErr != nil {
		return fail(loadErr)
	}
	for c, want := range meta.CodeCounts {
		var got uint64
		for _, cnt := range counts {
			if c < len(cnt) {
				got += cnt[c]
			}
		}
		if got != want {
			return bad("code %d occurs %d times, the metadata says %d", c, got, want)
		}
	}
	for _, cnt := range counts {
		for c := len(meta.CodeCounts); c < len(cnt); c++ {
			if cnt[c] != 0 {
				return bad("code %d above the largest counted %d", c, maxCode)
			}
		}
	}
	// A forged group with a non-zero value at the goal would make the heuristic
	// inadmissible (IDA* would never finish even on the goal): refuse it here.
	if ge := g.GoalEntry(); t.data[ge>>t.shift]>>((ge&(per-1))*uint64(bitsPer))&t.mask != 0 {
		return bad("the goal placement holds a non-zero value: the heuristic would be inadmissible")
	}
	return t, maxValue, nil
}

// forceRepack turns off copyPacked, and packedCopies counts its calls, for the tests that
// compare it with repack.
// inPlaceCopies counts those of copyPacked's calls that decode blocks straight into place.
var (
	forceRepack   bool
	packedCopies  atomic.Int64
	inPlaceCopies atomic.Int64
)

// pdbRunBlocks is how many consecutive blocks a worker of copyPacked takes at a time. It
// decodes them in order, so that a block may be decoded with the room of the next one
// (see PackedBlockInto) without touching another worker's bytes: only a run's last
// block is decoded without room. A variable for the tests, which make runs short.
var pdbRunBlocks = 64

// copyPacked fills data, a table of bits-bit codes packed LSB first (bits dividing 8), from
// the file's blocks (checksums checked) on several goroutines, and counts the codes of
// each goroutine's blocks into counts[w] (1<<bits counters). The file's codes are
// fileBits ≤ bits wide and each block starts on a byte of data: when the widths are
// equal, the file already has data's layout and its blocks are decoded straight into
// place; otherwise (3-bit files in 4-bit tables) each code is widened on the way.
func copyPacked(r *format.Reader, n uint64, data []byte, fileBits, bits uint, counts [][]uint64) error {
	packedCopies.Add(1)
	if fileBits == bits {
		inPlaceCopies.Add(1)
	}
	spb := uint64(r.SlotsPerBlock())
	perBlock := spb * uint64(bits) / 8 // whole bytes, checked by the caller
	runBlocks := pdbRunBlocks
	// One worker per element of counts, each with its histogram of whole bytes (folded
	// into its counts at the end) and its buffer; a unit of work is a run of blocks.
	type worker struct {
		cnt  []uint64
		buf  []byte
		hist [4][256]uint64
	}
	workers := make([]*worker, len(counts))
	for w := range counts {
		counts[w] = make([]uint64, 1<<bits)
		workers[w] = &worker{cnt: counts[w]}
	}
	err := parallel.ForWorkers(context.Background(), workers, uint64(r.Blocks()), uint64(runBlocks), func(wk *worker, lo, hi uint64) error {
		runEnd := int(lo) + runBlocks
		for b := int(lo); b < int(hi); b++ {
			slots := min(spb, n-uint64(b)*spb)
			start := uint64(b) * perBlock
			if fileBits != bits {
				packed, err := r.PackedBlock(b, wk.buf)
				if err != nil {
					return err
				}
				wk.buf = packed
				widen(data[start:], packed, slots, fileBits, bits, wk.cnt, &wk.hist[0])
				continue
			}
			end := start + uint64(r.PackedBlockBytes(b))
			room := end
			if b+1 < runEnd {
				room = min(start+2*perBlock, uint64(len(data)))
			}
			packed := data[start:end:room]
			if err := r.PackedBlockInto(b, packed); err != nil {
				return err
			}
			countPacked(packed, slots, bits, wk.cnt, &wk.hist)
		}
		return nil
	})
	if err != nil {
		return err
	}
	mask := uint64(1)<<bits - 1
	for _, wk := range workers {
		for v := range 256 {
			h := wk.hist[0][v] + wk.hist[1][v] + wk.hist[2][v] + wk.hist[3][v]
			if h == 0 {
				continue
			}
			for sh := uint(0); sh < 8; sh += bits {
				wk.cnt[uint64(v)>>sh&mask] += h
			}
		}
	}
	return nil
}

// countPacked counts the slots codes of bits bits packed in p: those in whole bytes by
// byte value in hist (four tables, for independent increments; copyPacked splits them
// into codes at the end), those of a last partial byte one by one in cnt.
func countPacked(p []byte, slots uint64, bits uint, cnt []uint64, hist *[4][256]uint64) {
	whole := slots * uint64(bits) / 8
	i := uint64(0)
	for ; i+4 <= whole; i += 4 {
		hist[0][p[i]]++
		hist[1][p[i+1]]++
		hist[2][p[i+2]]++
		hist[3][p[i+3]]++
	}
	for ; i < whole; i++ {
		hist[0][p[i]]++
	}
	mask := byte(1)<<bits - 1
	for k := range slots - whole*8/uint64(bits) {
		cnt[p[whole]>>(k*uint64(bits))&mask]++
	}
}

// widen writes slots codes of fileBits bits from packed into out (zeroed) at width bits
// each (1, 2, 4 or 8), counting them: in cnt one by one, or, for whole bytes of out, in
// hist by the byte's value (as copyPacked counts).
func widen(out, packed []byte, slots uint64, fileBits, width uint, cnt []uint64, hist *[256]uint64) {
	var i uint64
	if fileBits == 3 && width == 4 {
		// The common case (a group whose values fit 3 bits, loaded as nibbles): 8 codes
		// from 3 bytes, two at a time by a 64-entry table, instead of bit by bit.
		for ; i+8 <= slots; i += 8 {
			j := i / 8 * 3
			x := uint32(packed[j]) | uint32(packed[j+1])<<8 | uint32(packed[j+2])<<16
			o := out[i/2 : i/2+4]
			o[0], o[1], o[2], o[3] = threeToNibbles[x&63], threeToNibbles[x>>6&63], threeToNibbles[x>>12&63], threeToNibbles[x>>18&63]
			hist[o[0]]++
			hist[o[1]]++
			hist[o[2]]++
			hist[o[3]]++
		}
	}
	fmask := uint64(1)<<fileBits - 1
	perShift := 3 - uint(bits.TrailingZeros(width)) // log2 of the codes per byte of out
	var acc uint64
	var n uint
	j := int(i * uint64(fileBits) / 8) // i is a multiple of 8: a whole byte
	for ; i < slots; i++ {
		for n < fileBits {
			acc |= uint64(packed[j]) << n
			j++
			n += 8
		}
		c := acc & fmask
		acc >>= fileBits
		n -= fileBits
		cnt[c]++
		out[i>>perShift] |= byte(c) << ((i & (1<<perShift - 1)) * uint64(width))
	}
}

// threeToNibbles maps two 3-bit codes (6 bits, the first in the low bits) to a byte of two
// 4-bit codes.
var threeToNibbles = func() (t [64]byte) {
	for v := range t {
		t[v] = byte(v&7 | (v>>3)<<4)
	}
	return t
}()

// repack fills t.data code by code from the file's codes (converting between values and
// excesses, or capping, as t asks), on several goroutines, and counts the file's codes of
// each goroutine's chunks into counts[w].
func repack(r *format.Reader, t *pdbTable, g *slide.PDBGroup, path string, fileExcess bool, maxCode int, counts [][]uint64) error {
	bitsPer := uint(8) >> t.shift
	per := uint64(1) << t.shift
	// Decode on several goroutines (format.Reader.ReadAll), each recounting the codes of
	// its chunks. A chunk is whole blocks: each goroutine writes whole bytes of t.data
	// where a block's slots fill whole bytes, else one goroutine does it all.
	type worker struct {
		cnt   []uint64
		cells [32]uint8
	}
	workers := make([]*worker, len(counts))
	for w := range counts {
		counts[w] = make([]uint64, maxCode+1)
		workers[w] = &worker{cnt: counts[w]}
	}
	nw := len(workers)
	if uint64(r.SlotsPerBlock())%per != 0 {
		nw = 1
	}
	return r.ReadAll(context.Background(), nw, func(w int, lo uint64, buf []uint32) error {
		wk := workers[w]
		cnt, cells := wk.cnt, &wk.cells
		for i, c := range buf {
			if int(c) > maxCode {
				return fmt.Errorf("%s: code %d above the largest counted %d: %w", path, c, maxCode, format.ErrCorrupt)
			}
			cnt[c]++
			x := c
			if fileExcess != t.excess { // convert through the value
				e := lo + uint64(i)
				g.Unrank(e, cells[:])
				md := uint32(g.MD(cells[:]))
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
		return nil
	})
}

// Rows returns the board's rows.
func (s *PDBSet) Rows() int { return s.p.Rows }

// Cols returns the board's columns.
func (s *PDBSet) Cols() int { return s.p.Cols }

// Goal returns the goal layout: "blank-last" or "blank-first".
func (s *PDBSet) Goal() string { return s.p.Goal }

// Encoding returns what the files store: values.EncodingPDBExcess or EncodingPDBValue.
func (s *PDBSet) Encoding() string { return s.p.Encoding }

// Manifest returns the set's manifest.
func (s *PDBSet) Manifest() *format.Manifest { return s.m }

// Entries is the number of entries of all groups.
func (s *PDBSet) Entries() uint64 { return s.ents }

// MaxH is the sum of the groups' largest values (from the files' metadata): a bound on
// H.
func (s *PDBSet) MaxH() int { return s.maxH }

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
