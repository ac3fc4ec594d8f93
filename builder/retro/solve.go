package retro

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/cacheline"
	"github.com/tablesmith/tablesmith/internal/parallel"
	"github.com/tablesmith/tablesmith/values"
)

// The analysis works depth by depth. Initially a position with no move is lost at 0, one
// over by the rules takes its value at 0 (Batch.Over: a win, a loss, or a draw for good), and
// one whose moves all leave the unit takes the value the exits give it (values.MoveSummary,
// the one combining rule); one with moves in the unit starts from its exits: a win
// pending at WinIn, or unable to lose (a drawing exit), or else a loss in LoseIn at the
// latest, kept for when its last successor in the unit is refuted. A counter holds each
// position's undecided successor classes in the unit. At depth d every position decided
// at d is taken in turn: its predecessors become wins at d+1 (if it is a loss), or have
// their counter decremented (if it is a win); a counter that reaches zero schedules a
// loss at 1 + max(d, the exits' largest win remoteness). Positions never decided are
// draws.
//
// Successors and predecessors are classes, counted once each however many moves reach
// them: a class that is a successor of q has q among its predecessors and the other way
// round, while move multiplicities differ between symmetric and asymmetric positions.

// Options tune Solve. The zero value is usable.
type Options struct {
	Workers int // 0: GOMAXPROCS
	// Progress, if set, is called from one goroutine about every ProgressEvery while
	// the analysis runs.
	Progress      func(Progress)
	ProgressEvery time.Duration // 0: 250ms
	// Chunk is the number of slots a worker takes at a time: one Expand call in the
	// first pass, one Preds call (for the chunk's positions decided at the depth) in
	// each later one (0: 4096).
	Chunk int
}

// Progress is a snapshot of a running analysis.
type Progress struct {
	Stage   string // "init" or "depth"
	Depth   int
	Done    uint64 // slots processed in this stage or depth
	Slots   uint64
	Decided uint64 // positions with a value so far
	Elapsed time.Duration
}

// Result is a finished analysis: per slot (Depth), 0 for a draw or 1 + the remoteness,
// whether it is a win (Won), and the counts. In a unit without positions won by the rules
// a win has odd remoteness and a loss even, as values.EncodingWDL stores them.
type Result struct {
	st                   []uint64
	mem                  *bigmem.Buf // st's memory, kept mapped while the Result is in use
	Wins, Losses, Draws  uint64
	MaxWin, MaxLoss      int // -1: none
	Elapsed              time.Duration
	InitTime, DepthsTime time.Duration
}

// Depth is slot s's value: 0 for a draw, else 1 + the remoteness.
func (r *Result) Depth(s uint64) uint16 { return uint16(r.st[s] & depthMask) }

// Won reports whether slot s is a win for the side to move.
func (r *Result) Won(s uint64) bool { return r.st[s]&winBit != 0 }

// Code is slot s's value as a code of layout e (a win at a remoteness e cannot hold comes
// out as the loss of the same remoteness: the caller checks e.Holds where it can occur).
func (r *Result) Code(s uint64, e values.WDLCodes) uint32 {
	x := r.st[s]
	d := x & depthMask
	switch {
	case d == 0:
		return values.WDLDraw
	case !e.Split:
		return uint32(d) + 1 // 1 + r → 2 + r
	case x&winBit != 0:
		return 3 + 2*uint32(d-1)
	}
	return 2 + 2*uint32(d-1)
}

// Slots is the number of slots solved.
func (r *Result) Slots() uint64 { return uint64(len(r.st)) }

// The state of a position, one word:
//
//	bits  0..15  the decided depth + 1 (0: undecided)
//	bits 16..39  the counter of undecided successor classes in the unit
//	bit  40      cannot lose (an exit or, for a pending win, a move draws or wins)
//	bit  41      the pending depth below is active (a win by an exit, or a scheduled loss)
//	bit  42      decided as a win (set with the depth)
//	bits 48..63  the pending depth; while not active, the exits' LoseIn
//
// The counter had 8 bits in the first engine, which refused positions with more than
// 255 successor classes; 24 bits take any position a game of this kind has.
const (
	depthMask = 0xFFFF
	cntShift  = 16
	cntBits   = 24
	cntMask   = (1<<cntBits - 1) << cntShift
	// MaxSuccessors is the most successor classes in the unit a position may have.
	MaxSuccessors = 1<<cntBits - 1
	noLoseBit     = 1 << 40
	pendingBit    = 1 << 41
	winBit        = 1 << 42
	pendShift     = 48
	// MaxRemoteness is the largest remoteness the engine stores (a depth + 2 must fit
	// the 16 bits of the depth field).
	MaxRemoteness = depthMask - 2
)

