package mill

import (
	"math/bits"
	"slices"

	"github.com/tablesmith/tablesmith/games"
)

// The moving phase's move generation for the solver, the hot path of a build: the
// children of a run of slots, and the parents within a sector pair. They give what
// Successors and Predecessors followed by Sector.Rank give (the tests compare them on
// every slot of the small sectors), faster:
//
//   - the slots are walked by a slotCursor (the next placement in colex order) instead of
//     being unranked one by one;
//   - a move without capture leaves the mover's stones to the opponent, who is to move in
//     the child: all such children of a position share their own stones (the parent's
//     opp), so their own class and the symmetry g mapping it to its canonical mask are
//     looked up once per position. The child's opponent stones are the parent's own
//     with one stone moved, so their image under g, and the free-point numbers of that
//     image (the colex rank's input), change by one stone from move to move;
//   - when the child's own class has a trivial stabiliser, distinct moves give distinct
//     children, so the retrograde engine's first pass, which needs only how many
//     distinct children within the pair a position has, counts them without ranking
//     them, and the parents of a slot whose own class has one need no sorting to be
//     listed once each; the others' lists are made distinct by a small hash set
//     (distinct) rather than by sorting.
//
// Profiled on pairs 5-4 and 6-3 with one worker (pipeline's BenchmarkMillEngine), the
// straightforward path spent a quarter of the time ranking children (canonicalisation
// under the symmetries, colex ranks), a sixth sorting successor and predecessor lists,
// a sixth in the tier adapter and Unrank; the engine's depth passes (builder/retro) a
// quarter scanning every slot at every depth, which now skips blocks with nothing due.

// childFrame is what the children without capture of a position (own, opp) share: their
// own stones are opp, so their own class in their sector, the symmetry g taking it to its
// canonical mask, and the image of own under g with its free-point numbers (the colex
// rank's input) are found once; each child's opponent stones are own with one stone
// moved or placed, one stone off that image.
type childFrame struct {
	sec     *Sector // the children's sector
	key     uint32  // the children's own stones
	g       Sym     // the symmetry taking them to their class's canonical mask
	class   uint32
	trivial bool // the class's stabiliser is trivial: the image is the child's placement
	free    uint32
	img     uint32 // g(own)
	packed  uint32 // the free-point numbers of img
	base    uint64 // the class's first slot, when trivial
	perm    *[Points]Point
}

func newChildFrame(sec *Sector, own, opp uint32) childFrame {
	e := sec.own.entry[colexRank(opp)]
	class, g := e>>4, Sym(e&15)
	free := ^sec.own.canon[class] & sec.v.full
	img := sec.v.apply(g, own)
	return childFrame{sec: sec, key: opp, g: g, class: class, trivial: int(class) < sec.own.trivial, free: free, img: img,
		packed: pext(img, free), base: uint64(class) * sec.per, perm: &sec.v.symPerm[g]}
}

// rank returns the slot of the child whose opponent stones are opp, the frame's own
// stones being its own: Sector.Rank with the own stones' class already found.
func (f *childFrame) rank(opp uint32) uint64 {
	img := f.sec.v.apply(f.g, opp)
	return f.slot(img, pext(img, f.free))
}

// captureFrame returns the frame of the children with own stones own in sector sec, kept
// in slot i of the worker's capture frames while own and sec stay the same: a capture
// child's own stones are the parent's opponent stones less the one captured, and in the
// game's order (ChildrenInOrder) consecutive positions share their opponent stones, so
// their captures find those stones' class once rather than once per child.
func (tw *tierWorker) captureFrame(i int, sec *Sector, own uint32) *childFrame {
	f := &tw.captures[i]
	if f.sec != sec || f.key != own {
		*f = newChildFrame(sec, 0, own)
	}
	return f
}

// image returns the image of point p under the frame's symmetry and its free-point
// number, as one-bit masks.
func (f *childFrame) image(p int) (img, num uint32) {
	img = uint32(1) << f.perm[p]
	return img, 1 << bits.OnesCount32(f.free&(img-1))
}

