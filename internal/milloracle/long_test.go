//go:build long

package milloracle

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestLongSectors solves every sector with at most 7 stones in all (`make
// test-long`), or 8 with TABLESMITH_HUGE=1 (`make test-huge`: about 35 minutes
// on two cores, too long for CI; MILLORACLE_MAX_STONES overrides the bound) and
// logs, per sector, the raw and the class counts of wins, losses and draws and
// the longest win and loss. It checks every sector's values against the
// definition on random positions, against the board symmetries, and White's
// tables against Black's. About 665 MB of tables for 8 stones.
func TestLongSectors(t *testing.T) {
	maxStones := 7
	if os.Getenv("TABLESMITH_HUGE") == "1" {
		maxStones = 8
	}
	if s := os.Getenv("MILLORACLE_MAX_STONES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("MILLORACLE_MAX_STONES=%q: %v", s, err)
		}
		maxStones = n
	}
	start := time.Now()
	r, err := SolveLog(maxStones, func(format string, args ...any) {
		if testing.Verbose() {
			t.Logf("%8v "+format, append([]any{time.Since(start).Round(time.Second)}, args...)...)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("solved up to %d stones in %v", maxStones, time.Since(start).Round(time.Second))
	for _, ti := range r.Tables() {
		t.Logf("table %d white %d black: %d rounds, %v", ti.White, ti.Black, ti.Rounds, ti.Elapsed.Round(time.Second))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for total := 6; total <= maxStones; total++ {
		for mover := 3; mover <= total-3; mover++ {
			opp := total - mover
			raw, err := r.RawStats(mover, opp)
			if err != nil {
				t.Fatal(err)
			}
			classes, err := r.ClassStats(mover, opp)
			if err != nil {
				t.Fatal(err)
			}
			black, err := r.classStats(mover, opp, false)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("raw     %v", raw)
			t.Logf("classes %v", classes)
			if black != classes {
				t.Errorf("sector %d-%d: classes with Black to move %v", mover, opp, black)
			}
			checkColourSymmetry(t, r, mover, opp)
			checkBoardSymmetry(t, r, mover, opp, 20000, rng)
			checkConsistency(t, r, mover, opp, 100000, rng)
		}
	}
	if maxStones >= 6 {
		got, _ := r.ClassStats(3, 3)
		want := Stats{Mover: 3, Opp: 3, Positions: 169626, Wins: 140621, Losses: 28736, Draws: 269, MaxWin: 25, MaxLoss: 26}
		if got != want {
			t.Errorf("sector 3-3: %v, want %v", got, want)
		}
	}
}
