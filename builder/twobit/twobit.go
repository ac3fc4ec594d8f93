// Package twobit is the breadth-first search that holds a puzzle's whole space in two
// bits a slot (Korf 2008, after Cooperman and Finkelstein): each slot's code is 3 while
// the slot is not reached and the state's remoteness modulo 3 once it is. Those codes are
// the table (values.EncodingDepthMod3); the exact remoteness of a state is recovered by
// walking from it to a goal through neighbours whose code is one less modulo 3.
//
// Levels are found by scanning the codes: level d's frontier is the slots whose code is
// d mod 3 and which were reached at level d, not 3, 6, … levels earlier. Those older
// states share the code, and expanding them again would cost 2.5 to 5.6 times the work on
// the sliding-tile puzzles (3×4: 5.6); a second bitset of one bit a slot, "recent",
// tells them apart: it is 1 for a slot until the slot has been expanded. The scan reads
// and clears it in order, word by word, so it is only ever written by the worker that
// owns the word: no atomics, and the slots a level reaches need no write to it (they
// were not reached, and so recent, before). The search thus holds 3 bits a slot, the
// table 2.
//
// A lean search (Options.Lean) holds no recent bits, only the 2 bits a slot of the table:
// for machines where the third bit does not fit. Its frontier is then every slot of code
// d mod 3; each level it chooses the cheaper of two ways to find level d+1. Push expands
// those slots, the older ones again (their neighbours are all reached, so they set
// nothing); pull, where the unreached slots are fewer, has each unreached slot look for a
// neighbour of code d mod 3, which can only be on level d: a neighbour of a state not yet
// reached is at most one level nearer, and a reached one no farther than d. Pull needs
// moves that can be undone (Reversible); without them a lean search only pushes. It
// counts a level as it reaches it: the atomic AND that sets a slot returns the old code.
// In a space with two sides that every move crosses (Sided: the sliding puzzles), level
// d lies on side d mod 2, and a pull visits only the unreached slots of side d+1 mod 2:
// half the work (2×6: 5.5 s of pulls instead of 12). A push gains nothing from it: the
// chunks it scans are those the level before reached, already all of the right side.
//
// A half-depth search (Options.Half) expands every state once in 2 bits a slot, in a
// Sided space: level d is on side d mod 2, and its neighbours at d−1 and d+1 differ in
// ⌊d/2⌋ mod 2, which with the slot's side tells the descent which neighbours are nearer.
// Its codes are 3 (not reached), 2 (reached, not yet expanded) and that bit, which a
// state gets when its level expands it; the code-2 slots of side d mod 2 are exactly
// level d (those of the other side are level d+1, reached meanwhile). The table is
// values.EncodingHalfDepth. The side of a slot comes from chunk flags, or from a mask
// a code word for the few chunks of both sides (the lex schemes' runs are long).
//
// Moves that shift whole runs (Shifted: slide's horizontal moves under the lex ranks)
// are made a word at a time: the frontier's bits of a word, spread over the word a run
// away, are ANDed with its unreached slots; the expander then makes only the rest.
//
// The hot path: workers (internal/parallel) take chunks of 2^17 slots in order; a word of
// 32 codes is matched against the frontier code with a few bit operations, and a chunk
// that no state of the level before reached is skipped whole (a bitset of one bit a
// chunk). The frontier slots of a chunk are handed to the space's expander in batches;
// the neighbour codes of a batch are first loaded (independent loads, many cache misses
// in flight), and only the neighbours still unreached are set with an atomic AND, which
// turns code 3 into the new code and tells the one worker that did it to count it.
package twobit

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/cacheline"
	"github.com/tablesmith/tablesmith/internal/parallel"
)

// Space is a state space as the search sees it: the byte engine's (bfs.Space), which a
// game satisfies structurally.
type Space = bfs.Space

// Holed is bfs.Holed: without holes, the search does not ask IsHole of every unreached
// slot.
type Holed = bfs.Holed

// NotReached is the code of a slot that no search level reached: an unreachable state or
// a hole.
const NotReached = 3

const (
	evenBits  = 0x5555555555555555
	chunkLog  = 17 // slots per scan unit, a power of two: 4096 code words, 2048 recent words
	chunkSize = 1 << chunkLog
)

// Options tune a search. The zero value is usable.
type Options struct {
	Workers int // 0: GOMAXPROCS
	// Batch is the number of frontier slots handed to an expander per call (0: 2048).
	Batch int
	// Progress, if set, is called from one goroutine about every ProgressEvery (0: 250ms)
	// and once at the end.
	Progress      func(builder.Progress)
	ProgressEvery time.Duration
	// Resume, if set, continues a search from a checkpoint instead of the goals. The
	// search takes its arrays over: they end in Result.Codes, or are released on error.
	Resume *Checkpoint
	// AfterLevel, if set, is called after every level but the last with the state so
	// far; the search's arrays must not be kept after it returns. An error stops the
	// search.
	AfterLevel func(*Checkpoint) error
	// Lean holds 2 bits a slot while searching instead of 3 (no recent bits): a third
	// less memory, more expansions (see the package comment). A lean search resumes only
	// from a lean checkpoint or drops a full one's recent bits.
	Lean bool
	// LeanLevel, if set, is told before each level of a lean search how it is expanded:
	// by pull or by push.
	LeanLevel func(d uint64, pull bool)
	// NoShifts ignores the space's shifts (Shifted): every move by the expander, as a
	// space without them is searched (benchmarks compare the two).
	NoShifts bool
	// Half searches a Sided space in 2 bits a slot, each state expanded once, and leaves
	// the codes of values.EncodingHalfDepth (⌊d/2⌋ mod 2) instead of d mod 3: see
	// HalfDepth in the package comment.
	Half bool
}

