package pipeline

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tablesmith/tablesmith/builder/zeroone"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/values"
)

// Plans of work units. A set that outgrows one machine is built as a graph of idempotent
// units — a Mühle sector pair, a pattern-database group, the verification of one sector or
// file — each a tablesmith command line with the units it needs first and an estimate of
// its cores, memory and time. The same units run in-process (RunUnits: `build mill
// --jobs K`) or as one cluster job each (SlurmScript: `plan … --emit slurm`). A unit that
// is complete already does nothing, one whose dependency is missing or corrupt fails with
// an error naming it, and its output appears under its final name only when whole: so a
// plan made again after a failure lists exactly the units still missing.

// Unit is one idempotent piece of work of a plan.
type Unit struct {
	ID       string   `json:"id"`      // e.g. "mill-6-5", "pdb-group-2", "verify-6-5"
	Kind     string   `json:"kind"`    // mill, pdb-group, pdb-manifest, verify
	Command  []string `json:"command"` // the tablesmith command line that does it
	Deps     []string `json:"deps"`    // units of the same plan that must succeed first
	Slots    uint64   `json:"slots"`   // the work: slots solved or checked
	Cores    int      `json:"cores"`
	MemBytes uint64   `json:"mem_bytes"`
	Seconds  float64  `json:"seconds"`
	// DiskBytes is what the unit's files take once written (an estimate: tiers at the
	// bits a class Nine Men's Morris's files measured, a PDB group at a byte an entry);
	// a check writes nothing.
	DiskBytes uint64 `json:"disk_bytes"`
}

// PlanOptions tune the planners. The zero value is usable.
type PlanOptions struct {
	// Exe is the tablesmith binary the unit commands run ("tablesmith" if empty). For a
	// cluster, an absolute path that every node sees.
	Exe string
	// MaxCores caps the cores of a unit (default 8); a unit gets a core per
	// slotsPerCore slots of work.
	MaxCores int
	// TimeScale multiplies the time estimates (0: 1), e.g. 2 to plan again the units
	// whose jobs ran over their time limit.
	TimeScale float64
	// Values is what a tiered game's set stores (TierOptions.Values): format.ValuesWDL
	// adds --values wdl to the unit commands.
	Values format.ValueKind
}

func (o PlanOptions) exe() string { return orString(o.Exe, "tablesmith") }

func (o PlanOptions) cores(slots uint64) int {
	limit := o.MaxCores
	if limit <= 0 {
		limit = 8
	}
	return max(1, min(limit, int((slots+slotsPerCore-1)/slotsPerCore)))
}

func orString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// The estimates. The rates were measured on 2026-11-23 on the project's build machine (a
// 2-core AMD EPYC VM shared with another build, Go 1.26.8), one worker per run:
//
//   - `build mill --pair P --workers 1`: 3-3 145k classes/s (start-up dominated), 4-3 594k,
//     5-3 558k, 6-3 687k, 6-4 1.11M (51.5M classes in 46.5 s, 494 MB peak), 5-4 1.89M,
//     4-4 2.30M. The rate varies with the number of depths (the engine scans every slot
//     once per depth); the estimate takes 500k, below every pair but 3-3.
//   - `verify --workers 1` of the twelve sectors of those pairs: 96.0M slots in 116.7 s
//     (822k slots/s, loading included); `verify` of the 4×4 5-5-5 pattern databases:
//     1.57M entries in 1.74 s.
//   - `build pdb --workers 1` 4×4 5-5-5: 524,160 entries a group in 0.65 s (806k/s);
//     the 15-puzzle 7-8 set, 2 workers: 1.71M entries per worker-second.
//
// A unit's time is overheadSeconds plus safetyFactor times its work at the rate, on its
// cores at parallelEfficiency; its memory is what its arrays need plus overheadBytes,
// rounded up by a quarter and to 64 MiB.
const (
	tierClassesPerSecond   = 500_000
	verifySlotsPerSecond   = 600_000
	pdbEntriesPerSecond    = 500_000
	safetyFactor           = 3
	parallelEfficiency     = 0.75
	overheadSeconds        = 60
	overheadBytes          = 200 << 20
	slotsPerCore           = 16 << 20
	tierStateBytesPerSlot  = 8 // retro.Solve: one word per position
	onePassBytesPerSlot    = 2 // solveOnePass: one uint16 code per position
	tierExitBytesPerSlot   = 2 // a tier the unit's moves lead into: one uint16 per class
	tierLoadBytesPerSlot   = 4 // and, while it loads, a block of its codes as uint32
	verifyCodeBytesPerSlot = 2 // tables: every sector the check reads, a uint16 per class at most (a byte where its codes fit)
	// The files of a tier unit, in thousandths of a bit a class: Nine Men's Morris's whole
	// game measured 3.0 bits a class with remoteness and 0.57 win/draw/loss only
	// (2026-11-26); the estimates round up.
	tierFileMilliBitsFull = 3200
	tierFileMilliBitsWDL  = 650
	pdbFileBytesPerEntry  = 1 // a PDB group's file: at most a byte an entry before compression
)

