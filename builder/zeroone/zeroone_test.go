package zeroone

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/builder/internal/levels"
	"github.com/tablesmith/tablesmith/index"
)

// zoGraph is an explicit graph with 0- and 1-cost edges, both stored symmetric.
type zoGraph struct {
	slots      uint64
	eb         int
	goals      []uint64
	zero, unit [][]uint64
}

func (g *zoGraph) Slots() uint64      { return g.slots }
func (g *zoGraph) EntryBits() int     { return g.eb }
func (g *zoGraph) Goals() []uint64    { return g.goals }
func (g *zoGraph) DepthBound() uint64 { return 253 }
func (g *zoGraph) NewExpanders() (zero, unit func(dst, src []uint64) []uint64) {
	adj := func(lists [][]uint64) func(dst, src []uint64) []uint64 {
		return func(dst, src []uint64) []uint64 {
			for _, s := range src {
				dst = append(dst, lists[s]...)
			}
			return dst
		}
	}
	return adj(g.zero), adj(g.unit)
}

// zoRandomGraph makes a sparse random graph: zero-cost edges mostly inside an entry, some
// across; unit-cost edges anywhere; some slots isolated (unreachable).
func zoRandomGraph(rng *rand.Rand, entries uint64, eb int) *zoGraph {
	n := entries << eb
	g := &zoGraph{slots: n, eb: eb, zero: make([][]uint64, n), unit: make([][]uint64, n)}
	add := func(lists [][]uint64, a, b uint64) {
		lists[a] = append(lists[a], b)
		lists[b] = append(lists[b], a)
	}
	isolated := func(s uint64) bool { return s%17 == 5 }
	for s := range n {
		if isolated(s) {
			continue
		}
		for range 1 + rng.IntN(2) {
			t := rng.Uint64N(n)
			if !isolated(t) {
				add(g.unit, s, t)
			}
		}
		if rng.IntN(3) == 0 {
			t := s>>eb<<eb | rng.Uint64N(1<<eb) // same entry
			if rng.IntN(8) == 0 {
				t = rng.Uint64N(n) // anywhere
			}
			if !isolated(t) {
				add(g.zero, s, t)
			}
		}
	}
	g.goals = []uint64{rng.Uint64N(n), rng.Uint64N(n), 0}
	return g
}

// oracle01 is a sequential deque 0-1 BFS (Dijkstra with 0/1 weights): each slot's cost,
// -1 if unreachable.
func oracle01(sp Space) []int {
	dist := make([]int, sp.Slots())
	for i := range dist {
		dist[i] = -1
	}
	zero, unit := sp.NewExpanders()
	type item struct {
		s uint64
		d int
	}
	// The deque: front is a stack (its top is the deque's front), back a queue.
	var front, back []item
	for _, g := range sp.Goals() {
		back = append(back, item{g, 0})
	}
	done := make([]bool, sp.Slots())
	for len(front)+len(back) > 0 {
		var it item
		if len(front) > 0 {
			it, front = front[len(front)-1], front[:len(front)-1]
		} else {
			it, back = back[0], back[1:]
		}
		if done[it.s] {
			continue
		}
		done[it.s] = true
		dist[it.s] = it.d
		for _, t := range zero(nil, []uint64{it.s}) {
			if !done[t] {
				front = append(front, item{t, it.d})
			}
		}
		for _, t := range unit(nil, []uint64{it.s}) {
			if !done[t] {
				back = append(back, item{t, it.d + 1})
			}
		}
	}
	return dist
}

// checkZeroOne compares a result with the oracle's slot costs projected on entries.
func checkZeroOne(t *testing.T, sp Space, res *Result) {
	t.Helper()
	dist := oracle01(sp)
	span := uint64(1) << sp.EntryBits()
	var slotCounts, counts []uint64
	bump := func(c []uint64, d int) []uint64 {
		for len(c) <= d {
			c = append(c, 0)
		}
		c[d]++
		return c
	}
	var unreached uint64
	for e := range sp.Slots() / span {
		best := -1
		for s := e * span; s < (e+1)*span; s++ {
			if d := dist[s]; d >= 0 {
				slotCounts = bump(slotCounts, d)
				if best < 0 || d < best {
					best = d
				}
			}
		}
		got := res.Values.Get(e)
		if best < 0 {
			unreached++
			if got != res.Values.Unset() {
				t.Fatalf("entry %d: value %d, want unreached", e, got)
			}
			continue
		}
		counts = bump(counts, best)
		if got != uint64(best) {
			t.Fatalf("entry %d: value %d, want %d", e, got, best)
		}
	}
	if !slices.Equal(res.Counts, counts) || !slices.Equal(res.SlotCounts, slotCounts) {
		t.Fatalf("counts %v / slot counts %v, want %v / %v", res.Counts, res.SlotCounts, counts, slotCounts)
	}
	var reached uint64
	for _, c := range slotCounts {
		reached += c
	}
	if res.Reached != reached || res.Unreached != unreached || res.Entries != sp.Slots()/span {
		t.Fatalf("reached %d unreached %d entries %d, want %d %d %d", res.Reached, res.Unreached, res.Entries,
			reached, unreached, sp.Slots()/span)
	}
	if res.MaxValue() != len(counts)-1 {
		t.Fatalf("MaxValue %d, want %d", res.MaxValue(), len(counts)-1)
	}
}