// Reversible (games.Reversible) is implemented by spaces whose moves can be undone: the
// expander lists, for every state, each state whose expansion lists it. A lean search
// pulls only in such spaces.
type Reversible interface{ MovesReversible() bool }

// Sided (games.Sided) is implemented by spaces whose states lie on two sides, every move
// crossing from one to the other, the goals on side 0 (the sliding puzzles: the blank's
// cell changes colour with every move), and whose index scheme keeps long runs of slots
// on one side. RunSide reports whether every state among the slots lo..hi-1 (holes are
// on neither) lies on one side, and which. Level d is then on side d mod 2, and a lean
// search's pull visits only the unreached slots of side d+1 mod 2 in the chunks of one
// side (a push's chunks, those the level before reached, are already of one side, but
// after a resume, when every chunk is scanned).
type Sided interface {
	RunSide(lo, hi uint64) (side uint8, ok bool)
}

// Shifted (games.Shifted) is implemented by spaces some of whose moves act on long runs
// of slots as one shift: every state at a slot s of [lo[i], hi[i]) has the state at
// s+delta[i] among its neighbours, all multiples of 32. The search then reaches those
// neighbours a code word (32 slots) at a time, and hands the expander (NewRestExpander's)
// only the rest of each state's moves. A chunk that a run covers in part is expanded
// wholly by the expander.
type Shifted interface {
	MoveShifts() (lo, hi []uint64, delta []int64)
	NewRestExpander() func(dst, src []uint64) []uint64
}

// Checkpoint is the whole state of a search at a level boundary: the codes, the recent
// bits (none in a lean search) and the states per level expanded.
type Checkpoint struct {
	Codes     *Codes
	Recent    []uint64 // one bit a slot: 1 until the slot is expanded; nil when lean or half
	Counts    []uint64
	Half      bool // a half-depth search's (Options.Half): codes 0, 1, 2 and 3, no recent bits
	recentBuf *bigmem.Buf
}

// Lean reports whether the checkpoint is a lean search's: codes d mod 3, no recent bits.
func (c *Checkpoint) Lean() bool { return c.Recent == nil && !c.Half }

// Release frees the checkpoint's recent bits (the codes are released with Codes.Release).
func (c *Checkpoint) Release() { c.recentBuf.Release(); c.Recent = nil }

// Result is a finished search.
type Result struct {
	Codes       *Codes
	Half        bool     // the codes are ⌊d/2⌋ mod 2 (Options.Half), not d mod 3
	Counts      []uint64 // Counts[d]: states at remoteness d
	Reached     uint64
	Unreachable uint64
	Holes       uint64
	Elapsed     time.Duration
}

// MaxRemoteness is the largest remoteness found (-1 for an empty search).
func (r *Result) MaxRemoteness() int { return len(r.Counts) - 1 }

// Codes is an array of 2-bit codes, 32 to a word, slot i at bits 2(i mod 32) of word
// i/32: the packing of table files (format: LSB first), so a block of codes is the bytes
// of its words.
type Codes struct {
	Words []uint64
	n     uint64
	buf   *bigmem.Buf
}

// NewCodes returns n codes, all NotReached, outside the Go heap.
func NewCodes(n uint64) *Codes {
	buf := bigmem.New((n + 31) / 32 * 8)
	c := &Codes{Words: buf.Words(), n: n, buf: buf}
	for i := range c.Words {
		c.Words[i] = ^uint64(0)
	}
	return c
}

// Len is the number of codes.
func (c *Codes) Len() uint64 { return c.n }

// Get returns slot's code.
func (c *Codes) Get(slot uint64) uint8 { return uint8(c.Words[slot>>5] >> (slot & 31 * 2) & 3) }

// Bytes is the codes as the packed bytes of a table file: slot i at bits 2(i mod 4) of
// byte i/4 (the unused codes of the last word are NotReached).
func (c *Codes) Bytes() []byte { return c.buf.Bytes()[:(c.n+3)/4] }

// Release frees the codes now.
func (c *Codes) Release() { c.buf.Release(); c.Words = nil }

// MemoryEstimate is the memory a search of n slots holds: 2 bits a slot of codes, 1 of
// recent bits unless lean, the chunk flags and the workers' buffers.
func MemoryEstimate(n uint64, workers int, lean bool) uint64 {
	recent := (n + 63) / 64 * 8
	if lean {
		recent = 0
	}
	return (n+31)/32*8 + recent + 3*(n/chunkSize/8+8) + uint64(max(workers, 1))*(1<<20)
}

// CodesBytes is the memory of the codes alone (the table's values): 2 bits a slot.
func CodesBytes(n uint64) uint64 { return (n + 31) / 32 * 8 }

// worker is one goroutine's scratch and tallies, on cache lines of its own.
type worker struct {
	expand   func(dst, src []uint64) []uint64
	rest     func(dst, src []uint64) []uint64 // the moves the shifts do not make
	exp      func(dst, src []uint64) []uint64 // the chunk at hand's: expand or rest
	shifts   []int64                          // the chunk at hand's shifts, in code words
	batch    []uint64
	nbrs     []uint64
	cand     []uint64
	ends     []int  // a pull's batch: where each slot's neighbours end in nbrs
	found    uint64 // frontier slots expanded this level (lean: slots reached)
	reported uint64 // of which added to run.reached
}