// estimate fills in a unit's cores (from its Slots), time (from its work: seconds on one
// worker at the measured rate) and memory (from what its arrays need).
func estimate(u *Unit, opt PlanOptions, work float64, arrays uint64) {
	u.Cores = opt.cores(u.Slots)
	eff := 1 + float64(u.Cores-1)*parallelEfficiency
	u.Seconds = math.Ceil((overheadSeconds + safetyFactor*work/eff) * max(opt.TimeScale, 1))
	const mib64 = 64 << 20
	need := (arrays + overheadBytes) * 5 / 4
	u.MemBytes = (need + mib64 - 1) / mib64 * mib64
}

// pending returns the units of a plan (in dependency order) that complete does not report
// done, with their dependencies on done units dropped: those need not wait.
func pending(all []Unit, complete func(i int) (bool, error)) ([]Unit, error) {
	done := map[string]bool{}
	var out []Unit
	for i, u := range all {
		ok, err := complete(i)
		if err != nil {
			return nil, err
		}
		if ok {
			done[u.ID] = true
			continue
		}
		u.Deps = slices.DeleteFunc(slices.Clone(u.Deps), func(d string) bool { return done[d] })
		out = append(out, u)
	}
	return out, nil
}

// TierUnits plans the units of TierPlan(g, want) into dir: one unit per unit of work not
// yet complete there (see BuildTierUnit), in dependency order, each depending on the
// pending units its moves lead into. The commands name dir as given.
func TierUnits(g games.TieredGame, dir string, want []games.Tier, opt PlanOptions) ([]Unit, error) {
	plan := TierPlan(g, want)
	kind, err := TierOptions{Values: opt.Values}.valueKind()
	if err != nil {
		return nil, err
	}
	m, err := readTierManifestFor(g, dir, kind)
	if err != nil {
		return nil, err
	}
	return pending(TierPlanUnits(g, dir, plan, opt), func(i int) (bool, error) {
		ok, _ := tierUnitComplete(g, dir, m, plan[i])
		return ok, nil
	})
}

// tierUnitID names a unit of work of a tiered game.
func tierUnitID(g games.TieredGame, name string) string { return g.Name() + "-" + name }

// TierPlanUnits returns a unit for every unit of plan, complete or not, each depending on
// those of its dependencies that plan holds.
func TierPlanUnits(g games.TieredGame, dir string, plan []TierUnit, opt PlanOptions) []Unit {
	out := make([]Unit, 0, len(plan))
	for _, tu := range plan {
		u := Unit{ID: tierUnitID(g, tu.Name), Kind: g.Name(), Slots: tu.Slots(g)}
		for _, d := range tu.Deps {
			if slices.ContainsFunc(plan, func(x TierUnit) bool { return x.Name == d }) {
				u.Deps = append(u.Deps, tierUnitID(g, d))
			}
		}
		var exits, largest uint64
		for _, t := range tu.exits(g) {
			n := g.TierSize(t)
			exits += n
			largest = max(largest, n)
		}
		state := uint64(tierStateBytesPerSlot)
		if tu.onePass(g) {
			state = onePassBytesPerSlot
		}
		estimate(&u, opt, float64(u.Slots)/tierClassesPerSecond,
			state*u.Slots+tierExitBytesPerSlot*exits+tierLoadBytesPerSlot*largest)
		milliBits := uint64(tierFileMilliBitsFull)
		if opt.Values == format.ValuesWDL {
			milliBits = tierFileMilliBitsWDL
		}
		u.DiskBytes = (u.Slots*milliBits/1000 + 7) / 8
		u.Command = append(append([]string{opt.exe(), "build", g.Name()}, games.RulesArgs(g)...),
			"--tier", tu.Name, "--workers", strconv.Itoa(u.Cores), "-o", dir)
		if opt.Values == format.ValuesWDL {
			u.Command = slices.Insert(u.Command, len(u.Command)-2, "--values", string(format.ValuesWDL))
		}
		out = append(out, u)
	}
	return out
}

