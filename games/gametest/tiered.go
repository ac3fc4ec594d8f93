// Package gametest holds the conformance checks every game passes, whatever its rules:
// the whole contract of package games, the build side (the worker's moves, un-moves,
// orders, counted children, siblings, positions over by the rules) and the lookup side
// (each tier's table space, the notation, the moves a query lists), each side against the
// other. Package registry runs them on every registered game in `make test`; a game's own
// tests may call them with more samples.
package gametest

import (
	"cmp"
	"flag"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/values"
)

// CheckTiered checks the whole tier contract of a game on up to samples positions of
// every tier (all of them for smaller tiers), chosen by a fixed seed:
//   - Tiers lists each tier once, TierName and ParseTier read each other back, and
//     ParseTier refuses nonsense;
//   - every move of a position leads into a tier TierChildren lists (or ends the game),
//     to a slot inside that tier;
//   - every child in a tier of the same unit has the position among its Parents from that
//     tier, and every parent listed has the position among its children;
//   - BindTierFlags with no flag chooses every tier;
//   - where the worker has an order of its own (games.OrderedTierWorker), it is a
//     permutation of every tier's slots up to wholeOrder of them, and each position in it
//     has the children of the slot it names (on samples runs of 64 positions of the
//     larger tiers);
//   - where the game has families of siblings (games.SiblingTiers), each tier's family holds it
//     and is the family of each of its members, and each sibling's positions have the
//     children of the family's first's where SiblingChild says, in the same order (on the
//     same samples, by Children and by the worker's own order);
//   - where the worker counts children apart (games.CountingTierWorker), it lists and
//     counts what Children lists (checkCounting);
//   - the lookup side agrees with the build side (checkLookup): each tier's table space
//     opens with TierSize slots, positions read back through StateOf, Normalize, TierOf
//     and Slot, the lookup's Moves lead where Children does, and positions are over by
//     the rules, with the same value, on both sides.
func CheckTiered(t testing.TB, g games.TieredGame, samples int) {
	t.Helper()
	all := g.Tiers()
	seen := map[games.Tier]bool{}
	for _, tier := range all {
		if seen[tier] {
			t.Fatalf("%s listed twice", g.TierName(tier))
		}
		seen[tier] = true
		name := g.TierName(tier)
		back, err := g.ParseTier(name)
		if err != nil || back != tier {
			t.Fatalf("tier %s reads back as %v (%v)", name, back, err)
		}
		if g.TierSize(tier) == 0 {
			t.Errorf("tier %s has no slots", name)
		}
	}
	for _, bad := range []string{"", "-", "x", "99999-99999", "1-2-3-4-5-6"} {
		if tier, err := g.ParseTier(bad); err == nil && !seen[tier] {
			t.Errorf("ParseTier(%q) = %v, a tier the game does not list", bad, tier)
		}
	}
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	chosen := g.BindTierFlags(fs)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if got, err := chosen(); err != nil || !slices.Equal(got, all) {
		t.Errorf("no flag chooses %d tiers (%v), want all %d", len(got), err, len(all))
	}

	checkOrder(t, g, samples)
	checkSiblings(t, g, samples)
	checkCounting(t, g, samples)
	checkLookup(t, g, samples)
	rng := rand.New(rand.NewPCG(1, 2))
	w := g.NewTierWorker()
	var cb, back games.ChildBatch
	var pb games.ParentBatch
	for _, tier := range all {
		children := g.TierChildren(tier)
		n := g.TierSize(tier)
		slots := make([]uint64, 0, samples)
		if n <= uint64(samples) {
			for s := range n {
				slots = append(slots, s)
			}
		} else {
			for range samples {
				slots = append(slots, rng.Uint64N(n))
			}
		}
		for _, s := range slots {
			w.Children(tier, s, s+1, &cb)
			if len(cb.Off) != 2 {
				t.Fatalf("%s slot %d: Children gave %d offsets for one position", g.TierName(tier), s, len(cb.Off))
			}
			for _, c := range cb.Pos[cb.Off[0]:cb.Off[1]] {
				if c.Tier == games.GameOver {
					if _, ok := games.EndCode(c.Slot, games.Layout(g)); !ok {
						t.Fatalf("%s slot %d: a move ends the game at slot %d of GameOver, which is no end this game declares (a win needs games.OverWins)", g.TierName(tier), s, c.Slot)
					}
					continue
				}
				if !slices.Contains(children, c.Tier) {
					t.Fatalf("%s slot %d: a move leads into %s, which TierChildren does not list", g.TierName(tier), s, g.TierName(c.Tier))
				}
				if c.Slot >= g.TierSize(c.Tier) {
					t.Fatalf("%s slot %d: a move leads to slot %d of %s, which has %d", g.TierName(tier), s, c.Slot, g.TierName(c.Tier), g.TierSize(c.Tier))
				}
				// Un-moves are asked for only within a unit: where the child's tier
				// reaches this one back.
				if !slices.Contains(g.TierChildren(c.Tier), tier) && c.Tier != tier {
					continue
				}
				w.Parents(c.Tier, []uint64{c.Slot}, tier, &pb)
				if !slices.Contains(pb.Slots[pb.Off[0]:pb.Off[1]], s) {
					t.Fatalf("%s slot %d moves to %s slot %d, whose parents in %s do not list it", g.TierName(tier), s,
						g.TierName(c.Tier), c.Slot, g.TierName(tier))
				}
			}
			// Every parent within a tier that reaches this one moves to it.
			for _, from := range all {
				if !slices.Contains(g.TierChildren(from), tier) || !slices.Contains(children, from) && from != tier {
					continue
				}
				w.Parents(tier, []uint64{s}, from, &pb)
				ps := pb.Slots[pb.Off[0]:pb.Off[1]]
				if len(ps) != len(slices.Compact(slices.Sorted(slices.Values(ps)))) {
					t.Fatalf("%s slot %d: parents in %s listed more than once: %v", g.TierName(tier), s, g.TierName(from), ps)
				}
				for _, p := range ps {
					w.Children(from, p, p+1, &back)
					if !slices.Contains(back.Pos[back.Off[0]:back.Off[1]], games.TierPosition{Tier: tier, Slot: s}) {
						t.Fatalf("%s slot %d lists parent %s slot %d, which has no move to it", g.TierName(tier), s, g.TierName(from), p)
					}
				}
			}
		}
	}
}

