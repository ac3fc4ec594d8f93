package tables

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tablesmith/tablesmith/games"
)

// verifyTiers checks a tiered game's set: every file's size and SHA-256 against the
// manifest, every block's checksum and the counts (of each tier as the forward check
// first reads it, so that a damaged file is reported then, before the tiers not yet
// checked), and the forward consistency of every stored value: each
// position's value and remoteness recomputed from its children's stored values (across
// tiers, by the one combining rule) must equal its own. In a win/draw/loss-only set the
// same recursion runs on outcomes alone: the children's codes decode as a loss in 0 or a
// win in 1, and the combined value's outcome (values.OutcomeCode) must be the stored one —
// a position is won iff some move leads to a loss for the opponent, drawn iff else some
// move leads to a draw. It names the first inconsistent position of the first tier (in
// the manifest's order) that has one.
func (s *Set) verifyTiers(ctx context.Context, opt VerifyOptions) error {
	// Every member is read: open them all first, side by side, naming the first that
	// cannot be opened (the forward check reads the tables' metadata directly).
	if err := s.OpenMembers(); err != nil {
		return err
	}
	var all []games.Tier
	for _, name := range s.tiers.names {
		t, _ := s.tiers.g.ParseTier(name)
		all = append(all, t)
	}
	return s.checkTiers(ctx, all, opt)
}

// checkTiers checks the files of the tiers in order, opened, against the manifest, and
// then (unless opt.ChecksumsOnly) the forward consistency of their values. With the
// forward check to come, which reads every code of every tier it checks, a file's blocks
// are checked (checksums, counts) as the check loads it, not in a pass of their own: the
// whole game's 27 GB of codes are decompressed once, not twice.
func (s *Set) checkTiers(ctx context.Context, order []games.Tier, opt VerifyOptions) error {
	for _, t := range order {
		if err := s.checkTierFile(ctx, s.tiers.g.TierName(t), opt, opt.ChecksumsOnly); err != nil {
			return err
		}
	}
	if opt.ChecksumsOnly {
		return nil
	}
	for _, t := range order {
		if err := s.childrenPresent(t); err != nil {
			return err
		}
	}
	return s.checkTiersForward(ctx, order, order, opt)
}

// VerifyTier checks one tier of a tiered game's set, as Verify checks them all: its
// file's size and SHA-256 against the manifest, its blocks' checksums and counts, then
// the forward consistency of its values, reading only the tiers its moves lead into
// (their blocks' checksums are checked as they are read). It is one unit of a
// verification spread over jobs.
func (s *Set) VerifyTier(ctx context.Context, name string, opt VerifyOptions) error {
	return s.VerifyTiers(ctx, []string{name}, opt)
}

// VerifyTiers is VerifyTier for several tiers at once, naming the first inconsistent
// position of the first of them (in the order given) that has one: siblings among them
// (games.SiblingTiers) are checked side by side, their moves listed once, so that a unit
// of a verification spread over jobs can be a family.
func (s *Set) VerifyTiers(ctx context.Context, names []string, opt VerifyOptions) error {
	if s.tiers == nil {
		return fmt.Errorf("tables: %s is not a two-player game's set", s.dir)
	}
	g := s.tiers.g
	var order []games.Tier
	var tabs []*Table
	for _, name := range names {
		t, err := g.ParseTier(name)
		if err != nil {
			return err
		}
		if _, ok := s.tiers.byTier[t]; !ok {
			return fmt.Errorf("tables: %s %s is not in %s", g.TierNoun(), name, s.dir)
		}
		if slices.Contains(order, t) {
			continue
		}
		order = append(order, t)
		// Only the tiers and those their moves lead into are read: opened first, side by
		// side (the forward check reads the tables' metadata directly); a damaged member
		// elsewhere in the set is another unit's to report.
		for _, c := range s.readsOf(t) {
			if tab, ok := s.tiers.byTier[c]; ok && !slices.Contains(tabs, tab) {
				tabs = append(tabs, tab)
			}
		}
	}
	if len(order) == 0 {
		return fmt.Errorf("tables: no %s of %s named", g.TierNoun(), s.dir)
	}
	if err := openTables(tabs); err != nil {
		return err
	}
	return s.checkTiers(ctx, order, opt)
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

// checkTierFile checks a tier's file: its size and SHA-256 against the manifest, and
// with blocks, every block's checksum and the counts (else the forward check does, as
// it loads the tier's codes).
func (s *Set) checkTierFile(ctx context.Context, name string, opt VerifyOptions, blocks bool) error {
	tab, _ := s.Tier(name)
	if blocks {
		if err := tab.Verify(ctx, VerifyOptions{ChecksumsOnly: true, Workers: opt.Workers, Progress: opt.Progress}); err != nil {
			return fmt.Errorf("%s: %w", tab.File(), err)
		}
	}
	return s.checkMemberSum(name, tab)
}
