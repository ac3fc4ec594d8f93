package hanoi

import (
	"context"
	"fmt"
	"testing"

	"github.com/tablesmith/tablesmith/builder/bfs"
)

// TestBFSEveryWorkerCountMatchesOracle runs the builder's search (every level mode and
// claim) over every small size and scheme with 1, 2, 3 and 7 workers and compares each
// state's remoteness with the oracle's, and the holes with IsHole.
func TestBFSEveryWorkerCountMatchesOracle(t *testing.T) {
	t.Parallel()
	for _, kn := range small() {
		k, n := kn[0], kn[1]
		want := oracleDistances(k, n)
		for _, index := range SchemeNames() {
			sp := mustSpace(t, k, n, index)
			var holes uint64
			for s := uint64(0); s < sp.Slots(); s++ {
				if sp.IsHole(s) {
					holes++
				}
			}
			for _, workers := range []int{1, 2, 3, 7} {
				for _, batch := range []int{1, 5, 1024} {
					name := fmt.Sprintf("k%d n%d %s w%d b%d", k, n, index, workers, batch)
					res, err := bfs.Search(context.Background(), sp, bfs.Options{Workers: workers, Batch: batch})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if res.Holes != holes || res.Unreachable != 0 || res.Reached+holes != sp.Slots() {
						t.Fatalf("%s: reached %d holes %d (want %d) unreachable %d", name, res.Reached, res.Holes, holes, res.Unreachable)
					}
					var sum uint64
					for _, c := range res.Counts {
						sum += c
					}
					if sum != res.Reached {
						t.Fatalf("%s: counts sum %d reached %d", name, sum, res.Reached)
					}
					x := 0
					forEachState(k, n, func(st []uint8) {
						if g := res.Values.Get(sp.Rank(st)); g != uint64(want[x]) {
							t.Fatalf("%s: state %s: %d, oracle %d", name, Format(st), g, want[x])
						}
						x++
					})
					for s := uint64(0); s < sp.Slots(); s++ {
						if sp.IsHole(s) != (res.Values.Get(s) == res.Values.Hole()) {
							t.Fatalf("%s: slot %d hole mismatch", name, s)
						}
					}
				}
			}
		}
	}
}
