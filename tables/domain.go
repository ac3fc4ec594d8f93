package tables

import "github.com/tablesmith/tablesmith/games"

// The interfaces below are what the lookup needs of a game instance (the value the game
// registry's Open returns). Game packages satisfy them structurally.

// Domain turns states in the game's notation into slots.
type Domain interface {
	// Slots is the number of slots of the index scheme; it must equal the table's.
	Slots() uint64
	// Slot parses state and returns its slot. ok is false when the state is valid but the
	// scheme has no slot for it (e.g. the other parity class under a parity-halved rank).
	// A malformed state is an error naming the problem. The game may canonicalise the state
	// (e.g. Hanoi's peg symmetry) before ranking.
	Slot(state string) (slot uint64, ok bool, err error)
	// Normalize returns state in the table's canonical spelling of the notation
	// (e.g. "1 2 3 …" → "123…" for the 8-puzzle), keeping the user's labels.
	Normalize(state string) (string, error)
	// StateOf returns a state of slot in the notation (for messages); ok is false for a
	// hole.
	StateOf(slot uint64) (state string, ok bool)
}

// SlotSpeller is games.SlotSpeller: Table.Lookup uses it where a domain offers it.
type SlotSpeller = games.SlotSpeller

// PuzzleDomain is a puzzle's domain: the moves, to walk shortest paths and check values.
type PuzzleDomain interface {
	Domain
	// Neighbors returns the states one legal move away from state, in the user's own
	// labels (no symmetry canonicalisation) and already in Normalize's spelling, in a
	// fixed order: the path walk looks them up without normalising them again.
	Neighbors(state string) ([]string, error)
	// IsGoal reports whether state is a goal state.
	IsGoal(state string) (bool, error)
	// Goals are the slots of the goal states.
	Goals() []uint64
	// NewExpander returns a function for one goroutine that appends to dst the slots
	// adjacent to every slot in src (holes have none).
	NewExpander() func(dst, src []uint64) []uint64
	// IsHole reports whether slot is no state.
	IsHole(slot uint64) bool
}

// PDBDomain is a pattern-database group's domain.
type PDBDomain interface {
	Domain
	// EntryMD is the Manhattan distance of the group's tiles in entry e's placement.
	EntryMD(e uint64) int
	// GoalEntry is the entry of the goal placement.
	GoalEntry() uint64
	// NewMoves returns, for one goroutine, a function giving entry e's Manhattan distance
	// and the entries one group-tile move away, bit 63 set on those after which the cells
	// free of group tiles form one region (see slide.PDBGroup.NewMoves).
	NewMoves() func(e uint64, dst []uint64) (md int, moves []uint64)
}

// Prober is games.Prober: typed probes use it.
type Prober[S any] = games.Prober[S]
