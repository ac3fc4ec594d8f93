package bfs

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/builder/internal/levels"
	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/cacheline"
	"github.com/tablesmith/tablesmith/internal/parallel"
)

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
	// Resume, if set, continues a search from a checkpoint instead of the goals.
	Resume *Checkpoint
	// AfterLevel, if set, is called by the coordinating goroutine with every completed
	// level, the goals (level 0) first unless resuming — a levellog.Log's Append makes the
	// search resumable. The Level's slices stay unchanged until the next call returns, and
	// the last level's (which no call follows) as long as the Level is held, so the
	// callback may go on reading them in the background meanwhile. An error stops the
	// search.
	AfterLevel func(Level) error

	// Reserve is memory, in bytes, that the caller holds beside the search (a level log:
	// levellog.MemoryEstimate): the workers' own bitsets (see bfsRun.ownNext), a
	// speed-up only, are left out unless the machine has room for them on top of it.
	Reserve uint64

	// settle makes Search settle every level after it or none (tests only).
	settle levels.SettlePolicy
	// sharedNext makes BFS's workers mark a settled level in one shared bitset, as when
	// the memory for one per worker is lacking (tests only; see bfsRun.ownNext).
	sharedNext bool
}

// Result is a finished search: a remoteness per slot plus summary counts.
type Result struct {
	Values      *builder.Values
	Counts      []uint64 // Counts[d] = states at remoteness d
	Reached     uint64   // states that reach a goal (sum of Counts)
	Unreachable uint64   // states that do not
	Holes       uint64   // slots that are no state
	Elapsed     time.Duration
}

// MaxRemoteness is the largest remoteness found (-1 for an empty search).
func (r *Result) MaxRemoteness() int { return len(r.Counts) - 1 }

// Expecter (games.Expecter) is implemented by spaces that know how many states are
// reachable, so that progress can show an ETA.
type Expecter interface{ ExpectedStates() uint64 }

// minBatch is the smallest number of slots handed to an expander in one call when a level
// is split among the workers, and the size up to which a level is expanded inline.
const minBatch = 64

// frontier is the set of slots at the current level: a list of per-worker lists while it
// is sparse, a bitset once a list would take more memory than the bitset (|F| > Slots/64).
type frontier struct {
	lists [][]uint64
	words []uint64    // nil when the lists hold the frontier
	buf   *bigmem.Buf // holds words, outside the Go heap
	count uint64
}

// firstLevel sets up the search's first level: the goals (level 0) of a new search, or the
// last level of the log a resumed one continues; it returns that frontier and the counts
// of the levels so far.
func (r *bfsRun) firstLevel(ctx context.Context, width int) (cur frontier, counts []uint64, err error) {
	sp, opt, n := r.sp, r.opt, r.n
	if opt.Resume != nil {
		if err := opt.Resume.validate(n, width); err != nil {
			return cur, nil, err
		}
		r.values = opt.Resume.Values
		counts = append(counts, opt.Resume.Counts...)
		cur, err = r.restore(ctx, opt.Resume)
		return cur, counts, err
	}
	if r.values, err = builder.NewValues(n, width); err != nil {
		return cur, nil, err
	}
	r.visited, r.visitedBuf = bigmem.NewWords(n)
	cur.lists = [][]uint64{nil}
	for _, g := range sp.Goals() {
		if g >= n {
			return cur, nil, fmt.Errorf("builder: goal slot %d out of range [0, %d)", g, n)
		}
		if r.claim(g) {
			r.values.Set(g, 0)
			cur.lists[0] = append(cur.lists[0], g)
			cur.count++
		}
	}
	counts = []uint64{cur.count}
	if opt.AfterLevel != nil {
		if err := opt.AfterLevel(r.levelOf(0, cur)); err != nil {
			return cur, nil, fmt.Errorf("builder: after level 0: %w", err)
		}
	}
	return cur, counts, nil
}

