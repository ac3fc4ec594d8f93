package builder

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tablesmith/tablesmith/internal/cacheline"
)

// Retrograde analysis of a two-player game, one unit of work (for Mühle: a sector pair)
// at a time. The unit's positions are slots 0..Slots()−1; moves that leave the unit
// (captures into sectors solved before, or an end of the game) are its exits, whose values
// the space looks up itself. Values are for the side to move: win or loss with the
// remoteness in plies to the end of the game under optimal play (the winner hurries, the
// loser delays), or draw (endless play).
//
// The engine works depth by depth. Initially a position with no move is lost at 0; one
// whose exits include a loss for the opponent at r is a win at r+1 at the latest; one all
// of whose moves are exits that win for the opponent is lost at 1 + the largest of those
// remoteness values. A counter holds each position's undecided successor classes inside
// the unit. At depth d every position decided at d is taken in turn: its predecessors
// become wins at d+1 (if it is a loss), or have their counter decremented (if it is a
// win); a counter that reaches zero schedules a loss at 1 + max(d, the exits' largest win
// remoteness). Positions never decided are draws.
//
// Successors and predecessors are classes, counted once each however many moves reach
// them: a class that is a successor of q has q among its predecessors and the other way
// round, while move multiplicities differ between symmetric and asymmetric positions.

// RetroSpace is a unit of retrograde analysis as the engine sees it.
type RetroSpace interface {
	// Slots is the number of positions of the unit.
	Slots() uint64
	// NewRetroWorker returns the move generator of one goroutine.
	NewRetroWorker() RetroWorker
}

// RetroWorker generates the moves of positions of the unit; it is used by one goroutine.
type RetroWorker interface {
	// Expand appends to dst the distinct slots of the unit that slot s moves to, and
	// returns them with what the moves leaving the unit say.
	Expand(s uint64, dst []uint64) ([]uint64, Exits)
	// Preds appends to dst the distinct slots of the unit that move to slot s.
	Preds(s uint64, dst []uint64) []uint64
}

// Exits summarises the moves of a position that leave the unit.
type Exits struct {
	Moves int  // all moves of the position, in the unit or not (0: the side to move is blocked)
	Draw  bool // some exit leads to a draw
	// WinIn is 1 + the least remoteness of an exit that loses for the opponent (0: none):
	// the position wins in WinIn plies at the latest.
	WinIn int
	// LoseIn is 1 + the largest remoteness of an exit that wins for the opponent (0: none).
	LoseIn int
}

// RetroOptions tune Retrograde. The zero value is usable.
type RetroOptions struct {
	Workers       int // 0: GOMAXPROCS
	Progress      func(RetroProgress)
	ProgressEvery time.Duration // 0: 250ms
}

// RetroProgress is a snapshot of a running analysis.
type RetroProgress struct {
	Stage   string // "init" or "depth"
	Depth   int
	Done    uint64 // slots processed in this stage or depth
	Slots   uint64
	Decided uint64 // positions with a value so far
	Elapsed time.Duration
}

// RetroResult is a finished analysis: per slot (Depth), 0 for a draw or 1 + the
// remoteness (odd remoteness: a win, even: a loss), and the counts.
type RetroResult struct {
	st                   []uint64
	Wins, Losses, Draws  uint64
	MaxWin, MaxLoss      int // -1: none
	Elapsed              time.Duration
	InitTime, DepthsTime time.Duration
}

// The state of a position, one word: the decided depth + 1 (0 undecided), the counter of
// undecided successor classes, whether it can still lose, and a pending depth (an exit
// win, or a scheduled loss) with a flag telling whether it is active.
const (
	depthMask    = 0xFFFF
	cntShift     = 16
	cntMask      = 0xFF << cntShift
	noLoseBit    = 1 << 24
	pendingBit   = 1 << 25
	pendShift    = 32
	maxRetroDeep = depthMask - 2
)