// overAt is the outcome by the rules of position i of batch b, or 0 where it is not over.
func overAt(b *games.ChildBatch, i int) values.Outcome {
	for _, o := range b.Over {
		if o.At == i {
			return o.Outcome
		}
	}
	return 0
}

// wholeOrder is the size up to which a tier's order is checked whole.
const wholeOrder = 20_000

// checkOrder checks a worker's own order of the positions (games.OrderedTierWorker).
func checkOrder(t testing.TB, g games.TieredGame, samples int) {
	t.Helper()
	ow, ok := g.NewTierWorker().(games.OrderedTierWorker)
	if !ok {
		return
	}
	w := g.NewTierWorker()
	rng := rand.New(rand.NewPCG(3, 4))
	var cb, plain games.ChildBatch
	sorted := func(ps []games.TierPosition) []games.TierPosition {
		return slices.SortedFunc(slices.Values(ps), func(a, b games.TierPosition) int {
			if a.Tier != b.Tier {
				return cmp.Compare(a.Tier, b.Tier)
			}
			return cmp.Compare(a.Slot, b.Slot)
		})
	}
	// same reports whether position i of batch cb has the children of slot s, and is
	// over by the rules as the slot is (the one-pass solver and the forward check take
	// both from the order).
	same := func(tier games.Tier, cb *games.ChildBatch, i int, s uint64) {
		w.Children(tier, s, s+1, &plain)
		got, want := sorted(cb.Pos[cb.Off[i]:cb.Off[i+1]]), sorted(plain.Pos[plain.Off[0]:plain.Off[1]])
		if !slices.Equal(got, want) {
			t.Fatalf("%s: a position of the order, slot %d, has children %v; the slot has %v", g.TierName(tier), s, got, want)
		}
		if o, p := overAt(cb, i), overAt(&plain, 0); o != p {
			t.Fatalf("%s: a position of the order, slot %d, is over as %v; the slot, by Children, as %v (0: not over)", g.TierName(tier), s, o, p)
		}
	}
	for _, tier := range g.Tiers() {
		n := g.TierSize(tier)
		if n <= wholeOrder {
			seen := make([]bool, n)
			slots := ow.ChildrenInOrder(tier, 0, n, nil, &cb)
			if uint64(len(slots)) != n || len(cb.Off) != int(n)+1 {
				t.Fatalf("%s: the order gave %d slots and %d offsets for %d positions", g.TierName(tier), len(slots), len(cb.Off), n)
			}
			for k, s := range slots {
				if s >= n || seen[s] {
					t.Fatalf("%s: position %d of the order is slot %d, out of range or visited before", g.TierName(tier), k, s)
				}
				seen[s] = true
				same(tier, &cb, k, s)
			}
			continue
		}
		// Runs of the order from places at random, and single positions: a worker may
		// step from position to position within a run.
		for range samples {
			k := rng.Uint64N(n)
			run := min(n-k, 64)
			slots := ow.ChildrenInOrder(tier, k, k+run, nil, &cb)
			if uint64(len(slots)) != run || len(cb.Off) != int(run)+1 {
				t.Fatalf("%s: positions %d..%d of the order gave %d slots", g.TierName(tier), k, k+run, len(slots))
			}
			for i, s := range slots {
				same(tier, &cb, i, s)
			}
			slots = ow.ChildrenInOrder(tier, k, k+1, nil, &cb)
			if len(slots) != 1 {
				t.Fatalf("%s: position %d of the order gave %d slots", g.TierName(tier), k, len(slots))
			}
			same(tier, &cb, 0, slots[0])
		}
	}
}

