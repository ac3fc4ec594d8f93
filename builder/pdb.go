package builder

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tablesmith/tablesmith/internal/cacheline"
)

// ZeroOneSpace is a state space whose moves cost 0 or 1, searched by ZeroOneBFS to fill a
// pattern database. Its slots come in entries of 1<<EntryBits() consecutive slots; the
// search records one value per entry: the least cost at which any slot of the entry is
// reached. For a sliding-tile pattern database a slot can be (cells of the pattern
// tiles, blank cell), an entry the pattern tiles' cells (the blank's cell numbered within
// the entry, the spare slots of the entry being holes), a move of the blank into a cell
// without a pattern tile costing 0 and a move of a pattern tile 1; the entry's value is
// then the minimum over the blank's positions. (slide.PDBSpace goes one step further and
// folds the free moves into the blank's region, leaving only unit-cost moves.)
//
// Like Space it uses only built-in types, so a game satisfies it without importing
// builder, and the builder never asks for one state at a time.
type ZeroOneSpace interface {
	// Slots is the number of slots, a multiple of 1<<EntryBits().
	Slots() uint64
	// EntryBits is log2 of the slots per entry, 0..6 (an entry fits one bitset word).
	EntryBits() int
	// Goals are the slots of the goal states (cost 0).
	Goals() []uint64
	// DepthBound is an upper bound on any cost; it sizes the value array (a bound below
	// 254 takes one byte per entry).
	DepthBound() uint64
	// NewExpanders returns the move generators of one worker goroutine (they may share
	// scratch buffers and are never called concurrently). zero appends to dst the slots
	// one zero-cost move away from every slot of src, unit the slots one unit-cost move
	// away; both in any order, possibly with repeats, and return dst. Moves must be
	// reversible with the same cost (the search runs from the goals).
	NewExpanders() (zero, unit func(dst, src []uint64) []uint64)
}

// ZeroClosed is implemented by a ZeroOneSpace whose zero expander appends, for every slot
// of src, all the slots that any number of zero-cost moves reach from it (src included or
// not). ZeroOneBFS then calls zero only on the slots it claims by unit-cost moves (and on
// the goals), not again on the slots zero returned. A space that can compute the closure
// at once (a flood fill of the blank's region, say) saves a call per slot.
type ZeroClosed interface {
	ZeroClosed() bool
}

// ZeroOneResult is a finished 0-1 search: one value per entry plus summary counts.
type ZeroOneResult struct {
	// Values holds the least cost of any slot of each entry, Unset for an entry none
	// of whose slots is reachable.
	Values *Values
	// Counts[d] is the number of entries of value d.
	Counts []uint64
	// SlotCounts[d] is the number of slots reached at cost d.
	SlotCounts []uint64
	Entries    uint64 // Slots() >> EntryBits()
	Unreached  uint64 // entries none of whose slots is reachable
	Reached    uint64 // slots reached (sum of SlotCounts)
	Elapsed    time.Duration
}

// MaxValue is the largest value of any entry (-1 for an empty search).
func (r *ZeroOneResult) MaxValue() int { return len(r.Counts) - 1 }

// zoRun is the state shared by the workers of one 0-1 search.
type zoRun struct {
	sp      ZeroOneSpace
	opt     Options
	eb      uint
	closed  bool // zero returns whole closures (ZeroClosed)
	visited []uint64
	values  *Values
	workers []*zoWorker

	level   atomic.Int64
	reached atomic.Uint64 // slots
	entries atomic.Uint64 // entries with a value: what progress counts
}

// zoWorker is one worker's scratch and per-level tallies.
type zoWorker struct {
	zero, unit func(dst, src []uint64) []uint64
	batch      []uint64
	succ       []uint64
	fresh      []uint64
	entries    uint64 // entries first reached this level
	slots      uint64 // slots reached this level
	lo, hi     int    // words of the next frontier touched: [lo, hi)
}

// ZeroOneMemoryEstimate is the memory ZeroOneBFS over sp needs, in bytes: the value array
// and three bitsets of Slots() bits.
func ZeroOneMemoryEstimate(sp ZeroOneSpace) (uint64, error) {
	width, err := WidthFor(sp.DepthBound())
	if err != nil {
		return 0, err
	}
	n := sp.Slots()
	return (n>>sp.EntryBits())*uint64(width) + 3*(n/8+8), nil
}

