package tables_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/tablesmith/tablesmith/tables"
)

// BenchmarkTwoBitLookup measures the warm lookup of random states of the two-bit table
// named by $TS_TWOBIT_TABLE (skipped without it): remoteness by descent, and the path,
// warm (see the warming below), with the descent's look-ahead tree capped at 6 nodes
// (the default), 1 (a step of one move), 4 and 10.
func BenchmarkTwoBitLookup(b *testing.B) {
	path := os.Getenv("TS_TWOBIT_TABLE")
	if path == "" {
		b.Skip("set TS_TWOBIT_TABLE to a two-bit table")
	}
	tab, err := tables.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer tab.Close()
	tab.Reader().SetCacheBytes(int64(tab.Info().Bytes) * 3)
	dom := tab.Domain()
	rng := rand.New(rand.NewPCG(1, 2))
	states := make([]string, 4096)
	for i := range states {
		s, _ := dom.StateOf(rng.Uint64N(dom.Slots()))
		states[i] = s
	}
	// Warm: every block decoded once, or (TS_TWOBIT_WARM=states, for a table too large to
	// hold decoded whole) the blocks the states' own lines read, each line walked once.
	if os.Getenv("TS_TWOBIT_WARM") == "states" {
		for _, st := range states {
			if _, err := tab.Path(st); err != nil {
				b.Fatal(err)
			}
		}
	} else {
		// One code a block: Code caches the block it decodes (Codes of whole blocks would
		// not, by design: a scan does not evict a lookup's blocks).
		r := tab.Reader()
		for s := uint64(0); s < dom.Slots(); s += uint64(r.SlotsPerBlock()) {
			if _, err := r.Code(s); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, name := range []string{"remoteness", "path"} {
		for _, tree := range []int{6, 1, 4, 10} {
			b.Run(fmt.Sprintf("%s/tree=%d", name, tree), func(b *testing.B) {
				defer tables.SetDescentTreeNodes(tree)()
				var moves int
				i := 0
				for b.Loop() {
					st := states[i%len(states)]
					i++
					if name == "path" {
						p, err := tab.Path(st)
						if err != nil {
							b.Fatal(err)
						}
						moves += len(p) - 1
						continue
					}
					a, err := tab.Lookup(st)
					if err != nil {
						b.Fatal(err)
					}
					moves += a.Remoteness
				}
				b.ReportMetric(float64(moves)/float64(b.N), "moves/query")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
			})
		}
	}
}