// Retrograde solves the unit sp.
func Retrograde(ctx context.Context, sp RetroSpace, opt RetroOptions) (*RetroResult, error) {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.ProgressEvery <= 0 {
		opt.ProgressEvery = 250 * time.Millisecond
	}
	n := sp.Slots()
	st := make([]uint64, n)
	start := time.Now()
	var done, decided atomic.Uint64
	var stage atomic.Value
	var depth atomic.Int64
	stage.Store("init")
	stopProgress := func() {}
	if opt.Progress != nil {
		stopc, finished := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(finished)
			t := time.NewTicker(opt.ProgressEvery)
			defer t.Stop()
			for {
				select {
				case <-stopc:
					return
				case <-t.C:
					opt.Progress(RetroProgress{Stage: stage.Load().(string), Depth: int(depth.Load()), Done: done.Load(),
						Slots: n, Decided: decided.Load(), Elapsed: time.Since(start)})
				}
			}
		}()
		stopProgress = func() { close(stopc); <-finished }
	}
	defer stopProgress()

	// Init: counters, exits, the positions decided or scheduled by exits alone.
	var maxPend atomic.Int64
	const chunk = 1 << 12
	err := parallelSlots(ctx, opt.Workers, n, chunk, sp, func(w RetroWorker, lo, hi uint64, buf []uint64) ([]uint64, error) {
		top := int64(-1)
		var dec uint64
		for s := lo; s < hi; s++ {
			var ex Exits
			buf, ex = w.Expand(s, buf[:0])
			if len(buf) > 0xFF {
				return buf, fmt.Errorf("builder: slot %d has %d successor classes (at most 255)", s, len(buf))
			}
			x := uint64(len(buf)) << cntShift
			switch {
			case ex.Moves == 0:
				x |= 1 // lost at 0
				dec++
			case ex.WinIn > 0:
				x |= noLoseBit | pendingBit | uint64(ex.WinIn)<<pendShift
				top = max(top, int64(ex.WinIn))
			case ex.Draw:
				x |= noLoseBit
			case len(buf) == 0:
				x |= pendingBit | uint64(ex.LoseIn)<<pendShift
				top = max(top, int64(ex.LoseIn))
			default:
				x |= uint64(ex.LoseIn) << pendShift // kept for when the counter reaches zero
			}
			if ex.WinIn > maxRetroDeep || ex.LoseIn > maxRetroDeep {
				return buf, fmt.Errorf("builder: slot %d: remoteness beyond %d", s, maxRetroDeep)
			}
			st[s] = x
		}
		atomicMax(&maxPend, top)
		decided.Add(dec)
		done.Add(hi - lo)
		return buf, nil
	})
	if err != nil {
		return nil, err
	}
	initTime := time.Since(start)

	// Depth by depth.
	stage.Store("depth")
	for d := 0; ; d++ {
		if d > maxRetroDeep {
			return nil, fmt.Errorf("builder: remoteness beyond %d", maxRetroDeep)
		}
		depth.Store(int64(d))
		done.Store(0)
		var frontier atomic.Uint64
		err := parallelSlots(ctx, opt.Workers, n, chunk, sp, func(w RetroWorker, lo, hi uint64, buf []uint64) ([]uint64, error) {
			var front, dec uint64
			top := int64(-1)
			here := uint64(d + 1)
			for s := lo; s < hi; s++ {
				x := atomic.LoadUint64(&st[s])
				if x&depthMask == 0 && x&pendingBit != 0 && int(x>>pendShift) == d {
					for !atomic.CompareAndSwapUint64(&st[s], x, x|here) {
						x = atomic.LoadUint64(&st[s])
					}
					x |= here
					dec++
				}
				if x&depthMask != here {
					continue
				}
				front++
				buf = w.Preds(s, buf[:0])
				if d%2 == 0 { // a loss: every predecessor wins at d+1
					for _, q := range buf {
						if setDepth(&st[q], here+1) {
							dec++
						}
					}
					continue
				}
				for _, q := range buf { // a win: one successor fewer to refute
					if at := decrement(&st[q], d); at > 0 {
						top = max(top, int64(at))
					}
				}
			}
			frontier.Add(front)
			decided.Add(dec)
			atomicMax(&maxPend, top)
			done.Add(hi - lo)
			return buf, nil
		})
		if err != nil {
			return nil, err
		}
		if frontier.Load() == 0 && maxPend.Load() <= int64(d) {
			break
		}
	}
	res := &RetroResult{st: st, MaxWin: -1, MaxLoss: -1, InitTime: initTime}
	for _, x := range st {
		dd := uint16(x & depthMask)
		switch {
		case dd == 0:
			res.Draws++
		case (dd-1)%2 == 1:
			res.Wins++
			res.MaxWin = max(res.MaxWin, int(dd-1))
		default:
			res.Losses++
			res.MaxLoss = max(res.MaxLoss, int(dd-1))
		}
	}
	res.Elapsed = time.Since(start)
	res.DepthsTime = res.Elapsed - initTime
	return res, nil
}

// Depth is slot s's value: 0 for a draw, else 1 + the remoteness (odd remoteness: a win).
func (r *RetroResult) Depth(s uint64) uint16 { return uint16(r.st[s] & depthMask) }

// Slots is the number of slots solved.
func (r *RetroResult) Slots() uint64 { return uint64(len(r.st)) }

// setDepth decides an undecided position at depth+1 = v; it reports whether it did.
func setDepth(p *uint64, v uint64) bool {
	for {
		x := atomic.LoadUint64(p)
		if x&depthMask != 0 {
			return false
		}
		if atomic.CompareAndSwapUint64(p, x, x|v) {
			return true
		}
	}
}

// decrement takes one refuted successor class from an undecided position that can still
// lose, at depth d; when none is left it schedules the loss and returns its depth (0
// otherwise).
func decrement(p *uint64, d int) int {
	for {
		x := atomic.LoadUint64(p)
		if x&depthMask != 0 || x&noLoseBit != 0 || x&cntMask == 0 {
			return 0
		}
		y := x - 1<<cntShift
		at := 0
		if y&cntMask == 0 {
			at = max(d+1, int(x>>pendShift))
			y = y&^(0xFFFF<<pendShift) | pendingBit | uint64(at)<<pendShift
		}
		if atomic.CompareAndSwapUint64(p, x, y) {
			return at
		}
	}
}

func atomicMax(a *atomic.Int64, v int64) {
	for {
		old := a.Load()
		if v <= old || a.CompareAndSwap(old, v) {
			return
		}
	}
}

// parallelSlots runs f over chunks of [0, n) on workers goroutines, each with its own
// RetroWorker and scratch buffer.
func parallelSlots(ctx context.Context, workers int, n, chunk uint64, sp RetroSpace,
	f func(w RetroWorker, lo, hi uint64, buf []uint64) ([]uint64, error)) error {
	var next atomic.Uint64
	eg, ctx := errgroup.WithContext(ctx)
	for range workers {
		eg.Go(func() error {
			w := sp.NewRetroWorker()
			buf := cacheline.Make[uint64](256)[:0] // apart from the other workers' (see newBFSWorker)
			for {
				lo := next.Add(chunk) - chunk
				if lo >= n {
					return nil
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				var err error
				if buf, err = f(w, lo, min(lo+chunk, n), buf); err != nil {
					return err
				}
			}
		})
	}
	return eg.Wait()
}
