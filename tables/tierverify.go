package tables

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/parallel"
	"github.com/tablesmith/tablesmith/internal/sysmem"
	"github.com/tablesmith/tablesmith/values"
)

// verifyTiers checks a tiered game's set: every file's checksums, size and SHA-256
// against the manifest, then the forward consistency of every stored value: each
// position's value and remoteness recomputed from its children's stored values (across
// tiers, by the one combining rule) must equal its own. It names the first inconsistent
// position of the first tier that has one.
func (s *Set) verifyTiers(ctx context.Context, opt VerifyOptions) error {
	var all []games.Tier
	for _, name := range s.tiers.names {
		t, _ := s.tiers.g.ParseTier(name)
		if err := s.checkTierFile(ctx, name, opt); err != nil {
			return err
		}
		all = append(all, t)
	}
	if opt.ChecksumsOnly {
		return nil
	}
	for _, t := range all {
		if err := s.childrenPresent(t); err != nil {
			return err
		}
	}
	codes, err := s.loadTierCodes(ctx, all, opt)
	if err != nil {
		return err
	}
	for _, t := range all {
		if err := s.checkForward(ctx, t, codes, opt); err != nil {
			return fmt.Errorf("%s: %w", s.tiers.byTier[t].File(), err)
		}
	}
	return nil
}

// VerifyTier checks one tier of a tiered game's set, as Verify checks them all: its
// file's checksums, size and SHA-256 against the manifest, then the forward consistency
// of its values, reading only the tiers its moves lead into (their blocks' checksums are
// checked as they are read). It is one unit of a verification spread over jobs.
func (s *Set) VerifyTier(ctx context.Context, name string, opt VerifyOptions) error {
	if s.tiers == nil {
		return fmt.Errorf("tables: %s is not a two-player game's set", s.dir)
	}
	g := s.tiers.g
	t, err := g.ParseTier(name)
	if err != nil {
		return err
	}
	if _, ok := s.tiers.byTier[t]; !ok {
		return fmt.Errorf("tables: %s %s is not in %s", g.TierNoun(), name, s.dir)
	}
	if err := s.checkTierFile(ctx, name, opt); err != nil || opt.ChecksumsOnly {
		return err
	}
	if err := s.childrenPresent(t); err != nil {
		return err
	}
	read := []games.Tier{t}
	for _, c := range g.TierChildren(t) {
		if _, ok := s.tiers.byTier[c]; ok && c != t {
			read = append(read, c)
		}
	}
	codes, err := s.loadTierCodes(ctx, read, opt)
	if err != nil {
		return err
	}
	if err := s.checkForward(ctx, t, codes, opt); err != nil {
		return fmt.Errorf("%s: %w", s.tiers.byTier[t].File(), err)
	}
	return nil
}

// ErrIncomplete marks a set that lacks a tier another of its tiers leads into: its values
// cannot be checked (nor trusted) until that tier is built.
var ErrIncomplete = errors.New("incomplete set")

// childrenPresent reports a tier whose moves lead into a tier the set does not hold.
func (s *Set) childrenPresent(t games.Tier) error {
	g := s.tiers.g
	for _, c := range g.TierChildren(t) {
		if _, ok := s.tiers.byTier[c]; !ok {
			return fmt.Errorf("tables: %s: %s %s leads into %s %s, which is not in the set (build it: tablesmith build %s --tier %s -o %s): %w",
				s.dir, g.TierNoun(), g.TierName(t), g.TierNoun(), g.TierName(c), g.Name(), g.TierName(c), s.dir, ErrIncomplete)
		}
	}
	return nil
}

// checkTierFile checks a tier's file: every block's checksum, the counts, and its size
// and SHA-256 against the manifest.
func (s *Set) checkTierFile(ctx context.Context, name string, opt VerifyOptions) error {
	tab, _ := s.Tier(name)
	if err := tab.Verify(ctx, VerifyOptions{ChecksumsOnly: true, Workers: opt.Workers, Progress: opt.Progress}); err != nil {
		return fmt.Errorf("%s: %w", tab.File(), err)
	}
	return s.checkMemberSum(name, tab)
}

// loadTierCodes reads the codes of the tiers into memory, refusing first if they would
// not fit.
func (s *Set) loadTierCodes(ctx context.Context, tiers []games.Tier, opt VerifyOptions) (map[games.Tier][]uint16, error) {
	var need uint64
	for _, t := range tiers {
		need += s.tiers.byTier[t].meta.Slots * 2
	}
	if avail := sysmem.Available(); avail > 0 && need > avail {
		return nil, fmt.Errorf("tables: the forward check holds the values of %d %ss in memory (%d bytes), %d are available; use --checksums-only, or check %s by %s",
			len(tiers), s.tiers.g.TierNoun(), need, avail, s.tiers.g.TierNoun(), s.tiers.g.TierNoun())
	}
	codes := make(map[games.Tier][]uint16, len(tiers))
	for _, t := range tiers {
		tab := s.tiers.byTier[t]
		c, err := loadCodes[uint16](ctx, tab, max(opt.Workers, 1), nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tab.File(), err)
		}
		codes[t] = c
	}
	return codes, nil
}

// checkForward recomputes every value of tier t from its children's codes.
func (s *Set) checkForward(ctx context.Context, t games.Tier, codes map[games.Tier][]uint16, opt VerifyOptions) error {
	g := s.tiers.g
	tab := s.tiers.byTier[t]
	own := codes[t]
	n := tab.meta.Slots
	first := newFirstFailure(n)
	var checked atomic.Uint64
	wdl := tab.wdl
	type state struct {
		tw games.TierWorker
		cb games.ChildBatch
	}
	newState := func() *state { return &state{tw: g.NewTierWorker()} }
	err := parallel.ForEach(ctx, max(opt.Workers, 1), n, 1<<12, newState, func(st *state, lo, hi uint64) error {
		if first.before(lo) {
			return nil
		}
		st.tw.Children(t, lo, hi, &st.cb)
		for p := range int(hi - lo) {
			slot := lo + uint64(p)
			var sum values.MoveSummary
			msg := ""
			for _, c := range st.cb.Pos[st.cb.Off[p]:st.cb.Off[p+1]] {
				if c.Tier == games.GameOver {
					sum.Add(values.Loss, 0)
					continue
				}
				cc := codes[c.Tier]
				if cc == nil || c.Slot >= uint64(len(cc)) {
					msg = fmt.Sprintf("a move leads into %s %s, which is not in the set", g.TierNoun(), g.TierName(c.Tier))
					break
				}
				if !sum.AddCode(uint32(cc[c.Slot])) {
					msg = fmt.Sprintf("a move leads to slot %d of %s %s, which holds the hole marker", c.Slot, g.TierNoun(), g.TierName(c.Tier))
					break
				}
			}
			if want := sum.Code(); msg == "" && uint32(own[slot]) != want {
				got, gr, _ := wdl.Decode(uint32(own[slot]))
				exp, er, _ := wdl.Decode(want)
				msg = fmt.Sprintf("stored %v in %d, its moves make it %v in %d", got, gr, exp, er)
			}
			if msg != "" {
				first.record(slot, msg)
				break
			}
		}
		if opt.Progress != nil {
			opt.Progress("values", checked.Add(hi-lo), n)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return first.err(tab, "position")
}