type run struct {
	sp      Space
	opt     Options
	n       uint64
	codes   []uint64
	recent  []uint64
	cur     []uint64 // chunk flags: the chunk holds frontier slots
	next    []uint64
	full    []uint64            // lean: chunk flags: every slot of the chunk is reached (pull skips it)
	side    [2][]uint64         // lean, Sided spaces: chunk flags: every state of the chunk is on side i
	sideN   [2]uint64           // lean, Sided spaces: the slots of the chunks whose states are all on side i
	mixed   map[uint64][]uint64 // half: the chunks of both sides: per code word, the slots on side 1 (bit 2i)
	shiftLo []uint64            // the space's shifts (Shifted), none with Options.NoShifts
	holed   bool                // the space may have holes (a pull across a shift skips them)
	shiftHi []uint64
	shiftBy []int64
	workers []*worker
	reached atomic.Uint64
	level   atomic.Int64
	base    uint64
}

// Search runs the two-bit breadth-first search of sp from its goals.
func Search(ctx context.Context, sp Space, opt Options) (*Result, error) {
	start := time.Now()
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Batch <= 0 {
		opt.Batch = 2048
	}
	if opt.Half && opt.Lean {
		return nil, errors.New("twobit: a search is lean or half-depth, not both")
	}
	n := sp.Slots()
	r := &run{sp: sp, opt: opt, n: n}
	chunks := (n + chunkSize - 1) / chunkSize
	r.cur = make([]uint64, (chunks+63)/64)
	r.next = make([]uint64, (chunks+63)/64)
	r.full = make([]uint64, (chunks+63)/64)
	r.workers = make([]*worker, opt.Workers)
	for i := range r.workers {
		wk := cacheline.New[worker]()
		wk.expand = sp.NewExpander()
		wk.batch = make([]uint64, 0, opt.Batch)
		wk.nbrs = make([]uint64, 0, 4*opt.Batch)
		wk.cand = make([]uint64, 0, 4*opt.Batch)
		if opt.Lean {
			wk.ends = make([]int, 0, opt.Batch)
		}
		r.workers[i] = wk
	}
	if sh, ok := sp.(Shifted); ok && !opt.NoShifts {
		r.shiftLo, r.shiftHi, r.shiftBy = sh.MoveShifts()
		if len(r.shiftHi) != len(r.shiftLo) || len(r.shiftBy) != len(r.shiftLo) {
			return nil, fmt.Errorf("twobit: the space lists %d runs, %d ends and %d shifts", len(r.shiftLo), len(r.shiftHi), len(r.shiftBy))
		}
		for i, lo := range r.shiftLo {
			if !ShiftInside(lo, r.shiftHi[i], r.shiftBy[i], n) {
				return nil, fmt.Errorf("twobit: the space's shift of [%d, %d) by %d is not of whole words inside its %d slots", lo, r.shiftHi[i], r.shiftBy[i], n)
			}
		}
		if h, ok := sp.(Holed); !ok || h.HasHoles() {
			r.holed = true
		}
		if len(r.shiftLo) > 0 {
			for _, wk := range r.workers {
				wk.rest = sh.NewRestExpander()
				wk.shifts = make([]int64, 0, len(r.shiftLo))
			}
		}
	}
	cp := opt.Resume
	if cp != nil {
		if cp.Codes == nil || cp.Codes.Len() != n || !cp.Lean() && !cp.Half && uint64(len(cp.Recent)) != (n+63)/64 {
			return nil, errors.New("twobit: the checkpoint is not of this space")
		}
		if cp.Lean() && !opt.Lean {
			return nil, errors.New("twobit: a lean checkpoint (no recent bits) resumes only a lean search")
		}
		if cp.Half != opt.Half {
			return nil, fmt.Errorf("twobit: a checkpoint of codes %s cannot resume a search of codes %s", codesName(cp.Half), codesName(opt.Half))
		}
		if opt.Lean {
			cp.Release() // a full checkpoint's recent bits: a lean search does without
		}
		for i := range r.cur {
			r.cur[i] = ^uint64(0) // the frontier may be anywhere
		}
		for _, c := range cp.Counts {
			r.reached.Add(c)
		}
		r.base = r.reached.Load()
	} else {
		codes := NewCodes(n)
		cp = &Checkpoint{Codes: codes, Counts: []uint64{}, Half: opt.Half}
		if !opt.Lean && !opt.Half {
			recentBuf := bigmem.New((n + 63) / 64 * 8)
			cp.Recent, cp.recentBuf = recentBuf.Words(), recentBuf
			for i := range cp.Recent {
				cp.Recent[i] = ^uint64(0)
			}
		}
		for _, g := range sp.Goals() {
			if g >= n {
				return nil, fmt.Errorf("twobit: goal slot %d out of range [0, %d)", g, n)
			}
			first := uint64(3) // level 0's code: d mod 3, or 2 (reached, not expanded)
			if opt.Half {
				first = 1
			}
			codes.Words[g>>5] &^= first << (g & 31 * 2)
			r.cur[g>>chunkLog>>6] |= 1 << (g >> chunkLog & 63)
		}
	}
	r.codes, r.recent = cp.Codes.Words, cp.Recent
	ok := false
	defer func() {
		if !ok {
			cp.Codes.Release()
			cp.Release()
		}
	}()
	if opt.Half {
		if err := r.findHalfSides(true); err != nil {
			return nil, err
		}
		if opt.Resume != nil {
			if err := r.checkHalfFrontier(uint64(len(cp.Counts))); err != nil {
				return nil, err
			}
		}
	}
	stop := r.reportProgress(start)
	defer stop()
	if opt.Lean {
		if err := r.searchLean(ctx, cp, opt.Resume != nil); err != nil {
			return nil, err
		}
	}
	for !opt.Lean && anySet(r.cur) {
		d := uint64(len(cp.Counts))
		if d > sp.DepthBound() {
			return nil, fmt.Errorf("twobit: remoteness %d is beyond the space's depth bound %d", d, sp.DepthBound())
		}
		r.level.Store(int64(d))
		count, err := r.expandLevel(ctx, d)
		if err != nil {
			return nil, err
		}
		if count == 0 {
			break // a resumed search whose last level was empty
		}
		cp.Counts = append(cp.Counts, count)
		r.cur, r.next = r.next, r.cur
		clear(r.next)
		if opt.AfterLevel != nil && anySet(r.cur) {
			if err := opt.AfterLevel(cp); err != nil {
				return nil, fmt.Errorf("twobit: after level %d: %w", d, err)
			}
		}
	}
	cp.Release()
	res := &Result{Codes: cp.Codes, Counts: cp.Counts, Half: opt.Half}
	for _, c := range cp.Counts {
		res.Reached += c
	}
	if err := r.classify(ctx, res); err != nil {
		return nil, err
	}
	ok = true
	res.Elapsed = time.Since(start)
	return res, nil
}