// PDBUnits plans the set spec into dir: a unit per group whose file is not yet built
// and recorded there (BuildPDBGroup), and a last unit, pdb-manifest, that writes the manifest
// once every group is there (AssemblePDBSet) — none when the set in dir is spec's, whole.
func PDBUnits(dir string, spec PDBBuildSpec, opt PlanOptions) ([]Unit, error) {
	if err := spec.Normalize(); err != nil {
		return nil, err
	}
	base := append(append([]string{opt.exe(), "build", "pdb"}, spec.Flags...), "--encoding", pdbEncodingFlag(spec.Encoding))
	var all []Unit
	var groupIDs []string
	for gi, gr := range spec.Groups {
		sp, err := spec.Family.NewPDBBuild(gr.Params)
		if err != nil {
			return nil, err
		}
		need, err := zeroone.MemoryEstimate(sp)
		if err != nil {
			return nil, err
		}
		u := Unit{ID: fmt.Sprintf("pdb-group-%d", gi+1), Kind: "pdb-group", Slots: sp.Slots() >> sp.EntryBits()}
		estimate(&u, opt, float64(u.Slots)/pdbEntriesPerSecond, need)
		u.DiskBytes = u.Slots * pdbFileBytesPerEntry
		u.Command = append(slices.Clone(base), "--group", strconv.Itoa(gi+1), "--workers", strconv.Itoa(u.Cores), "-o", dir)
		all = append(all, u)
		groupIDs = append(groupIDs, u.ID)
	}
	last := Unit{ID: "pdb-manifest", Kind: "pdb-manifest", Deps: groupIDs}
	estimate(&last, opt, 0, 0)
	last.Command = append(slices.Clone(base), "--assemble", "-o", dir)
	all = append(all, last)
	return pending(all, func(i int) (bool, error) {
		if i == len(spec.Groups) {
			return pdbManifestComplete(dir, spec)
		}
		gr := spec.Groups[i]
		_, ok := recordedGroup(dir, spec.Family, pdbFileName(spec, i, gr.Tiles), pdbGroupParamsJSON(gr))
		return ok, nil
	})
}

// pdbEncodingFlag is the --encoding value of an encoding.
func pdbEncodingFlag(enc string) string {
	if values.Encoding(enc) == values.EncodingPDBValue {
		return "value"
	}
	return "excess"
}