const (
	stageInit = iota
	stageDepth
)

// worker is one goroutine's move generator and scratch, kept from pass to pass.
type worker struct {
	w     Worker
	b     Batch
	front []uint64 // the positions of a chunk decided at the current depth as losses
	wins  []uint64 // … and as wins
}

// preds asks the worker for the predecessors of the positions in front and loads their
// states ahead of the atomic updates that follow. The updates fall at random over the
// unit's states, gigabytes: nearly every one misses the cache, and each is an atomic
// read-modify-write, which waits for the one before. Plain loads first, in a loop where
// nothing depends on what they read, bring the states' lines in with their misses
// overlapping (pair 7-5, one worker: 131.9 → 128.2 s of CPU).
func (wk *worker) preds(st []uint64, front []uint64) ([]uint64, error) {
	b := &wk.b
	b.Reset()
	wk.w.Preds(front, b)
	if err := checkBatch(b, uint64(len(front))); err != nil {
		return nil, fmt.Errorf("retro: Preds of %d slots from %d: %w", len(front), front[0], err)
	}
	n := uint64(len(st))
	for _, q := range b.Succ {
		if q >= n {
			return nil, fmt.Errorf("retro: Preds of %d slots from %d: slot %d out of range [0, %d)", len(front), front[0], q, n)
		}
		atomic.LoadUint64(&st[q]) // Go keeps an atomic load whose value is unused
	}
	return b.Succ, nil
}

// fromLosses decides every undecided predecessor of the losses decided at depth here−1
// as a win at depth here+1, counting them in dec.
func (wk *worker) fromLosses(st []uint64, next []atomic.Uint32, losses []uint64, here uint64, dec *uint64) error {
	if len(losses) == 0 {
		return nil
	}
	preds, err := wk.preds(st, losses)
	if err != nil {
		return err
	}
	for _, q := range preds {
		if setWin(&st[q], here) {
			*dec++
			atomicMinU32(&next[q/blockSlots], uint32(here))
		}
	}
	return nil
}

// setWin decides an undecided predecessor of a loss decided at depth here−1 as a win at
// depth here+1; it reports whether it did. A position whose exits give it a win due at
// here−1 (pending) is decided there instead, at depth here, where the scan of this pass
// takes it into its frontier (or has decided it first). Only a game with wins over by the
// rules has such a position: with wins at odd remoteness and losses at even, a win is
// never due at the depth of a loss.
func setWin(p *uint64, here uint64) bool {
	for {
		x := atomic.LoadUint64(p)
		if x&depthMask != 0 {
			return false
		}
		v := (here + 1) | winBit
		if x&(pendingBit|noLoseBit) == pendingBit|noLoseBit && x>>pendShift == here-1 {
			v = here | winBit
		}
		if atomic.CompareAndSwapUint64(p, x, x|v) {
			return true
		}
	}
}

// fromWins takes one successor to refute from every predecessor of the wins decided at
// depth d, scheduling a loss where none is left (the latest depth in top).
func (wk *worker) fromWins(st []uint64, next []atomic.Uint32, wins []uint64, d int, top *int64) error {
	if len(wins) == 0 {
		return nil
	}
	preds, err := wk.preds(st, wins)
	if err != nil {
		return err
	}
	for _, q := range preds {
		at := decrement(&st[q], d)
		if at > 0 {
			*top = max(*top, int64(at))
			atomicMinU32(&next[q/blockSlots], uint32(at))
		}
		if at < 0 {
			return fmt.Errorf("retro: slot %d has more successors refuted than Expand counted (the worker's counts and predecessors disagree)", q)
		}
	}
	return nil
}

