//go:build long

package hanoi_test

import (
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/games/hanoi"
)

// The long checks (make test-long, build tag `long`): full builds of the large
// sizes. 3 pegs × 20 disks needs about 6 GiB (3-byte values for 1.7·10^9 classes).

// TestLongThreePegRandom builds the classes scheme for 3 pegs up to 20 disks and checks
// random states in the user's labels against the closed form.
func TestLongThreePegRandom(t *testing.T) {
	// The values of 20 disks take 5.2 GB; without a limit the garbage of the frontier
	// lists lets the heap grow to twice that before the collector runs.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(7 << 30))
	for _, n := range []int{12, 14, 16, 18, 20} {
		t.Run("n"+strconv.Itoa(n), func(t *testing.T) {
			start := time.Now()
			sp, res := build(t, 3, n, hanoi.SchemeClasses)
			t.Logf("3 pegs × %d disks: %d classes in %v", n, sp.Slots(), time.Since(start).Round(time.Millisecond))
			checkCounts(t, sp, res)
			if got := res.MaxRemoteness(); got != 1<<n-1 {
				t.Errorf("largest remoteness %d, want %d", got, 1<<n-1)
			}
			r := rand.New(rand.NewPCG(uint64(n), 20))
			st := make([]uint8, n)
			for range 100_000 {
				for d := range st {
					st[d] = uint8(r.IntN(3))
				}
				if got, want := res.Values.Get(sp.Rank(st)), hanoi.ThreePegDistance(st); got != want {
					t.Fatalf("state %s: remoteness %d, closed form %d", hanoi.Format(st), got, want)
				}
			}
			res = nil
			runtime.GC()
		})
	}
}

// TestLongFourPegs builds 4 pegs × 15 and 16 disks: the standard start is the
// Frame–Stewart number of moves from the goal (129 and 161), and every class is reached.
func TestLongFourPegs(t *testing.T) {
	for _, c := range []struct {
		n    int
		want uint64
	}{{15, 129}, {16, 161}} {
		n, want := c.n, c.want
		start := time.Now()
		sp, res := build(t, 4, n, hanoi.SchemeClasses)
		t.Logf("4 pegs × %d disks: %d classes in %v, largest remoteness %d", n, sp.Slots(),
			time.Since(start).Round(time.Millisecond), res.MaxRemoteness())
		checkCounts(t, sp, res)
		if got := res.Values.Get(sp.Rank(make([]uint8, n))); got != want {
			t.Errorf("4 pegs × %d disks: standard start remoteness %d, Frame–Stewart %d", n, got, want)
		}
	}
}
