package builder

import "time"

// Progress is a snapshot of a running level-synchronous search (builder/bfs or
// builder/zeroone), as handed to the Progress callback of their Options. It lives here,
// not in either engine, because the callers show both the same way.
type Progress struct {
	Level   int           // the level being expanded
	Reached uint64        // states with a known remoteness so far (zeroone: entries with a value)
	Base    uint64        // of those, the states known when this run started (from a checkpoint)
	Expect  uint64        // expected number of reachable states (0: unknown; zeroone: all entries)
	Slots   uint64        // size of the slot space (zeroone: the number of entries)
	Elapsed time.Duration // since the search started
	Done    bool          // the search has ended
}