// levels expands level after level from cur until a level is empty, appending each
// level's count to counts.
func (r *bfsRun) levels(ctx context.Context, cur frontier, counts []uint64) ([]uint64, error) {
	sp, opt := r.sp, r.opt
	var spare frontier // a bitset to clear and reuse as the next dense frontier
	for cur.count > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d := uint64(len(counts) - 1)
		r.level.Store(int64(d))
		if d+1 > r.values.Max() && d+1 <= sp.DepthBound() {
			// Deeper than the space's hint (see DepthHinter): widen between levels.
			if err := r.values.Widen(); err != nil {
				return nil, err
			}
		}
		next, err := r.expandLevel(ctx, &cur, d+1, spare)
		if err != nil {
			return nil, err
		}
		if spare.buf != next.buf {
			spare.buf.Release() // not needed: the level after it is sparse
		}
		// The level just expanded is given back (its chunks to the pool, its bitset as
		// the next dense frontier), but only after the next AfterLevel call: until then
		// the callback may still be reading it. The last one is never given back.
		done := cur
		cur = next
		if cur.count > 0 {
			if d+1 > sp.DepthBound() {
				return nil, fmt.Errorf("builder: remoteness %d is beyond the space's depth bound %d (the bound is wrong)", d+1, sp.DepthBound())
			}
			counts = append(counts, cur.count)
			if opt.AfterLevel != nil {
				if err := opt.AfterLevel(r.levelOf(d+1, cur)); err != nil {
					return nil, fmt.Errorf("builder: after level %d: %w", d+1, err)
				}
			}
		}
		if cur.count > 0 || opt.AfterLevel == nil {
			r.chunks.put(done.lists)
		}
		// Else done is the last level AfterLevel was given, which it may still be
		// reading (a levellog.Log encodes it in the background until the log is closed):
		// its chunks stay out of the pool, so no trim releases them, and are released
		// with the pool once nothing holds it (Level.Keep).
		// Keep as many free chunks as the next level will likely need.
		r.chunks.trim(len(cur.lists) + len(cur.lists)/4 + len(r.workers))
		spare = frontier{words: done.words, buf: done.buf} // cleared when it is reused
	}

	return counts, nil
}

// bfsRun is the state shared by the workers of one search.
type bfsRun struct {
	sp      Space
	opt     Options
	n       uint64
	visited []uint64
	values  *builder.Values
	workers []*bfsWorker
	chunks  chunkPool

	visitedBuf *bigmem.Buf // holds visited, outside the Go heap
	runs       bool        // sp lists NeighbourRuns
	// ownNext: the workers but the first mark a settled level in bitsets of their own
	// (see markBatch), which the machine has the memory for.
	ownNext bool

	level   atomic.Int64
	reached atomic.Uint64
	base    uint64 // states restored from a checkpoint
}

// bfsWorker is one worker's scratch and per-level tallies, written for every state it
// finds: it lives on cache lines of its own (see newBFSWorker).
type bfsWorker struct {
	expand func(dst, src []uint64) []uint64
	batch  []uint64
	nbrs   []uint64
	next   chunkList // the slots found this level, until the level turns dense
	found  uint64
	spent  [][]uint64 // scratch for chunks going back to the pool

	own ownBits // for settled levels, with bfsRun.ownNext (see markBatch)
}

// newBFSWorker allocates a worker and its batch buffers apart from every other worker's
// (internal/cacheline): two workers whose counters or buffers shared a cache line would
// slow each other down as if they shared the data, and did, in about half the runs.
func newBFSWorker(expand func(dst, src []uint64) []uint64, batch int) *bfsWorker {
	wk := cacheline.New[bfsWorker]()
	wk.expand = expand
	wk.batch = cacheline.Make[uint64](batch)[:0]
	wk.nbrs = cacheline.Make[uint64](4 * batch)[:0]
	return wk
}

