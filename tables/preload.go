package tables

import (
	"context"
	"fmt"

	"github.com/tablesmith/tablesmith/internal/humanize"
	"github.com/tablesmith/tablesmith/internal/sysmem"
)

// Preload decodes the whole table into memory before any lookup (format's Preload), on
// up to workers goroutines: a process that will answer many lookups (a query stream, a
// server) then answers each at its warm speed from the first, where a two-bit table's
// descent would otherwise decode a block at nearly every move of its first thousands of
// answers. The cache budget is raised to hold the table decoded (never lowered); a table whose codes
// decoded would take more than half the memory available is refused before any work,
// saying how much it needs. progress, if set, is called with the blocks decoded so far.
func (t *Table) Preload(ctx context.Context, workers int, progress func(done, total uint64)) error {
	if err := t.opened(); err != nil {
		return err
	}
	need := t.r.DecodedBytes()
	if avail := sysmem.Available(); avail > 0 && uint64(need) > avail/2 { // 0: unknown, no check
		return fmt.Errorf("preloading %s: its codes decoded take %s, more than half of the %s of memory available; drop the preload (blocks are then decoded as lookups read them), or use a machine with more memory",
			t.path, humanize.Bytes(uint64(need)), humanize.Bytes(avail))
	}
	if t.r.CacheBytes() < need { // never lowered: a budget that held more keeps it
		t.r.SetCacheBytes(need)
	}
	return t.r.Preload(ctx, workers, progress)
}
