package pipeline

import (
	"fmt"
	"github.com/tablesmith/tablesmith/internal/humanize"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/builder/levellog"
	"github.com/tablesmith/tablesmith/internal/sysmem"
)

// checkMemory refuses a build that needs more than the machine has available, before
// anything is allocated. (Value arrays live outside the Go heap, see bigmem.Alloc in builder/internal,
// so the collector's pacing needs no memory limit.)
func checkMemory(need, slots uint64) error {
	if avail := sysmem.Current(); avail.Bytes > 0 && need > avail.Bytes {
		return fmt.Errorf("build: the search needs about %s of memory for %d slots; this process may use %s",
			humanize.Bytes(min(need, 1<<62)), slots, avail)
	}
	return nil
}

// CheckSearchMemory refuses a breadth-first search over sp that would not fit in the
// memory available, before anything is allocated.
func CheckSearchMemory(sp bfs.Space) error { return checkSearchMemory(sp, false) }

// checkSearchMemory is CheckSearchMemory for a search that logs its levels or not.
func checkSearchMemory(sp bfs.Space, logged bool) error {
	need, err := bfs.MemoryEstimate(sp)
	if err != nil {
		return err
	}
	if logged {
		need += levellog.MemoryEstimate(sp.Slots())
	}
	return checkMemory(need, sp.Slots())
}