// slot is the child whose opponent stones' image is img, their free-point numbers packed.
func (f *childFrame) slot(img, packed uint32) uint64 {
	if f.trivial {
		return f.base + uint64(colexRank(packed))
	}
	return f.sec.rankImage(f.class, img)
}

// movingChildren fills b as Children does for slots lo..hi−1 of moving-phase sector
// (w, bb). With counts, the children in sector (bb, w) (the moves without capture) are
// only counted, once per slot, one count per position appended to *counts (see
// ChildrenOnce).
func (tw *tierWorker) movingChildren(w, bb int, lo, hi uint64, b *games.ChildBatch, counts *[]uint32) {
	var local *[]uint64
	if counts != nil {
		local = &tw.local
	}
	for own, opp := range tw.sector(w, bb).positions(lo, hi) {
		tw.local = tw.local[:0]
		n := tw.positionChildren(own, opp, w, bb, 0, 0, b, local)
		if counts != nil {
			*counts = append(*counts, uint32(n+len(tw.distinct(tw.local))))
		}
		b.Close()
	}
}

// movingParents fills b as Parents does for slots of moving-phase sector (w, bb) and
// parents in sector (bb, w): the un-moves without capture, in no particular order. Two
// un-moves of a position lead to the same class only through a symmetry fixing its own
// stones, the parents' opponent stones: the own stones of a slot below sec.flat have a
// trivial stabiliser, and its parents need no sorting to be listed once each.
func (tw *tierWorker) movingParents(w, bb int, slots []uint64, b *games.ParentBatch) {
	sec, fsec := tw.sector(w, bb), tw.sector(bb, w)
	v := tw.v
	for _, s := range slots {
		own, opp := sec.Unrank(s)
		empty := ^(own | opp) & v.full
		start := len(b.Slots)
		for ts := opp; ts != 0; ts &= ts - 1 {
			t := bits.TrailingZeros32(ts)
			if v.inMill(opp, t) {
				continue // the move closed a mill: its parent had a stone more of own, or it won
			}
			rest := opp &^ (1 << t)
			for fs := v.spread(t, empty, bb); fs != 0; fs &= fs - 1 {
				b.Slots = append(b.Slots, fsec.Rank(rest|1<<bits.TrailingZeros32(fs), own))
			}
		}
		if s >= sec.flat {
			b.Slots = b.Slots[:start+len(tw.distinct(b.Slots[start:]))]
		}
		b.Close()
	}
}

// sortedSet sorts x and removes repeats, in place; the lists of one position are short,
// and insertion sort beats the general sort on them.
func sortedSet(x []uint64) []uint64 {
	if len(x) > 48 {
		slices.Sort(x)
		return slices.Compact(x)
	}
	for i := 1; i < len(x); i++ {
		v := x[i]
		j := i
		for j > 0 && x[j-1] > v {
			x[j] = x[j-1]
			j--
		}
		x[j] = v
	}
	return slices.Compact(x)
}

// distinct removes the repeats from x in place, keeping the first of each in order: a
// small hash set, stamped per call so that it needs no clearing, takes each list of one
// position in one pass (sortedSet beyond its size).
func (tw *tierWorker) distinct(x []uint64) []uint64 {
	if len(x) < 2 {
		return x
	}
	if len(x) > len(tw.setKey)/2 {
		return sortedSet(x)
	}
	tw.setGen++
	if tw.setGen == 0 {
		clear(tw.setGenAt[:])
		tw.setGen = 1
	}
	n := 0
	for _, v := range x {
		for h := uint8((v * 0x9E3779B97F4A7C15) >> 56); ; h++ {
			if tw.setGenAt[h] != tw.setGen {
				tw.setGenAt[h], tw.setKey[h] = tw.setGen, v
				x[n] = v
				n++
				break
			}
			if tw.setKey[h] == v {
				break
			}
		}
	}
	return x[:n]
}