func anySet(words []uint64) bool {
	for _, w := range words {
		if w != 0 {
			return true
		}
	}
	return false
}

// spread moves bit i of x to bit 2i.
func spread(x uint64) uint64 {
	x &= 0xffffffff
	x = (x | x<<16) & 0x0000ffff0000ffff
	x = (x | x<<8) & 0x00ff00ff00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f0f0f0f0f
	x = (x | x<<2) & 0x3333333333333333
	x = (x | x<<1) & evenBits
	return x
}

// squeeze moves bit 2i of x to bit i (the inverse of spread on even bits).
func squeeze(x uint64) uint64 {
	x &= evenBits
	x = (x | x>>1) & 0x3333333333333333
	x = (x | x>>2) & 0x0f0f0f0f0f0f0f0f
	x = (x | x>>4) & 0x00ff00ff00ff00ff
	x = (x | x>>8) & 0x0000ffff0000ffff
	x = (x | x>>16) & 0xffffffff
	return x
}

// match returns a bit at position 2i for every code i of w equal to c.
func match(w uint64, c uint64) uint64 {
	x := w ^ c*evenBits
	return ^(x | x>>1) & evenBits
}

// expandLevel expands the frontier of level d and returns its size: the slots of code d
// mod 3 not yet expanded, or in a half-depth search those of code 2 on side d mod 2,
// which it gives their final code ⌊d/2⌋ mod 2 as it finds them. The slots it reaches
// first get code d+1 mod 3 (half-depth: 2) and their chunks are flagged in r.next.
func (r *run) expandLevel(ctx context.Context, d uint64) (uint64, error) {
	c, nc := d%3, (d+1)%3
	var skip []uint64
	if r.opt.Half {
		c, nc = halfOpen, halfOpen
		skip = r.side[(d+1)%2]
	}
	clr := (3 ^ nc) // the bits of code 3 that code nc has clear
	return r.eachChunk(ctx, func(wk *worker, ci uint64) {
		if r.cur[ci>>6]&(1<<(ci&63)) == 0 || skip != nil && skip[ci>>6]&(1<<(ci&63)) != 0 {
			return
		}
		lo := ci * (chunkSize / 32)
		hi := min(lo+chunkSize/32, uint64(len(r.codes)))
		sides := r.mixed[ci] // half-depth, a chunk of both sides
		batch := wk.batch[:0]
		for wi := lo; wi < hi; wi++ {
			f := match(atomic.LoadUint64(&r.codes[wi]), c)
			if f == 0 {
				continue
			}
			if r.opt.Half {
				// Code 2 on the other side is level d+1, reached by this level.
				if sides != nil {
					onSide := sides[wi-lo] // side 1
					if d%2 == 0 {
						onSide = ^onSide
					}
					f &= onSide
				}
				if f == 0 {
					continue
				}
				// No one reads level d's codes during level d (its neighbours are all on
				// the other side), but in a chunk of both sides the other side's slots of
				// the word may be set. Code 2 (binary 10) becomes 0 or 1.
				final := f << 1
				if d/2%2 == 1 {
					final |= f
				}
				if sides == nil {
					r.codes[wi] ^= final // no other worker touches a word of this side now
				} else {
					atomic.AndUint64(&r.codes[wi], ^(f << 1))
					atomic.OrUint64(&r.codes[wi], f&final)
				}
			} else {
				ri, sh := wi>>1, wi&1*32
				f &= spread(r.recent[ri] >> sh)
				if f == 0 {
					continue
				}
				r.recent[ri] &^= squeeze(f) << sh
			}
			for _, dw := range wk.shifts {
				r.shiftPush(uint64(int64(wi)+dw), f, clr)
			}
			wk.found += uint64(bits.OnesCount64(f))
			base := wi << 5
			for f != 0 {
				batch = append(batch, base+uint64(bits.TrailingZeros64(f)>>1))
				f &= f - 1
			}
			if len(batch) >= cap(batch)-32 {
				r.expandBatch(wk, batch, nc, clr)
				batch = batch[:0]
			}
		}
		if len(batch) > 0 {
			r.expandBatch(wk, batch, nc, clr)
		}
		wk.batch = batch[:0]
	})
}

// eachChunk runs visit on every chunk of slots, in parallel, each worker with its own
// tallies, and returns the sum of what they found; the reached count follows chunk by
// chunk.
func (r *run) eachChunk(ctx context.Context, visit func(wk *worker, ci uint64)) (uint64, error) {
	for _, wk := range r.workers {
		wk.found, wk.reported = 0, 0
	}
	chunks := (r.n + chunkSize - 1) / chunkSize
	err := parallel.ForWorkers(ctx, r.workers, chunks, 1, func(wk *worker, ci, _ uint64) error {
		r.chunkShifts(wk, ci)
		visit(wk, ci)
		r.reached.Add(wk.found - wk.reported)
		wk.reported = wk.found
		return nil
	})
	var found uint64
	for _, wk := range r.workers {
		found += wk.found
	}
	return found, err
}