// Search runs a level-synchronous parallel breadth-first search from the goals of sp over
// its slots and returns every slot's remoteness. Workers split each level's frontier in
// chunks, claim newly reached slots with an atomic OR on the visited bitset (so every
// slot is recorded exactly once) and write its remoteness to its own bytes of Values.
func Search(ctx context.Context, sp Space, opt Options) (*Result, error) {
	start := time.Now()
	opt = opt.withDefaults()
	n := sp.Slots()
	width, err := StartWidth(sp)
	if err != nil {
		return nil, err
	}
	r := &bfsRun{sp: sp, opt: opt, n: n}
	if !opt.sharedNext {
		need, err := MemoryEstimate(sp)
		if err != nil {
			return nil, err
		}
		r.ownNext = ownBitsFit(need+opt.Reserve, n, opt.Workers)
	}
	if nr, ok := sp.(NeighbourRuns); ok {
		r.runs = nr.ListsNeighbourRuns()
	}
	defer func() {
		r.visitedBuf.Release()
		for _, wk := range r.workers {
			wk.own.release()
		}
	}()
	r.workers = make([]*bfsWorker, opt.Workers)
	for i := range r.workers {
		r.workers[i] = newBFSWorker(sp.NewExpander(), opt.Batch)
	}

	cur, counts, err := r.firstLevel(ctx, width)
	if err != nil {
		return nil, err
	}
	for _, c := range counts {
		r.reached.Add(c)
	}
	if opt.Resume != nil {
		r.base = r.reached.Load()
	}
	r.level.Store(int64(len(counts) - 1))

	stopProgress := r.reportProgress(start)
	defer stopProgress()

	if counts, err = r.levels(ctx, cur, counts); err != nil {
		return nil, err
	}
	r.chunks.trim(0)
	res := &Result{Values: r.values, Counts: counts, Reached: r.reached.Load()}
	if err := r.classifyUnreached(ctx, res); err != nil {
		return nil, err
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// claim marks slot visited and reports whether this call was the one that did it.
func (r *bfsRun) claim(slot uint64) bool {
	w, bit := &r.visited[slot>>6], uint64(1)<<(slot&63)
	if atomic.LoadUint64(w)&bit != 0 {
		return false // cheap read first: most neighbours are already known
	}
	return atomic.OrUint64(w, bit)&bit == 0
}

// claimWord marks the slots of mask in visited word wi and returns those this call was
// the one to mark.
func (r *bfsRun) claimWord(wi, mask uint64) uint64 {
	w := &r.visited[wi]
	fresh := mask &^ atomic.LoadUint64(w) // cheap read first: most neighbours are already known
	if fresh == 0 {
		return 0
	}
	return fresh &^ atomic.OrUint64(w, fresh)
}

// levelOf is level d (the frontier f) as AfterLevel sees it: holding on to the memory the
// frontier is in, which is outside the Go heap and released when unreachable.
func (r *bfsRun) levelOf(d uint64, f frontier) Level {
	lv := Level{D: int(d), Count: f.count, Lists: f.lists, Words: f.words, Keep: f.buf}
	if f.words == nil {
		lv.Keep = &r.chunks
	}
	return lv
}

// expandLevel expands every slot of cur (at remoteness d-1) and returns the frontier of
// the slots first reached at remoteness d.
func (r *bfsRun) expandLevel(ctx context.Context, cur *frontier, d uint64, spare frontier) (frontier, error) {
	// nextDense is published once, by the first worker whose list outgrows the threshold;
	// from then on every worker ORs its new slots into that bitset instead of a list.
	var nextDense atomic.Pointer[frontier]
	var once sync.Once
	makeDense := func() {
		once.Do(func() {
			f := spare
			if f.words == nil {
				f.words, f.buf = bigmem.NewWords(r.n)
			} else {
				clear(f.words)
			}
			nextDense.Store(&f)
		})
	}
	threshold := r.n / 64 / uint64(len(r.workers))
	// A level of at least one slot per 8 bitset words (the middle of a search) marks
	// its new slots in the workers' next bitsets only; the visited bits and the values
	// are settled after it, in slot order (see settle). Deciding before the level starts
	// keeps every worker in one mode: a worker claiming visited bits and one leaving
	// them to settle would count a slot both reach twice. A smaller level (the ends of a
	// search) claims its new slots into lists as before: settling would cost passes
	// over the whole bitsets for a few slots, level after level.
	deferred := levels.Defer(r.opt.settle, cur.count, int(r.n/64))
	if deferred {
		makeDense()
	}

	// Units of work: ranges of a list, or ranges of bitset words.
	type unit struct{ list, lo, hi int }
	var units []unit
	const wordsPerUnit = 64
	if cur.words != nil {
		for lo := 0; lo < len(cur.words); lo += wordsPerUnit {
			units = append(units, unit{-1, lo, min(lo+wordsPerUnit, len(cur.words))})
		}
	} else {
		// Small levels (3-peg Hanoi has 2^n levels of ~10^3 states) are cut into
		// smaller batches so that every worker gets a share.
		batch := int(min(uint64(r.opt.Batch), max(minBatch, cur.count/uint64(4*len(r.workers)))))
		for li, l := range cur.lists {
			for lo := 0; lo < len(l); lo += batch {
				units = append(units, unit{li, lo, min(lo+batch, len(l))})
			}
		}
	}

	for _, wk := range r.workers {
		wk.found = 0
	}
	workers := r.workers
	if cur.count <= minBatch {
		workers = workers[:1] // a tiny level is not worth waking goroutines for: inline
	}
	err := parallel.ForWorkers(ctx, workers, uint64(len(units)), 1, func(wk *bfsWorker, u, _ uint64) error {
		un := units[u]
		if deferred {
			next := nextDense.Load().words
			if r.ownNext && wk != r.workers[0] {
				next = wk.own.get(r.n)
			}
			if un.list >= 0 {
				r.markBatch(wk, cur.lists[un.list][un.lo:un.hi], next)
				return nil
			}
			wk.batch = levels.DrainWords(cur.words, un.lo, un.hi, false, wk.batch, r.opt.Batch, func(b []uint64) {
				r.markBatch(wk, b, next)
			})
			return nil
		}
		if un.list >= 0 {
			r.expandBatch(wk, cur.lists[un.list][un.lo:un.hi], d, &nextDense, threshold, makeDense)
			return nil
		}
		// The words stay as they are: AfterLevel may still be reading them.
		wk.batch = levels.DrainWords(cur.words, un.lo, un.hi, false, wk.batch, r.opt.Batch, func(b []uint64) {
			r.expandBatch(wk, b, d, &nextDense, threshold, makeDense)
		})
		return nil
	})
	if err != nil {
		return frontier{}, err
	}

	var next frontier
	if deferred {
		p := nextDense.Load()
		next.words, next.buf = p.words, p.buf
		var err error
		next.count, err = r.settle(ctx, next.words, d)
		r.reached.Add(next.count)
		return next, err
	}
	for _, wk := range r.workers {
		next.count += wk.found
	}
	r.reached.Add(next.count)
	if p := nextDense.Load(); p != nil {
		next.words, next.buf = p.words, p.buf
		for _, wk := range r.workers {
			wk.spent = wk.next.take(wk.spent[:0])
			for _, c := range wk.spent {
				for _, s := range c {
					next.words[s>>6] |= 1 << (s & 63)
				}
			}
			r.chunks.put(wk.spent)
		}
		return next, nil
	}
	for _, wk := range r.workers {
		next.lists = wk.next.take(next.lists)
	}
	return next, nil
}

// expandBatch expands src and records every newly reached neighbour at remoteness d: in
// the worker's list, or once the level has turned dense in its bitset.
func (r *bfsRun) expandBatch(wk *bfsWorker, src []uint64, d uint64, nextDense *atomic.Pointer[frontier],
	threshold uint64, makeDense func()) {
	wk.nbrs = wk.expand(wk.nbrs[:0], src)
	p := nextDense.Load()
	if r.runs {
		r.claimRuns(wk, d, p)
	} else {
		for _, s := range wk.nbrs {
			if !r.claim(s) {
				continue
			}
			r.values.Set(s, d)
			wk.found++
			if p != nil {
				// Other workers set bits in the same words, hence the atomic OR.
				atomic.OrUint64(&p.words[s>>6], 1<<(s&63))
				continue
			}
			wk.next.add(&r.chunks, s)
		}
	}
	if p == nil {
		if wk.next.n > threshold {
			makeDense()
		}
		p = nextDense.Load() // or another worker's list outgrew the threshold
	}
	if p != nil && wk.next.n > 0 {
		words := p.words
		wk.spent = wk.next.take(wk.spent[:0])
		for _, c := range wk.spent {
			for _, s := range c {
				atomic.OrUint64(&words[s>>6], 1<<(s&63))
			}
		}
		r.chunks.put(wk.spent)
	}
}

// markBatch expands src and marks in next every neighbour not yet visited; settle
// records them as visited, with their value, once the level is done. Against claiming
// each new slot as it turns up, it spares an atomic OR on the visited word and a value
// written at random per new slot.
//
// With ownNext, next is the worker's own bitset (the first worker's is the shared one,
// which settle merges the others into): plain writes, where the atomic OR on a shared
// bitset held back the loads of the neighbours after it (3×4 built in 9 s instead of
// 11). Without, every worker ORs into the shared bitset.
func (r *bfsRun) markBatch(wk *bfsWorker, src []uint64, next []uint64) {
	wk.nbrs = wk.expand(wk.nbrs[:0], src)
	// Nothing writes visited during the level (settle runs after it): plain reads.
	visited := r.visited
	nbrs := wk.nbrs
	if !r.ownNext && len(r.workers) > 1 {
		for k := 0; k < len(nbrs); {
			var wi, mask uint64
			wi, mask, k = levels.WordRun(nbrs, k) // a run of one slot but for NeighbourRuns
			if fresh := mask &^ visited[wi] &^ atomic.LoadUint64(&next[wi]); fresh != 0 {
				atomic.OrUint64(&next[wi], fresh)
			}
		}
		return
	}
	// Slot by slot, runs or not: grouping a run's slots into one mask (wordRun) paid
	// for one atomic OR, not for plain writes (Hanoi 4×16: 4% faster without).
	for _, s := range nbrs {
		wi, bit := s>>6, uint64(1)<<(s&63)
		next[wi] |= bit &^ visited[wi]
	}
}

// settle merges the workers' own bitsets of the slots found at remoteness d by
// markBatch into next, records them as visited and writes their values: one pass in slot
// order, split among the workers. It returns how many slots the level found.
func (r *bfsRun) settle(ctx context.Context, next []uint64, d uint64) (uint64, error) {
	const wordsPerUnit = 1 << 12
	owns := make([]*ownBits, len(r.workers))
	for i, wk := range r.workers {
		owns[i] = &wk.own
		wk.found = 0
	}
	err := parallel.ForWorkers(ctx, r.workers, uint64(len(next)), wordsPerUnit, func(wk *bfsWorker, lo64, hi64 uint64) error {
		lo, hi := int(lo64), int(hi64)
		mergeOwn(next, owns, lo, hi)
		for wi := lo; wi < hi; wi++ {
			m := next[wi]
			if m == 0 {
				continue
			}
			wk.found += uint64(bits.OnesCount64(m))
			r.visited[wi] |= m
			r.values.SetEntries(uint64(wi)<<6, m, 0, d)
		}
		return nil
	})
	var found uint64
	for _, wk := range r.workers {
		found += wk.found
	}
	return found, err
}

// claimRuns is expandBatch's claim for spaces that list NeighbourRuns: the neighbours
// next to each other in one visited word are claimed together.
func (r *bfsRun) claimRuns(wk *bfsWorker, d uint64, p *frontier) {
	nbrs := wk.nbrs
	for k := 0; k < len(nbrs); {
		var wi, mask uint64
		wi, mask, k = levels.WordRun(nbrs, k)
		claimed := r.claimWord(wi, mask)
		if claimed == 0 {
			continue
		}
		if p != nil {
			// Other workers set bits in the same words, hence the atomic OR.
			atomic.OrUint64(&p.words[wi], claimed)
		}
		for claimed != 0 {
			s := wi<<6 | uint64(bits.TrailingZeros64(claimed))
			claimed &= claimed - 1
			r.values.Set(s, d)
			wk.found++
			if p == nil {
				wk.next.add(&r.chunks, s)
			}
		}
	}
}

// classifyUnreached tells holes from unreachable states among the slots the search did
// not reach, marks them in Values, and counts both.
func (r *bfsRun) classifyUnreached(ctx context.Context, res *Result) error {
	hole := r.values.Hole()
	mayHaveHoles := true
	if h, ok := r.sp.(Holed); ok {
		mayHaveHoles = h.HasHoles()
	}
	var holes, unreachable atomic.Uint64
	err := parallel.For(ctx, len(r.workers), r.n, 1<<16, func(lo, hi uint64) error {
		var h, u uint64
		for s := lo; s < hi; s++ {
			if s&63 == 0 && s+64 <= hi && r.visited[s>>6] == ^uint64(0) {
				s += 63
				continue
			}
			if r.visited[s>>6]&(1<<(s&63)) != 0 {
				continue
			}
			// An unreached slot already holds Unset, the unreachable marker.
			if mayHaveHoles && r.sp.IsHole(s) {
				r.values.Set(s, hole)
				h++
			} else {
				u++
			}
		}
		holes.Add(h)
		unreachable.Add(u)
		return nil
	})
	if err != nil {
		return err
	}
	res.Holes, res.Unreachable = holes.Load(), unreachable.Load()
	if res.Reached+res.Holes+res.Unreachable != r.n {
		return errors.New("builder: internal error: slot classification does not add up")
	}
	return nil
}

// reportProgress starts the progress ticker; the returned func stops it and sends the
// final report.
func (r *bfsRun) reportProgress(start time.Time) func() {
	return builder.Report(r.opt.Progress, r.opt.ProgressEvery, r.sp, func() builder.Progress {
		return builder.Progress{Level: int(r.level.Load()), Reached: r.reached.Load(), Base: r.base, Slots: r.n, Elapsed: time.Since(start)}
	})
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
