package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/tablesmith/tablesmith/builder/retro"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/humanize"
	"github.com/tablesmith/tablesmith/internal/safefile"
	"github.com/tablesmith/tablesmith/internal/sysmem"
	"github.com/tablesmith/tablesmith/values"
)

// Tiered games. A game's tiers form a graph (games.TieredGame); the tiers that reach each
// other (a strongly connected component: Mühle's sectors (w, b) and (b, w)) are one unit
// of work, solved together by retrograde analysis; a unit of one tier whose moves all
// leave it is solved in one pass from its children's values. Units are solved children
// first. A set is a directory of tier files plus the manifest (format.Manifest, kind
// tiers), which records each tier when its unit is complete; a unit already recorded
// with files whose SHA-256 matches is skipped, so an interrupted build resumes unit by
// unit and produces the same bytes.
//
// A set stores the full values (win, loss or draw with the remoteness; the default) or,
// with TierOptions.Values = format.ValuesWDL, the win/draw/loss outcome alone
// (values.EncodingWDLOnly, recorded in the manifest's "values"): the same engines solve
// it, and each unit's values are reduced to their outcome as they are written. Exits read
// from such a set are outcome codes that decode as a loss in 0 or a win in 1: the depths
// the engines then compute are wrong, but never the outcome, which does not depend on
// them. One directory holds one kind: a build of the other kind is refused.

// TierUnit is one unit of work of a tiered game: tiers that reach each other.
type TierUnit struct {
	Name  string       // the name of its first tier
	Tiers []games.Tier // in the game's order
	Deps  []string     // the units its moves lead into, by name
}

// Slots is the number of positions of the unit.
func (u TierUnit) Slots(g games.TieredGame) uint64 {
	var n uint64
	for _, t := range u.Tiers {
		n += g.TierSize(t)
	}
	return n
}

// onePass reports whether u is one tier none of whose moves stays in it: solved in one
// pass over its positions by the combining rule (solveOnePass), with one uint16 a slot,
// rather than by retrograde analysis (retro.Solve, one uint64 a slot).
func (u TierUnit) onePass(g games.TieredGame) bool {
	return len(u.Tiers) == 1 && !slices.Contains(g.TierChildren(u.Tiers[0]), u.Tiers[0])
}

