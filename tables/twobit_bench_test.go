package tables_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/tablesmith/tablesmith/tables"
)

// BenchmarkTwoBitLookup measures the warm lookup of random states of the two-bit table
// named by $TS_TWOBIT_TABLE (skipped without it): remoteness by descent, and the path,
// warm (see the warming below).
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
		r := tab.Reader()
		buf := make([]uint32, r.SlotsPerBlock())
		for s := uint64(0); s < dom.Slots(); s += uint64(len(buf)) {
			r.Codes(buf[:min(uint64(len(buf)), dom.Slots()-s)], s)
		}
	}
	for _, name := range []string{"remoteness", "path"} {
		b.Run(name, func(b *testing.B) {
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
