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
	w, bb, wh, bh, ok := tw.v.tierStones(t)
	if !ok {
		for k := lo; k < hi; k++ {
			slots = append(slots, k)
			b.Close()
		}
		return slots
	}
	if tw.v.merged && (wh > 0 || bh > 0) {
		sec := tw.sector(w, bb)
		for k := lo; k < hi; k++ {
			slots = append(slots, k)
			own, opp := sec.Unrank(k)
			tw.appendMergedChildren(own, opp, wh, bh, b)
			b.Close()
		}
		return slots
	}
	sec, swapped := tw.sector(w, bb), tw.sector(bb, w)
	for opp, own := range swapped.positions(lo, hi) {
		slots = append(slots, sec.Rank(own, opp))
		tw.positionChildren(own, opp, w, bb, wh, bh, b, nil)
		b.Close()
	}
	return slots
}

// positionChildren appends to b the children of the position (own, opp) of sector
// (w, bb, wh, bh), one per move, as appendChildren does, faster (see expand.go): the
// children without capture share their own stones (opp), so their own class and the
// symmetry to its canonical mask are looked up once, and each child's rank follows from
// the image of the mover's stones by one stone moved or placed. With in, the children
// without capture go to no batch but are counted (see ChildrenOnce): where their own
// class has a trivial stabiliser, distinct moves give distinct children, so they are
// counted without being ranked, and counted returns their number; else their slots go to
// *in, to be told apart by the caller, and counted is 0.
func (tw *tierWorker) positionChildren(own, opp uint32, w, bb, wh, bh int, b *games.ChildBatch, in *[]uint64) (counted int) {
	// After the move the opponent is to move, holding bh; the mover holds wh−1.
	nh, oh := bh, max(wh-1, 0)
	if bb+nh < MinStones && in == nil { // never in a sector of the game: the opponent has lost already
		tw.appendChildren(own, opp, wh, bh, b)
		return 0
	}
	csec := tw.sector(bb, w+min(wh, 1))
	ctier := tierOf(bb, w+min(wh, 1), nh, oh)
	v := tw.v
	xtier, xsec := games.GameOver, (*Sector)(nil)
	if bb-1+nh >= MinStones && bb > 0 && !v.millWins {
		xtier, xsec = tierOf(bb-1, w+min(wh, 1), nh, oh), tw.sector(bb-1, w+min(wh, 1))
	}
	fr := newChildFrame(csec, own, opp)
	// Counted, the children without capture need neither an image nor a rank.
	countOnly := in != nil && fr.trivial
	child := func(img, packed uint32) {
		if slot := fr.slot(img, packed); in != nil {
			*in = append(*in, slot)
		} else {
			b.Pos = append(b.Pos, games.TierPosition{Tier: ctier, Slot: slot})
		}
	}
	// The stones a capture may remove, found at the first capture: the same for every
	// move of the position. Where a mill wins, the move ends the game instead.
	victims := uint32(0)
	captures := func(stones uint32) {
		if v.millWins {
			b.Pos = append(b.Pos, games.TierPosition{Tier: games.GameOver, Slot: games.EndLoss})
			return
		}
		if victims == 0 {
			victims = v.removable(opp)
		}
		for cs := victims; cs != 0; cs &= cs - 1 {
			c := bits.TrailingZeros32(cs)
			if xsec == nil {
				b.Pos = append(b.Pos, games.TierPosition{Tier: games.GameOver})
				continue
			}
			b.Pos = append(b.Pos, games.TierPosition{Tier: xtier, Slot: tw.captureFrame(c, xsec, opp&^(1<<c)).rank(stones)})
		}
	}
	empty := ^(own | opp) & v.full
	if wh > 0 {
		for ts := empty; ts != 0; ts &= ts - 1 {
			t := bits.TrailingZeros32(ts)
			placed := own | 1<<t
			if opp != 0 && v.inMill(placed, t) {
				captures(placed)
				continue
			}
			if placed|opp == v.drawFull { // the last placement fills the board: a draw
				b.Pos = append(b.Pos, games.TierPosition{Tier: games.GameOver, Slot: games.EndDraw})
				continue
			}
			if countOnly {
				counted++
				continue
			}
			gt, nt := fr.image(t)
			child(fr.img|gt, fr.packed|nt)
		}
		return counted
	}
	for fs := own; fs != 0; fs &= fs - 1 {
		f := bits.TrailingZeros32(fs)
		rest := own &^ (1 << f)
		gf, nf := fr.image(f)
		imgf, packedf := fr.img&^gf, fr.packed&^nf
		for ts := v.spread(f, empty, w); ts != 0; ts &= ts - 1 {
			t := bits.TrailingZeros32(ts)
			moved := rest | 1<<t
			if v.inMill(moved, t) {
				captures(moved)
				continue
			}
			if countOnly {
				counted++
				continue
			}
			gt, nt := fr.image(t)
			child(imgf|gt, packedf|nt)
		}
	}
	return counted
}

// appendChildren appends to b the children of the position (own, opp) with wh stones in
// the mover's hand and bh in the opponent's, one per move.
func (tw *tierWorker) appendChildren(own, opp uint32, wh, bh int, b *games.ChildBatch) {
	if wh == 0 {
		tw.succ = tw.v.successors(tw.succ[:0], own, opp)
	} else {
		tw.succ = tw.v.placements(tw.succ[:0], own, opp)
	}
	// After the move the opponent is to move, holding bh; the mover holds wh−1.
	nh, oh := bh, max(wh-1, 0)
	for _, sc := range tw.succ {
		nw, nb := bits.OnesCount32(sc.Own), bits.OnesCount32(sc.Opp)
		if nw+nh < MinStones || sc.End == MillWon {
			b.Pos = append(b.Pos, games.TierPosition{Tier: games.GameOver, Slot: games.EndLoss})
			continue
		}
		if sc.End == BoardFilled {
			b.Pos = append(b.Pos, games.TierPosition{Tier: games.GameOver, Slot: games.EndDraw})
			continue
		}
		b.Pos = append(b.Pos, games.TierPosition{Tier: tierOf(nw, nb, nh, oh), Slot: tw.sector(nw, nb).Rank(sc.Own, sc.Opp)})
	}
}
