package builder

import (
	"time"

	"github.com/tablesmith/tablesmith/internal/parallel"
)

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

// Report starts reporting a search's progress to report every every (0: the ticker's
// default), the snapshot now returns with Expect filled in from sp where it knows how many
// states are reachable (ExpectedStates) and Done set on the last report; the returned func
// stops it and sends that last report. It does nothing for a nil report.
func Report(report func(Progress), every time.Duration, sp any, now func() Progress) func() {
	if report == nil {
		return func() {}
	}
	var expect uint64
	if e, ok := sp.(interface{ ExpectedStates() uint64 }); ok {
		expect = e.ExpectedStates()
	}
	return parallel.Tick(every, func(final bool) {
		p := now()
		p.Expect, p.Done = expect, final
		report(p)
	})
}
