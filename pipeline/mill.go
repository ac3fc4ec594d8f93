package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/sysmem"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

// Nine Men's Morris sector sets. One unit of work is a sector pair {(w,b), (b,w)}: the
// two sectors reach each other by non-capturing moves and are solved together by
// retrograde analysis; captures lead into sectors with one stone fewer, solved before.
// A set is a directory of sector files plus manifest.json (tables.SectorManifest),
// which records each sector when its pair is complete.

// Pair is a sector pair, W ≥ B: sectors (W, B) and (B, W).
type Pair struct{ W, B int }

// String writes the pair as "w-b".
func (p Pair) String() string { return mill.SectorName(p.W, p.B) }

// Sectors lists the pair's sectors, (W, B) first.
func (p Pair) Sectors() [][2]int {
	if p.W == p.B {
		return [][2]int{{p.W, p.B}}
	}
	return [][2]int{{p.W, p.B}, {p.B, p.W}}
}

// Deps lists the pairs whose sectors the pair's captures lead into.
func (p Pair) Deps() []Pair {
	var out []Pair
	for _, s := range p.exitSectors() {
		out = append(out, PairOf(s[0], s[1]))
	}
	slices.SortFunc(out, comparePairs)
	return slices.Compact(out)
}

// exitSectors lists the sectors the pair's captures lead into.
func (p Pair) exitSectors() [][2]int {
	var out [][2]int
	for _, s := range p.Sectors() {
		if _, c, ok := mill.NextSectors(s[0], s[1]); ok && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// PairOf returns the pair holding sector (w, b).
func PairOf(w, b int) Pair { return Pair{max(w, b), min(w, b)} }

func comparePairs(a, b Pair) int {
	if a.W+a.B != b.W+b.B {
		return (a.W + a.B) - (b.W + b.B)
	}
	return a.W - b.W
}

// ParsePair reads "w-b" (either order) as a pair.
func ParsePair(s string) (Pair, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "-")
	w, err1 := strconv.Atoi(a)
	v, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || w < mill.MinStones || w > mill.MaxStones || v < mill.MinStones || v > mill.MaxStones {
		return Pair{}, fmt.Errorf("build: sector %q: want w-b with %d ≤ w, b ≤ %d", s, mill.MinStones, mill.MaxStones)
	}
	return PairOf(w, v), nil
}

// MillPlan returns the pairs that hold the given sectors and every pair they depend on,
// in an order in which each pair comes after its dependencies.
func MillPlan(sectors []Pair) []Pair {
	seen := map[Pair]bool{}
	var visit func(p Pair)
	visit = func(p Pair) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, d := range p.Deps() {
			visit(d)
		}
	}
	for _, p := range sectors {
		visit(PairOf(p.W, p.B))
	}
	out := make([]Pair, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.SortFunc(out, comparePairs)
	return out
}

// MaxStonesPairs lists the pairs of every sector with at most n stones in all.
func MaxStonesPairs(n int) []Pair {
	var out []Pair
	for w := mill.MinStones; w <= mill.MaxStones; w++ {
		for b := mill.MinStones; b <= w; b++ {
			if w+b <= n {
				out = append(out, Pair{w, b})
			}
		}
	}
	return out
}

// MillOptions tune MillPair and MillSet. The zero value is usable.
type MillOptions struct {
	Workers int // 0: GOMAXPROCS
	// Jobs is how many pairs MillSet builds at a time, as the dependencies and the memory
	// available allow (0 or 1: one after another, in the plan's order); each uses Workers.
	Jobs int
	// Progress and PairDone, if set, are never called concurrently.
	Progress func(p Pair, rp builder.RetroProgress)
	// PairDone, if set, is called after each pair: skipped is true when it was already
	// complete in the set.
	PairDone func(p Pair, sectors []tables.SectorInfo, skipped bool)
	Build    format.Build // recorded in the manifest (not in the reproducible files)
}

// MillSet builds every pair of plan (see MillPlan) into dir, skipping those already
// complete: after an interruption the same call resumes. Up to opt.Jobs pairs are built
// at a time (RunUnits over MillPlanUnits, within the memory available); with one job, in
// plan's order.
func MillSet(ctx context.Context, dir string, plan []Pair, opt MillOptions) error {
	var mu sync.Mutex
	if progress := opt.Progress; progress != nil {
		opt.Progress = func(p Pair, rp builder.RetroProgress) { mu.Lock(); defer mu.Unlock(); progress(p, rp) }
	}
	if done := opt.PairDone; done != nil {
		opt.PairDone = func(p Pair, s []tables.SectorInfo, skipped bool) { mu.Lock(); defer mu.Unlock(); done(p, s, skipped) }
	}
	units := MillPlanUnits(dir, plan, PlanOptions{})
	return RunUnits(ctx, units, RunOptions{Jobs: opt.Jobs, MemBytes: sysmem.Available()}, func(ctx context.Context, i int) error {
		_, err := MillPair(ctx, dir, plan[i], opt)
		return err
	})
}

// MillPair builds one sector pair into the set in dir. It does nothing when the pair is
// already in the manifest with files whose SHA-256 matches; it fails with a clear error
// when a dependency is missing or corrupt. The files are written under temporary names
// and renamed into place, and the manifest is updated last, under a lock, so that jobs
// building other pairs of the same set at the same time lose nothing.
func MillPair(ctx context.Context, dir string, p Pair, opt MillOptions) (built bool, err error) {
	if err := makeSetDir(dir); err != nil {
		return false, err
	}
	if complete, err := pairComplete(dir, p); err != nil || complete {
		if complete && opt.PairDone != nil {
			m, _ := readSectorManifestOrNew(dir)
			var infos []tables.SectorInfo
			for _, s := range p.Sectors() {
				si, _ := m.Sector(mill.SectorName(s[0], s[1]))
				infos = append(infos, si)
			}
			opt.PairDone(p, infos, true)
		}
		return false, err
	}
	exits, err := loadExits(ctx, dir, p)
	if err != nil {
		return false, err
	}
	sp, err := newMillPair(p, exits)
	if err != nil {
		return false, err
	}
	ropt := builder.RetroOptions{Workers: opt.Workers}
	if opt.Progress != nil {
		ropt.Progress = func(rp builder.RetroProgress) { opt.Progress(p, rp) }
	}
	start := time.Now()
	res, err := builder.Retrograde(ctx, sp, ropt)
	if err != nil {
		return false, fmt.Errorf("build: pair %v: %w", p, err)
	}
	var infos []tables.SectorInfo
	for i, s := range p.Sectors() {
		lo, hi := sp.off[i], sp.off[i+1]
		info, err := writeSector(ctx, dir, s[0], s[1], hi-lo, func(i uint64) uint16 { return res.Depth(lo + i) }, opt)
		if err != nil {
			return false, err
		}
		info.Build = opt.Build
		info.Build.Seconds = time.Since(start).Seconds()
		info.Build.Workers = opt.Workers
		infos = append(infos, info)
	}
	if err := recordSectors(dir, infos); err != nil {
		return false, err
	}
	if opt.PairDone != nil {
		opt.PairDone(p, infos, false)
	}
	return true, nil
}

// sectorFile names a sector's file.
func sectorFile(w, b int) string { return fmt.Sprintf("sector-%d-%d.tsm", w, b) }

// writeSector writes one sector's values (0: draw, else 1 + remoteness) as a WDL table.
func writeSector(ctx context.Context, dir string, w, b int, n uint64, depth func(uint64) uint16, opt MillOptions) (tables.SectorInfo, error) {
	maxR := 0
	for i := range n {
		maxR = max(maxR, int(depth(i)))
	}
	enc, err := values.WDLBits(uint64(max(maxR-1, 0))) // depth is 1 + the remoteness
	if err != nil {
		return tables.SectorInfo{}, err
	}
	params, _ := json.Marshal(mill.Params{W: w, B: b})
	meta := format.Metadata{Game: mill.Game{}.Name(), Params: params, Index: mill.SchemeClassRank,
		Encoding: values.EncodingWDL, Slots: n, CodeBits: enc.Bits,
		Build: format.Build{Tool: "tablesmith"}} // reproducible: the volatile part goes to the manifest
	src := func(dst []uint32, start uint64) {
		for i := range dst {
			dst[i] = uint32(depth(start+uint64(i))) + 1 // 0 (draw) → code 1, 1 + r → code 2 + r
		}
	}
	path := filepath.Join(dir, sectorFile(w, b))
	written, err := format.WriteFile(ctx, path, meta, src, format.WriteOptions{Workers: opt.Workers, Reproducible: true})
	if err != nil {
		return tables.SectorInfo{}, fmt.Errorf("build: sector %s: %w", mill.SectorName(w, b), err)
	}
	sum := enc.Summary(written.CodeCounts)
	st, err := os.Stat(path)
	if err != nil {
		return tables.SectorInfo{}, err
	}
	hash, err := tables.FileSHA256(path)
	if err != nil {
		return tables.SectorInfo{}, err
	}
	return tables.SectorInfo{SectorCounts: tables.SectorCounts{Sector: mill.SectorName(w, b), Classes: n, Slots: n,
		Wins: sum.Wins, Losses: sum.Losses, Draws: sum.Draws, MaxWin: sum.MaxWin, MaxLoss: sum.MaxLoss, Bytes: st.Size()},
		File: sectorFile(w, b), SHA256: hash}, nil
}

// readSectorManifestOrNew reads dir's sector manifest, or starts an empty one when there
// is none yet.
func readSectorManifestOrNew(dir string) (*tables.SectorManifest, error) {
	m, err := tables.ReadSectorManifest(dir)
	if errors.Is(err, os.ErrNotExist) {
		return &tables.SectorManifest{Format: tables.SectorManifestFormat, Version: tables.SectorManifestVersion,
			Game: mill.Game{}.Name(), Rules: mill.RulesID()}, nil
	}
	return m, err
}

// pairComplete reports whether every sector of p is in the manifest with a file whose
// SHA-256 matches.
func pairComplete(dir string, p Pair) (bool, error) {
	m, err := readSectorManifestOrNew(dir)
	if err != nil {
		return false, err
	}
	for _, s := range p.Sectors() {
		info, ok := m.Sector(mill.SectorName(s[0], s[1]))
		if !ok {
			return false, nil
		}
		sum, err := tables.FileSHA256(filepath.Join(dir, info.File))
		if err != nil || sum != info.SHA256 {
			return false, nil // rebuild: the file is missing or not the one recorded
		}
	}
	return true, nil
}

// recordSectors adds sectors to dir's manifest under an exclusive lock, so concurrent
// jobs of one set never lose each other's entries; the manifest is replaced atomically.
func recordSectors(dir string, infos []tables.SectorInfo) error {
	unlock, err := lockDir(dir)
	if err != nil {
		return err
	}
	defer unlock()
	m, err := readSectorManifestOrNew(dir)
	if err != nil {
		return err
	}
	for _, info := range infos {
		m.Sectors = slices.DeleteFunc(m.Sectors, func(s tables.SectorInfo) bool { return s.Sector == info.Sector })
		m.Sectors = append(m.Sectors, info)
	}
	sort.Slice(m.Sectors, func(i, j int) bool {
		a, _ := ParsePair(m.Sectors[i].Sector)
		b, _ := ParsePair(m.Sectors[j].Sector)
		if c := comparePairs(a, b); c != 0 {
			return c < 0
		}
		return m.Sectors[i].Sector > m.Sectors[j].Sector
	})
	return WriteJSONAtomic(filepath.Join(dir, tables.ManifestName), m)
}

// lockDir takes an exclusive lock on dir/.lock (held until unlock).
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("build: locking %s: %w", f.Name(), err)
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// exitTables holds the values of the sectors a pair's captures lead into, one WDL code per
// class, indexed by w·16 + b.
type exitTables struct {
	codes [16 * 16][]uint16
	secs  [16 * 16]*mill.Sector
}

// loadExits loads the sectors p's captures lead into, checking each against the manifest
// (present, SHA-256, every block's checksum): a missing or corrupt dependency is an error
// that says which pair to build.
func loadExits(ctx context.Context, dir string, p Pair) (*exitTables, error) {
	ex := &exitTables{}
	m, err := readSectorManifestOrNew(dir)
	if err != nil {
		return nil, err
	}
	for _, s := range p.exitSectors() {
		dw, db := s[0], s[1]
		name := mill.SectorName(dw, db)
		dep := PairOf(dw, db)
		info, ok := m.Sector(name)
		if !ok {
			return nil, fmt.Errorf("build: pair %v needs sector %s, which is not in %s: build pair %v first (tablesmith build mill --pair %v -o %s)",
				p, name, dir, dep, dep, dir)
		}
		path := filepath.Join(dir, info.File)
		sum, err := tables.FileSHA256(path)
		if err != nil {
			return nil, fmt.Errorf("build: pair %v needs sector %s: %w (rebuild pair %v)", p, name, err, dep)
		}
		if sum != info.SHA256 {
			return nil, fmt.Errorf("build: pair %v needs sector %s, but %s is not the file the manifest records (SHA-256 %s, want %s): rebuild pair %v: %w",
				p, name, path, sum, info.SHA256, dep, format.ErrCorrupt)
		}
		t, err := tables.Open(path)
		if err != nil {
			return nil, fmt.Errorf("build: pair %v needs sector %s: %w", p, name, err)
		}
		codes := make([]uint32, t.Meta().Slots)
		err = t.Reader().Codes(codes, 0)
		t.Close()
		if err != nil {
			return nil, fmt.Errorf("build: pair %v needs sector %s: %w", p, name, err)
		}
		c16 := make([]uint16, len(codes))
		for i, c := range codes {
			c16[i] = uint16(c)
		}
		ex.codes[dw*16+db] = c16
		ex.secs[dw*16+db], _ = mill.NewSector(dw, db)
	}
	return ex, nil
}

// millPair is a sector pair as builder.Retrograde sees it: the slots of (W, B) first,
// then those of (B, W).
type millPair struct {
	p     Pair
	secs  []*mill.Sector
	off   []uint64 // off[i]: the first slot of secs[i]; off[len(secs)]: the total
	exits *exitTables
}

func newMillPair(p Pair, exits *exitTables) (*millPair, error) {
	mp := &millPair{p: p, exits: exits, off: []uint64{0}}
	for _, s := range p.Sectors() {
		sec, err := mill.NewSector(s[0], s[1])
		if err != nil {
			return nil, err
		}
		mp.secs = append(mp.secs, sec)
		mp.off = append(mp.off, mp.off[len(mp.off)-1]+sec.Slots())
	}
	return mp, nil
}

func (mp *millPair) Slots() uint64 { return mp.off[len(mp.off)-1] }

func (mp *millPair) NewRetroWorker() builder.RetroWorker {
	return &millWorker{mp: mp, succ: make([]mill.Succ, 0, 512), pred: make([]mill.Pred, 0, 1024)}
}

// millWorker is one goroutine's move generator over the pair.
type millWorker struct {
	mp   *millPair
	succ []mill.Succ
	pred []mill.Pred
}

// locate returns the sector index and local slot of s.
func (w *millWorker) locate(s uint64) (int, uint64) {
	if len(w.mp.secs) == 2 && s >= w.mp.off[1] {
		return 1, s - w.mp.off[1]
	}
	return 0, s
}

// other is the index of the sector a non-capturing move from sector i leads to.
func (w *millWorker) other(i int) int { return (i + 1) % len(w.mp.secs) }

func (w *millWorker) Expand(s uint64, dst []uint64) ([]uint64, builder.Exits) {
	i, local := w.locate(s)
	own, opp := w.mp.secs[i].Unrank(local)
	w.succ = mill.Successors(w.succ[:0], own, opp)
	ex := builder.Exits{Moves: len(w.succ)}
	j := w.other(i)
	for _, sc := range w.succ {
		if !sc.Move.Capture() {
			dst = append(dst, w.mp.off[j]+w.mp.secs[j].Rank(sc.Own, sc.Opp))
			continue
		}
		sw, sb := bits.OnesCount32(sc.Own), bits.OnesCount32(sc.Opp)
		if sw < mill.MinStones { // the opponent is left with 2 stones: won at once
			ex.WinIn = 1
			continue
		}
		k := sw*16 + sb
		o, r, _ := (values.WDLCodes{}).Decode(uint32(w.mp.exits.codes[k][w.mp.exits.secs[k].Rank(sc.Own, sc.Opp)]))
		switch o {
		case values.Loss:
			if ex.WinIn == 0 || r+1 < ex.WinIn {
				ex.WinIn = r + 1
			}
		case values.Draw:
			ex.Draw = true
		default:
			ex.LoseIn = max(ex.LoseIn, r+1)
		}
	}
	slices.Sort(dst)
	return slices.Compact(dst), ex
}

func (w *millWorker) Preds(s uint64, dst []uint64) []uint64 {
	i, local := w.locate(s)
	own, opp := w.mp.secs[i].Unrank(local)
	w.pred = mill.Predecessors(w.pred[:0], own, opp)
	j := w.other(i)
	for _, pr := range w.pred {
		if pr.Move.Capture() {
			continue // from the sector with one more stone: not in this pair
		}
		dst = append(dst, w.mp.off[j]+w.mp.secs[j].Rank(pr.Own, pr.Opp))
	}
	slices.Sort(dst)
	return slices.Compact(dst)
}
