package twobit

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/builder/internal/bfstoys"
	"github.com/tablesmith/tablesmith/games/gametest"
	"github.com/tablesmith/tablesmith/internal/racetest"
)

// pcube is the Dim-dimensional hypercube ranked with its parity (the side) at bit K of
// the slot, after Pre holes and before Post more: slots [Pre, Pre+2^Dim) are vertices,
// in runs of 2^K slots of one side, the runs alternating sides; flipping vertex bit K
// keeps the other bits and changes the side, so it moves a slot by ±2^K (a shift of
// each run). With K below 17 the runs end inside chunks; Pre and Post put holes before
// and after, and the last word of the space may be partial.
type pcube struct {
	Dim, K    int
	Pre, Post uint64
}

func (c pcube) n() uint64             { return 1 << c.Dim }
func (c pcube) Slots() uint64         { return c.Pre + c.n() + c.Post }
func (c pcube) Goals() []uint64       { return []uint64{c.slot(0)} }
func (c pcube) DepthBound() uint64    { return uint64(c.Dim) }
func (c pcube) IsHole(s uint64) bool  { return s < c.Pre || s >= c.Pre+c.n() }
func (c pcube) HasHoles() bool        { return c.Pre+c.Post > 0 }
func (c pcube) MovesReversible() bool { return true }

func (c pcube) slot(v uint64) uint64 {
	p := uint64(bits.OnesCount64(v) & 1)
	low, high := v&(1<<c.K-1), v>>(c.K+1)
	return c.Pre + (high<<(c.K+1) | p<<c.K | low)
}

func (c pcube) vertex(s uint64) uint64 {
	r := s - c.Pre
	low, p, high := r&(1<<c.K-1), r>>c.K&1, r>>(c.K+1)
	t := (p ^ uint64(bits.OnesCount64(high)) ^ uint64(bits.OnesCount64(low))) & 1
	return high<<(c.K+1) | t<<c.K | low
}

func (c pcube) RunSide(lo, hi uint64) (uint8, bool) {
	if lo >= hi || hi > c.Slots() {
		return 0, false
	}
	a, b := max(lo, c.Pre), min(hi, c.Pre+c.n())
	if a >= b {
		return 0, true // holes only
	}
	a, b = a-c.Pre, b-c.Pre
	if a>>c.K != (b-1)>>c.K {
		return 0, false
	}
	return uint8(a >> c.K & 1), true
}

// expander flips each bit of a vertex, bit K too unless rest.
func (c pcube) expander(rest bool) func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			if c.IsHole(s) {
				continue
			}
			v := c.vertex(s)
			for b := 0; b < c.Dim; b++ {
				if !rest || b != c.K {
					dst = append(dst, c.slot(v^1<<b))
				}
			}
		}
		return dst
	}
}

func (c pcube) NewExpander() func(dst, src []uint64) []uint64     { return c.expander(false) }
func (c pcube) NewRestExpander() func(dst, src []uint64) []uint64 { return c.expander(true) }

// MoveShifts: each run of 2^K slots by 2^K up (side 0's) or down (side 1's).
func (c pcube) MoveShifts() (lo, hi []uint64, delta []int64) {
	for b := range c.n() >> c.K {
		l := c.Pre + b<<c.K
		lo, hi = append(lo, l), append(hi, l+1<<c.K)
		d := int64(1) << c.K
		if b&1 == 1 {
			d = -d
		}
		delta = append(delta, d)
	}
	return lo, hi, delta
}

// TestShiftedRunsMatchTheOracle: runs that end inside chunks, holes before and after the
// states, a partial last word: every kind of search with shifts and without, 1 and 3
// workers, gives the oracle's codes and counts; and a resume after every level too.
func TestShiftedRunsMatchTheOracle(t *testing.T) {
	t.Parallel()
	cubes := []pcube{
		{Dim: 18, K: 16, Pre: 64, Post: 1},
		{Dim: 19, K: 18, Pre: 96000, Post: 45},
		{Dim: 18, K: 17, Pre: 3 * 32, Post: 7},
		{Dim: 17, K: 16, Pre: 131072 - 32, Post: 131072 + 31},
	}
	resumed := pcube{Dim: 16, K: 15, Pre: 96000, Post: 45}
	// Under the race detector (both passes): smaller instances, the same paths.
	if racetest.Enabled {
		cubes, resumed = cubes[:1], pcube{Dim: 13, K: 12, Pre: 96000, Post: 45}
	}
	for i, c := range cubes {
		gametest.CheckPuzzleSpace(t, c, 2000)
		for _, mode := range []Options{{}, {Lean: true}, {Half: true}} {
			for _, workers := range []int{1, 3} {
				for _, off := range []bool{false, true} {
					if i > 0 && (workers == 1 || off) {
						continue // one worker and no shifts on the first cube only
					}
					opt := mode
					opt.Workers, opt.NoShifts, opt.Batch = workers, off, 100
					res, err := Search(context.Background(), c, opt)
					if err != nil {
						t.Fatalf("%+v lean=%v half=%v workers=%d no shifts=%v: %v", c, mode.Lean, mode.Half, workers, off, err)
					}
					check(t, c, res)
					res.Codes.Release()
				}
			}
		}
	}
	for _, mode := range []Options{{}, {Lean: true}, {Half: true}} {
		resumeAtEveryLevel(t, resumed, mode)
	}
}