// settlePolicies are the ways a 0-1 search can take its levels, every one of which
// must give the same values.
var settlePolicies = []levels.SettlePolicy{levels.SettleWide, levels.SettleAlways, levels.SettleNever}

func TestZeroOneBFSRandomGraphs(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for _, eb := range []int{0, 1, 3, 6} {
		for _, entries := range []uint64{1, 5, 300, 3000} {
			if testing.Short() && entries > 300 {
				continue
			}
			g := zoRandomGraph(rng, entries, eb)
			for _, opt := range []Options{{Workers: 1}, {Workers: 2, Batch: 3}, {Workers: 3, Batch: 64}} {
				for _, policy := range settlePolicies {
					opt.settle = policy
					t.Run(fmt.Sprintf("eb%d/entries%d/w%d/%v", eb, entries, opt.Workers, policy), func(t *testing.T) {
						res, err := Search(context.Background(), g, opt)
						if err != nil {
							t.Fatal(err)
						}
						checkZeroOne(t, g, res)
					})
				}
			}
		}
	}
}

// zoTiles is a sliding-tile pattern space written here independently of games/slide:
// a slot is (cells of the pattern tiles, blank cell), ranked as the pattern tuple's
// partial-permutation rank followed by the blank's digit among the free cells.
type zoTiles struct {
	rows, cols int
	tiles      []uint8 // pattern tiles
	goal       []uint8 // goal cell of each pattern tile, then of the blank
	pp         *index.PartialPerm
	eb         int
}

func newZoTiles(rows, cols int, tiles []uint8) *zoTiles {
	n := rows * cols
	ts := &zoTiles{rows: rows, cols: cols, tiles: tiles, pp: index.NewPartialPerm(n, len(tiles))}
	for _, tile := range tiles {
		ts.goal = append(ts.goal, tile-1) // blank last: tile t in cell t-1
	}
	ts.goal = append(ts.goal, uint8(n-1))
	for 1<<ts.eb < n-len(tiles) {
		ts.eb++
	}
	return ts
}

func (ts *zoTiles) Slots() uint64      { return ts.pp.Size() << ts.eb }
func (ts *zoTiles) EntryBits() int     { return ts.eb }
func (ts *zoTiles) DepthBound() uint64 { return 253 }
func (ts *zoTiles) Goals() []uint64    { return []uint64{ts.rank(ts.goal)} }

// rank maps (pattern cells..., blank cell) to a slot.
func (ts *zoTiles) rank(st []uint8) uint64 {
	k := len(ts.tiles)
	free := 0
	for c := range int(st[k]) {
		if !slices.Contains(st[:k], uint8(c)) {
			free++
		}
	}
	return ts.pp.Rank(st[:k])<<ts.eb | uint64(free)
}

// unrank is rank's inverse; ok is false for a spare slot of an entry.
func (ts *zoTiles) unrank(slot uint64) (st []uint8, ok bool) {
	k := len(ts.tiles)
	st = make([]uint8, k+1)
	ts.pp.Unrank(slot>>ts.eb, st)
	want := int(slot & (1<<ts.eb - 1))
	for c := range ts.rows * ts.cols {
		if slices.Contains(st[:k], uint8(c)) {
			continue
		}
		if want == 0 {
			st[k] = uint8(c)
			return st, true
		}
		want--
	}
	return nil, false
}

func (ts *zoTiles) adjacent(a, b int) bool {
	ra, ca, rb, cb := a/ts.cols, a%ts.cols, b/ts.cols, b%ts.cols
	return (ra == rb && (ca-cb == 1 || cb-ca == 1)) || (ca == cb && (ra-rb == 1 || rb-ra == 1))
}

func (ts *zoTiles) NewExpanders() (zero, unit func(dst, src []uint64) []uint64) {
	k := len(ts.tiles)
	gen := func(cost int) func(dst, src []uint64) []uint64 {
		return func(dst, src []uint64) []uint64 {
			for _, s := range src {
				st, ok := ts.unrank(s)
				if !ok {
					continue
				}
				blank := int(st[k])
				for c := range ts.rows * ts.cols {
					if !ts.adjacent(blank, c) {
						continue
					}
					j := slices.Index(st[:k], uint8(c))
					if (j >= 0) != (cost == 1) {
						continue
					}
					nx := slices.Clone(st)
					if j >= 0 {
						nx[j] = uint8(blank)
					}
					nx[k] = uint8(c)
					dst = append(dst, ts.rank(nx))
				}
			}
			return dst
		}
	}
	return gen(0), gen(1)
}