// ShiftInside reports whether the run [lo, hi) shifted by delta is of whole code words
// (multiples of 32, delta not 0) and stays inside n slots, without overflow.
func ShiftInside(lo, hi uint64, delta int64, n uint64) bool {
	if lo%32 != 0 || hi%32 != 0 || delta%32 != 0 || delta == 0 || lo >= hi || hi > n {
		return false
	}
	if delta > 0 {
		return uint64(delta) <= n-hi
	}
	return uint64(-delta) <= lo // −MinInt64 wraps to 2^63 as a uint64: beyond any lo
}

// chunkShifts sets wk.exp and wk.shifts for chunk ci: the rest expander and the shifts
// (in code words) where every shift covers the chunk whole or not at all, else the
// expander alone.
func (r *run) chunkShifts(wk *worker, ci uint64) {
	wk.exp, wk.shifts = wk.expand, wk.shifts[:0]
	if len(r.shiftLo) == 0 {
		return
	}
	lo := ci * chunkSize
	hi := min(lo+chunkSize, r.n)
	for i, slo := range r.shiftLo {
		shi := r.shiftHi[i]
		switch {
		case slo <= lo && hi <= shi:
			wk.shifts = append(wk.shifts, r.shiftBy[i]/32)
		case slo < hi && lo < shi:
			wk.shifts = wk.shifts[:0] // covered in part
			return
		}
	}
	if len(wk.shifts) > 0 {
		wk.exp = wk.rest
	}
}

// shiftPush sets to code nc (clr: the bits of code 3 that nc has clear) each unreached
// slot of code word tw whose bit 2i is set in f and flags its chunk in r.next.
func (r *run) shiftPush(tw uint64, f, clr uint64) {
	p := &r.codes[tw]
	u := match(atomic.LoadUint64(p), NotReached) & f
	if u == 0 {
		return
	}
	// The old value unused, the AND is one locked instruction, not a compare-and-swap
	// loop.
	atomic.AndUint64(p, ^(u * clr))
	r.flagNext(tw)
}

// shiftPushCount is shiftPush returning how many slots it set (another worker may set
// some of them first).
func (r *run) shiftPushCount(tw uint64, f, clr uint64) uint64 {
	p := &r.codes[tw]
	u := match(atomic.LoadUint64(p), NotReached) & f
	if u == 0 {
		return 0
	}
	set := match(atomic.AndUint64(p, ^(u*clr)), NotReached) & u
	r.flagNext(tw)
	return uint64(bits.OnesCount64(set))
}

// flagNext flags the chunk of code word w in r.next.
func (r *run) flagNext(w uint64) {
	if ci := w << 5 >> chunkLog; atomic.LoadUint64(&r.next[ci>>6])&(1<<(ci&63)) == 0 {
		atomic.OrUint64(&r.next[ci>>6], 1<<(ci&63))
	}
}

// expandBatch sets every unreached neighbour of the slots of batch to code nc and flags
// its chunk. A neighbour two workers both find unreached is set by both, to the same
// code: harmless, and cheaper than learning which one did it (an atomic AND whose old
// value is used is a compare-and-swap loop; one whose value is not, one locked AND).
func (r *run) expandBatch(wk *worker, batch []uint64, nc, clr uint64) {
	nbrs := wk.exp(wk.nbrs[:0], batch)
	codes := r.codes
	cand := r.unreached(wk, nbrs)
	last := ^uint64(0) // the chunk flagged last: neighbours come in runs of one chunk
	for _, s := range cand {
		atomic.AndUint64(&codes[s>>5], ^(clr << (s & 31 * 2)))
		if ci := s >> chunkLog; ci != last {
			last = ci
			if atomic.LoadUint64(&r.next[ci>>6])&(1<<(ci&63)) == 0 {
				atomic.OrUint64(&r.next[ci>>6], 1<<(ci&63))
			}
		}
	}
	wk.nbrs, wk.cand = nbrs, cand
}

// unreached returns the slots of nbrs not reached yet, in wk.cand. The loads are
// independent of each other and of any branch (a branch on a code that misses the
// cache, mispredicted, would throw away the loads issued after it): their misses overlap.
func (r *run) unreached(wk *worker, nbrs []uint64) []uint64 {
	if cap(wk.cand) < len(nbrs) {
		wk.cand = make([]uint64, 0, len(nbrs))
	}
	codes := r.codes
	cand, k := wk.cand[:len(nbrs)], 0
	for _, s := range nbrs {
		cand[k] = s
		k += int(atomic.LoadUint64(&codes[s>>5])>>(s&31*2)&3+1) >> 2 // 1 for NotReached (3), else 0
	}
	return cand[:k]
}

// classify counts the slots no level reached: holes and unreachable states.
func (r *run) classify(ctx context.Context, res *Result) error {
	var notReached atomic.Uint64
	var holes atomic.Uint64
	mayHaveHoles := true
	if h, ok := r.sp.(Holed); ok {
		mayHaveHoles = h.HasHoles()
	}
	err := parallel.For(ctx, len(r.workers), uint64(len(r.codes)), 1<<14, func(lo, hi uint64) error {
		var nr, h uint64
		for wi := lo; wi < hi; wi++ {
			w := r.codes[wi]
			m := w & (w >> 1) & evenBits
			if wi == uint64(len(r.codes))-1 && r.n&31 != 0 {
				m &= 1<<(r.n&31*2) - 1 // the codes past the last slot
			}
			nr += uint64(bits.OnesCount64(m))
			if mayHaveHoles {
				for m != 0 {
					if r.sp.IsHole(wi<<5 + uint64(bits.TrailingZeros64(m)>>1)) {
						h++
					}
					m &= m - 1
				}
			}
		}
		notReached.Add(nr)
		holes.Add(h)
		return nil
	})
	if err != nil {
		return err
	}
	res.Holes = holes.Load()
	res.Unreachable = notReached.Load() - res.Holes
	if res.Reached+notReached.Load() != r.n {
		return fmt.Errorf("twobit: internal error: %d reached and %d not reached of %d slots", res.Reached, notReached.Load(), r.n)
	}
	return nil
}

