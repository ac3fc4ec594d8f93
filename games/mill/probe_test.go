package mill

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestSectorLeaderCounts checks the leader counts of every board (0 to 9 stones a side)
// against the classes of the board counted by Burnside over the whole board: the slots
// of a sector are its classes.
func TestSectorLeaderCounts(t *testing.T) {
	for w := 0; w <= MaxStones; w++ {
		for b := 0; b <= MaxStones; b++ {
			if s := newSector(w, b); s.Slots() != ClassCount(w, b) {
				t.Errorf("board %d-%d: %d slots, %d classes", w, b, s.Slots(), ClassCount(w, b))
			}
		}
	}
}

// TestProbeSectorMatchesWhole checks that a sector marking its classes on demand ranks,
// unranks and walks exactly as the sector built whole, probed from several goroutines
// at once in random order (run with -race), on every moving-phase sector and the small
// boards of the placement phase.
func TestProbeSectorMatchesWhole(t *testing.T) {
	type board struct{ w, b int }
	var boards []board
	for w := 0; w <= MaxStones; w++ {
		for b := 0; b <= MaxStones; b++ {
			if testing.Short() && w+b > 12 {
				continue
			}
			boards = append(boards, board{w, b})
		}
	}
	probes := 3000
	if testing.Short() {
		probes = 300
	}
	for _, bd := range boards {
		whole, lazy := boardSector(bd.w, bd.b), newProbeSector(bd.w, bd.b)
		if lazy.Slots() != whole.Slots() {
			t.Fatalf("board %d-%d: %d slots on demand, %d whole", bd.w, bd.b, lazy.Slots(), whole.Slots())
		}
		var wg sync.WaitGroup
		errs := make(chan string, 4)
		for g := range 4 {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(bd.w*10+bd.b), uint64(g)))
				for range probes {
					own, opp := randomBoard(r, bd.w, bd.b)
					if got, want := lazy.Rank(own, opp), whole.Rank(own, opp); got != want {
						errs <- fmt.Sprintf("board %d-%d: Rank(%#x, %#x) = %d on demand, %d whole", bd.w, bd.b, own, opp, got, want)
						return
					}
					slot := r.Uint64N(whole.Slots())
					if slot >= whole.flat && r.IntN(2) == 0 { // the bitmap's part is small: probe it often
						slot = whole.flat + r.Uint64N(whole.Slots()-whole.flat)
					}
					lo, lp := lazy.Unrank(slot)
					if wo, wp := whole.Unrank(slot); lo != wo || lp != wp {
						errs <- fmt.Sprintf("board %d-%d: Unrank(%d) = %#x, %#x on demand, %#x, %#x whole", bd.w, bd.b, slot, lo, lp, wo, wp)
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
		// Walks across class boundaries, from a seek anywhere.
		r := rand.New(rand.NewPCG(uint64(bd.w), uint64(bd.b)))
		for range 4 {
			lo := r.Uint64N(whole.Slots())
			if whole.Slots() > whole.flat {
				lo = whole.flat + r.Uint64N(whole.Slots()-whole.flat)
			}
			hi := min(whole.Slots(), lo+5000)
			next, stop := iter.Pull2(whole.positions(lo, hi))
			slot := lo
			for own, opp := range newProbeSector(bd.w, bd.b).positions(lo, hi) {
				wo, wp, ok := next()
				if !ok || own != wo || opp != wp {
					t.Fatalf("board %d-%d: slot %d walks to %#x, %#x on demand, %#x, %#x whole", bd.w, bd.b, slot, own, opp, wo, wp)
				}
				slot++
			}
			stop()
		}
	}
}

// randomBoard returns w own and b opponent stones on random points.
func randomBoard(r *rand.Rand, w, b int) (own, opp uint32) {
	perm := r.Perm(Points)
	for _, p := range perm[:w] {
		own |= 1 << p
	}
	for _, p := range perm[w : w+b] {
		opp |= 1 << p
	}
	return own, opp
}
