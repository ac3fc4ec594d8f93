package mill

import (
	"math/bits"

	"github.com/tablesmith/tablesmith/games"
)

var _ games.OrderedTierWorker = (*tierWorker)(nil)

// ChildrenInOrder visits a sector in the slot order of the sector with the colours
// swapped: position k is the class of slot k of sector (b, w), read as (opponent, mover).
// Consecutive positions then share the opponent's stones (most of the time their class),
// and a move turns the opponent into the side to move: the children fall in one class of
// the mover's stones of their sector, a run of slots a few tens of kilobytes long, where
// in slot order they fall anywhere in it. The swap is a bijection between the classes
// of the two sectors (the symmetries act on both colours alike), so the order is a
// permutation of the slots.
func (tw *tierWorker) ChildrenInOrder(t games.Tier, lo, hi uint64, slots []uint64, b *games.ChildBatch) []uint64 {
	b.Reset()
	w, bb, wh, bh, ok := tierStones(t)
	if !ok {
		for k := lo; k < hi; k++ {
			slots = append(slots, k)
			b.Close()
		}
		return slots
	}
	sec, swapped := tw.sector(w, bb), tw.sector(bb, w)
	for k := lo; k < hi; k++ {
		opp, own := swapped.Unrank(k)
		slots = append(slots, sec.Rank(own, opp))
		tw.appendChildren(own, opp, wh, bh, b)
		b.Close()
	}
	return slots
}

// appendChildren appends to b the children of the position (own, opp) with wh stones in
// the mover's hand and bh in the opponent's, one per move.
func (tw *tierWorker) appendChildren(own, opp uint32, wh, bh int, b *games.ChildBatch) {
	if wh == 0 {
		tw.succ = Successors(tw.succ[:0], own, opp)
	} else {
		tw.succ = Placements(tw.succ[:0], own, opp)
	}
	// After the move the opponent is to move, holding bh; the mover holds wh−1.
	nh, oh := bh, max(wh-1, 0)
	for _, sc := range tw.succ {
		nw, nb := bits.OnesCount32(sc.Own), bits.OnesCount32(sc.Opp)
		if nw+nh < MinStones {
			b.Pos = append(b.Pos, games.TierPosition{Tier: games.GameOver})
			continue
		}
		b.Pos = append(b.Pos, games.TierPosition{Tier: tierOf(nw, nb, nh, oh), Slot: tw.sector(nw, nb).Rank(sc.Own, sc.Opp)})
	}
}
