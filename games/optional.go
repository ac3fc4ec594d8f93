package games

// The optional interfaces of puzzles and pattern databases, and of the lookup: what an
// engine or the reader uses where a game's space offers it, each found by a type
// assertion. The engines (package builder) know a space only through interfaces of their
// own, in built-in types, so that they import no game package; theirs are these, spelled
// again (pipeline's tests assert that the two are one and the same).

// Holed (optional, puzzle build) is implemented by a puzzle space that can tell whether
// its scheme leaves holes at all: when HasHoles is false, the breadth-first search counts
// every slot it did not reach as an unreachable state without asking IsHole of each.
type Holed interface{ HasHoles() bool }

// NeighbourRuns (optional, puzzle build) is implemented by a puzzle space whose expander
// lists neighbours that share a visited word next to each other (Hanoi's smallest disk):
// the search claims such a run with one atomic OR a word.
type NeighbourRuns interface{ ListsNeighbourRuns() bool }

// Reversible (optional, puzzle build) is implemented by a puzzle space whose moves can be
// undone: its expander lists, for every state, each state whose expansion lists it. A
// lean two-bit search may then find a level by pulling (each unreached state looks for a
// neighbour on the frontier).
type Reversible interface{ MovesReversible() bool }

// Sided (optional, puzzle build) is implemented by a puzzle space whose states lie on two
// sides, every move crossing from one to the other and the goals on side 0, and whose
// index scheme keeps runs of slots on one side: RunSide reports whether every state among
// the slots lo..hi-1 lies on one side, and which. A lean two-bit search then skips the
// runs of the side a level cannot be on.
type Sided interface {
	RunSide(lo, hi uint64) (side uint8, ok bool)
}

// Shifted (optional, puzzle build) is implemented by a puzzle space some of whose moves
// act on long runs of slots as one shift: every state at a slot s of [lo[i], hi[i]) has
// the state at s+delta[i] among its neighbours (all multiples of 32, so that a run's
// codes are whole words; a hole in a run is no state and has no neighbour). Slide under the lex schemes: a horizontal move keeps the tiles'
// order and moves the blank's cell, the rank's leading digit, by one. A two-bit search
// then reaches those neighbours a word of 32 slots at a time, and expands each state only
// for the rest of its moves (NewRestExpander: NewExpander less the shifts' neighbours).
type Shifted interface {
	MoveShifts() (lo, hi []uint64, delta []int64)
	NewRestExpander() func(dst, src []uint64) []uint64
}

// DepthHinter (optional, puzzle build) is implemented by a puzzle space whose DepthBound
// is a proven bound well above the remoteness it expects: the values start at the width
// the hint needs and are widened if the search goes deeper.
type DepthHinter interface{ DepthHint() uint64 }

// Expecter (optional, puzzle build) is implemented by a puzzle space that knows how many
// states are reachable, so that progress can show an ETA.
type Expecter interface{ ExpectedStates() uint64 }

// ZeroClosed (optional, pattern-database build) is implemented by a PDBBuild whose zero
// expander returns the whole closure of zero-cost moves at once: the 0-1 search then
// expands zero-cost moves only from the slots it claims by unit-cost moves.
type ZeroClosed interface{ ZeroClosed() bool }

// SlotSpeller (optional, lookup) is implemented by a Space that reads a state once for
// both its slot and its canonical spelling (Slot and Normalize in one parse).
type SlotSpeller interface {
	SlotSpelling(state string) (slot uint64, ok bool, canon string, err error)
}

// Prober (optional, lookup) is implemented by a Space that probes typed states S (a
// board, a peg vector) without going through the notation (tables.ProbeTyped).
type Prober[S any] interface {
	SlotOfState(S) (slot uint64, ok bool, err error)
	FormatState(S) string
}
