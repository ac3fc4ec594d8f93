package retro

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/values"
)

// check solves g with opt and compares every position, and the counts, with the oracle.
func check(t *testing.T, name string, g *toy, opt Options) *Result {
	t.Helper()
	res, err := Solve(context.Background(), g, opt)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	o, r := oracle(g)
	var wins, losses, draws uint64
	maxWin, maxLoss := -1, -1
	for p := range g.Slots() {
		var want uint16
		switch o[p] {
		case values.Win:
			want = uint16(r[p] + 1)
			wins++
			maxWin = max(maxWin, r[p])
		case values.Loss:
			want = uint16(r[p] + 1)
			losses++
			maxLoss = max(maxLoss, r[p])
		default:
			draws++
		}
		if got := res.Depth(p); got != want {
			t.Fatalf("%s: position %d (moves %v, exits %v): depth %d, the oracle says %v in %d (depth %d)",
				name, p, g.succ[p], g.exits[p], got, o[p], r[p], want)
		}
	}
	if res.Wins != wins || res.Losses != losses || res.Draws != draws || res.MaxWin != maxWin || res.MaxLoss != maxLoss {
		t.Fatalf("%s: counts %d/%d/%d max %d/%d, want %d/%d/%d max %d/%d", name, res.Wins, res.Losses, res.Draws,
			res.MaxWin, res.MaxLoss, wins, losses, draws, maxWin, maxLoss)
	}
	if res.Slots() != g.Slots() {
		t.Fatalf("%s: %d slots, want %d", name, res.Slots(), g.Slots())
	}
	return res
}

// TestSolveSmallGames: games whose values are known by hand.
func TestSolveSmallGames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		g     *toy
		depth []uint16
	}{
		{"empty", &toy{}, nil},
		// 0 has no move: lost at 0; 1 moves to 0: won in 1; 2 moves to 1: lost in 2.
		{"chain", &toy{succ: [][]uint64{nil, {0}, {1}}, exits: make([][]exit, 3)}, []uint16{1, 2, 3}},
		// A cycle with no way out: endless play.
		{"cycle", &toy{succ: [][]uint64{{1}, {2}, {0}}, exits: make([][]exit, 3)}, []uint16{0, 0, 0}},
		// 0 may enter the cycle 1-2 or move to 3, lost at 0: 0 wins in 1; 1 and 2 draw
		// (their only way out leads to 0, a win for the opponent).
		{"cycle-exit", &toy{succ: [][]uint64{{1, 3}, {2, 0}, {1}, nil}, exits: make([][]exit, 4)}, []uint16{2, 0, 0, 1}},
		// Exits only: a drawing exit draws, an opponent's win in 3 loses in 4, an
		// opponent's loss in 2 wins in 3 even beside a losing in-unit move.
		{"exits", &toy{succ: [][]uint64{nil, nil, {3}, nil}, exits: [][]exit{{{values.Draw, 0}}, {{values.Win, 3}}, {{values.Loss, 2}}, {{values.Win, 1}}}},
			[]uint16{0, 5, 4, 3}},
		// Self-loop (a twin that is its own successor) with an exit to a loss: win in 1.
		{"self", &toy{succ: [][]uint64{{0}}, exits: [][]exit{{{values.Loss, 0}}}}, []uint16{2}},
		// The loser delays: 0's moves lead to a win in 1 (in the unit) and a win in 7
		// (an exit): lost in 8.
		{"delay", &toy{succ: [][]uint64{{1}, {2}, nil}, exits: [][]exit{{{values.Win, 7}}, nil, nil}}, []uint16{9, 2, 1}},
	} {
		tc.g.index()
		res := check(t, tc.name, tc.g, Options{Workers: 2, Chunk: 1})
		for p, want := range tc.depth {
			if got := res.Depth(uint64(p)); got != want {
				t.Errorf("%s: position %d: depth %d, want %d", tc.name, p, got, want)
			}
		}
	}
}

// TestSolveRandomGames checks random games position by position against the oracle,
// over worker counts and chunk sizes (a chunk of 1 makes every Expand and Preds call a
// batch of one; 0 is the default of 4096, one batch for the whole game).
func TestSolveRandomGames(t *testing.T) {
	t.Parallel()
	seeds := 60
	if testing.Short() {
		seeds = 20
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 27))
		n := 1 + rng.IntN(300)
		maxDeg := []int{1, 2, 3, 6, 12}[seed%5]
		g := randomToy(rng, n, maxDeg, 20+rng.IntN(60), rng.IntN(30))
		for _, workers := range []int{1, 2, 7} {
			for _, chunk := range []int{1, 5, 64, 0} {
				check(t, fmt.Sprintf("seed %d n %d deg %d w %d chunk %d", seed, n, maxDeg, workers, chunk), g,
					Options{Workers: workers, Chunk: chunk})
			}
		}
	}
}

