package retro

// A stress test of the engine where wins and losses come at any parity (exits of any
// remoteness, positions won, lost or drawn by the rules), against the definition computed
// depth by depth over every position (rvOracle, sharing nothing with the engine), with
// 1, 3 and 8 workers and chunks from 1 slot to the default. It found no fault when written
// (by a review of the engine's terminal values); it keeps the race between a win due at a
// depth and a loss decided there (setWin) exercised: over a thousand such cases.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/values"
)

type rvGame struct {
	succ  [][]uint64
	exits [][]exit // any parity
	over  map[uint64]values.Outcome
	preds [][]uint64
}

func (g *rvGame) Slots() uint64     { return uint64(len(g.succ)) }
func (g *rvGame) NewWorker() Worker { return rvWorker{g} }

type rvWorker struct{ g *rvGame }

func (w rvWorker) Expand(lo, hi uint64, b *Batch) {
	for p := lo; p < hi; p++ {
		if o, ok := w.g.over[p]; ok {
			b.Over = append(b.Over, Over{At: int(p - lo), Outcome: o})
		}
		b.Count = append(b.Count, uint32(len(w.g.succ[p])))
		var ex values.MoveSummary
		for _, e := range w.g.exits[p] {
			ex.Add(e.o, e.r)
		}
		b.Exits = append(b.Exits, ex)
	}
}

func (w rvWorker) Preds(slots []uint64, b *Batch) {
	for _, p := range slots {
		b.Succ = append(b.Succ, w.g.preds[p]...)
		b.Close()
	}
}

func rvRandom(rng *rand.Rand, n, maxDeg, exitPct, overPct int, longChain bool) *rvGame {
	g := &rvGame{succ: make([][]uint64, n), exits: make([][]exit, n), over: map[uint64]values.Outcome{}}
	for p := range n {
		if rng.IntN(100) < overPct {
			g.over[uint64(p)] = []values.Outcome{values.Win, values.Loss, values.Draw}[rng.IntN(3)]
			continue
		}
		deg := rng.IntN(maxDeg + 1)
		for range deg {
			var s uint64
			if longChain && rng.IntN(2) == 0 && p+1 < n {
				s = uint64(p + 1)
			} else {
				s = uint64(rng.IntN(n))
			}
			if !slices.Contains(g.succ[p], s) {
				g.succ[p] = append(g.succ[p], s)
			}
		}
		for range 3 {
			if rng.IntN(100) >= exitPct {
				continue
			}
			switch k := rng.IntN(100); {
			case k < 15:
				g.exits[p] = append(g.exits[p], exit{values.Draw, 0})
			case k%2 == 0:
				g.exits[p] = append(g.exits[p], exit{values.Loss, rng.IntN(12)})
			default:
				g.exits[p] = append(g.exits[p], exit{values.Win, rng.IntN(12)})
			}
		}
	}
	g.preds = make([][]uint64, n)
	for p, ss := range g.succ {
		for _, s := range ss {
			g.preds[s] = append(g.preds[s], uint64(p))
		}
	}
	return g
}

// rvOracle: the definition, depth after depth, sharing nothing with the engine.
func rvOracle(g *rvGame) (win []bool, rem []int) {
	n := len(g.succ)
	win, rem = make([]bool, n), make([]int, n)
	for i := range rem {
		rem[i] = -1
	}
	quiet := 0
	for d := 0; quiet < 3; d++ {
		type dec struct {
			p   int
			win bool
		}
		var decs []dec
		for p := range n {
			if rem[p] >= 0 {
				continue
			}
			if o, ok := g.over[uint64(p)]; ok {
				if d == 0 && o != values.Draw {
					decs = append(decs, dec{p, o == values.Win})
				}
				continue
			}
			w, all, slowest, moves := false, true, -1, 0
			for _, e := range g.exits[p] {
				moves++
				switch e.o {
				case values.Loss:
					w = w || e.r == d-1
				case values.Win:
					slowest = max(slowest, e.r)
				default:
					all = false
				}
			}
			for _, q := range g.succ[p] {
				moves++
				if rem[q] < 0 {
					all = false
					continue
				}
				if !win[q] {
					w = w || rem[q] == d-1
				} else {
					slowest = max(slowest, rem[q])
				}
			}
			// a win at d only if no quicker win exists: quicker would have been decided earlier
			if d > 0 && w {
				decs = append(decs, dec{p, true})
			} else if moves == 0 && d == 0 {
				decs = append(decs, dec{p, false})
			} else if moves > 0 && all && slowest == d-1 {
				// every move known & a win for the opponent; but must not contain a loss (would be a win earlier)
				hasLoss := false
				for _, q := range g.succ[p] {
					if !win[q] {
						hasLoss = true
					}
				}
				for _, e := range g.exits[p] {
					if e.o == values.Loss {
						hasLoss = true
					}
				}
				if !hasLoss {
					decs = append(decs, dec{p, false})
				}
			}
		}
		for _, x := range decs {
			win[x.p], rem[x.p] = x.win, d
		}
		if len(decs) == 0 && d > 14 {
			quiet++
		} else {
			quiet = 0
		}
	}
	return
}

func TestSolveAnyParityAgainstDefinition(t *testing.T) {
	bad, seeds := 0, 400
	if testing.Short() {
		seeds = 40
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 99))
		n := 1 + rng.IntN(1500)
		maxDeg := []int{1, 2, 3, 6}[seed%4]
		g := rvRandom(rng, n, maxDeg, 10+rng.IntN(60), rng.IntN(20), seed%3 == 0)
		win, rem := rvOracle(g)
		for _, workers := range []int{1, 3, 8} {
			for _, chunk := range []int{1, 7, 100, 512, 0} {
				res, err := Solve(context.Background(), g, Options{Workers: workers, Chunk: chunk})
				if err != nil {
					t.Fatal(err)
				}
				for p := range g.Slots() {
					want := uint16(0)
					if rem[p] >= 0 {
						want = uint16(rem[p] + 1)
					}
					if res.Depth(p) != want || (want != 0 && res.Won(p) != win[p]) {
						bad++
						if bad < 10 {
							t.Errorf("%s: p %d: got depth %d won %v, want %d won %v (succ %v exits %v over %v)",
								fmt.Sprintf("seed %d n %d w %d c %d", seed, n, workers, chunk), p, res.Depth(p), res.Won(p), want, win[p], g.succ[p], g.exits[p], g.over[p])
						}
						break
					}
				}
			}
		}
	}
}