func (r *run) reportProgress(start time.Time) func() {
	return builder.Report(r.opt.Progress, r.opt.ProgressEvery, r.sp, func() builder.Progress {
		return builder.Progress{Level: int(r.level.Load()), Reached: r.reached.Load(), Base: r.base, Slots: r.n, Elapsed: time.Since(start)}
	})
}

// searchLean runs the levels of a lean search (no recent bits): cp.Counts holds the
// levels expanded so far, and the states of the next level are the slots of its code
// that the earlier levels of that code do not account for.
func (r *run) searchLean(ctx context.Context, cp *Checkpoint, resumed bool) error {
	reversible := false
	if rv, ok := r.sp.(Reversible); ok {
		reversible = rv.MovesReversible()
	}
	sided, err := r.findSides()
	if err != nil {
		return err
	}
	var frontier uint64
	if resumed {
		frontier = r.leanFrontier(cp.Counts)
		r.reached.Add(frontier)
		r.base = r.reached.Load()
	} else {
		goals := slices.Clone(r.sp.Goals())
		slices.Sort(goals)
		frontier = uint64(len(slices.Compact(goals)))
		r.reached.Store(frontier)
	}
	for frontier > 0 {
		d := uint64(len(cp.Counts))
		if d > r.sp.DepthBound() {
			return fmt.Errorf("twobit: remoteness %d is beyond the space's depth bound %d", d, r.sp.DepthBound())
		}
		r.level.Store(int64(d))
		cp.Counts = append(cp.Counts, frontier)
		pushCost, pullCost := r.leanCosts(cp.Counts, sided)
		pull := reversible && pullCost < pushCost
		if r.opt.LeanLevel != nil {
			r.opt.LeanLevel(d, pull)
		}
		next, err := r.expandLevelLean(ctx, d, pull)
		if err != nil {
			return err
		}
		r.cur, r.next = r.next, r.cur
		clear(r.next)
		frontier = next
		if r.opt.AfterLevel != nil && frontier > 0 {
			if err := r.opt.AfterLevel(cp); err != nil {
				return fmt.Errorf("twobit: after level %d: %w", d, err)
			}
		}
	}
	return nil
}

// findSides flags, for a Sided space, the chunks whose states are all on one side and
// counts their slots; it reports whether any chunk is, and refuses a space whose goals
// are not on side 0 (its levels would be skipped on the wrong side).
func (r *run) findSides() (bool, error) {
	sd, ok := r.sp.(Sided)
	if !ok {
		return false, nil
	}
	for _, g := range r.sp.Goals() {
		if side, ok := sd.RunSide(g, g+1); !ok || side != 0 {
			return false, fmt.Errorf("twobit: the space says goal slot %d is on side %d (answered %v), not side 0", g, side, ok)
		}
	}
	side := [2][]uint64{make([]uint64, len(r.cur)), make([]uint64, len(r.cur))}
	var n [2]uint64
	for ci := uint64(0); ci*chunkSize < r.n; ci++ {
		lo := ci * chunkSize
		hi := min(lo+chunkSize, r.n)
		if s, ok := sd.RunSide(lo, hi); ok && s < 2 {
			side[s][ci>>6] |= 1 << (ci & 63)
			n[s] += hi - lo
		}
	}
	if n[0]+n[1] == 0 {
		return false, nil // no chunk of one side: nothing to skip
	}
	r.side, r.sideN = side, n
	return true, nil
}

// halfOpen is a half-depth search's code of a slot reached and not yet expanded.
const halfOpen = 2

func codesName(half bool) string {
	if half {
		return "⌊d/2⌋ mod 2 (half-depth)"
	}
	return "d mod 3"
}

// maxMixedShare bounds the slots of a half-depth search's chunks of both sides (whose
// side masks it holds, 2 bits a slot): a scheme that interleaves the sides slot by slot
// (slide's mr and branch767359) would need as much again as the codes.
const maxMixedShare = 8

// CheckHalf returns nil if a half-depth search (Options.Half) can search sp, or why it
// cannot: sp has no sides (Sided), its goals are not on side 0, or its index scheme
// interleaves the sides (more than an eighth of its slots, and more than 2^22, in chunks
// of both: a small space's side masks cost little).
func CheckHalf(sp Space) error {
	n := sp.Slots()
	chunks := (n + chunkSize - 1) / chunkSize
	r := &run{sp: sp, n: n, cur: make([]uint64, (chunks+63)/64)}
	return r.findHalfSides(false)
}

// SideMaskBytes is the memory a half-depth search of sp holds beside MemoryEstimate: the
// side masks of its chunks of both sides, 2 bits a slot (at most an eighth of the codes,
// or 1 MiB: CheckHalf refuses more); 0 where sp cannot be searched half-depth.
func SideMaskBytes(sp Space) uint64 {
	n := sp.Slots()
	chunks := (n + chunkSize - 1) / chunkSize
	r := &run{sp: sp, n: n, cur: make([]uint64, (chunks+63)/64)}
	if r.findHalfSides(false) != nil {
		return 0
	}
	mixed := n - r.sideN[0] - r.sideN[1]
	return CodesBytes(mixed) + mixed/chunkSize*64 // the masks, and a map entry a chunk
}