// checkOver checks that the positions an Expand batch marks over are in order, inside
// the batch, and count neither successor nor exit.
func checkOver(b *Batch) error {
	last := -1
	for _, o := range b.Over {
		if o.At <= last || o.At >= len(b.Count) {
			return fmt.Errorf("a position over by the rules listed out of order or outside the batch (index %d of %d)", o.At, len(b.Count))
		}
		if b.Count[o.At] != 0 || b.Exits[o.At].Moves != 0 {
			return fmt.Errorf("position %d of the batch is over by the rules but counts %d successors and %d exits", o.At, b.Count[o.At], b.Exits[o.At].Moves)
		}
		last = o.At
	}
	return nil
}

// Solve solves the unit sp: every position's value, by retrograde analysis from the
// positions without moves and the exits.
func Solve(ctx context.Context, sp Space, opt Options) (_ *Result, err error) {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	a := &analysis{n: sp.Slots(), chunk: 4096}
	if opt.Chunk > 0 {
		a.chunk = uint64(opt.Chunk)
	}
	// The positions' states, outside the Go heap and on huge pages where the system gives
	// them (bigmem.Alloc): predecessors are updated at random across gigabytes, and with
	// 4 KiB pages nearly every update missed the TLB as well as the cache.
	mem := bigmem.New(8 * a.n)
	defer func() {
		if err != nil {
			mem.Release()
		}
	}()
	a.st = mem.Words()
	start := time.Now()
	if opt.Progress != nil {
		stop := parallel.Tick(opt.ProgressEvery, func(final bool) {
			if final {
				return // the caller has the result
			}
			opt.Progress(Progress{Stage: [...]string{"init", "depth"}[a.stage.Load()], Depth: int(a.depth.Load()),
				Done: a.done.Load(), Slots: a.n, Decided: a.decided.Load(), Elapsed: time.Since(start)})
		})
		defer stop()
	}
	// The workers, made once and kept from pass to pass, each on cache lines of its own,
	// apart from the others' (see internal/cacheline).
	a.workers = make([]*worker, opt.Workers)
	for i := range a.workers {
		a.workers[i] = cacheline.New[worker]()
		a.workers[i].w = sp.NewWorker()
	}
	// next[k] is, for block k (slots k·blockSlots ..), a lower bound of the depths at
	// which one of its positions is due: decided there, or pending there (noDepth: none
	// known). A depth pass skips the blocks that have nothing due at its depth, without
	// reading their states: in a sector of mostly draws, most of them.
	a.next = make([]atomic.Uint32, (a.n+blockSlots-1)/blockSlots)
	for k := range a.next {
		a.next[k].Store(noDepth)
	}
	a.maxPend.Store(-1)

	if err := parallel.ForWorkers(ctx, a.workers, a.n, a.chunk, a.initChunk); err != nil {
		return nil, err
	}
	initTime := time.Since(start)
	a.stage.Store(stageDepth)
	for d := 0; ; d++ {
		if d > MaxRemoteness {
			return nil, fmt.Errorf("retro: remoteness beyond %d", MaxRemoteness)
		}
		a.depth.Store(int64(d))
		a.done.Store(0)
		a.frontier.Store(0)
		if err := parallel.ForWorkers(ctx, a.workers, a.n, a.chunk, func(wk *worker, lo, hi uint64) error {
			return a.depthChunk(wk, d, lo, hi)
		}); err != nil {
			return nil, err
		}
		if a.frontier.Load() == 0 && a.maxPend.Load() <= int64(d) {
			break
		}
	}
	res := a.result(mem)
	res.InitTime = initTime
	res.Elapsed = time.Since(start)
	res.DepthsTime = res.Elapsed - initTime
	return res, nil
}

// analysis is one Solve: the positions' states and what the passes share.
type analysis struct {
	st       []uint64
	n, chunk uint64
	next     []atomic.Uint32 // per block of positions, a lower bound of the depths due
	workers  []*worker
	// For progress and the end: slots done in the stage, positions decided, the latest
	// depth pending, the positions decided at the depth of the pass.
	done, decided atomic.Uint64
	stage, depth  atomic.Int64
	maxPend       atomic.Int64
	frontier      atomic.Uint64
}

