// Package bfs is the level-synchronous parallel breadth-first search that fills a
// puzzle's table: from the goals over the slots of an index scheme, the remoteness of
// every state. It knows a state space only through the small interfaces here, never a
// concrete game, so a game package satisfies them structurally without importing bfs. A
// search can hand every completed level to a level log (builder/levellog) and resume
// from one.
package bfs

import (
	"math"

	"github.com/tablesmith/tablesmith/builder"
)

// Space is a state space as the BFS builder sees it: Slots() slots, some of them holes
// (slots that are no state), connected by reversible moves.
//
// The builder never asks for one state at a time on the hot path: each worker owns an
// expander and hands it a batch of slots per call.
type Space interface {
	// Slots is the number of slots, i.e. the size of the index scheme's range.
	Slots() uint64
	// Goals are the slots of the goal states (remoteness 0).
	Goals() []uint64
	// DepthBound is an upper bound on the remoteness of any state; it sizes the value
	// array (a bound below 255 fits one byte per slot).
	DepthBound() uint64
	// NewExpander returns a function for one worker goroutine (it may own scratch
	// buffers and is never called concurrently). It appends to dst the slots adjacent to
	// every slot in src, in any order and possibly with repeats, and returns dst. Holes in
	// src have no neighbours.
	NewExpander() func(dst, src []uint64) []uint64
	// IsHole reports whether slot is no state. Called once per slot the search did not
	// reach, to tell holes from unreachable states.
	IsHole(slot uint64) bool
}

// Holed (games.Holed) is implemented by spaces that can tell whether their scheme leaves
// holes at all. When HasHoles is false the builder counts every unreached slot as an
// unreachable state without calling IsHole, which for a full-permutation scheme would be
// one call per slot of the other parity class.
type Holed interface{ HasHoles() bool }

// NeighbourRuns (games.NeighbourRuns) is implemented by spaces whose expanders list
// neighbours that share a visited word next to each other (Hanoi lists its smallest disk's
// moves, a run of consecutive slots, together). The search then claims such neighbours
// with one atomic OR per word; for other spaces, whose neighbours hardly ever share a
// word, testing for it cost 7% of a 3×4 sliding-puzzle build.
type NeighbourRuns interface{ ListsNeighbourRuns() bool }

// DepthHinter (games.DepthHinter) is implemented by spaces whose DepthBound is a proven
// bound well above the remoteness they expect (4-peg Hanoi with 16 disks: a bound of 697,
// a largest remoteness of 161). The values start at the width the hint needs, and are
// widened between levels if the search goes deeper (see Values.Widen): a good hint halves
// the memory, a wrong one costs one pass over the values, never a wrong table. The search
// still fails beyond DepthBound.
type DepthHinter interface {
	// DepthHint is the largest remoteness the space expects.
	DepthHint() uint64
}

// StartWidth is the number of bytes per value a search of sp starts with: enough for
// its DepthHint if it has one (and it is below DepthBound), else for DepthBound.
func StartWidth(sp Space) (int, error) {
	bound := sp.DepthBound()
	if h, ok := sp.(DepthHinter); ok {
		bound = min(bound, h.DepthHint())
	}
	return builder.WidthFor(bound)
}

// MemoryEstimate is the peak memory a BFS over sp needs, in bytes: the values (at the
// width the search starts with, see StartWidth), the visited bitset, two frontier bitsets
// and the frontier lists (at most one bitset's worth before the frontier switches to a
// bitset).
func MemoryEstimate(sp Space) (uint64, error) {
	w, err := StartWidth(sp)
	if err != nil {
		return 0, err
	}
	n := sp.Slots()
	if n > math.MaxUint64/8 {
		return math.MaxUint64, nil
	}
	return n*uint64(w) + 4*(n/8+8), nil
}
