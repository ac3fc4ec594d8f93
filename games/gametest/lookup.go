package gametest

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/values"
)

// sampleSlots returns up to samples slots of a tier of n: all of them for a smaller tier,
// else the first, the last and the rest at random.
func sampleSlots(rng *rand.Rand, n uint64, samples int) []uint64 {
	if n <= uint64(samples) {
		out := make([]uint64, n)
		for s := range n {
			out[s] = s
		}
		return out
	}
	out := []uint64{0, n - 1}
	for len(out) < samples {
		out = append(out, rng.Uint64N(n))
	}
	return out
}

// lookup holds the lookup's view of a game: each tier's table space, opened as a set's
// reader opens it (games.New with TierParams under the default scheme).
type lookup struct {
	g      games.TieredGame
	spaces map[games.Tier]games.TierSpace
}

// space returns tier t's table space, checking once that it opens and has TierSize slots.
func (l *lookup) space(t testing.TB, tier games.Tier) games.TierSpace {
	t.Helper()
	if sp, ok := l.spaces[tier]; ok {
		return sp
	}
	name := l.g.TierName(tier)
	in, err := games.New(l.g, l.g.TierParams(tier), "")
	if err != nil {
		t.Fatalf("%s %s: Open(TierParams) fails: %v", l.g.TierNoun(), name, err)
	}
	sp, ok := in.Space.(games.TierSpace)
	if !ok {
		t.Fatalf("%s %s: Open returns a %T, which is no games.TierSpace", l.g.TierNoun(), name, in.Space)
	}
	if sp.Slots() != l.g.TierSize(tier) {
		t.Fatalf("%s %s: Open(TierParams) has %d slots, TierSize says %d", l.g.TierNoun(), name, sp.Slots(), l.g.TierSize(tier))
	}
	l.spaces[tier] = sp
	return sp
}

// positionOf reads a position of the notation as the lookup routes it: its tier by TierOf
// and its slot by that tier's space.
func (l *lookup) positionOf(t testing.TB, state string) (games.TierPosition, error) {
	tier, err := l.g.TierOf(state)
	if err != nil {
		return games.TierPosition{}, fmt.Errorf("TierOf: %w", err)
	}
	slot, ok, err := l.space(t, tier).Slot(state)
	switch {
	case err != nil:
		return games.TierPosition{}, fmt.Errorf("Slot in %s %s: %w", l.g.TierNoun(), l.g.TierName(tier), err)
	case !ok:
		return games.TierPosition{}, fmt.Errorf("Slot in %s %s: no slot", l.g.TierNoun(), l.g.TierName(tier))
	}
	return games.TierPosition{Tier: tier, Slot: slot}, nil
}