// resumeAtEveryLevel stops a search of sp after every level, resumes it from a copy of
// its state there, and checks the result against the oracle.
func resumeAtEveryLevel(t *testing.T, sp bfstoys.Space, mode Options) {
	t.Helper()
	for stopAt := 0; uint64(stopAt) < sp.DepthBound(); stopAt++ {
		opt := mode
		opt.Workers = 2
		saved := stopAfter(t, sp, opt, stopAt)
		opt.Resume, opt.Workers = saved, 3
		res, err := Search(context.Background(), sp, opt)
		if err != nil {
			t.Fatal(err)
		}
		check(t, sp, res)
		res.Codes.Release()
	}
}

// holeInRun is a pcube whose slot 2^18−1 is a hole inside the run [0, 2^18), which a
// shift takes to a state: a run promises its states' neighbours, not a hole's. A lean
// pull across the shift once found that state on the frontier and set the hole.
type holeInRun struct{ pcube }

const holeInRunSlot = 1<<18 - 1

func (c holeInRun) IsHole(s uint64) bool { return s == holeInRunSlot }
func (c holeInRun) HasHoles() bool       { return true }
func (c holeInRun) DepthBound() uint64   { return 40 } // a wrong level past 19 is seen, not refused

func (c holeInRun) expander(rest bool) func(dst, src []uint64) []uint64 {
	exp := c.pcube.expander(rest)
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			if c.IsHole(s) {
				continue
			}
			n := len(dst)
			dst = exp(dst, []uint64{s})
			k := n
			for _, x := range dst[n:] {
				if !c.IsHole(x) {
					dst[k] = x
					k++
				}
			}
			dst = dst[:k]
		}
		return dst
	}
}

func (c holeInRun) NewExpander() func(dst, src []uint64) []uint64     { return c.expander(false) }
func (c holeInRun) NewRestExpander() func(dst, src []uint64) []uint64 { return c.expander(true) }

// MoveShifts: the second run ends a word early, at the state across from the hole,
// which no longer has the hole as a neighbour.
func (c holeInRun) MoveShifts() (lo, hi []uint64, delta []int64) {
	return []uint64{0, 1 << 18}, []uint64{1 << 18, 1<<19 - 32}, []int64{1 << 18, -(1 << 18)}
}

// TestShiftedHoleIsNeverReached: a hole inside a shifted run stays not reached by every
// kind of search (a lean pull across the shift used to set it).
func TestShiftedHoleIsNeverReached(t *testing.T) {
	t.Parallel()
	sp := holeInRun{pcube{Dim: 19, K: 18}}
	gametest.CheckPuzzleSpace(t, sp, 3000)
	for _, mode := range []Options{{}, {Half: true}, {Lean: true}} {
		mode.Workers = 2
		res, err := Search(context.Background(), sp, mode)
		if err != nil {
			t.Fatal(err)
		}
		check(t, sp, res)
		res.Codes.Release()
	}
}

// badShifts lists runs and shifts the engine must refuse before any work.
type badShifts struct {
	bfstoys.SidedCube
	lo, hi []uint64
	delta  []int64
}

func (b badShifts) MoveShifts() (lo, hi []uint64, delta []int64) { return b.lo, b.hi, b.delta }
func (b badShifts) NewRestExpander() func(dst, src []uint64) []uint64 {
	return b.SidedCube.NewRestExpander()
}

// TestShiftsOutsideTheSpaceRefused: a shift that would overflow, leave the space, is not
// of whole words, or is 0, is refused with an error, never an index out of range.
func TestShiftsOutsideTheSpaceRefused(t *testing.T) {
	t.Parallel()
	cube := bfstoys.SidedCube{Dim: 18}
	for _, tc := range []badShifts{
		{cube, []uint64{0}, []uint64{1 << 17}, []int64{math.MaxInt64 &^ 31}},
		{cube, []uint64{1 << 17}, []uint64{1 << 18}, []int64{math.MinInt64}},
		{cube, []uint64{0}, []uint64{1 << 17}, []int64{1<<17 + 32}},
		{cube, []uint64{0}, []uint64{1 << 17}, []int64{0}},
		{cube, []uint64{16}, []uint64{1 << 17}, []int64{1 << 17}},
		{cube, []uint64{0, 1 << 17}, []uint64{1 << 17}, []int64{1 << 17}},
	} {
		name := fmt.Sprintf("%v %v %v", tc.lo, tc.hi, tc.delta)
		_, err := Search(context.Background(), tc, Options{Workers: 1})
		if err == nil || !strings.Contains(err.Error(), "twobit: the space") {
			t.Fatalf("%s: err %v", name, err)
		}
	}
}

// overlapping is a sided cube that lists, beside its true shifts, a false one for half
// of its first chunk (a run covers a chunk in part only where the shift holds for the
// part: this one does not, so that applying it to any slot shows).
type overlapping struct{ bfstoys.SidedCube }

func (o overlapping) MoveShifts() (lo, hi []uint64, delta []int64) {
	lo, hi, delta = o.SidedCube.MoveShifts()
	return append(lo, 0), append(hi, 1<<16), append(delta, 1<<16)
}

// TestChunkCoveredInPartUsesTheExpander: a chunk that one run covers whole and another
// in part is expanded by the whole expander, applying neither run's shift to its
// slots: the false shift changes nothing.
func TestChunkCoveredInPartUsesTheExpander(t *testing.T) {
	t.Parallel()
	sp := overlapping{bfstoys.SidedCube{Dim: 19}}
	for _, mode := range []Options{{}, {Lean: true}, {Half: true}} {
		mode.Workers = 2
		res, err := Search(context.Background(), sp, mode)
		if err != nil {
			t.Fatal(err)
		}
		check(t, sp.SidedCube, res)
		res.Codes.Release()
	}
}