// zoClosedTiles is zoTiles whose zero expander returns whole closures (ZeroClosed).
type zoClosedTiles struct{ *zoTiles }

func (c zoClosedTiles) ZeroClosed() bool { return true }

func (c zoClosedTiles) NewExpanders() (zero, unit func(dst, src []uint64) []uint64) {
	step, unit := c.zoTiles.NewExpanders()
	zero = func(dst, src []uint64) []uint64 {
		for _, s := range src {
			seen := map[uint64]bool{s: true}
			todo := []uint64{s}
			for len(todo) > 0 {
				x := todo[len(todo)-1]
				todo = todo[:len(todo)-1]
				for _, y := range step(nil, []uint64{x}) {
					if !seen[y] {
						seen[y] = true
						todo = append(todo, y)
					}
				}
			}
			for x := range seen {
				if x != s || len(seen)%2 == 0 { // sometimes leave src out, as the contract allows
					dst = append(dst, x)
				}
			}
		}
		return dst
	}
	return zero, unit
}

func TestZeroOneBFSTiles(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		rows, cols int
		tiles      []uint8
	}{
		{2, 3, []uint8{1, 2}}, {2, 3, []uint8{3, 4, 5}}, {2, 3, []uint8{1, 2, 3, 4, 5}},
		{3, 3, []uint8{1, 2, 3, 4}}, {3, 3, []uint8{5, 6, 7, 8}}, {3, 3, []uint8{2, 7}},
		{2, 2, []uint8{1, 2, 3}},
	} {
		sp := newZoTiles(c.rows, c.cols, c.tiles)
		t.Run(fmt.Sprintf("%dx%d%v", c.rows, c.cols, c.tiles), func(t *testing.T) {
			t.Parallel()
			var res *Result
			for _, policy := range settlePolicies {
				var err error
				res, err = Search(context.Background(), sp, Options{Workers: 2, Batch: 16, settle: policy})
				if err != nil {
					t.Fatal(err)
				}
				checkZeroOne(t, sp, res)
				closed, err := Search(context.Background(), zoClosedTiles{sp}, Options{Workers: 2, Batch: 16, settle: policy})
				if err != nil {
					t.Fatal(err)
				}
				checkZeroOne(t, sp, closed)
			}
			// With every tile in the pattern only the goal's parity class is reachable.
			want := uint64(0)
			if len(c.tiles) == c.rows*c.cols-1 {
				want = res.Entries / 2
			}
			if res.Unreached != want {
				t.Fatalf("%d entries unreached, want %d", res.Unreached, want)
			}
		})
	}
}

func TestZeroOneBFSProgressAndErrors(t *testing.T) {
	t.Parallel()
	sp := newZoTiles(3, 3, []uint8{1, 2, 3, 4, 5})
	var calls, done atomic.Int64
	var last atomic.Uint64
	res, err := Search(context.Background(), sp, Options{Workers: 2, ProgressEvery: 1,
		Progress: func(p builder.Progress) {
			calls.Add(1)
			if p.Done {
				done.Add(1)
				last.Store(p.Reached)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if reached := res.Entries - res.Unreached; done.Load() != 1 || last.Load() != reached || calls.Load() < 1 {
		t.Fatalf("progress: %d calls, %d final, final reached %d of %d entries", calls.Load(), done.Load(), last.Load(), reached)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, sp, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	bad := &zoGraph{slots: 6, eb: 2, zero: make([][]uint64, 6), unit: make([][]uint64, 6)}
	if _, err := Search(context.Background(), bad, Options{}); err == nil || !strings.Contains(err.Error(), "entries") {
		t.Errorf("6 slots in 4-slot entries: %v", err)
	}
	bad = &zoGraph{slots: 8, eb: 2, goals: []uint64{8}, zero: make([][]uint64, 8), unit: make([][]uint64, 8)}
	if _, err := Search(context.Background(), bad, Options{}); err == nil {
		t.Error("goal out of range accepted")
	}
}

// TestFoldEntries: the lowest bit of every entry of foldEntries(x, eb) is set exactly
// when the entry has a bit set in x, for every entry size.
func TestFoldEntries(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for eb := uint(0); eb <= 6; eb++ {
		span := uint(1) << eb
		for range 1000 {
			x := rng.Uint64() & rng.Uint64() & rng.Uint64() // sparse, so that empty entries occur
			got := foldEntries(x, eb)
			for b := uint(0); b < 64; b += span {
				entry := x >> b & (1<<span - 1)
				if span == 64 {
					entry = x
				}
				if (got>>b&1 != 0) != (entry != 0) {
					t.Fatalf("eb %d, x %#x: entry at bit %d has bits %#x, folded lowest bit %d", eb, x, b, entry, got>>b&1)
				}
			}
		}
	}
}