// ZeroOneBFS runs a level-synchronous parallel 0-1 breadth-first search from the goals of
// sp and returns each entry's value: the least cost at which any of its slots is reached.
//
// Level d starts from the frontier F_d, the slots of cost d, closed under zero-cost moves.
// Workers split F_d by ranges of bitset words, take the unit-cost moves of each batch of
// slots, claim the new slots with an atomic OR on the visited bitset (one OR per run of
// candidates in the same word), and close each batch of new slots under zero-cost moves
// at once (repeating until no new slot turns up, or in one step for a ZeroClosed space),
// so that every slot of F_{d+1} is claimed at cost d+1 and F_{d+1} is closed in turn. The
// worker whose OR is the first to set a bit of an entry writes the entry's value, so each
// value is written once, without atomics. Memory: three bitsets of Slots() bits (visited,
// this frontier, the next) plus the value array of one byte per entry (for depth bounds
// below 254).
//
// Options.Workers, Batch, Progress and ProgressEvery apply. Progress counts entries (the
// pattern states a user knows the number of) against Slots()>>EntryBits(), level by level;
// Resume and AfterLevel are not supported.
func ZeroOneBFS(ctx context.Context, sp ZeroOneSpace, opt Options) (*ZeroOneResult, error) {
	start := time.Now()
	if opt.Resume != nil || opt.AfterLevel != nil {
		return nil, errors.New("builder: the 0-1 search does not support checkpoints")
	}
	opt = opt.withDefaults()
	n, eb := sp.Slots(), sp.EntryBits()
	if eb < 0 || eb > 6 {
		return nil, fmt.Errorf("builder: %d entry bits (want 0..6)", eb)
	}
	if n%(1<<eb) != 0 {
		return nil, fmt.Errorf("builder: %d slots are not a whole number of %d-slot entries", n, 1<<eb)
	}
	width, err := WidthFor(sp.DepthBound())
	if err != nil {
		return nil, err
	}
	entries := n >> eb
	values, err := NewValues(entries, width)
	if err != nil {
		return nil, err
	}
	r := &zoRun{sp: sp, opt: opt, eb: uint(eb), values: values}
	if zc, ok := sp.(ZeroClosed); ok {
		r.closed = zc.ZeroClosed()
	}
	// The three bitsets live outside the Go heap, and go once the search returns.
	var bufs [3]*bigBuf
	defer func() {
		for _, b := range bufs {
			b.release()
		}
	}()
	var cur, next []uint64
	r.visited, bufs[0] = newWords(n)
	cur, bufs[1] = newWords(n)
	next, bufs[2] = newWords(n)
	r.workers = make([]*zoWorker, opt.Workers)
	for i := range r.workers {
		w := cacheline.New[zoWorker]() // apart from the other workers' (see newBFSWorker)
		w.zero, w.unit = sp.NewExpanders()
		w.batch = cacheline.Make[uint64](opt.Batch)[:0]
		r.workers[i] = w
	}

	stop := r.reportProgress(start)
	defer stop()

	// Level 0: the goals and everything they reach at no cost.
	w0 := r.workers[0]
	w0.reset(len(cur))
	for _, g := range sp.Goals() {
		if g >= n {
			return nil, fmt.Errorf("builder: goal slot %d out of range [0, %d)", g, n)
		}
	}
	w0.succ = append(w0.succ[:0], sp.Goals()...)
	r.claimAndClose(w0, w0.succ, 0, cur)
	counts := []uint64{w0.entries}
	slotCounts := []uint64{w0.slots}
	r.reached.Add(w0.slots)
	r.entries.Add(w0.entries)
	lo, hi := w0.lo, w0.hi

	for d := uint64(0); slotCounts[d] > 0; d++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if d+1 > values.Max() {
			return nil, fmt.Errorf("builder: cost %d exceeds the value width (bound %d was wrong)", d+1, sp.DepthBound())
		}
		r.level.Store(int64(d))
		if err := r.expandLevel(ctx, cur, next, lo, hi, d+1); err != nil {
			return nil, err
		}
		var e, s uint64
		lo, hi = len(next), 0
		for _, w := range r.workers {
			e, s = e+w.entries, s+w.slots
			lo, hi = min(lo, w.lo), max(hi, w.hi)
		}
		counts = append(counts, e)
		slotCounts = append(slotCounts, s)
		r.reached.Add(s)
		r.entries.Add(e)
		cur, next = next, cur // expandLevel cleared cur while reading it
	}
	counts, slotCounts = trimZeros(counts), trimZeros(slotCounts)

	res := &ZeroOneResult{Values: values, Counts: counts, SlotCounts: slotCounts, Entries: entries,
		Reached: r.reached.Load()}
	var reachedEntries uint64
	for _, c := range counts {
		reachedEntries += c
	}
	res.Unreached = entries - reachedEntries
	res.Elapsed = time.Since(start)
	return res, nil
}

func trimZeros(c []uint64) []uint64 {
	for len(c) > 0 && c[len(c)-1] == 0 {
		c = c[:len(c)-1]
	}
	return c
}