// exits lists the tiers outside u that its moves lead into, in the game's order.
func (u TierUnit) exits(g games.TieredGame) []games.Tier {
	var out []games.Tier
	for _, t := range u.Tiers {
		for _, c := range g.TierChildren(t) {
			if !slices.Contains(u.Tiers, c) && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// TierPlan returns the units holding the tiers want and every tier they depend on, each
// after the units it depends on (among the units ready, in the order of g.Tiers()).
func TierPlan(g games.TieredGame, want []games.Tier) []TierUnit {
	compare := compareTiers(g)
	// The tiers needed, and Tarjan's strongly connected components over them.
	var (
		index   = map[games.Tier]int{}
		low     = map[games.Tier]int{}
		onStack = map[games.Tier]bool{}
		stack   []games.Tier
		comps   [][]games.Tier
	)
	var visit func(t games.Tier)
	visit = func(t games.Tier) {
		index[t], low[t] = len(index), len(index)
		stack = append(stack, t)
		onStack[t] = true
		for _, c := range g.TierChildren(t) {
			if _, seen := index[c]; !seen {
				visit(c)
				low[t] = min(low[t], low[c])
			} else if onStack[c] {
				low[t] = min(low[t], index[c])
			}
		}
		if low[t] == index[t] {
			var comp []games.Tier
			for {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[x] = false
				comp = append(comp, x)
				if x == t {
					break
				}
			}
			slices.SortFunc(comp, compare)
			comps = append(comps, comp)
		}
	}
	for _, t := range want {
		if _, seen := index[t]; !seen {
			visit(t)
		}
	}
	unitOf := map[games.Tier]int{}
	for i, c := range comps {
		for _, t := range c {
			unitOf[t] = i
		}
	}
	// Kahn's order over the components, the ready one first in the game's order.
	waiting := make([]int, len(comps))
	dependents := make([][]int, len(comps))
	deps := make([][]int, len(comps))
	for i, c := range comps {
		for _, t := range c {
			for _, ch := range g.TierChildren(t) {
				if j := unitOf[ch]; j != i && !slices.Contains(deps[i], j) {
					deps[i] = append(deps[i], j)
					waiting[i]++
					dependents[j] = append(dependents[j], i)
				}
			}
		}
	}
	var out []TierUnit
	done := make([]bool, len(comps))
	for len(out) < len(comps) {
		best := -1
		for i := range comps {
			if !done[i] && waiting[i] == 0 && (best < 0 || compare(comps[i][0], comps[best][0]) < 0) {
				best = i
			}
		}
		done[best] = true
		for _, j := range dependents[best] {
			waiting[j]--
		}
		u := TierUnit{Name: g.TierName(comps[best][0]), Tiers: comps[best]}
		for _, j := range deps[best] {
			u.Deps = append(u.Deps, g.TierName(comps[j][0]))
		}
		slices.SortFunc(u.Deps, func(a, b string) int {
			ta, _ := g.ParseTier(a)
			tb, _ := g.ParseTier(b)
			return compare(ta, tb)
		})
		out = append(out, u)
	}
	return out
}

// compareTiers orders tiers as the game lists them; tiers it does not list (a part of
// the game reached only from another start, e.g. a smaller variant's) come after, by name.
func compareTiers(g games.TieredGame) func(a, b games.Tier) int {
	order := map[games.Tier]int{}
	for i, t := range g.Tiers() {
		order[t] = i
	}
	return func(a, b games.Tier) int {
		ia, okA := order[a]
		ib, okB := order[b]
		switch {
		case okA && okB:
			return cmp.Compare(ia, ib)
		case okA != okB:
			if okA {
				return -1
			}
			return 1
		}
		return cmp.Compare(g.TierName(a), g.TierName(b))
	}
}

// TierUnitOf returns the unit that holds the tier called name.
func TierUnitOf(g games.TieredGame, name string) (TierUnit, error) {
	t, err := g.ParseTier(name)
	if err != nil {
		return TierUnit{}, err
	}
	for _, u := range TierPlan(g, []games.Tier{t}) {
		if slices.Contains(u.Tiers, t) {
			return u, nil
		}
	}
	return TierUnit{}, fmt.Errorf("build: no unit holds %s %s", g.TierNoun(), name) // unreachable: the plan holds t
}

// TierMember is a tier as a build reports it: its manifest entry and what its file holds.
type TierMember struct {
	format.Member
	Slots  uint64
	Counts values.WDLSummary
}

// TierOptions tune BuildTierSet and BuildTierUnit. The zero value is usable.
type TierOptions struct {
	Workers int // 0: GOMAXPROCS
	// Jobs is how many units BuildTierSet builds at a time, as the dependencies and the memory
	// available allow (0 or 1: one after another, in the plan's order); each uses Workers.
	Jobs int
	// Progress and UnitDone, if set, are never called concurrently.
	Progress func(unit string, p retro.Progress)
	// UnitDone, if set, is called after each unit: skipped is true when it was already
	// complete in the set.
	UnitDone func(u TierUnit, members []TierMember, skipped bool)
	Build    format.Build // recorded in the manifest (not in the reproducible files)
	// Values is what the set stores: format.ValuesFull (or empty) or format.ValuesWDL.
	Values format.ValueKind
}

// valueKind is what opt asks the set to store: format.ValuesFull or format.ValuesWDL.
func (opt TierOptions) valueKind() (format.ValueKind, error) {
	switch opt.Values {
	case "", format.ValuesFull:
		return format.ValuesFull, nil
	case format.ValuesWDL:
		return format.ValuesWDL, nil
	}
	return "", fmt.Errorf("build: values %q: want %s or %s", opt.Values, format.ValuesFull, format.ValuesWDL)
}

// tierEncoding is the encoding of the tier files of a set of the given value kind.
func tierEncoding(g games.TieredGame, kind format.ValueKind) string {
	if kind == format.ValuesWDL {
		return string(values.EncodingWDLOnly)
	}
	return string(games.Layout(g).Encoding())
}

// tierWriteOptions are the options a tier file of encoding is written with, by a build
// and by a conversion alike (their files are the same bytes). A win/draw/loss-only file's
// 2-bit codes take zstd's best level in blocks of 512 Ki codes (128 KiB): 3–5 % smaller
// than the default on the whole game's largest sectors, for a compression that stays a
// small part of the build, and a first read of a block that decodes 128 KiB.
func tierWriteOptions(encoding string, workers int) format.WriteOptions {
	opt := format.WriteOptions{Workers: workers, Reproducible: true}
	if values.Encoding(encoding) == values.EncodingWDLOnly {
		opt.Level, opt.SlotsPerBlock = 4, 1<<19
	}
	return opt
}

// tierSummary reads a tier file's per-code counts in its encoding.
func tierSummary(encoding string, bits int, codeCounts []uint64) values.WDLSummary {
	if values.Encoding(encoding) == values.EncodingWDLOnly {
		return values.WDLOnlySummary(codeCounts)
	}
	e, _ := values.WDLLayout(values.Encoding(encoding))
	e.Bits = bits
	return e.Summary(codeCounts)
}

// BuildTierSet builds every unit of plan (see TierPlan) into dir, skipping those already
// complete: after an interruption the same call resumes. Up to opt.Jobs units are built
// at a time (RunUnits over TierPlanUnits, within the memory available); with one job, in
// plan's order.
func BuildTierSet(ctx context.Context, g games.TieredGame, dir string, plan []TierUnit, opt TierOptions) error {
	kind, err := opt.valueKind()
	if err != nil {
		return err
	}
	if err := prepareSetDir(dir); err != nil {
		return err
	}
	// A set of the other kind is refused before any work.
	if _, err := readTierManifestFor(g, dir, kind); err != nil {
		return err
	}
	// So is an output path of any unit that could not be written (a symbolic link, a
	// directory, a FIFO): one stat a tier, rather than a refusal when its unit comes up,
	// hours in.
	for _, u := range plan {
		for _, t := range u.Tiers {
			if err := safefile.CheckOutput(filepath.Join(dir, tierFile(g, t))); err != nil {
				return fmt.Errorf("build: %w (nothing was built)", err)
			}
		}
	}
	var mu sync.Mutex
	if progress := opt.Progress; progress != nil {
		opt.Progress = func(u string, p retro.Progress) { mu.Lock(); defer mu.Unlock(); progress(u, p) }
	}
	if done := opt.UnitDone; done != nil {
		opt.UnitDone = func(u TierUnit, m []TierMember, skipped bool) { mu.Lock(); defer mu.Unlock(); done(u, m, skipped) }
	}
	units := TierPlanUnits(g, dir, plan, PlanOptions{})
	// A unit whose arrays alone (the plan's estimate less its margin) exceed what this
	// process may use — the machine's memory, its cgroup's limit (a container, a Slurm
	// job), ulimit -v — is refused before any work, rather than killed or dying with the
	// Go runtime's "out of memory" hours in.
	lim := sysmem.Current()
	for _, u := range units {
		if arrays := u.MemBytes*4/5 - min(u.MemBytes*4/5, overheadBytes); lim.Bytes > 0 && arrays > lim.Bytes {
			return fmt.Errorf("build: unit %s needs about %s of memory for its %d positions; this process may use %s: raise the limit or build it on a larger machine (tablesmith plan says what each unit needs)",
				u.ID, humanize.Bytes(arrays), u.Slots, lim)
		}
	}
	return RunUnits(ctx, units, RunOptions{Jobs: opt.Jobs, MemBytes: lim.Bytes}, func(ctx context.Context, i int) error {
		_, err := BuildTierUnit(ctx, g, dir, plan[i], opt)
		return err
	})
}

// prepareSetDir creates a set's directory and refuses, before any work, a manifest path
// that could not be written at the end (a symbolic link, a device, a FIFO, a directory).
func prepareSetDir(dir string) error {
	if err := makeSetDir(dir); err != nil {
		return err
	}
	if err := format.CheckManifestPath(dir); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	return nil
}

// BuildTierUnit builds one unit into the set in dir. It does nothing when the unit's tiers
// are all in the manifest with files whose SHA-256 matches; it fails with a clear error
// when a tier it depends on is missing or corrupt. The files are written under temporary
// names and renamed into place, and the manifest is updated last, under a lock, so that
// jobs building other units of the same set at the same time lose nothing.
func BuildTierUnit(ctx context.Context, g games.TieredGame, dir string, u TierUnit, opt TierOptions) (built bool, err error) {
	kind, err := opt.valueKind()
	if err != nil {
		return false, err
	}
	if err := prepareSetDir(dir); err != nil {
		return false, err
	}
	m, err := readTierManifestFor(g, dir, kind)
	if err != nil {
		return false, err
	}
	if complete, members := tierUnitComplete(g, dir, m, u); complete {
		if opt.UnitDone != nil {
			opt.UnitDone(u, members, true)
		}
		return false, nil
	}
	for _, t := range u.Tiers {
		if err := safefile.CheckOutput(filepath.Join(dir, tierFile(g, t))); err != nil {
			return false, fmt.Errorf("build: %w", err)
		}
	}
	ex, err := loadTierExits(ctx, g, dir, m, u, opt.Workers)
	if err != nil {
		return false, err
	}
	defer ex.release()
	sp := newTierSpace(g, u, ex)
	start := time.Now()
	var code func(s uint64) uint32 // in the layout sp.codes
	if u.onePass(g) {
		codes, mem, err := solveOnePass(ctx, sp, opt.Workers)
		if err != nil {
			return false, fmt.Errorf("build: %s %s: %w", g.TierNoun(), u.Name, err)
		}
		defer mem.Release() // after the tier is written
		code = func(s uint64) uint32 { return uint32(codes[s]) }
	} else {
		ropt := retro.Options{Workers: opt.Workers}
		if opt.Progress != nil {
			ropt.Progress = func(p retro.Progress) { opt.Progress(u.Name, p) }
		}
		res, err := retro.Solve(ctx, sp, ropt)
		if err == nil {
			err = sp.err()
		}
		if err != nil {
			return false, fmt.Errorf("build: %s %s: %w", g.TierNoun(), u.Name, err)
		}
		if top := max(res.MaxWin, res.MaxLoss); top > sp.codes.Max16() {
			return false, fmt.Errorf("build: %s %s: remoteness %d, beyond the %d the %s codes of this game hold in 16 bits",
				g.TierNoun(), u.Name, top, sp.codes.Max16(), sp.codes.Encoding())
		}
		code = func(s uint64) uint32 { return res.Code(s, sp.codes) }
	}
	var members []TierMember
	for i, t := range u.Tiers {
		lo, hi := sp.off[i], sp.off[i+1]
		mem, err := writeTier(ctx, g, dir, t, hi-lo, func(s uint64) uint32 { return code(lo + s) }, opt.Workers, kind)
		if err != nil {
			return false, err
		}
		b := opt.Build
		b.Seconds = time.Since(start).Seconds()
		b.Workers = opt.Workers
		mem.Build = &b
		members = append(members, mem)
	}
	if err := recordTiers(g, dir, kind, members); err != nil {
		return false, err
	}
	if opt.UnitDone != nil {
		opt.UnitDone(u, members, false)
	}
	return true, nil
}

// tierFile names a tier's file: the game's noun for a tier and the tier's name.
func tierFile(g games.TieredGame, t games.Tier) string {
	return fmt.Sprintf("%s-%s.tsm", g.TierNoun(), g.TierName(t))
}

// writeTier writes one tier's values (code: in the game's layout, games.Layout) as a WDL
// table, reproducibly (the build information goes to the manifest); for a set of kind
// format.ValuesWDL, their outcomes alone (values.EncodingWDLOnly).
// alignedBits is the width a tier's codes are stored at: the width they need, rounded up
// so that no code straddles a byte. zstd models bytes: codes of 5 to 7 bits packed across
// byte boundaries compressed 20–35% worse than the same codes as bytes (the moving
// sectors up to 13 stones: 4-7 from 4.45 to 2.91 bits a class, 3-8 from 3.87 to 3.08,
// 9-3 from 0.84 to 0.53), and 3-bit codes as nibbles better than packed (5-3: 0.14 to
// 0.10); 4-bit codes were no better as bytes.
func alignedBits(bits int) int {
	for _, w := range []int{2, 4, 8, 16} {
		if bits <= w {
			return w
		}
	}
	return 32
}

func writeTier(ctx context.Context, g games.TieredGame, dir string, t games.Tier, n uint64, code func(uint64) uint32, workers int, kind format.ValueKind) (TierMember, error) {
	encoding, bits := tierEncoding(g, kind), values.WDLOnlyBits
	if values.Encoding(encoding) != values.EncodingWDLOnly {
		top := uint32(values.WDLDraw)
		for i := range n {
			top = max(top, code(i))
		}
		b := 2
		for b < 32 && uint64(top) >= 1<<b {
			b++
		}
		bits = alignedBits(b)
	}
	params, err := json.Marshal(g.TierParams(t))
	if err != nil {
		return TierMember{}, err
	}
	meta := format.Metadata{Game: g.Name(), Params: params, Index: g.Schemes()[0],
		Encoding: encoding, Slots: n, CodeBits: bits,
		Build: format.Build{Tool: "tablesmith"}}
	src := func(dst []uint32, start uint64) {
		for i := range dst {
			dst[i] = code(start + uint64(i))
		}
	}
	if values.Encoding(encoding) == values.EncodingWDLOnly {
		src = func(dst []uint32, start uint64) {
			for i := range dst {
				dst[i] = values.OutcomeCode(code(start + uint64(i)))
			}
		}
	}
	name := g.TierName(t)
	path := filepath.Join(dir, tierFile(g, t))
	written, err := format.WriteFile(ctx, path, meta, src, tierWriteOptions(encoding, workers))
	if err != nil {
		return TierMember{}, fmt.Errorf("build: %s %s: %w", g.TierNoun(), name, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return TierMember{}, err
	}
	sum, err := format.FileSHA256(path)
	if err != nil {
		return TierMember{}, err
	}
	return TierMember{Member: format.Member{Name: name, File: filepath.Base(path), Bytes: st.Size(), SHA256: sum},
		Slots: n, Counts: tierSummary(encoding, bits, written.CodeCounts)}, nil
}

// readTierManifestFor reads dir's manifest as readTierManifest does, and refuses a set of
// values other than kind (format.ValuesFull or format.ValuesWDL); an empty one it starts
// is of kind.
func readTierManifestFor(g games.TieredGame, dir string, kind format.ValueKind) (*format.Manifest, error) {
	m, err := readTierManifest(g, dir)
	if err != nil {
		return nil, err
	}
	switch {
	case len(m.Members) == 0:
		m.Values = ""
		if kind == format.ValuesWDL {
			m.Values = format.ValuesWDL
		}
	case m.ValueKind() != kind && kind == format.ValuesWDL:
		return nil, fmt.Errorf("build: %s holds a full set (with remoteness), not a win/draw/loss-only one: build the win/draw/loss-only set "+
			"in another directory, or derive it from this one (tablesmith convert %s --values wdl -o OUT)", dir, dir)
	case m.ValueKind() != kind:
		return nil, fmt.Errorf("build: %s holds a win/draw/loss-only set (values %s), which has no remoteness to build a full set on: "+
			"build the full set in another directory, or give --values %s to extend this one", dir, m.ValueKind(), m.ValueKind())
	}
	return m, nil
}

// readTierManifest reads dir's manifest, or starts an empty one (of a full set) when there
// is none yet; a manifest of another kind, game or rules is refused.
func readTierManifest(g games.TieredGame, dir string) (*format.Manifest, error) {
	m, err := format.ReadManifest(dir)
	if errors.Is(err, os.ErrNotExist) {
		return format.NewManifest(format.SetTiers, g.Name(), g.RulesID()), nil
	}
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	// A member an earlier format recorded without its SHA-256 cannot be trusted as
	// complete: dropped, its unit is built again.
	m.Members = slices.DeleteFunc(m.Members, func(x format.Member) bool { return x.SHA256 == "" })
	if m.Kind != format.SetTiers || m.Game != g.Name() {
		return nil, fmt.Errorf("build: %s holds a %s set of %s, not the tiers of %s", dir, m.Kind, m.Game, g.Name())
	}
	if err := checkTierMembers("build", g, dir, m); err != nil {
		return nil, err
	}
	// Every tier it holds is the same under this tablesmith's rules: what is recorded
	// from now on names them.
	m.Rules = g.RulesID()
	return m, nil
}

// checkTierMembers checks the tiers m lists as the lookup does (games.TierMembers): a set
// the lookup would refuse is neither built on nor planned (cmd names the command).
func checkTierMembers(cmd string, g games.TieredGame, dir string, m *format.Manifest) error {
	names := make([]string, len(m.Members))
	for i, x := range m.Members {
		names[i] = x.Name
	}
	_, err := games.TierMembers(g, m.Rules, names)
	switch {
	case errors.Is(err, games.ErrOtherRules):
		return fmt.Errorf("%s: %s was %w: query, verify and serve refuse it; build it again in another directory", cmd, dir, err)
	case err != nil:
		return fmt.Errorf("%s: %s: %w: %w", cmd, filepath.Join(dir, format.ManifestName), err, format.ErrCorrupt)
	}
	return nil
}

// tierUnitComplete reports whether every tier of u is in the manifest with a file whose
// SHA-256 matches and whose encoding is the set's, and then what the files hold.
func tierUnitComplete(g games.TieredGame, dir string, m *format.Manifest, u TierUnit) (bool, []TierMember) {
	encoding := tierEncoding(g, m.ValueKind())
	var members []TierMember
	for _, t := range u.Tiers {
		x, ok := m.Member(g.TierName(t))
		if !ok {
			return false, nil
		}
		path := filepath.Join(dir, x.File)
		if sum, err := format.FileSHA256(path); err != nil || sum != x.SHA256 {
			return false, nil // rebuild: the file is missing or not the one recorded
		}
		r, err := format.Open(path)
		if err != nil {
			return false, nil
		}
		meta := r.Meta()
		r.Close()
		if meta.Encoding != encoding {
			return false, nil
		}
		members = append(members, TierMember{Member: x, Slots: meta.Slots,
			Counts: tierSummary(meta.Encoding, meta.CodeBits, meta.CodeCounts)})
	}
	return true, members
}

// recordTiers adds members to dir's manifest under an exclusive lock, so concurrent jobs
// of one set never lose each other's entries; the manifest is replaced atomically and
// lists the tiers in the game's order.
func recordTiers(g games.TieredGame, dir string, kind format.ValueKind, members []TierMember) error {
	unlock, err := lockDir(dir)
	if err != nil {
		return err
	}
	defer unlock()
	m, err := readTierManifestFor(g, dir, kind)
	if err != nil {
		return err
	}
	for _, x := range members {
		m.Put(x.Member)
	}
	compare := compareTiers(g)
	slices.SortStableFunc(m.Members, func(a, b format.Member) int {
		ta, errA := g.ParseTier(a.Name)
		tb, errB := g.ParseTier(b.Name)
		if errA != nil || errB != nil {
			return cmp.Compare(a.Name, b.Name)
		}
		return compare(ta, tb)
	})
	if err := format.WriteManifest(dir, m); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	return nil
}

// tierExits holds the values of the tiers a unit's moves lead into, one WDL code per slot.
type tierExits struct {
	tiers []games.Tier
	codes [][]uint16
	bufs  []*bigmem.Buf // the memory of codes, mapped on huge pages (see release)
}

// release frees the codes now; nothing may use them after. Until then it keeps them
// mapped: the maps go when their Bufs become unreachable, which the slices alone do not
// prevent.
func (ex *tierExits) release() {
	for _, b := range ex.bufs {
		b.Release()
	}
	ex.codes, ex.bufs = nil, nil
}

// lookup returns the codes of tier t, or nil.
func (ex *tierExits) lookup(t games.Tier) []uint16 {
	for i, x := range ex.tiers {
		if x == t {
			return ex.codes[i]
		}
	}
	return nil
}

// loadTierExits loads the tiers u's moves lead into, each checked against the manifest
// (present, SHA-256, every block's checksum): a missing or corrupt dependency is an error
// that says which unit to build.
func loadTierExits(ctx context.Context, g games.TieredGame, dir string, m *format.Manifest, u TierUnit, workers int) (*tierExits, error) {
	ex := &tierExits{}
	noun := g.TierNoun()
	for _, t := range u.exits(g) {
		name := g.TierName(t)
		dep, _ := TierUnitOf(g, name)
		x, ok := m.Member(name)
		if !ok {
			return nil, fmt.Errorf("build: %s %s needs %s %s, which is not in %s: build %s first (tablesmith build %s --tier %s -o %s)",
				noun, u.Name, noun, name, dir, dep.Name, g.Name(), dep.Name, dir)
		}
		path := filepath.Join(dir, x.File)
		sum, err := format.FileSHA256(path)
		if err != nil {
			return nil, fmt.Errorf("build: %s %s needs %s %s: %w (rebuild %s)", noun, u.Name, noun, name, err, dep.Name)
		}
		if sum != x.SHA256 {
			return nil, fmt.Errorf("build: %s %s needs %s %s, but %s is not the file the manifest records (SHA-256 %s, want %s): rebuild %s: %w",
				noun, u.Name, noun, name, path, sum, x.SHA256, dep.Name, format.ErrCorrupt)
		}
		codes, buf, err := loadCodes16(ctx, path, g.TierSize(t), tierEncoding(g, m.ValueKind()), workers)
		if err != nil {
			ex.release()
			return nil, fmt.Errorf("build: %s %s needs %s %s: %w", noun, u.Name, noun, name, err)
		}
		ex.tiers = append(ex.tiers, t)
		ex.codes = append(ex.codes, codes)
		ex.bufs = append(ex.bufs, buf)
	}
	return ex, nil
}

// loadCodes16 reads every code of a WDL table of n slots in encoding (a WDL layout or
// values.EncodingWDLOnly) on workers goroutines, each checked to fit 16 bits and to be no
// hole (format.LoadCodes).
//
// The codes live outside the Go heap, on huge pages where the system gives them (see
// bigmem.Alloc): a unit's moves read them at random, and with 4 KiB pages nearly every
// read missed the TLB as well as the cache (the placement phase spent half its time
// there). The caller keeps the returned Buf for as long as it uses the codes.
func loadCodes16(ctx context.Context, path string, n uint64, encoding string, workers int) (_ []uint16, _ *bigmem.Buf, err error) {
	r, err := format.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	meta := r.Meta()
	if meta.Slots != n || meta.Encoding != encoding {
		return nil, nil, fmt.Errorf("%s: %d slots of %s, want %d of %s: %w", path, meta.Slots, meta.Encoding, n, encoding, format.ErrCorrupt)
	}
	mem := bigmem.New(2 * n)
	defer func() {
		if err != nil {
			mem.Release()
		}
	}()
	out := mem.Uint16s()
	if err := format.LoadCodes(ctx, r, out, format.LoadOptions{Workers: workers, NoZero: true}); err != nil {
		return nil, nil, err
	}
	return out, mem, nil
}

// lockDir waits for the exclusive lock of a set's directory (dir/.lock), which jobs take
// around their updates of the manifest.
func lockDir(dir string) (unlock func(), err error) {
	unlock, err = safefile.Lock(filepath.Join(dir, ".lock"))
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	return unlock, nil
}