// findHalfSides prepares a half-depth search: it needs a Sided space with its goals on
// side 0, flags the chunks of one side, and (masks) holds a side mask for each chunk of
// both.
func (r *run) findHalfSides(masks bool) error {
	sd, ok := r.sp.(Sided)
	if !ok {
		return errors.New("twobit: a half-depth search needs a space of two sides that every move crosses (games.Sided)")
	}
	if _, err := r.findSides(); err != nil {
		return err
	}
	if r.side[0] == nil {
		r.side = [2][]uint64{make([]uint64, len(r.cur)), make([]uint64, len(r.cur))}
	}
	mixed := r.n - r.sideN[0] - r.sideN[1]
	if mixed > r.n/maxMixedShare && mixed > 1<<22 {
		return fmt.Errorf("twobit: a half-depth search needs the index scheme to keep each side in long runs of slots; %d of %d slots lie in chunks of both sides", mixed, r.n)
	}
	if !masks {
		return nil
	}
	r.mixed = map[uint64][]uint64{}
	for ci := uint64(0); ci*chunkSize < r.n; ci++ {
		if (r.side[0][ci>>6]|r.side[1][ci>>6])&(1<<(ci&63)) != 0 {
			continue
		}
		lo := ci * chunkSize
		hi := min(lo+chunkSize, r.n)
		mask := make([]uint64, (hi-lo+31)/32)
		for wi := range mask {
			wlo := lo + uint64(wi)*32
			whi := min(wlo+32, hi)
			if side, ok := sd.RunSide(wlo, whi); ok {
				mask[wi] = uint64(side) * evenBits
				continue
			}
			for s := wlo; s < whi; s++ {
				side, ok := sd.RunSide(s, s+1)
				if !ok {
					return fmt.Errorf("twobit: the space gives no side for slot %d", s)
				}
				mask[wi] |= uint64(side&1) << (s & 31 * 2)
			}
		}
		r.mixed[ci] = mask
	}
	return nil
}

// checkHalfFrontier checks a resumed half-depth search's codes against the sides: the
// slots of code 2 are level d's, all on side d mod 2. One on the other side (a checkpoint
// made by another program, or damaged past its checksums) would be taken for a state of
// the level after and counted there.
func (r *run) checkHalfFrontier(d uint64) error {
	wrong := (d + 1) % 2
	for ci := uint64(0); ci*chunkSize < r.n; ci++ {
		if r.side[d%2][ci>>6]&(1<<(ci&63)) != 0 {
			continue
		}
		lo := ci * (chunkSize / 32)
		hi := min(lo+chunkSize/32, uint64(len(r.codes)))
		sides := r.mixed[ci] // nil: the whole chunk is on the wrong side
		for wi := lo; wi < hi; wi++ {
			f := match(r.codes[wi], halfOpen)
			if wi == uint64(len(r.codes))-1 && r.n&31 != 0 {
				f &= 1<<(r.n&31*2) - 1 // the codes past the last slot
			}
			if sides != nil {
				onWrong := sides[wi-lo] // side 1
				if wrong == 0 {
					onWrong = ^onWrong
				}
				f &= onWrong
			}
			if f != 0 {
				slot := wi<<5 + uint64(bits.TrailingZeros64(f))>>1
				return fmt.Errorf("twobit: the checkpoint's slot %d, on side %d, holds code 2, which after level %d only slots on side %d may: %w",
					slot, wrong, d-1, d%2, ErrCheckpoint)
			}
		}
	}
	return nil
}

// leanCosts estimates the slots that level d = len(counts)-1 visits if it pushes and if
// it pulls; each visit costs about an expansion. Push expands every slot of code d mod 3
// in the chunks the level before reached, pull every unreached slot (holes and
// unreachable states included). In a sided space, the one-side chunks hold only the
// states of d, d−6, … of that code, and a pull visits only those of side d+1 mod 2; the
// chunks of both sides (a fraction m of the slots) hold their share of every level and
// of the unreached slots, and about half of their slots are on each side.
func (r *run) leanCosts(counts []uint64, sided bool) (push, pull float64) {
	d := len(counts) - 1
	var reached [2]float64 // by side
	for k, c := range counts {
		reached[k%2] += float64(c)
	}
	unreached := float64(r.n) - reached[0] - reached[1]
	if !sided {
		for k := d; k >= 0; k -= 3 {
			push += float64(counts[k])
		}
		return push, unreached
	}
	s := (d + 1) % 2
	mixed := float64(r.n - r.sideN[0] - r.sideN[1])
	m := mixed / float64(r.n)
	for k := d; k >= 0; k -= 6 {
		push += float64(counts[k])
		if k >= 3 {
			push += m * float64(counts[k-3])
		}
	}
	one := float64(r.sideN[s])               // the slots of side s's one-side chunks
	onSide := max(0, one+mixed/2-reached[s]) // side s's unreached slots
	pull = onSide*one/(one+mixed/2) + m*unreached
	return push, pull
}

// leanFrontier is the size of the level after those counted: the slots of its code less
// the states of the earlier levels of that code.
func (r *run) leanFrontier(counts []uint64) uint64 {
	d := len(counts)
	var have uint64
	for wi, w := range r.codes {
		m := match(w, uint64(d%3))
		if wi == len(r.codes)-1 && r.n&31 != 0 {
			m &= 1<<(r.n&31*2) - 1
		}
		have += uint64(bits.OnesCount64(m))
	}
	for k := d - 3; k >= 0; k -= 3 {
		have -= counts[k]
	}
	return have
}

