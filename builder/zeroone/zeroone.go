// Package zeroone is the 0-1 breadth-first search that fills pattern databases: over a
// space whose moves cost 0 (the blank moving among free cells) or 1 (a pattern tile
// moving), the least cost of every entry (a pattern's placement), level by level from the
// goals. Like builder/bfs it knows a space only through small interfaces of built-in
// types, never a concrete game.
package zeroone

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/builder/internal/levels"
	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/cacheline"
	"github.com/tablesmith/tablesmith/internal/parallel"
)

// Space is a state space whose moves cost 0 or 1, searched by Search to fill a
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
type Space interface {
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

// ZeroClosed (games.ZeroClosed) is implemented by a Space whose zero expander appends, for
// every slot of src, all the slots that any number of zero-cost moves reach from it (src
// included or not). Search then calls zero only on the slots it claims by unit-cost moves
// (and on the goals), not again on the slots zero returned. A space that can compute the
// closure at once (a flood fill of the blank's region, say) saves a call per slot.
type ZeroClosed interface {
	ZeroClosed() bool
}

// Result is a finished 0-1 search: one value per entry plus summary counts.
type Result struct {
	// Values holds the least cost of any slot of each entry, Unset for an entry none
	// of whose slots is reachable.
	Values *builder.Values
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
func (r *Result) MaxValue() int { return len(r.Counts) - 1 }

// zoRun is the state shared by the workers of one 0-1 search.
type zoRun struct {
	sp      Space
	opt     Options
	eb      uint
	closed  bool // zero returns whole closures (ZeroClosed)
	visited []uint64
	values  *builder.Values
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

// MemoryEstimate is the memory Search over sp needs, in bytes: the value array
// and three bitsets of Slots() bits.
func MemoryEstimate(sp Space) (uint64, error) {
	width, err := builder.WidthFor(sp.DepthBound())
	if err != nil {
		return 0, err
	}
	n := sp.Slots()
	return (n>>sp.EntryBits())*uint64(width) + 3*(n/8+8), nil
}

// Search runs a level-synchronous parallel 0-1 breadth-first search from the goals of
// sp and returns each entry's value: the least cost at which any of its slots is reached.
//
// Level d starts from the frontier F_d, the slots of cost d, closed under zero-cost moves.
// Workers split F_d by ranges of bitset words, take the unit-cost moves of each batch of
// slots, claim the new slots with an atomic OR on the visited bitset (one OR per run of
// candidates in the same word), and close each batch of new slots under zero-cost moves
// at once (repeating until no new slot turns up, or in one step for a ZeroClosed space),
// so that every slot of F_{d+1} is claimed at cost d+1 and F_{d+1} is closed in turn. The
// worker whose OR is the first to set a bit of an entry writes the entry's value, so each
// value is written once, without atomics. A wide level (see levels.Defer) only marks its
// new slots in F_{d+1}, visited staying as it is, and settles them after it: one pass
// in slot order sets their visited bits and writes the values of their new entries.
// Memory: three bitsets of Slots() bits (visited, this frontier, the next) plus the
// value array of one byte per entry (for depth bounds below 254). Unlike BFS, the workers
// mark a deferred level in one shared bitset: bitsets of their own (see ownBits) cost
// the 8-tile group of the 15-puzzle 500 MB and gained nothing, its marks waiting on
// memory, not on the atomic ORs.
//
// Progress counts entries (the pattern states a user knows the number of) against
// Slots()>>EntryBits(), level by level. There are no checkpoints: the largest pattern
// databases take minutes, not nights.
func Search(ctx context.Context, sp Space, opt Options) (*Result, error) {
	start := time.Now()
	opt = opt.withDefaults()
	n, eb := sp.Slots(), sp.EntryBits()
	if eb < 0 || eb > 6 {
		return nil, fmt.Errorf("builder: %d entry bits (want 0..6)", eb)
	}
	if n%(1<<eb) != 0 {
		return nil, fmt.Errorf("builder: %d slots are not a whole number of %d-slot entries", n, 1<<eb)
	}
	width, err := builder.WidthFor(sp.DepthBound())
	if err != nil {
		return nil, err
	}
	entries := n >> eb
	values, err := builder.NewValues(entries, width)
	if err != nil {
		return nil, err
	}
	r := &zoRun{sp: sp, opt: opt, eb: uint(eb), values: values}
	if zc, ok := sp.(ZeroClosed); ok {
		r.closed = zc.ZeroClosed()
	}
	// The three bitsets live outside the Go heap, and go once the search returns.
	var bufs [3]*bigmem.Buf
	defer func() {
		for _, b := range bufs {
			b.Release()
		}
	}()
	var cur, next []uint64
	r.visited, bufs[0] = bigmem.NewWords(n)
	cur, bufs[1] = bigmem.NewWords(n)
	next, bufs[2] = bigmem.NewWords(n)
	r.workers = make([]*zoWorker, opt.Workers)
	for i := range r.workers {
		w := cacheline.New[zoWorker]() // apart from the other workers' (see internal/cacheline)
		w.zero, w.unit = sp.NewExpanders()
		w.batch = cacheline.Make[uint64](opt.Batch)[:0]
		// Room for 8 moves a slot, and for 4 new slots a slot, before the first
		// append reallocates: at the default batch a slice that outgrows it is then
		// past 32 KiB, a large allocation with pages of its own (a smaller one could
		// share a cache line with the other worker's).
		w.succ = cacheline.Make[uint64](8 * opt.Batch)[:0]
		w.fresh = cacheline.Make[uint64](4 * opt.Batch)[:0]
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
		deferred := levels.Defer(r.opt.settle, slotCounts[d], hi-lo)
		if err := r.expandLevel(ctx, cur, next, lo, hi, d+1, deferred); err != nil {
			return nil, err
		}
		lo, hi = len(next), 0
		for _, w := range r.workers {
			lo, hi = min(lo, w.lo), max(hi, w.hi)
		}
		if deferred {
			if err := r.settle(ctx, next, lo, hi, d+1); err != nil {
				return nil, err
			}
		}
		var e, s uint64
		for _, w := range r.workers {
			e, s = e+w.entries, s+w.slots
		}
		counts = append(counts, e)
		slotCounts = append(slotCounts, s)
		r.reached.Add(s)
		r.entries.Add(e)
		cur, next = next, cur // expandLevel cleared cur while reading it
	}
	counts, slotCounts = trimZeros(counts), trimZeros(slotCounts)

	res := &Result{Values: values, Counts: counts, SlotCounts: slotCounts, Entries: entries,
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
// slots of cost d, closed under zero-cost moves, in next: claimed as they turn up, or
// only marked there when the level is deferred (settle records them after). It clears
// the words of cur it reads; only words [lo, hi) of cur can be set.
func (r *zoRun) expandLevel(ctx context.Context, cur, next []uint64, lo, hi int, d uint64, deferred bool) error {
	const wordsPerUnit = 1 << 10
	for _, w := range r.workers {
		w.reset(len(next))
	}
	if hi <= lo {
		return ctx.Err()
	}
	// A level of one unit runs on one goroutine (parallel.ForWorkers starts no more
	// goroutines than units): the ends of a search, where waking the others cost more.
	return parallel.ForWorkers(ctx, r.workers, uint64(hi-lo), wordsPerUnit, func(w *zoWorker, ulo, uhi uint64) error {
		w.batch = levels.DrainWords(cur, lo+int(ulo), lo+int(uhi), true, w.batch[:0], r.opt.Batch, func(b []uint64) {
			if deferred {
				r.markBatch(w, b, next)
			} else {
				r.expandBatch(w, b, d, next)
			}
		})
		return nil
	})
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

// markBatch is expandBatch for a deferred level: the unit-cost moves of batch and their
// closure under zero-cost moves are marked in next, unless visited, and left for settle.
func (r *zoRun) markBatch(w *zoWorker, batch []uint64, next []uint64) {
	cand := w.unit(w.succ[:0], batch)
	for round := 0; len(cand) > 0; round++ {
		w.fresh = r.mark(w, cand, w.fresh[:0], next)
		if len(w.fresh) == 0 || (r.closed && round == 1) {
			break
		}
		cand = w.zero(cand[:0], w.fresh)
	}
	w.succ = cand[:0]
}

// mark appends to fresh the slots of cand neither visited nor in next, which this call
// set in next (shared with the other workers: one atomic OR per run of candidates in a
// word). cand is scratch. Nothing writes visited during a deferred level, so plain
// loads read it.
func (r *zoRun) mark(w *zoWorker, cand []uint64, fresh []uint64, next []uint64) []uint64 {
	visited := r.visited
	// First the plain loads of both words of every candidate, which the processor
	// overlaps; the atomic ORs after them find the words of next in the cache (an
	// atomic OR on a word that is not waits for memory, and holds up the loads behind
	// it).
	k := 0
	for _, s := range cand {
		cand[k] = s
		k += int((visited[s>>6]|atomic.LoadUint64(&next[s>>6]))>>(s&63)&1 ^ 1)
	}
	cand = cand[:k]
	for i := 0; i < len(cand); {
		var wi, mask uint64
		wi, mask, i = levels.WordRun(cand, i)
		won := mask &^ atomic.OrUint64(&next[wi], mask)
		if won == 0 {
			continue
		}
		w.lo, w.hi = min(w.lo, int(wi)), max(w.hi, int(wi)+1)
		for m := won; m != 0; m &= m - 1 {
			fresh = append(fresh, wi<<6|uint64(bits.TrailingZeros64(m)))
		}
	}
	return fresh
}

// settle records the slots of next in words [lo, hi), marked at cost d by a deferred
// level, as visited, and gives the value d to the entries none of whose slots was
// visited before: one pass in slot order, split among the workers, each counting what
// it settles.
func (r *zoRun) settle(ctx context.Context, next []uint64, lo, hi int, d uint64) error {
	const wordsPerUnit = 1 << 12
	span := uint(1) << r.eb
	// firsts has the first bit of every entry of a word.
	firsts := ^uint64(0)
	if span > 1 {
		firsts = 0
		for b := uint(0); b < 64; b += span {
			firsts |= 1 << b
		}
	}
	for _, w := range r.workers {
		w.entries, w.slots = 0, 0
	}
	if hi <= lo {
		return ctx.Err()
	}
	return parallel.ForWorkers(ctx, r.workers, uint64(hi-lo), wordsPerUnit, func(w *zoWorker, ulo, uhi uint64) error {
		for wi := lo + int(ulo); wi < lo+int(uhi); wi++ {
			m := next[wi]
			if m == 0 {
				continue
			}
			old := r.visited[wi]
			r.visited[wi] = old | m
			w.slots += uint64(bits.OnesCount64(m))
			base := uint64(wi) << 6
			if e := foldEntries(m, r.eb) &^ foldEntries(old, r.eb) & firsts; e != 0 {
				r.values.SetEntries(base, e, r.eb, d)
				w.entries += uint64(bits.OnesCount64(e))
			}
		}
		return nil
	})
}

// foldEntries ORs each entry's bits of x (entries of 1<<eb bits) onto the entry's lowest
// bit, and onto some bits above it in the entry: only the lowest bits count (see firsts
// in settle). No bit crosses into the entry below, the shifts adding up to 2^eb-1. Small
// enough to inline, where a closure over span was a call per settled word.
func foldEntries(x uint64, eb uint) uint64 {
	for sh := uint(1); sh < 1<<eb; sh <<= 1 {
		x |= x >> sh
	}
	return x
}

// claim appends to fresh the slots of cand this call claimed, sets their bits in
// frontier (shared with the other workers: one atomic OR per word, as for visited) and
// writes the value d of the entries whose first slot it claimed. cand is scratch.
func (r *zoRun) claim(w *zoWorker, cand []uint64, d uint64, fresh []uint64, frontier []uint64) []uint64 {
	visited := r.visited
	// First a pass of plain loads: most candidates are known, and independent loads let
	// the processor overlap their cache misses, where an atomic OR would wait for each.
	// The word of frontier is loaded too, though its bits are a subset of visited's,
	// so that the atomic OR on it below finds it in the cache (see mark).
	k := 0
	for _, s := range cand {
		cand[k] = s
		k += int((atomic.LoadUint64(&visited[s>>6])|atomic.LoadUint64(&frontier[s>>6]))>>(s&63)&1 ^ 1)
	}
	cand = cand[:k]
	span := uint64(1) << r.eb
	ones := uint64(1)<<span - 1 // span 64: all ones
	for i := 0; i < len(cand); {
		// One atomic OR for a run of candidates in the same word (a closure's slots
		// usually share their entry's word).
		var wi, mask uint64
		wi, mask, i = levels.WordRun(cand, i)
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
	if r.opt.Progress == nil {
		return func() {}
	}
	entries := r.sp.Slots() >> r.eb
	return parallel.Tick(r.opt.ProgressEvery, func(final bool) {
		r.opt.Progress(builder.Progress{Level: int(r.level.Load()), Reached: r.entries.Load(), Slots: entries,
			Expect: entries, Elapsed: time.Since(start), Done: final})
	})
}

// Options tune a search. The zero value is usable.
type Options struct {
	// Workers is the number of goroutines expanding the frontier (0: GOMAXPROCS).
	Workers int
	// Batch is the number of slots handed to an expander per call (0: 1024).
	Batch int
	// Progress, if set, is called from a single goroutine about every ProgressEvery
	// and once when the search ends.
	Progress func(builder.Progress)
	// ProgressEvery is the reporting interval (0: 250ms).
	ProgressEvery time.Duration

	// settle makes Search settle every level after it or none (tests only).
	settle levels.SettlePolicy
}

// withDefaults fills in the zero fields of opt that have a default.
func (opt Options) withDefaults() Options {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Batch <= 0 {
		opt.Batch = 1024
	}
	return opt
}
