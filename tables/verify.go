package tables

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/parallel"
	"github.com/tablesmith/tablesmith/internal/sysmem"
	"github.com/tablesmith/tablesmith/values"
)

// VerifyOptions tune Table.Verify. The zero value checks everything with GOMAXPROCS
// workers.
type VerifyOptions struct {
	// ChecksumsOnly stops after the bytes: every block's checksum and the per-code counts.
	ChecksumsOnly bool
	Workers       int // 0: GOMAXPROCS
	// Progress, if set, is called (from several goroutines) with the stage ("checksums",
	// "load", "values") and how far it is.
	Progress func(stage string, done, total uint64)
	// Memory bounds the bytes of values the forward check of a tiered game's set holds
	// at once (its tiers' and their children's: a byte a slot where every code they hold
	// fits in one, else two); 0: half the memory available. It is raised to what the
	// largest tier and its children need.
	Memory uint64
	// wideCodes holds the forward check's codes in two bytes even where one would do
	// (tests: both widths check alike).
	wideCodes bool
	// noSiblings checks each tier alone, never siblings side by side (tests: both check
	// alike); rechecked, if set, is called when a failure in tier failed sends the check
	// back to the tiers before it that a step of siblings skipped.
	noSiblings bool
	rechecked  func(failed games.Tier, before []games.Tier)
}