// TestSolveManySuccessors: a position with more successor classes than the first
// engine's 8-bit counter held (255).
func TestSolveManySuccessors(t *testing.T) {
	t.Parallel()
	const k = 1000
	// 0 moves to 1..k. Each of them wins in 1 (it moves to k+1, lost at 0), but for
	// position k, which has no move and is lost at 0: 0 wins in 1.
	g := &toy{succ: make([][]uint64, k+2), exits: make([][]exit, k+2)}
	for s := uint64(1); s <= k; s++ {
		g.succ[0] = append(g.succ[0], s)
		if s < k {
			g.succ[s] = []uint64{k + 1}
		}
	}
	g.index()
	if res := check(t, "hub-win", g, Options{Workers: 3, Chunk: 7}); res.Depth(0) != 2 {
		t.Fatalf("the hub: depth %d, want 2 (a win in 1)", res.Depth(0))
	}
	// Now position k wins too (an exit to a loss in 4: a win in 5): every successor
	// wins, the longest in 5, so the hub loses in 6 — decided only when the counter of
	// its 1000 successors reaches zero.
	g.exits[k] = []exit{{values.Loss, 4}}
	g.succ[k] = nil
	g.index()
	if res := check(t, "hub-loss", g, Options{Workers: 3, Chunk: 7}); res.Depth(0) != 7 {
		t.Fatalf("the hub: depth %d, want 7 (a loss in 6)", res.Depth(0))
	}
	// And a random game with positions of up to 600 successors.
	rng := rand.New(rand.NewPCG(7, 7))
	check(t, "dense", randomToy(rng, 700, 600, 50, 10), Options{Workers: 4, Chunk: 13})
}

// badWorker answers with a batch of the wrong shape, or a slot out of range.
type badWorker struct {
	toyWorker
	shortExpand, farPred, underCount bool
}

type badSpace struct {
	*toy
	shortExpand, farPred, underCount bool
}

func (s badSpace) NewWorker() Worker {
	return badWorker{toyWorker{s.toy}, s.shortExpand, s.farPred, s.underCount}
}

func (w badWorker) Expand(lo, hi uint64, b *Batch) {
	w.toyWorker.Expand(lo, hi, b)
	if w.shortExpand {
		b.Count = b.Count[:len(b.Count)-1]
	}
	if w.underCount && b.Count[len(b.Count)-1] > 1 {
		b.Count[len(b.Count)-1]-- // the last position: one successor left out
	}
}

func (w badWorker) Preds(slots []uint64, b *Batch) {
	w.toyWorker.Preds(slots, b)
	if w.farPred && len(b.Succ) > 0 {
		b.Succ[0] = 1 << 40
	}
}

func TestSolveRefusesBadWorkers(t *testing.T) {
	t.Parallel()
	g := &toy{succ: [][]uint64{nil, {0}, {1}}, exits: make([][]exit, 3)}
	g.index()
	if _, err := Solve(context.Background(), badSpace{g, true, false, false}, Options{}); err == nil || !strings.Contains(err.Error(), "Expand") {
		t.Errorf("a short Expand batch: %v", err)
	}
	if _, err := Solve(context.Background(), badSpace{g, false, true, false}, Options{}); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("a predecessor out of range: %v", err)
	}
	// Position 3 moves to the wins 1 and 2 and loses, once both are refuted; counted as
	// one successor, the second refutation finds nothing left to refute.
	two := &toy{succ: [][]uint64{nil, {0}, {0}, {1, 2}}, exits: make([][]exit, 4)}
	if _, err := Solve(context.Background(), badSpace{two.index(), false, false, true}, Options{Workers: 1}); err == nil ||
		!strings.Contains(err.Error(), "more successors refuted than Expand counted") {
		t.Errorf("a successor count too short: %v", err)
	}
	if _, err := Solve(context.Background(), two, Options{Workers: 1}); err != nil {
		t.Errorf("the same game counted right: %v", err)
	}
	far := &toy{succ: [][]uint64{nil}, exits: [][]exit{{{values.Loss, MaxRemoteness + 10}}}}
	if _, err := Solve(context.Background(), far.index(), Options{}); err == nil || !strings.Contains(err.Error(), "beyond") {
		t.Errorf("an exit beyond the largest remoteness: %v", err)
	}
}

// slowSpace sleeps in every call, so that an analysis lasts long enough for the
// progress ticker, and cancels ctx at its cancelAt-th Expand call.
type slowSpace struct {
	*toy
	calls    *atomic.Int64
	cancelAt int64
	cancel   context.CancelFunc
}

func (s slowSpace) NewWorker() Worker { return slowWorker{toyWorker{s.toy}, s} }

type slowWorker struct {
	toyWorker
	s slowSpace
}

func (w slowWorker) Expand(lo, hi uint64, b *Batch) {
	if w.s.calls.Add(1) == w.s.cancelAt {
		w.s.cancel()
	}
	time.Sleep(time.Millisecond)
	w.toyWorker.Expand(lo, hi, b)
}

func (w slowWorker) Preds(slots []uint64, b *Batch) {
	time.Sleep(time.Millisecond)
	w.toyWorker.Preds(slots, b)
}

func TestSolveProgressAndCancel(t *testing.T) {
	t.Parallel()
	g := randomToy(rand.New(rand.NewPCG(3, 3)), 60, 3, 40, 10)
	var calls atomic.Int64
	var reports []Progress // one goroutine calls Progress: no lock needed
	res, err := Solve(context.Background(), slowSpace{toy: g, calls: &calls},
		Options{Workers: 2, Chunk: 1, ProgressEvery: time.Millisecond, Progress: func(p Progress) { reports = append(reports, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) == 0 {
		t.Fatal("no progress reported")
	}
	for _, p := range reports {
		if (p.Stage != "init" && p.Stage != "depth") || p.Slots != 60 || p.Done > 60 || p.Decided > 60 {
			t.Fatalf("progress %+v", p)
		}
	}
	if last := reports[len(reports)-1]; last.Stage != "depth" && res.Elapsed > 20*time.Millisecond {
		t.Errorf("the last report is of stage %q", last.Stage)
	}

	ctx, cancel := context.WithCancel(context.Background())
	calls.Store(0)
	if _, err := Solve(ctx, slowSpace{toy: g, calls: &calls, cancelAt: 5, cancel: cancel}, Options{Workers: 2, Chunk: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled in the first pass: %v", err)
	}
	if _, err := Solve(ctx, g, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: %v", err)
	}
}