// expandLevelLean finds level d+1 from level d in a lean search, by push or by pull, and
// returns its size. The slots it reaches get code d+1 mod 3 and their chunks are
// flagged in r.next.
func (r *run) expandLevelLean(ctx context.Context, d uint64, pull bool) (uint64, error) {
	c, nc := d%3, (d+1)%3
	clr := (3 ^ nc)
	// Level d is on side d mod 2 and level d+1 on the other: a push skips the chunks
	// whose states are all on side d+1 mod 2, a pull those all on side d mod 2.
	skip := r.side[(d+1)%2]
	if pull {
		skip = r.side[d%2]
	}
	return r.eachChunk(ctx, func(wk *worker, ci uint64) {
		// full is set by the other workers as they finish their chunks; cur only
		// between levels.
		if pull && atomic.LoadUint64(&r.full[ci>>6])&(1<<(ci&63)) != 0 || !pull && r.cur[ci>>6]&(1<<(ci&63)) == 0 ||
			skip != nil && skip[ci>>6]&(1<<(ci&63)) != 0 {
			return
		}
		lo := ci * (chunkSize / 32)
		hi := min(lo+chunkSize/32, uint64(len(r.codes)))
		want := c // push: the slots of the frontier's code
		if pull {
			want = NotReached
		}
		before := wk.found
		batch := wk.batch[:0]
		seen := false // a slot of the code looked for
		for wi := lo; wi < hi; wi++ {
			f := match(atomic.LoadUint64(&r.codes[wi]), want)
			if wi == uint64(len(r.codes))-1 && r.n&31 != 0 {
				f &= 1<<(r.n&31*2) - 1 // the codes past the last slot
			}
			if f == 0 {
				continue
			}
			seen = true
			if len(wk.shifts) > 0 {
				f = r.leanShifts(wk, wi, f, pull, c, clr)
			}
			base := wi << 5
			for f != 0 {
				batch = append(batch, base+uint64(bits.TrailingZeros64(f)>>1))
				f &= f - 1
			}
			if len(batch) >= cap(batch)-32 {
				r.leanBatch(wk, batch, pull, c, nc, clr)
				batch = batch[:0]
			}
		}
		if len(batch) > 0 {
			r.leanBatch(wk, batch, pull, c, nc, clr)
		}
		wk.batch = batch[:0]
		if pull && !seen {
			atomic.OrUint64(&r.full[ci>>6], 1<<(ci&63))
		}
		if pull && wk.found > before {
			atomic.OrUint64(&r.next[ci>>6], 1<<(ci&63))
		}
	})
}

// leanShifts does a lean level's work over the chunk's shifts for the slots f of code
// word wi: pushing, it sets the unreached slots the shifts reach from them; pulling, it
// sets each of them with a neighbour of code c across a shift, and returns the others,
// which still look for one among the rest of their moves.
func (r *run) leanShifts(wk *worker, wi, f uint64, pull bool, c, clr uint64) uint64 {
	if !pull {
		for _, dw := range wk.shifts {
			wk.found += r.shiftPushCount(uint64(int64(wi)+dw), f, clr)
		}
		return f
	}
	var found uint64
	for _, dw := range wk.shifts {
		found |= f & match(atomic.LoadUint64(&r.codes[int64(wi)+dw]), c)
	}
	if r.holed {
		// A run promises neighbours to its states only: a hole in it is never reached.
		for m := found; m != 0; m &= m - 1 {
			if i := uint64(bits.TrailingZeros64(m)); r.sp.IsHole(wi<<5 + i>>1) {
				found &^= 1 << i
			}
		}
	}
	if found != 0 {
		// Only this worker writes the slots of its chunk in a pull.
		atomic.AndUint64(&r.codes[wi], ^(found * clr))
		wk.found += uint64(bits.OnesCount64(found))
	}
	return f &^ found
}

// leanBatch pushes from the slots of batch (setting their unreached neighbours to code
// nc, counting those it sets) or, pulling, sets to nc each slot of batch with a
// neighbour of code c.
func (r *run) leanBatch(wk *worker, batch []uint64, pull bool, c, nc, clr uint64) {
	codes := r.codes
	if !pull {
		nbrs := wk.exp(wk.nbrs[:0], batch)
		cand := r.unreached(wk, nbrs)
		last := ^uint64(0)
		for _, s := range cand {
			sh := s & 31 * 2
			if atomic.AndUint64(&codes[s>>5], ^(clr<<sh))>>sh&3 != NotReached {
				continue // another worker, or an earlier neighbour, set it
			}
			wk.found++
			if ci := s >> chunkLog; ci != last {
				last = ci
				if atomic.LoadUint64(&r.next[ci>>6])&(1<<(ci&63)) == 0 {
					atomic.OrUint64(&r.next[ci>>6], 1<<(ci&63))
				}
			}
		}
		wk.nbrs, wk.cand = nbrs, cand
		return
	}
	// Each slot's neighbours apart (one expander call a slot), then their codes loaded
	// together so that the misses overlap.
	nbrs, ends := wk.nbrs[:0], wk.ends[:0]
	for i := range batch {
		nbrs = wk.exp(nbrs, batch[i:i+1])
		ends = append(ends, len(nbrs))
	}
	from := 0
	for i, u := range batch {
		for _, s := range nbrs[from:ends[i]] {
			if atomic.LoadUint64(&codes[s>>5])>>(s&31*2)&3 == c {
				// Only this worker writes the slots of its chunk in a pull; the others read them.
				atomic.AndUint64(&codes[u>>5], ^(clr << (u & 31 * 2)))
				wk.found++
				break
			}
		}
		from = ends[i]
	}
	wk.nbrs, wk.ends = nbrs, ends
}