func (w *zoWorker) reset(words int) {
	w.entries, w.slots = 0, 0
	w.lo, w.hi = words, 0
}

// expandLevel takes the unit-cost moves of every slot of cur (cost d-1) and records the
// slots of cost d, closed under zero-cost moves, in next. It clears the words of cur it
// reads; only words [lo, hi) of cur can be set.
func (r *zoRun) expandLevel(ctx context.Context, cur, next []uint64, lo, hi int, d uint64) error {
	const wordsPerUnit = 1 << 10
	var nextUnit atomic.Int64
	work := func(w *zoWorker) error {
		w.reset(len(next))
		for {
			u := lo + int(nextUnit.Add(1)-1)*wordsPerUnit
			if u >= hi {
				break
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			w.batch = drainWords(cur, u, min(u+wordsPerUnit, hi), true, w.batch[:0], r.opt.Batch, func(b []uint64) {
				r.expandBatch(w, b, d, next)
			})
		}
		return nil
	}
	if len(r.workers) == 1 || hi-lo <= wordsPerUnit {
		for _, w := range r.workers[1:] {
			w.reset(len(next))
		}
		return work(r.workers[0])
	}
	g, _ := errgroup.WithContext(ctx)
	for _, w := range r.workers {
		g.Go(func() error { return work(w) })
	}
	return g.Wait()
}

// expandBatch takes the unit-cost moves of batch and claims the new slots at cost d.
func (r *zoRun) expandBatch(w *zoWorker, batch []uint64, d uint64, next []uint64) {
	w.succ = w.unit(w.succ[:0], batch)
	r.claimAndClose(w, w.succ, d, next)
}

// claimAndClose claims the unvisited slots of cand (a scratch slice it may reuse) at cost
// d, then the unvisited slots zero-cost moves reach from them, and so on until no new slot
// turns up; every slot it claims goes into frontier.
func (r *zoRun) claimAndClose(w *zoWorker, cand []uint64, d uint64, frontier []uint64) {
	for round := 0; len(cand) > 0; round++ {
		w.fresh = r.claim(w, cand, d, w.fresh[:0], frontier)
		if len(w.fresh) == 0 {
			return
		}
		if r.closed && round == 1 {
			return // zero returned whole closures
		}
		w.succ = w.zero(w.succ[:0], w.fresh)
		cand = w.succ
	}
}

// claim appends to fresh the slots of cand this call claimed, sets their bits in
// frontier (shared with the other workers: one atomic OR per word, as for visited) and
// writes the value d of the entries whose first slot it claimed. cand is scratch.
func (r *zoRun) claim(w *zoWorker, cand []uint64, d uint64, fresh []uint64, frontier []uint64) []uint64 {
	visited := r.visited
	// First a pass of plain loads: most candidates are known, and independent loads let
	// the processor overlap their cache misses, where an atomic OR would wait for each.
	k := 0
	for _, s := range cand {
		if atomic.LoadUint64(&visited[s>>6])&(1<<(s&63)) == 0 {
			cand[k] = s
			k++
		}
	}
	cand = cand[:k]
	span := uint64(1) << r.eb
	ones := uint64(1)<<span - 1 // span 64: all ones
	for i := 0; i < len(cand); {
		// One atomic OR for a run of candidates in the same word (a closure's slots
		// usually share their entry's word).
		wi := cand[i] >> 6
		mask := uint64(1) << (cand[i] & 63)
		j := i + 1
		for ; j < len(cand) && cand[j]>>6 == wi; j++ {
			mask |= 1 << (cand[j] & 63)
		}
		i = j
		old := atomic.OrUint64(&visited[wi], mask)
		won := mask &^ old // bits this call set; others were set before or by another worker
		if won == 0 {
			continue
		}
		atomic.OrUint64(&frontier[wi], won)
		w.lo, w.hi = min(w.lo, int(wi)), max(w.hi, int(wi)+1)
		before := old // entries already reached before this OR
		for m := won; m != 0; m &= m - 1 {
			b := uint64(bits.TrailingZeros64(m))
			fresh = append(fresh, wi<<6|b)
			block := ones << (b &^ (span - 1)) // the entry's bits
			if before&block == 0 {
				r.values.Set((wi<<6|b)>>r.eb, d)
				w.entries++
				before |= block
			}
		}
	}
	w.slots += uint64(len(fresh))
	return fresh
}

// reportProgress starts the progress ticker; the returned func stops it and sends the
// final report.
func (r *zoRun) reportProgress(start time.Time) func() {
	entries := r.sp.Slots() >> r.eb
	return startProgress(r.opt, nil, start, func(p *Progress) {
		p.Level, p.Reached, p.Slots, p.Expect = int(r.level.Load()), r.entries.Load(), entries, entries
	})
}
