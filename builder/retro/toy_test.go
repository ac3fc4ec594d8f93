package retro

import (
	"math/rand/v2"
	"slices"

	"github.com/tablesmith/tablesmith/values"
)

// toy is a two-player game given as an explicit graph: position p moves to the positions
// succ[p] of the unit (distinct; the opponent is to move there) and to exits, positions
// outside the unit already solved, given by their value for the opponent.
type toy struct {
	succ  [][]uint64
	exits [][]exit
	preds [][]uint64 // filled by index
}

type exit struct {
	o values.Outcome // the opponent's value: Win, Loss or Draw
	r int            // its remoteness (wins odd, losses even, as in any real game)
}

// index fills preds from succ: the distinct positions that move to each.
func (g *toy) index() *toy {
	g.preds = make([][]uint64, len(g.succ))
	for p, ss := range g.succ {
		for _, s := range ss {
			g.preds[s] = append(g.preds[s], uint64(p))
		}
	}
	return g
}

func (g *toy) Slots() uint64     { return uint64(len(g.succ)) }
func (g *toy) NewWorker() Worker { return toyWorker{g} }

type toyWorker struct{ g *toy }

func (w toyWorker) Expand(lo, hi uint64, b *Batch) {
	for p := lo; p < hi; p++ {
		b.Count = append(b.Count, uint32(len(w.g.succ[p])))
		var ex values.MoveSummary
		for _, e := range w.g.exits[p] {
			ex.Add(e.o, e.r)
		}
		b.Exits = append(b.Exits, ex)
	}
}

func (w toyWorker) Preds(slots []uint64, b *Batch) {
	for _, p := range slots {
		b.Succ = append(b.Succ, w.g.preds[p]...)
		b.Close()
	}
}

// randomToy is a random game of n positions: each moves to up to maxDeg distinct
// positions of the unit (itself too: a colour-swapped twin can be its own successor) and
// to up to 3 exits, drawn with the odds given in percent. Small maxDeg and many exits
// make long chains and many draws; large ones, dense cycles.
func randomToy(rng *rand.Rand, n, maxDeg, exitPct, drawPct int) *toy {
	g := &toy{succ: make([][]uint64, n), exits: make([][]exit, n)}
	for p := range n {
		deg := rng.IntN(maxDeg + 1)
		for range deg {
			s := uint64(rng.IntN(n))
			if !slices.Contains(g.succ[p], s) {
				g.succ[p] = append(g.succ[p], s)
			}
		}
		for range 3 {
			if rng.IntN(100) >= exitPct {
				continue
			}
			switch k := rng.IntN(100); {
			case k < drawPct:
				g.exits[p] = append(g.exits[p], exit{values.Draw, 0})
			case k%2 == 0:
				g.exits[p] = append(g.exits[p], exit{values.Loss, 2 * rng.IntN(20)})
			default:
				g.exits[p] = append(g.exits[p], exit{values.Win, 1 + 2*rng.IntN(20)})
			}
		}
	}
	return g.index()
}

// oracle solves g independently of the engine: by remoteness t = 0, 1, 2, ... it applies
// the combining rule (values.MoveSummary) to every undecided position over its exits and
// the successors decided below t, and decides at t the positions whose value that makes
// final at t: a win in t (a move to a loss in t-1, none lower being known), or a loss in
// t (every move known, all to wins, the longest in t-1). Positions never decided are
// draws. Nothing is shared with Solve but the rule.
func oracle(g *toy) (o []values.Outcome, r []int) {
	n := len(g.succ)
	o, r = make([]values.Outcome, n), make([]int, n)
	known := make([]bool, n)
	bound := 2*n + 2
	for p := range n {
		for _, e := range g.exits[p] {
			bound = max(bound, e.r+2*n+2)
		}
	}
	for t := 0; t <= bound; t++ {
		type dec struct {
			p int
			o values.Outcome
		}
		var decs []dec
		for p := range n {
			if known[p] {
				continue
			}
			var s values.MoveSummary
			complete := true
			for _, e := range g.exits[p] {
				s.Add(e.o, e.r)
			}
			for _, q := range g.succ[p] {
				if known[q] {
					s.Add(o[q], r[q])
				} else {
					complete = false
				}
			}
			if s.WinIn == t && t > 0 {
				decs = append(decs, dec{p, values.Win})
			} else if vo, vr := s.Value(); complete && vo == values.Loss && vr == t {
				decs = append(decs, dec{p, values.Loss})
			}
		}
		for _, d := range decs {
			known[d.p], o[d.p], r[d.p] = true, d.o, t
		}
	}
	for p := range n {
		if !known[p] {
			o[p] = values.Draw
		}
	}
	return o, r
}
