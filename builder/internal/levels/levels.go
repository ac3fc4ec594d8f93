// Package levels holds the pieces that the two level-synchronous searches, builder/bfs
// and builder/zeroone, share: the scan of a frontier bitset into batches, the grouping
// of a batch's slots by bitset word, and the choice between claiming a level's new slots
// as they turn up and settling them after the level.
package levels

import "math/bits"

// DrainWords appends the slots of the set bits of words[lo:hi] to batch, clearing those
// words if clearWords, and hands batch to expand whenever it holds max slots or more, and
// once more at the end if any are left. It returns batch emptied, for reuse.
func DrainWords(words []uint64, lo, hi int, clearWords bool, batch []uint64, max int, expand func(batch []uint64)) []uint64 {
	for wi := lo; wi < hi; wi++ {
		word := words[wi]
		if word == 0 {
			continue
		}
		if clearWords {
			words[wi] = 0
		}
		base := uint64(wi) << 6
		for word != 0 {
			batch = append(batch, base+uint64(bits.TrailingZeros64(word)))
			word &= word - 1
		}
		if len(batch) >= max {
			expand(batch)
			batch = batch[:0]
		}
	}
	if len(batch) > 0 {
		expand(batch)
		batch = batch[:0]
	}
	return batch
}

// WordRun returns the bitset word of slots[i] and the mask of the run of slots from i on
// that fall in it, and the index after the run: the slots of one word take one atomic
// OR together.
func WordRun(slots []uint64, i int) (wi, mask uint64, end int) {
	wi = slots[i] >> 6
	mask = 1 << (slots[i] & 63)
	for i++; i < len(slots) && slots[i]>>6 == wi; i++ {
		mask |= 1 << (slots[i] & 63)
	}
	return wi, mask, i
}

// SettlePolicy chooses between claiming each new slot as it turns up and settling a
// level after it (see Defer). Only tests set it, to run every level one way.
type SettlePolicy int8

const (
	SettleWide   SettlePolicy = iota // settle the wide levels
	SettleAlways                     // settle every level
	SettleNever                      // claim as found, every level
)

func (p SettlePolicy) String() string {
	return [...]string{SettleWide: "settle-wide", SettleAlways: "settle-always", SettleNever: "settle-never"}[p]
}

// Defer decides whether the level expanded from a frontier of count slots within
// words bitset words is settled after it: its new slots only marked in the next frontier
// while it runs, and recorded as visited, with their values, by one pass over that
// frontier's words once it is done. Against claiming each new slot at once, this spares
// an atomic OR on the visited word and a value written at random per new slot, at the
// cost of the pass; a frontier of at least one slot per 8 words pays for it (measured on
// the 15-puzzle's pattern databases, 3×4, 2×6 and Hanoi 4×16).
func Defer(policy SettlePolicy, count uint64, words int) bool {
	switch policy {
	case SettleAlways:
		return true
	case SettleNever:
		return false
	}
	return count >= uint64(words)/8
}
