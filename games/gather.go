package games

import (
	"fmt"
	"slices"

	"github.com/tablesmith/tablesmith/values"
)

// CodeGather reads the stored WDL codes of many children at once, from the code arrays of
// the tiers they lie in: what a one-pass solver and the forward check of `verify` do for
// every position. Those arrays are up to gigabytes and the reads land at random, so nearly
// every read misses the cache. Read one child at a time, the work between two reads
// (finding the child's tier, checking its slot, combining the code read) fills the
// processor's window of instructions in flight after a few misses; so the children of a
// whole chunk of positions are located first, then read in a loop of a few instructions
// a read, where dozens of misses overlap. Call SetTiers before Gather.
//
// The arrays hold a code a byte (C = uint8) where every code fits, as all of Mühle's
// do: half the memory of two bytes, and the children of neighbouring positions then
// share more cache lines.
type CodeGather[C Code] struct {
	// Layout is the layout of the codes (the zero value: values.EncodingWDL); set it
	// before SetTiers. It gives the codes of GameOver's ends.
	Layout values.WDLCodes
	tiers  []Tier
	tabs   [][]C    // tabs[k]: the codes of tiers[k]; the last one holds endCodes
	from   []uint32 // a located child's index into tabs
	at     []uint64 // its slot in tabs[from]
	least  uint16   // the least code the last Gather read
}

// Code is the type of an array of WDL codes held in memory: uint8 where every code fits
// in a byte (WDL codes of at most 8 bits), else uint16.
type Code interface{ uint8 | uint16 }

// GameOverCode is the WDL code a move that ends the game with the opponent lost reads as
// (GameOver, slot EndLoss: a loss in 0 plies), in both layouts.
var GameOverCode = uint16(values.WDLCodes{}.Code(values.Loss, 0))

// EndCode is the code, in layout e, that a move into GameOver at slot s reads as (the
// value of the end for the side then to move, at remoteness 0); ok is false for a slot
// that is no end, or an end that e cannot hold (a win in the parity layout).
func EndCode(s uint64, e values.WDLCodes) (code uint16, ok bool) {
	o, ok := EndOutcome(s)
	if !ok || !e.Holds(o, 0) {
		return 0, false
	}
	return uint16(e.Code(o, 0)), true
}

// endCodes are the codes of the slots of GameOver in layout e, in slot order, up to the
// last that e holds.
func endCodes(e values.WDLCodes) []uint16 {
	var out []uint16
	for s := range uint64(len(endOutcomes)) {
		c, ok := EndCode(s, e)
		if !ok {
			break
		}
		out = append(out, c)
	}
	return out
}

// SetTiers makes g read the codes of tiers[k] from tabs[k]; it panics unless there are
// as many tables as tiers (a game-over child would read another tier's codes). A child
// is never looked up under GameOver: an entry of tiers that is GameOver holds a place
// that no child reads.
func (g *CodeGather[C]) SetTiers(tiers []Tier, tabs [][]C) {
	if len(tabs) != len(tiers) {
		panic(fmt.Sprintf("games: CodeGather.SetTiers: %d tables for %d tiers", len(tabs), len(tiers)))
	}
	g.tiers = append(g.tiers[:0], tiers...)
	codes := endCodes(g.Layout)
	ends := make([]C, len(codes))
	for s, c := range codes {
		ends[s] = C(c)
	}
	g.tabs = append(append(g.tabs[:0], tabs...), ends)
}

// Gather sets dst to the code of each child, one per child, and returns it with −1; a
// move that ends the game reads as the end's value for the opponent, at 0 (EndCode). If a
// child lies in no tier of SetTiers, or past the end of its tier's codes (or is no end of
// GameOver), it returns the index of the first such child instead, and dst is not filled.
func (g *CodeGather[C]) Gather(dst []uint16, children []TierPosition) ([]uint16, int) {
	over := uint32(len(g.tiers))
	g.from, g.at = g.from[:0], g.at[:0]
	for j, c := range children {
		k := uint32(0)
		if c.Tier == GameOver {
			k = over
		} else {
			for k < over && g.tiers[k] != c.Tier {
				k++
			}
			if k == over {
				return dst[:0], j
			}
		}
		if c.Slot >= uint64(len(g.tabs[k])) {
			return dst[:0], j
		}
		g.from, g.at = append(g.from, k), append(g.at, c.Slot)
	}
	dst = slices.Grow(dst[:0], len(children))[:len(children)]
	tabs, at := g.tabs, g.at[:len(children)]
	least := uint16(0xFFFF)
	for j, k := range g.from[:len(children)] {
		c := uint16(tabs[k][at[j]])
		dst[j] = c
		least = min(least, c)
	}
	g.least = least
	return dst, -1
}

// Least returns the least code the last Gather that succeeded read (0xFFFF for none): a
// check finds a child that holds the hole marker (values.WDLHole, 0) without another
// pass over the codes.
func (g *CodeGather[C]) Least() uint16 { return g.least }
