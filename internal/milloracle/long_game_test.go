//go:build long

package milloracle

import (
	"bytes"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestLongGame solves the n-stone game (MILLORACLE_GAME_N; 4 when unset and
// TABLESMITH_HUGE=1, skipped otherwise), logs the value of the empty board, the
// positions solved and reached at each ply and the statistics of every ply's
// sectors, and checks random placement positions of every table against the
// definition and the board symmetries, random moving-phase positions against
// the definition and the symmetries, White's moving tables against Black's,
// and table 3-3 against Solve(6)'s.
func TestLongGame(t *testing.T) {
	n := 0
	if os.Getenv("TABLESMITH_HUGE") == "1" {
		n = 4
	}
	if s := os.Getenv("MILLORACLE_GAME_N"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("MILLORACLE_GAME_N=%q: %v", s, err)
		}
	}
	if n == 0 {
		t.Skip("the 4-stone game takes about half an hour: set TABLESMITH_HUGE=1 or MILLORACLE_GAME_N")
	}
	start := time.Now()
	g, err := SolveGame(n, func(format string, args ...any) {
		if testing.Verbose() {
			t.Logf("%8v "+format, append([]any{time.Since(start).Round(time.Second)}, args...)...)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	moving, placement, search := g.Elapsed()
	v, rem := g.Start()
	t.Logf("%d stones: the empty board is a %v in %d; moving phase %v, placement %v, search %v",
		n, v, rem, moving.Round(time.Second), placement.Round(time.Second), search.Round(time.Second))
	// The values measured (doc.go): a regression check, not an outside one.
	if want := map[int]struct {
		v   Value
		rem int
	}{3: {Win, 23}, 4: {Draw, 0}}[n]; (n == 3 || n == 4) && (v != want.v || rem != want.rem) {
		t.Errorf("the empty board of the %d-stone game: %v %d, measured before %v %d", n, v, rem, want.v, want.rem)
	}
	for _, l := range g.Levels() {
		t.Logf("ply %d: hands %d-%d, %d positions solved, %d reached, %v",
			l.Ply, l.WhiteHand, l.BlackHand, l.Covered, l.Reachable, l.Elapsed.Round(time.Millisecond))
		for _, s := range g.PlyStats(l.Ply) {
			t.Logf("  %v", s)
		}
	}
	rng := rand.New(rand.NewPCG(13, 14))
	checkStart := time.Now()
	const perTable = 20000
	for k := range 2 * n {
		for w := range g.place[k] {
			for b := range g.place[k][w] {
				if g.place[k][w][b] == nil {
					continue
				}
				bad := 0
				check := func(white, black uint32) {
					if bad < 5 && !checkGamePosition(t, g, white, black, k) {
						bad++
					}
				}
				if binom[NumPoints][w]*binom[NumPoints-w][b] <= perTable {
					forEachPosition(w, b, check)
					continue
				}
				for range perTable {
					check(randomMasks(rng, w, b))
				}
			}
		}
	}
	t.Logf("placement checks in %v", time.Since(checkStart).Round(time.Second))
	checkStart = time.Now()
	r := g.Moving()
	for mover := 3; mover <= n; mover++ {
		for opp := 3; opp <= n; opp++ {
			checkColourSymmetry(t, r, mover, opp)
			checkBoardSymmetry(t, r, mover, opp, 20000, rng)
			checkConsistency(t, r, mover, opp, 100000, rng)
		}
	}
	r6, err := Solve(6)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.tables[3][3], r6.tables[3][3]) {
		t.Errorf("table 3-3 of the game differs from Solve(6)'s")
	}
	t.Logf("moving-phase checks in %v", time.Since(checkStart).Round(time.Second))
}

// randomMasks returns a random position with w white and b black stones.
func randomMasks(rng *rand.Rand, w, b int) (white, black uint32) {
	perm := rng.Perm(NumPoints)
	for _, i := range perm[:w] {
		white |= 1 << i
	}
	for _, i := range perm[w : w+b] {
		black |= 1 << i
	}
	return white, black
}