// initChunk is the first pass over positions lo..hi−1: counters, exits, the positions
// decided by the rules or scheduled by exits alone.
func (a *analysis) initChunk(wk *worker, lo, hi uint64) error {
	b := &wk.b
	b.Reset()
	wk.w.Expand(lo, hi, b)
	if err := checkExpand(b, hi-lo); err != nil {
		return fmt.Errorf("retro: Expand(%d, %d): %w", lo, hi, err)
	}
	if err := checkOver(b); err != nil {
		return fmt.Errorf("retro: Expand(%d, %d): %w", lo, hi, err)
	}
	top := int64(-1)
	var dec uint64
	first := uint32(noDepth) // the least depth due in the block of s so far
	nextOver := 0            // the next of b.Over
	for i := range hi - lo {
		s := lo + i
		var over values.Outcome
		if nextOver < len(b.Over) && b.Over[nextOver].At == int(i) {
			over = b.Over[nextOver].Outcome
			nextOver++
		}
		x, r, err := initialState(b.Count[i], b.Exits[i], over)
		if err != nil {
			return fmt.Errorf("retro: slot %d %w", s, err)
		}
		a.st[s] = x
		switch {
		case x&depthMask != 0:
			dec++
			first = 0
		case x&pendingBit != 0:
			top = max(top, int64(r))
			first = min(first, uint32(r))
		}
		if (s+1)%blockSlots == 0 || s+1 == hi {
			atomicMinU32(&a.next[s/blockSlots], first)
			first = noDepth
		}
	}
	atomicMax(&a.maxPend, top)
	a.decided.Add(dec)
	a.done.Add(hi - lo)
	return nil
}

// initialState is a position's first state, from its successors in the unit (succ), the
// summary of its exits and its value by the rules where it is over; r is the depth a
// pending state is due at.
func initialState(succ uint32, ex values.MoveSummary, over values.Outcome) (x uint64, r int, err error) {
	if succ > MaxSuccessors {
		return 0, 0, fmt.Errorf("has %d successor classes in the unit (at most %d)", succ, MaxSuccessors)
	}
	o, r := ex.Value()
	if r > MaxRemoteness {
		return 0, 0, fmt.Errorf(": its exits give it a remoteness of %d, beyond %d", r, MaxRemoteness)
	}
	x = uint64(succ) << cntShift
	switch {
	case over == values.Win:
		x |= 1 | winBit // won by the rules
	case over == values.Draw:
		x |= noLoseBit // drawn by the rules: never decided
	case over == values.Loss, succ == 0 && ex.Moves == 0 && !ex.Draw:
		x |= 1 // no move, or lost by the rules: lost at 0
	case o == values.Win:
		x |= noLoseBit | pendingBit | uint64(r)<<pendShift
	case o == values.Draw:
		x |= noLoseBit
	case succ == 0:
		x |= pendingBit | uint64(r)<<pendShift // every move is an exit: lost at r
	default:
		x |= uint64(r) << pendShift // LoseIn, kept for when the counter reaches zero
	}
	return x, r, nil
}

// depthChunk is the pass of depth d over positions lo..hi−1: it decides the pending
// positions due at d, and takes the positions decided at d to their predecessors — the
// predecessors of a loss become wins at d+1, those of a win have one successor fewer to
// refute.
func (a *analysis) depthChunk(wk *worker, d int, lo, hi uint64) error {
	var dec uint64
	top := int64(-1)
	here := uint64(d + 1)
	st, next := a.st, a.next
	// The chunk's positions decided at d: the pending ones due now are decided here;
	// those decided at d by the pass before are already. Nothing this pass does decides a
	// position at d (wins go to d+1, losses are scheduled at d+1 or later; a win due at
	// d that a loss would make a win at d+1 is decided at d where the scan takes it, see
	// setWin), so collecting them first and asking for their predecessors after, in one
	// call, takes the same positions as one by one.
	//
	// A block with nothing due at d is skipped. Otherwise its bound is reset before the
	// scan (when the chunk holds the whole block: a part's scan says nothing of the rest)
	// and lowered after it to the least depth beyond d the scan met: a position another
	// worker decides or schedules meanwhile lowers the bound itself after changing the
	// state, so it is counted by the scan (the state changed before the reset) or by its
	// own lowering (after it).
	front, wins := wk.front[:0], wk.wins[:0] // the losses, the wins
	for blo := lo; blo < hi; {
		k := blo / blockSlots
		bhi := min(hi, (k+1)*blockSlots)
		if next[k].Load() > uint32(d) {
			blo = bhi
			continue
		}
		if blo == k*blockSlots && bhi == min(a.n, (k+1)*blockSlots) {
			next[k].Store(noDepth) // a whole block (else its bound stays, lower)
		}
		later := uint32(noDepth)
		for s := blo; s < bhi; s++ {
			x := atomic.LoadUint64(&st[s])
			if x&depthMask == 0 && x&pendingBit != 0 {
				if p := int(x >> pendShift); p == d {
					v := here
					if x&noLoseBit != 0 { // a pending win (else a scheduled loss)
						v |= winBit
					}
					if setDepth(&st[s], v) {
						dec++
					}
					x = atomic.LoadUint64(&st[s])
				} else if p > d {
					later = min(later, uint32(p))
				}
			}
			switch v := x & depthMask; {
			case v == here && x&winBit != 0:
				wins = append(wins, s)
			case v == here:
				front = append(front, s)
			case v > here:
				later = min(later, uint32(v-1))
			}
		}
		atomicMinU32(&next[k], later)
		blo = bhi
	}
	wk.front, wk.wins = front, wins
	if err := wk.fromLosses(st, next, front, here, &dec); err != nil {
		return err
	}
	if err := wk.fromWins(st, next, wins, d, &top); err != nil {
		return err
	}
	a.frontier.Add(uint64(len(front) + len(wins)))
	a.decided.Add(dec)
	atomicMax(&a.maxPend, top)
	a.done.Add(hi - lo)
	return nil
}

