package pipeline

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/values"
)

// countingToy is the toy game with a worker that counts the children in one tier apart
// (games.CountingTierWorker), as Mühle's does, positions over by the rules included.
type countingToy struct{ *toyGame }

func (g countingToy) NewTierWorker() games.TierWorker { return countingToyWorker{toyWorker{g.toyGame}} }

type countingToyWorker struct{ toyWorker }

func (w countingToyWorker) ChildrenOnce(t games.Tier, lo, hi uint64, once games.Tier, b *games.ChildBatch, counts []uint32) []uint32 {
	var plain games.ChildBatch
	w.Children(t, lo, hi, &plain)
	b.Reset()
	b.Over = append(b.Over, plain.Over...)
	for i := range int(hi - lo) {
		var in []uint64
		for _, c := range plain.Pos[plain.Off[i]:plain.Off[i+1]] {
			if c.Tier == once {
				in = append(in, c.Slot)
			} else {
				b.Pos = append(b.Pos, c)
			}
		}
		slices.Sort(in)
		counts = append(counts, uint32(len(slices.Compact(in))))
		b.Close()
	}
	return counts
}

// TestToyCountedChildren: the retrograde engine's counted path (Expand with a
// games.CountingTierWorker) gives the oracle's values with positions over by the rules and
// moves ending the game in any way, in both code layouts.
func TestToyCountedChildren(t *testing.T) {
	t.Parallel()
	seeds := []uint64{104729, 209458, 314187, 418916}
	if testing.Short() {
		seeds = seeds[:2]
	}
	for _, seed := range seeds {
		g := newToyGame(seed)
		c := toyCase{g, toyOracle(g)}
		cg := countingToy{g}
		if _, ok := cg.NewTierWorker().(games.CountingTierWorker); !ok {
			t.Fatal("the counting toy counts nothing")
		}
		dir := t.TempDir()
		if err := BuildTierSet(context.Background(), cg, dir, TierPlan(cg, cg.Tiers()), TierOptions{Workers: 3, Jobs: 1}); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		toyCheckSet(t, c, dir, nil)
	}
}

// TestSplitRemotenessBeyond16Bits: a game with wins over by the rules whose remoteness
// passes what its split codes hold in 16 bits (32,766 plies) is refused when the unit is
// solved, with the reason, rather than written as a file every later reader would call
// corrupt.
func TestSplitRemotenessBeyond16Bits(t *testing.T) {
	t.Parallel()
	const n = 33_000
	a, b := toyTierID(0), toyTierID(1)
	g := &toyGame{seed: 77, overWins: true, tiers: map[games.Tier]*toyTier{}, known: map[games.TierPosition]uint32{}}
	ta := &toyTier{id: 0, size: n, children: []games.Tier{a}, moves: make([][]games.TierPosition, n),
		parents: map[games.Tier][][]uint64{a: make([][]uint64, n)}, over: map[uint64]values.Outcome{}}
	for s := range uint64(n - 1) {
		ta.moves[s] = []games.TierPosition{{Tier: a, Slot: s + 1}}
		ta.parents[a][s+1] = []uint64{s}
	}
	ta.moves[n-1] = []games.TierPosition{{Tier: games.GameOver, Slot: games.EndLoss}}
	tb := &toyTier{id: 1, size: 1, children: []games.Tier{a}, moves: [][]games.TierPosition{{{Tier: a, Slot: 0}}},
		parents: map[games.Tier][][]uint64{}, over: map[uint64]values.Outcome{}}
	g.tiers[a], g.tiers[b] = ta, tb
	g.order = []games.Tier{a, b}
	err := BuildTierSet(context.Background(), g, t.TempDir(), TierPlan(g, g.Tiers()), TierOptions{Workers: 1, Jobs: 1})
	if err == nil || !strings.Contains(err.Error(), "beyond the 32766") {
		t.Fatalf("a remoteness of 33,000 plies in the split layout: %v", err)
	}
}