// checkSiblings checks a game's families of sibling tiers (games.SiblingTiers).
func checkSiblings(t testing.TB, g games.TieredGame, samples int) {
	t.Helper()
	tt, ok := g.(games.SiblingTiers)
	if !ok {
		return
	}
	w := g.NewTierWorker()
	ow, ordered := w.(games.OrderedTierWorker)
	rng := rand.New(rand.NewPCG(5, 6))
	var first, sibling games.ChildBatch
	// sameChildren checks that position i of sibling's batch for u has the children of
	// position i of first's, moved where SiblingChild says.
	sameChildren := func(u games.Tier, how string, i int) {
		head := tt.TierSiblings(u)[0]
		want := slices.Clone(first.Pos[first.Off[i]:first.Off[i+1]])
		for k, c := range want {
			want[k].Tier = tt.SiblingChild(u, c.Tier)
			if want[k].Tier == games.GameOver {
				want[k].Slot = 0
			}
		}
		if got := sibling.Pos[sibling.Off[i]:sibling.Off[i+1]]; !slices.Equal(got, want) {
			t.Fatalf("%s (%s, position %d): children %v; those of %s moved to its sibling's tiers are %v",
				g.TierName(u), how, i, got, g.TierName(head), want)
		}
		// The forward check takes a family's marks of positions over from its first.
		if o, f := overAt(&sibling, i), overAt(&first, i); o != f {
			t.Fatalf("%s (%s, position %d): over as %v; the same position of %s as %v (0: not over)", g.TierName(u), how, i, o, g.TierName(head), f)
		}
	}
	seen := map[games.Tier]bool{} // the families checked, by their first
	for _, tier := range g.Tiers() {
		family := tt.TierSiblings(tier)
		if !slices.Contains(family, tier) {
			t.Fatalf("%s: its family %v does not hold it", g.TierName(tier), family)
		}
		head := family[0]
		if seen[head] {
			continue
		}
		seen[head] = true
		for _, c := range g.TierChildren(head) {
			if tt.SiblingChild(head, c) != c {
				t.Fatalf("%s: SiblingChild of the family's first moves its child tier %s to %s", g.TierName(head), g.TierName(c), g.TierName(tt.SiblingChild(head, c)))
			}
		}
		n := g.TierSize(head)
		for _, u := range family {
			if got := tt.TierSiblings(u); !slices.Equal(got, family) {
				t.Fatalf("%s: family %v, but its sibling %s has %v", g.TierName(u), got, g.TierName(head), family)
			}
			if g.TierSize(u) != n {
				t.Fatalf("%s has %d slots, its sibling %s %d", g.TierName(u), g.TierSize(u), g.TierName(head), n)
			}
			for _, c := range g.TierChildren(head) {
				if m := tt.SiblingChild(u, c); m != games.GameOver && !slices.Contains(g.TierChildren(u), m) {
					t.Fatalf("%s: SiblingChild moves %s to %s, which TierChildren(%s) does not list", g.TierName(u), g.TierName(c), g.TierName(m), g.TierName(u))
				}
			}
			for range samples {
				k := rng.Uint64N(n)
				run := min(n-k, 64)
				w.Children(head, k, k+run, &first)
				w.Children(u, k, k+run, &sibling)
				for i := range int(run) {
					sameChildren(u, "Children", i)
				}
				if !ordered {
					continue
				}
				fs := ow.ChildrenInOrder(head, k, k+run, nil, &first)
				us := ow.ChildrenInOrder(u, k, k+run, nil, &sibling)
				if !slices.Equal(fs, us) {
					t.Fatalf("%s: its order at %d..%d visits slots %v, its sibling %s %v", g.TierName(u), k, k+run, us, g.TierName(head), fs)
				}
				for i := range int(run) {
					sameChildren(u, "ChildrenInOrder", i)
				}
			}
		}
	}
}