// result counts the finished analysis.
func (a *analysis) result(mem *bigmem.Buf) *Result {
	res := &Result{st: a.st, mem: mem, MaxWin: -1, MaxLoss: -1}
	for _, x := range a.st {
		dd := uint16(x & depthMask)
		switch {
		case dd == 0:
			res.Draws++
		case x&winBit != 0:
			res.Wins++
			res.MaxWin = max(res.MaxWin, int(dd-1))
		default:
			res.Losses++
			res.MaxLoss = max(res.MaxLoss, int(dd-1))
		}
	}
	return res
}

// checkExpand checks that a worker's Expand answered for k positions.
func checkExpand(b *Batch, k uint64) error {
	if uint64(len(b.Count)) != k || uint64(len(b.Exits)) != k {
		return fmt.Errorf("a batch of %d counts and %d exits for %d positions", len(b.Count), len(b.Exits), k)
	}
	return nil
}

// checkBatch checks that a worker's answer has the shape of one for k positions, so that
// a wrong worker is an error here rather than an index out of range, or a wrong table.
func checkBatch(b *Batch, k uint64) error {
	if uint64(len(b.Off)) != k+1 || b.Off[0] != 0 || b.Off[k] != len(b.Succ) {
		return fmt.Errorf("a batch of %d offsets into %d slots for %d positions", len(b.Off), len(b.Succ), k)
	}
	for i := range k {
		if b.Off[i+1] < b.Off[i] {
			return fmt.Errorf("offsets %d, %d of positions %d, %d decrease", b.Off[i], b.Off[i+1], i, i+1)
		}
	}
	return nil
}

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
// otherwise). It returns −1 for a position of that kind with no successor left to refute:
// every successor is decided once and names each predecessor once, so the worker's count
// of its successors (Expand) was short.
func decrement(p *uint64, d int) int {
	for {
		x := atomic.LoadUint64(p)
		if x&depthMask != 0 || x&noLoseBit != 0 {
			return 0
		}
		if x&cntMask == 0 {
			return -1
		}
		y := x - 1<<cntShift
		at := 0
		if y&cntMask == 0 {
			at = max(d+1, int(x>>pendShift))
			y = y&^(depthMask<<pendShift) | pendingBit | uint64(at)<<pendShift
		}
		if atomic.CompareAndSwapUint64(p, x, y) {
			return at
		}
	}
}

// blockSlots is the number of slots of a block of the depth passes' summary (next in
// Solve); noDepth marks a block with nothing due.
const (
	blockSlots = 512
	noDepth    = 1<<32 - 1
)

// atomicMinU32 lowers *a to v if v is smaller.
func atomicMinU32(a *atomic.Uint32, v uint32) {
	for {
		old := a.Load()
		if v >= old || a.CompareAndSwap(old, v) {
			return
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
