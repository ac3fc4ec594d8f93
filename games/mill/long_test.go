//go:build long

package mill_test

import (
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/games/mill"
)

// The long checks (make test-long, build tag `long`): every slot of every sector with at
// most 12 stones, 1.1·10^9 slots (about 3 minutes on two cores); with TABLESMITH_HUGE=1
// (make test-huge) all 49 sectors, 8.9·10^9 slots (about 21 minutes, too long for CI).
// TestRankAllSlots, TestRankRandom and TestDuality also check more under the tag.

// TestLongEverySlot checks on every slot of every sector that Unrank gives a canonical
// position of the sector (by the sector's own Canonical) that ranks back to the slot.
func TestLongEverySlot(t *testing.T) {
	workers := runtime.GOMAXPROCS(0)
	maxStones := 12
	if os.Getenv("TABLESMITH_HUGE") == "1" {
		maxStones = 18
	}
	for _, sc := range sectors(maxStones) {
		start := time.Now()
		s := mustSector(t, sc.w, sc.b)
		n := s.Slots()
		var wg sync.WaitGroup
		errs := make(chan string, workers)
		for k := range workers {
			wg.Go(func() {
				for slot := n * uint64(k) / uint64(workers); slot < n*uint64(k+1)/uint64(workers); slot++ {
					own, opp := s.Unrank(slot)
					if co, cp := s.Canonical(own, opp); co != own || cp != opp || s.Rank(own, opp) != slot {
						errs <- sc.String() + ": slot unranks to " + mill.FromOwnOpp(own, opp, mill.White).String() +
							", which is not canonical or ranks elsewhere"
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
		t.Logf("sector %v: %d slots in %v", sc, n, time.Since(start).Round(time.Millisecond))
	}
}
