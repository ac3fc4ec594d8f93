// Package onepass is the one-pass engine of two-player games: it solves a unit of one tier
// none of whose moves stays in it, every position's value following from its children's,
// solved before, by the one combining rule (values.WDLCodes.OfMoves). It knows a tier only
// through the small interfaces here: a worker hands it, a chunk at a time, the positions in
// an order of the game's choosing and the codes of their children, already read; the
// engine combines them and writes each position's code where its slot says.
package onepass

import (
	"context"
	"fmt"
	"slices"

	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/parallel"
	"github.com/tablesmith/tablesmith/values"
)

// Space is a tier as the engine sees it: Slots() positions, and a worker per goroutine.
type Space interface {
	Slots() uint64
	NewWorker() Worker
}

// Worker fills a batch for positions lo..hi−1 of its order (a permutation of the tier's
// slots over 0..Slots()−1: the order in which the children of neighbouring positions lie
// close together, or the slots themselves); one goroutine uses it.
type Worker interface {
	Expand(lo, hi uint64, b *Batch) error
}

// Batch is a worker's answer for a chunk, reused from call to call.
type Batch struct {
	Slots []uint64 // the chunk's positions, in the worker's order: their slots
	Off   []int    // len(Slots)+1 offsets into Codes
	Codes []uint16 // the codes of the positions' children, position after position
	// Over lists the positions of the chunk over by the rules, by their index in the
	// chunk, in order: each takes Code, whatever its children.
	Over []Over
}

// Over is a position of a chunk over by the rules, with its code.
type Over struct {
	At   int
	Code uint16
}

// Reset empties b for a new chunk.
func (b *Batch) Reset() {
	b.Slots, b.Off, b.Codes, b.Over = b.Slots[:0], append(b.Off[:0], 0), b.Codes[:0], b.Over[:0]
}

// Options tune Solve.
type Options struct {
	Workers int             // 0: GOMAXPROCS
	Layout  values.WDLCodes // the layout of the codes read and written
	Chunk   uint64          // positions a worker takes at a time (0: 4096)
}

// Solve solves sp: the code of every slot, in memory outside the Go heap (the caller
// releases mem once done with the codes). A worker that names a slot out of range, a
// slot twice or never, gives children to a position over by the rules, or a batch of the
// wrong shape, fails the solve with what it did.
func Solve(ctx context.Context, sp Space, opt Options) (codes []uint16, mem *bigmem.Buf, err error) {
	n := sp.Slots()
	chunk := opt.Chunk
	if chunk == 0 {
		chunk = 1 << 12
	}
	// Written at random when the worker orders the positions: on huge pages.
	mem = bigmem.New(2 * n)
	defer func() {
		if err != nil {
			mem.Release()
			codes, mem = nil, nil
		}
	}()
	codes = mem.Uint16s()
	type state struct {
		w      Worker
		b      Batch
		values []uint16
	}
	err = parallel.ForEach(ctx, opt.Workers, n, chunk, func() *state { return &state{w: sp.NewWorker()} }, func(st *state, lo, hi uint64) error {
		b := &st.b
		b.Reset()
		if err := st.w.Expand(lo, hi, b); err != nil {
			return err
		}
		if err := check(b, hi-lo, n); err != nil {
			return fmt.Errorf("onepass: positions %d..%d: %w", lo, hi, err)
		}
		st.values = st.values[:0]
		for p := range b.Slots {
			c := opt.Layout.OfMoves(b.Codes[b.Off[p]:b.Off[p+1]])
			if c > 0xFFFF {
				return fmt.Errorf("onepass: slot %d: remoteness beyond 16-bit codes", b.Slots[p])
			}
			st.values = append(st.values, uint16(c))
		}
		for _, o := range b.Over {
			st.values[o.At] = o.Code
		}
		// The order scatters the writes over the tier: apart from the work above, in a
		// loop of stores alone, they overlap as a gather's reads do.
		for p, s := range b.Slots {
			codes[s] = st.values[p]
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	// Every position has a code of at least 1 (a draw) and the workers visited n of them:
	// a slot left at 0 was never visited (or another twice).
	if s := slices.Index(codes, 0); s >= 0 {
		return nil, nil, fmt.Errorf("onepass: the worker's order never visits slot %d (of %d)", s, n)
	}
	return codes, mem, nil
}

// check checks the shape of a batch for k positions of a tier of n slots.
func check(b *Batch, k, n uint64) error {
	if uint64(len(b.Slots)) != k || len(b.Off) != len(b.Slots)+1 || b.Off[0] != 0 || b.Off[len(b.Slots)] != len(b.Codes) {
		return fmt.Errorf("a batch of %d slots, %d offsets and %d codes for %d positions", len(b.Slots), len(b.Off), len(b.Codes), k)
	}
	for p, s := range b.Slots {
		if s >= n {
			return fmt.Errorf("the worker's order names slot %d of %d", s, n)
		}
		if b.Off[p+1] < b.Off[p] {
			return fmt.Errorf("offsets %d, %d of positions %d, %d decrease", b.Off[p], b.Off[p+1], p, p+1)
		}
	}
	last := -1
	for _, o := range b.Over {
		if o.At <= last || o.At >= len(b.Slots) {
			return fmt.Errorf("a position over by the rules listed out of order or outside the batch (index %d of %d)", o.At, len(b.Slots))
		}
		if b.Off[o.At+1] != b.Off[o.At] {
			return fmt.Errorf("position %d of the batch is over by the rules but has %d children", o.At, b.Off[o.At+1]-b.Off[o.At])
		}
		last = o.At
	}
	return nil
}