// Verify checks every block checksum and the stored counts against the values, and then
// (unless opt.ChecksumsOnly) the values themselves, which a checksum cannot vouch for: a
// file whose values were altered and re-sealed with valid checksums fails here, naming
// the first inconsistent state.
//
//   - Remoteness tables: every goal holds 0 and only goals do; a state at d > 0 has a
//     neighbour at d − 1 and none below; an unreachable state has no reachable
//     neighbour; holes are exactly the scheme's holes.
//   - Pattern-database groups (0-1 consistency): the goal placement holds 0 and only it;
//     every value is at least the group's Manhattan distance and of its parity; a value
//     v > 0 has a neighbour (one group-tile move) at most v − 1; and v exceeds by at most
//     one the value of every neighbour after whose move the blank's cells form one region
//     (there the blank can be anywhere at no cost, so the bound is exact).
//
// The values are streamed block by block into memory (one to four bytes a slot) and
// checked in parallel.
func (t *Table) Verify(ctx context.Context, opt VerifyOptions) error {
	if err := t.opened(); err != nil {
		return err
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	stage := func(name string) func(done, total uint64) {
		if opt.Progress == nil {
			return nil
		}
		return func(done, total uint64) { opt.Progress(name, done, total) }
	}
	if err := t.r.Verify(ctx, stage("checksums")); err != nil {
		return err
	}
	if opt.ChecksumsOnly {
		return nil
	}
	switch {
	case t.pdb != nil:
		return checkValues(ctx, t, opt, stage, t.newPDBChecker)
	case values.Encoding(t.meta.Encoding) == values.EncodingRemoteness:
		return checkValues(ctx, t, opt, stage, t.newRemotenessChecker)
	case t.mod3 != nil:
		return checkMod3(ctx, t, opt, stage)
	case t.isWDL(), t.outcomeOnly:
		// A game's positions move into other sectors: their values are checked through
		// the set (Set.Verify), which holds the successors.
		return nil
	}
	return fmt.Errorf("tables: no value check for %s tables yet; use --checksums-only", t.meta.Encoding)
}

// checker checks one slot given every slot's code; it returns a description of the
// inconsistency, or "" when the slot is consistent. Each worker has its own.
type checker func(slot uint64, code func(uint64) uint32) string

func checkValues(ctx context.Context, t *Table, opt VerifyOptions, stage func(string) func(uint64, uint64),
	newChecker func() checker) error {
	n := t.meta.Slots
	width := uint64(4)
	switch {
	case t.meta.CodeBits <= 8:
		width = 1
	case t.meta.CodeBits <= 16:
		width = 2
	}
	if avail := sysmem.Current(); avail.Bytes > 0 && n*width > avail.Bytes {
		return fmt.Errorf("tables: checking the values of %d slots needs %d bytes of memory, this process may use %s; use --checksums-only",
			n, n*width, avail)
	}
	switch width {
	case 1:
		return checkCodes[uint8](ctx, t, opt, stage, newChecker)
	case 2:
		return checkCodes[uint16](ctx, t, opt, stage, newChecker)
	}
	return checkCodes[uint32](ctx, t, opt, stage, newChecker)
}

func checkCodes[T uint8 | uint16 | uint32](ctx context.Context, t *Table, opt VerifyOptions,
	stage func(string) func(uint64, uint64), newChecker func() checker) error {
	n := t.meta.Slots
	codes, err := loadCodes[T](ctx, t, opt.Workers, stage("load"))
	if err != nil {
		return err
	}
	code := func(s uint64) uint32 { return uint32(codes[s]) }
	progress := stage("values")
	return checkEvery(ctx, t, opt.Workers, n, code, newChecker, progress)
}

// checkEvery runs a checker (one per goroutine at a time) on every slot of t, in
// parallel chunks, and names the first inconsistent state whatever order the chunks ran
// in (the chunks after a known failure are skipped).
func checkEvery(ctx context.Context, t *Table, workers int, n uint64, code func(uint64) uint32, newChecker func() checker, progress func(done, total uint64)) error {
	var checked atomic.Uint64
	first := newFirstFailure(n)
	checkers := sync.Pool{New: func() any { return newChecker() }}
	err := parallel.For(ctx, workers, n, 1<<16, func(lo, hi uint64) error {
		if first.before(lo) {
			return nil
		}
		chk := checkers.Get().(checker)
		defer checkers.Put(chk)
		for s := lo; s < hi; s++ {
			if msg := chk(s, code); msg != "" {
				first.record(s, msg)
				break
			}
		}
		if progress != nil {
			progress(checked.Add(hi-lo), n)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return first.err(t, "state")
}

// loadCodes reads every code of t into memory, a block-aligned chunk per worker at a
// time, refusing a code that does not fit T.
func loadCodes[T uint8 | uint16 | uint32](ctx context.Context, t *Table, workers int, progress func(done, total uint64)) ([]T, error) {
	codes := make([]T, t.meta.Slots)
	return codes, loadCodesInto(ctx, t, codes, workers, progress)
}

// loadCheckedInto is loadCodesInto, every block checked as Table.Verify checks them with
// ChecksumsOnly (checksums, padding, counts; format.Reader.VerifyEach), as it is read.
func loadCheckedInto[T uint8 | uint16 | uint32](ctx context.Context, t *Table, codes []T, workers int, progress func(done, total uint64)) error {
	if err := t.opened(); err != nil {
		return err
	}
	if n := t.meta.Slots; uint64(len(codes)) != n {
		return fmt.Errorf("tables: %d codes for the %d slots of %s", len(codes), n, t.path)
	}
	return t.r.VerifyEach(ctx, workers, progress, func(first uint64, chunk []uint32) error {
		return storeCodes(codes, first, chunk)
	})
}

// storeCodes stores chunk, the codes from slot first on, into codes, refusing a code that
// does not fit T.
func storeCodes[T uint8 | uint16 | uint32](codes []T, first uint64, chunk []uint32) error {
	for i, c := range chunk {
		if uint32(T(c)) != c {
			return fmt.Errorf("slot %d: code %d: %w", first+uint64(i), c, format.ErrCorrupt)
		}
		codes[first+uint64(i)] = T(c)
	}
	return nil
}

// loadCodesInto is loadCodes into codes, one element per slot of t (format.LoadCodes).
func loadCodesInto[T uint8 | uint16 | uint32](ctx context.Context, t *Table, codes []T, workers int, progress func(done, total uint64)) error {
	if err := t.opened(); err != nil { // a set's verification opens its members first; this is the guard
		return err
	}
	if n := t.meta.Slots; uint64(len(codes)) != n {
		return fmt.Errorf("tables: %d codes for the %d slots of %s", len(codes), n, t.path)
	}
	return format.LoadCodes(ctx, t.r, codes, format.LoadOptions{Workers: workers, Progress: progress})
}

// firstFailure keeps the lowest slot at which a check running in parallel chunks failed,
// so that the report names the first inconsistent state whatever order the workers ran
// in, and chunks after it are skipped.
type firstFailure struct {
	mu   sync.Mutex
	slot uint64 // n: none yet
	msg  string
}

func newFirstFailure(n uint64) *firstFailure { return &firstFailure{slot: n} }

// before reports whether a failure below slot lo is known (its chunk need not be checked).
func (f *firstFailure) before(lo uint64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return lo > f.slot
}

// record notes a failure at slot.
func (f *firstFailure) record(slot uint64, msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if slot < f.slot {
		f.slot, f.msg = slot, msg
	}
}

// err reports the first failure of table t, naming its state or position (noun), or nil.
func (f *firstFailure) err(t *Table, noun string) error {
	if f.slot >= t.meta.Slots {
		return nil
	}
	state := "?"
	if dom := t.Domain(); dom != nil {
		state, _ = dom.StateOf(f.slot)
	}
	return fmt.Errorf("the values are inconsistent at slot %d (%s %s): %s: %w", f.slot, noun, state, f.msg, format.ErrCorrupt)
}

// newRemotenessChecker checks a puzzle's remoteness against its neighbours'.
func (t *Table) newRemotenessChecker() checker {
	pz := t.dom.(PuzzleDomain)
	expand := pz.NewExpander()
	holed := true
	if h, ok := pz.(interface{ HasHoles() bool }); ok {
		holed = h.HasHoles()
	}
	goals := slices.Clone(pz.Goals())
	slices.Sort(goals)
	unreach, hole := t.rem.Unreachable(), t.rem.Hole()
	var src [1]uint64
	var nbrs []uint64
	return func(s uint64, code func(uint64) uint32) string {
		c := code(s)
		_, isGoal := slices.BinarySearch(goals, s)
		switch {
		case c == hole:
			if !holed || !pz.IsHole(s) {
				return "a state holds the hole marker"
			}
			return ""
		case holed && pz.IsHole(s):
			return fmt.Sprintf("a hole of the index scheme holds code %d", c)
		case isGoal && c != 0:
			return fmt.Sprintf("a goal holds code %d, not remoteness 0", c)
		case !isGoal && c == 0:
			return "remoteness 0, but the state is no goal"
		case c == 0:
			return ""
		}
		src[0] = s
		nbrs = expand(nbrs[:0], src[:])
		least := uint32(1<<32 - 1)
		for _, nb := range nbrs {
			nc := code(nb)
			switch {
			case nc == hole:
				return fmt.Sprintf("neighbour slot %d holds the hole marker", nb)
			case c == unreach && nc != unreach:
				return fmt.Sprintf("marked unreachable, but a neighbour has remoteness %d", nc)
			}
			least = min(least, nc)
		}
		switch {
		case c == unreach:
			return ""
		case least == unreach:
			return fmt.Sprintf("remoteness %d, but a neighbour is marked unreachable", c)
		case len(nbrs) == 0 || least != c-1:
			return fmt.Sprintf("remoteness %d, but the nearest neighbour has %d", c, least)
		}
		return ""
	}
}

// newPDBChecker checks a pattern-database group's values (see Verify).
func (t *Table) newPDBChecker() checker {
	moves := t.pdb.NewMoves()
	goal := t.pdb.GoalEntry()
	enc := t.meta.Encoding
	var nbrs []uint64
	return func(e uint64, code func(uint64) uint32) string {
		var md int
		md, nbrs = moves(e, nbrs[:0])
		c := uint64(code(e))
		v := values.PDBValue(values.Encoding(enc), c, uint64(md))
		if values.Encoding(enc) == values.EncodingPDBValue {
			if _, err := values.ToExcess(v, uint64(md)); err != nil {
				return fmt.Sprintf("value %d below or off the parity of the Manhattan distance %d", v, md)
			}
		}
		switch {
		case e == goal && v != 0:
			return fmt.Sprintf("the goal placement holds value %d", v)
		case e != goal && v == 0:
			return "value 0, but the placement is not the goal's"
		case v == 0:
			return ""
		}
		least := ^uint64(0)
		for _, m := range nbrs {
			f := m &^ games.PDBConnected
			fv := values.PDBValue(values.Encoding(enc), uint64(code(f)), uint64(t.pdb.EntryMD(f)))
			least = min(least, fv)
			if m&games.PDBConnected != 0 && v > fv+1 {
				return fmt.Sprintf("value %d, but a neighbour with the blank's cells in one region has %d", v, fv)
			}
		}
		if least > v-1 {
			return fmt.Sprintf("value %d, but no neighbour has less than %d", v, least)
		}
		return ""
	}
}
