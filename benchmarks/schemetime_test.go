package benchmarks

import (
	"math/rand/v2"
	"testing"

	"github.com/tablesmith/tablesmith/index"
)

func TestTimeHelpers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, name := range index.Names() {
		s, _ := index.ByName(name, 9)
		perms := make([][]uint8, 100)
		slots := make([]uint64, 100)
		for i := range perms {
			p := []uint8{0, 1, 2, 3, 4, 5, 6, 7, 8}
			rng.Shuffle(len(p), func(a, b int) { p[a], p[b] = p[b], p[a] })
			perms[i] = p
			slots[i] = rng.Uint64N(s.Size())
		}
		if d := TimeRank(s, perms, 2); d <= 0 {
			t.Errorf("%s: TimeRank = %v", name, d)
		}
		if d := TimeUnrank(s, slots, 2); d <= 0 {
			t.Errorf("%s: TimeUnrank = %v", name, d)
		}
		if a := testing.AllocsPerRun(10, func() { TimeRank(s, perms, 3) }); a != 0 {
			t.Errorf("%s: TimeRank: %v allocations", name, a)
		}
	}
}
