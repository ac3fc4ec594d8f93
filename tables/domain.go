package tables

// Domain is what a lookup needs of a game together with its index scheme: turn a state
// written in the game's notation into a slot, and list a state's neighbours so that a
// shortest path can be walked down the table. Game packages satisfy it structurally (its
// methods use only built-in types), so they need not import this package.
type Domain interface {
	// Slots is the number of slots of the index scheme; it must equal the table's.
	Slots() uint64
	// Slot parses state and returns its slot. ok is false when the state is valid but the
	// scheme has no slot for it (e.g. the other parity class under a parity-halved rank).
	// A malformed state is an error naming the problem. The game may canonicalise the state
	// (e.g. Hanoi's peg symmetry) before ranking.
	Slot(state string) (slot uint64, ok bool, err error)
	// Neighbors returns the states one legal move away from state, in the user's own
	// labels (no symmetry canonicalisation) and already in Normalize's spelling, in a
	// fixed order: the path walk looks them up without normalising them again.
	Neighbors(state string) ([]string, error)
	// Normalize returns state in the table's canonical spelling of the notation
	// (e.g. "1 2 3 …" → "123…" for the 8-puzzle), keeping the user's labels.
	Normalize(state string) (string, error)
	// IsGoal reports whether state is a goal state.
	IsGoal(state string) (bool, error)
}