// VerifyUnits plans the verification of the set in dir: one unit per tier of a tiered
// game's set (`verify --tier NAME DIR`: the tier's file and the forward consistency of its
// values, reading the tiers its moves lead into), siblings together (`--tier A,B,…`; see
// games.SiblingTiers) where their check holds no more than the largest tier's alone, one
// per member file of a pattern-database set. A verification leaves no record, so every unit is listed, and
// none depends on another.
func VerifyUnits(dir string, opt PlanOptions) ([]Unit, error) {
	m, err := format.ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("plan verify: %w", err)
	}
	var out []Unit
	if m.Kind == format.SetTiers {
		g, err := tieredGame(m.Game)
		if err != nil {
			return nil, err
		}
		g = games.ForRules(g, m.Rules) // the rule set the set was built under
		if err := checkTierMembers("plan verify", g, dir, m); err != nil {
			return nil, err
		}
		var tiers []games.Tier
		for _, x := range m.Members {
			t, _ := g.ParseTier(x.Name)
			tiers = append(tiers, t)
		}
		// read is the slots a check of the tiers ts holds: theirs, and those their moves
		// lead into.
		read := func(ts []games.Tier) uint64 {
			var held []games.Tier
			var n uint64
			for _, t := range ts {
				for _, c := range append([]games.Tier{t}, g.TierChildren(t)...) {
					if _, ok := m.Member(g.TierName(c)); ok && !slices.Contains(held, c) {
						held, n = append(held, c), n+g.TierSize(c)
					}
				}
			}
			return n
		}
		var largest uint64
		for _, t := range tiers {
			largest = max(largest, read([]games.Tier{t}))
		}
		// Siblings (games.SiblingTiers: Mühle's placement sectors of one board) are one
		// unit, their moves listed once, as many as fit in what the largest tier's
		// check holds alone.
		sib, _ := g.(games.SiblingTiers)
		taken := make([]bool, len(tiers))
		for i, t := range tiers {
			if taken[i] {
				continue
			}
			unit := []games.Tier{t}
			names := []string{g.TierName(t)}
			var family []games.Tier
			if sib != nil {
				family = sib.TierSiblings(t)
			}
			for j := i + 1; j < len(tiers); j++ {
				if u := tiers[j]; !taken[j] && slices.Contains(family, u) && read(append(slices.Clip(unit), u)) <= largest {
					unit, names, taken[j] = append(unit, u), append(names, g.TierName(u)), true
				}
			}
			var slots uint64
			for _, u := range unit {
				slots += g.TierSize(u)
			}
			u := Unit{ID: "verify-" + names[0], Kind: "verify", Slots: slots}
			estimate(&u, opt, float64(read(unit))/verifySlotsPerSecond, verifyCodeBytesPerSlot*read(unit))
			u.Command = []string{opt.exe(), "verify", "--tier", strings.Join(names, ","), "--workers", strconv.Itoa(u.Cores), dir}
			out = append(out, u)
		}
		return out, nil
	}
	for gi, x := range m.Members {
		path := filepath.Join(dir, x.File)
		r, err := format.Open(path)
		if err != nil {
			return nil, fmt.Errorf("build: %w", err)
		}
		meta := r.Meta()
		r.Close()
		u := Unit{ID: fmt.Sprintf("verify-group-%d", gi+1), Kind: "verify", Slots: meta.Slots}
		width := uint64(4) // the check holds one code per entry in 1, 2 or 4 bytes
		switch {
		case meta.CodeBits <= 8:
			width = 1
		case meta.CodeBits <= 16:
			width = 2
		}
		estimate(&u, opt, float64(meta.Slots)/verifySlotsPerSecond, meta.Slots*width)
		u.Command = []string{opt.exe(), "verify", "--workers", strconv.Itoa(u.Cores), path}
		out = append(out, u)
	}
	return out, nil
}

// CriticalPath returns the total work (Slots) of units, the work along the heaviest chain
// of dependencies, and that chain, first unit first. Since a unit runs on one machine and
// the units of a chain one after another, total/critical bounds the speed-up that any
// number of machines can give over one.
func CriticalPath(units []Unit) (total, critical uint64, chain []string) {
	byID := map[string]int{}
	for i, u := range units {
		byID[u.ID] = i
		total += u.Slots
	}
	heavy := make([]uint64, len(units)) // the heaviest chain ending at unit i
	prev := make([]int, len(units))
	state := make([]int8, len(units)) // 0 new, 1 on the stack, 2 done
	var visit func(i int)
	visit = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		prev[i] = -1
		for _, d := range units[i].Deps {
			j, ok := byID[d]
			if !ok || state[j] == 1 { // not in the plan, or a cycle: ignore
				continue
			}
			visit(j)
			if prev[i] < 0 || heavy[j] > heavy[prev[i]] {
				prev[i] = j
			}
		}
		heavy[i] = units[i].Slots
		if prev[i] >= 0 {
			heavy[i] += heavy[prev[i]]
		}
		state[i] = 2
	}
	end := -1
	for i := range units {
		visit(i)
		if end < 0 || heavy[i] > heavy[end] {
			end = i
		}
	}
	for i := end; i >= 0; i = prev[i] {
		chain = append(chain, units[i].ID)
	}
	slices.Reverse(chain)
	if end >= 0 {
		critical = heavy[end]
	}
	return total, critical, chain
}

// tieredGame returns the registered game called name, which must be a tiered game.
func tieredGame(name string) (games.TieredGame, error) {
	g, err := registry.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	tg, ok := g.(games.TieredGame)
	if !ok {
		return nil, fmt.Errorf("build: %s is not a two-player game solved by tiers", name)
	}
	return tg, nil
}
