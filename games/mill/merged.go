package mill

import (
	"math/bits"
	"slices"

	"github.com/tablesmith/tablesmith/games"
)

// Merged phases (Lasker Morris, Rules.Merged). Every turn either places a stone from the
// hand or moves one on the board, while either is possible, so a sector with stones in
// hand (w, b, wh, bh) leads by a move to (b, w, bh, wh), which leads back: the two are
// solved together, as a moving-phase pair is, and a placement leads to (b, w+1, bh,
// wh−1), a sector with fewer stones in hand, solved before. A side flies when it has 3
// stones on the board and in hand together. A sector whose hands are both empty is a
// moving-phase sector like any other game's. This file holds the generation of such
// sectors' moves and un-moves; it reads the compiled rule set like the rest, and it is
// off the path of the games whose phases are split.

// flies reports whether a side with w stones on the board and wh in hand flies.
func (v *variant) flies(w, wh int) bool {
	if v.flyTotal {
		return w+wh == v.flyAt
	}
	return v.flyAt != 0 && w == v.flyAt
}

// reach returns the empty points a stone on p moves to in one move (or came from, read
// backwards): any of them where its side flies, else its empty neighbours. It is spread
// with flying decided by the caller, who counts the hand as well as the board.
func (v *variant) reach(p int, empty uint32, fly bool) uint32 {
	if fly {
		return empty
	}
	return v.adjacent[p] & empty
}

// mergedChildren lists the sectors the moves of merged sector (w, b, wh, bh) lead into, at
// least one hand not empty: moves (w ≥ 1) to (b, w, bh, wh), placements (wh ≥ 1) to (b,
// w+1, bh, wh−1), and the same with one opponent stone fewer where a mill can close (three
// stones of the mover on the board after it) and the opponent keeps 3 in all.
func (v *variant) mergedChildren(w, b, wh, bh int) []games.Tier {
	var out []games.Tier
	add := func(nw int, nwh int) {
		out = append(out, tierOf(b, nw, bh, nwh))
		if nw >= 3 && b >= 1 && b-1+bh >= MinStones {
			out = append(out, tierOf(b-1, nw, bh, nwh))
		}
	}
	if w >= 1 {
		add(w, wh)
	}
	if wh >= 1 {
		add(w+1, wh-1)
	}
	return out
}

// mergedSuccessors appends to dst the successors of the position (own, opp) in which the
// side to move holds wh stones: its placements while wh ≥ 1, then its moves (slides, or
// flights where it flies), normalised as Successors normalises them. A move or placement
// closing a mill gives one successor per opponent stone it may remove, or one without
// removal when the opponent has no stone on the board. No successors: the side to move is
// blocked and has lost.
func (v *variant) mergedSuccessors(dst []Succ, own, opp uint32, wh int) []Succ {
	if wh > 0 {
		dst = v.placements(dst, own, opp)
	}
	empty := ^(own | opp) & v.full
	victims := v.removable(opp)
	fly := v.flies(bits.OnesCount32(own), wh)
	for fs := own; fs != 0; fs &= fs - 1 {
		f := bits.TrailingZeros32(fs)
		rest := own &^ (1 << f)
		for ts := v.reach(f, empty, fly); ts != 0; ts &= ts - 1 {
			t := bits.TrailingZeros32(ts)
			moved := rest | 1<<t
			if opp == 0 || !v.inMill(moved, t) {
				dst = append(dst, Succ{Own: opp, Opp: moved, Move: Move{Point(f), Point(t), NoPoint}})
				continue
			}
			for cs := victims; cs != 0; cs &= cs - 1 {
				c := bits.TrailingZeros32(cs)
				dst = append(dst, Succ{Own: opp &^ (1 << c), Opp: moved, Move: Move{Point(f), Point(t), Point(c)}})
			}
		}
	}
	return dst
}

// appendMergedChildren appends to b the children of the position (own, opp) of a merged
// sector with wh stones in the mover's hand and bh in the opponent's, one per move: the
// position after it, or GameOver (a loss for the side then to move) where the opponent is
// left with fewer than 3 stones on the board and in hand.
func (tw *tierWorker) appendMergedChildren(own, opp uint32, wh, bh int, b *games.ChildBatch) {
	tw.succ = tw.v.mergedSuccessors(tw.succ[:0], own, opp, wh)
	for _, sc := range tw.succ {
		oh := wh // the mover's hand after the move
		if sc.Move.Placement() {
			oh--
		}
		nw, nb := bits.OnesCount32(sc.Own), bits.OnesCount32(sc.Opp)
		if nw+bh < MinStones {
			b.Pos = append(b.Pos, games.TierPosition{Tier: games.GameOver, Slot: games.EndLoss})
			continue
		}
		b.Pos = append(b.Pos, games.TierPosition{Tier: tierOf(nw, nb, bh, oh), Slot: tw.sector(nw, nb).Rank(sc.Own, sc.Opp)})
	}
}

// mergedUnmoves appends to dst the predecessors of the position (own, opp) by a move of the
// opponent (the side that moved, holding oh stones in hand) closing no mill, or closing
// one with no stone of own on the board to remove: the stone on t came from an adjacent
// empty point f, or from any empty point where the opponent flies. They are the parents
// of the position within its merged sector pair.
func (v *variant) mergedUnmoves(dst []Pred, own, opp uint32, oh int) []Pred {
	empty := ^(own | opp) & v.full
	fly := v.flies(bits.OnesCount32(opp), oh)
	for ts := opp; ts != 0; ts &= ts - 1 {
		t := bits.TrailingZeros32(ts)
		if own != 0 && v.inMill(opp, t) {
			continue // the move closed a mill and removed a stone: from a sector with one more
		}
		rest := opp &^ (1 << t)
		for fs := v.reach(t, empty, fly); fs != 0; fs &= fs - 1 {
			f := bits.TrailingZeros32(fs)
			dst = append(dst, Pred{Own: rest | 1<<f, Opp: own, Move: Move{Point(f), Point(t), NoPoint}})
		}
	}
	return dst
}

// mergedParents fills b as Parents does for slots of merged sector (w, bb, wh, bh) and
// parents in its twin (bb, w, bh, wh): the un-moves without capture, each parent once.
func (tw *tierWorker) mergedParents(w, bb, wh, bh int, slots []uint64, b *games.ParentBatch) {
	sec, fsec := tw.sector(w, bb), tw.sector(bb, w)
	for _, s := range slots {
		own, opp := sec.Unrank(s)
		tw.pred = tw.v.mergedUnmoves(tw.pred[:0], own, opp, bh)
		start := len(b.Slots)
		for _, pr := range tw.pred {
			b.Slots = append(b.Slots, fsec.Rank(pr.Own, pr.Opp))
		}
		run := b.Slots[start:]
		slices.Sort(run)
		b.Slots = b.Slots[:start+len(slices.Compact(run))]
		b.Close()
	}
}