// checkLookup checks the lookup side of the contract against the build side, on samples
// positions of every tier:
//   - Open(TierParams(t)) under the default scheme opens a games.TierSpace of TierSize(t)
//     slots;
//   - StateOf of a slot gives a position that Normalize keeps, that TierOf puts in the
//     tier and Slot back at the slot;
//   - the lookup's Moves agree with the worker's Children: the same positions as a
//     multiset (each move's Next read back by TierOf and Slot; a move that ends the game
//     as the end of GameOver it names), and over by the rules exactly where the batch
//     marks the position over, with the same outcome and no move;
//   - every batch's marks of positions over pass ChildBatch.CheckOver.
func checkLookup(t testing.TB, g games.TieredGame, samples int) {
	t.Helper()
	l := &lookup{g: g, spaces: map[games.Tier]games.TierSpace{}}
	w := g.NewTierWorker()
	rng := rand.New(rand.NewPCG(7, 8))
	var cb games.ChildBatch
	checked := 0
	defer func() {
		if checked == 0 && len(g.Tiers()) > 0 {
			t.Errorf("the lookup side was checked on no position: StateOf calls every sampled slot a hole")
		}
	}()
	for _, tier := range g.Tiers() {
		name := g.TierNoun() + " " + g.TierName(tier)
		sp := l.space(t, tier)
		inTier, all := 0, g.TierSize(tier) <= uint64(samples)
		for _, s := range sampleSlots(rng, g.TierSize(tier), samples) {
			state, ok := sp.StateOf(s)
			if !ok {
				continue // a hole of the scheme
			}
			checked++
			inTier++
			if norm, err := sp.Normalize(state); err != nil || norm != state {
				t.Fatalf("%s slot %d: StateOf gives %q, which Normalize makes %q (%v)", name, s, state, norm, err)
			}
			if p, err := l.positionOf(t, state); err != nil || p != (games.TierPosition{Tier: tier, Slot: s}) {
				t.Fatalf("%s slot %d: StateOf gives %q, which the lookup reads as %s slot %d (%v)", name, s, state, g.TierName(p.Tier), p.Slot, err)
			}
			w.Children(tier, s, s+1, &cb)
			if err := cb.CheckOver(games.Layout(g)); err != nil {
				t.Fatalf("%s slot %d (%q): Children: %v", name, s, state, err)
			}
			var built values.Outcome
			if len(cb.Over) > 0 {
				built = cb.Over[0].Outcome
			}
			moves, over, err := sp.Moves(state)
			if err != nil {
				t.Fatalf("%s slot %d: Moves(%q): %v", name, s, state, err)
			}
			if over != built {
				t.Fatalf("%s slot %d (%q): the lookup says over %v, the build's Children %v (0: not over)", name, s, state, over, built)
			}
			if over != 0 && !games.Layout(g).Holds(over, 0) {
				t.Fatalf("%s slot %d (%q): the lookup says it is over as a %v, which this game does not declare (games.OverWins)", name, s, state, over)
			}
			if over != 0 && len(moves) > 0 {
				t.Fatalf("%s slot %d (%q): over as a %v, yet Moves lists %d moves", name, s, state, over, len(moves))
			}
			var looked []games.TierPosition
			for _, m := range moves {
				if m.Next == "" {
					end, ok := games.EndSlot(m.End)
					if _, holds := games.EndCode(end, games.Layout(g)); !ok || !holds {
						t.Fatalf("%s slot %d (%q): move %s ends the game as a %v, which is no end", name, s, state, m.Name, m.End)
					}
					looked = append(looked, games.TierPosition{Tier: games.GameOver, Slot: end})
					continue
				}
				p, err := l.positionOf(t, m.Next)
				if err != nil {
					t.Fatalf("%s slot %d (%q): move %s leads to %q: %v", name, s, state, m.Name, m.Next, err)
				}
				looked = append(looked, p)
			}
			children := sortPositions(cb.Pos[cb.Off[0]:cb.Off[1]])
			if looked = sortPositions(looked); !slices.Equal(looked, children) {
				t.Fatalf("%s slot %d (%q): the lookup's moves lead to %v, the build's Children to %v", name, s, state, looked, children)
			}
		}
		if all && g.TierSize(tier) > 0 && inTier == 0 {
			t.Fatalf("%s: StateOf calls every one of its %d slots a hole", name, g.TierSize(tier))
		}
	}
}

// sortPositions returns the positions sorted, a copy.
func sortPositions(ps []games.TierPosition) []games.TierPosition {
	return slices.SortedFunc(slices.Values(ps), func(a, b games.TierPosition) int {
		return cmp.Or(cmp.Compare(a.Tier, b.Tier), cmp.Compare(a.Slot, b.Slot))
	})
}

// checkCounting checks a worker's counted children (games.CountingTierWorker) against its
// Children, on runs of positions of every tier and each tier it leads into: the children
// listed are those of Children outside the counted tier, and the count is the number of
// distinct slots of the counted tier among them; positions over are marked alike.
func checkCounting(t testing.TB, g games.TieredGame, samples int) {
	t.Helper()
	cw, ok := g.NewTierWorker().(games.CountingTierWorker)
	if !ok {
		return
	}
	w := g.NewTierWorker()
	rng := rand.New(rand.NewPCG(9, 10))
	var plain, counted games.ChildBatch
	for _, tier := range g.Tiers() {
		n := g.TierSize(tier)
		for _, once := range g.TierChildren(tier) {
			for _, lo := range sampleSlots(rng, n, max(1, samples/8)) {
				hi := min(n, lo+8)
				w.Children(tier, lo, hi, &plain)
				counts := cw.ChildrenOnce(tier, lo, hi, once, &counted, nil)
				if len(counts) != int(hi-lo) || len(counted.Off) != int(hi-lo)+1 {
					t.Fatalf("%s: ChildrenOnce of %d positions gave %d counts and %d offsets", g.TierName(tier), hi-lo, len(counts), len(counted.Off))
				}
				if !slices.Equal(plain.Over, counted.Over) {
					t.Fatalf("%s slots %d..%d: ChildrenOnce marks over %v, Children %v", g.TierName(tier), lo, hi, counted.Over, plain.Over)
				}
				for i := range int(hi - lo) {
					var rest []games.TierPosition
					distinct := map[uint64]bool{}
					for _, c := range plain.Pos[plain.Off[i]:plain.Off[i+1]] {
						if c.Tier == once {
							distinct[c.Slot] = true
						} else {
							rest = append(rest, c)
						}
					}
					got := sortPositions(counted.Pos[counted.Off[i]:counted.Off[i+1]])
					if !slices.Equal(got, sortPositions(rest)) || int(counts[i]) != len(distinct) {
						t.Fatalf("%s slot %d counting %s: lists %v and counts %d; Children lists %v besides %d distinct in it",
							g.TierName(tier), lo+uint64(i), g.TierName(once), got, counts[i], sortPositions(rest), len(distinct))
					}
				}
			}
		}
	}
}
