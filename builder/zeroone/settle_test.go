package zeroone

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/builder/internal/levels"
	"github.com/tablesmith/tablesmith/games/slide"
)

// layeredGraph makes a graph whose slots get a planned level (or none): every slot of
// level l > 0 has a unit edge to a random slot of level l-1, some slots a zero edge to a
// slot of the same level (often in the same entry, sometimes a chain across words), and
// extra unit edges between random reached slots. The plan only shapes the levels; the
// oracle gives the costs.
func layeredGraph(rng *rand.Rand, entries uint64, eb, levels int, reachPct int) *zoGraph {
	n := entries << eb
	g := &zoGraph{slots: n, eb: eb, zero: make([][]uint64, n), unit: make([][]uint64, n)}
	add := func(lists [][]uint64, a, b uint64) {
		lists[a] = append(lists[a], b)
		lists[b] = append(lists[b], a)
	}
	byLevel := make([][]uint64, levels)
	for s := range n {
		if rng.IntN(100) >= reachPct {
			continue // left out
		}
		l := rng.IntN(levels)
		byLevel[l] = append(byLevel[l], s)
	}
	if len(byLevel[0]) == 0 {
		byLevel[0] = append(byLevel[0], n-1)
	}
	g.goals = byLevel[0][:min(3, len(byLevel[0]))]
	for l := 1; l < levels; l++ {
		for _, s := range byLevel[l] {
			if len(byLevel[l-1]) > 0 {
				add(g.unit, s, byLevel[l-1][rng.IntN(len(byLevel[l-1]))])
			}
			switch rng.IntN(6) {
			case 0: // a zero edge to a slot of the same entry
				add(g.zero, s, s>>eb<<eb|rng.Uint64N(1<<eb))
			case 1: // a zero edge to the next slot: chains across entries and words
				if s+1 < n {
					add(g.zero, s, s+1)
				}
			case 2:
				add(g.unit, s, byLevel[l][rng.IntN(len(byLevel[l]))])
			}
		}
	}
	return g
}

// chainGraph is a path of unit edges through the slots in a random order, with a zero
// edge every few steps, so every level is one or two slots wide, jumping across words:
// most workers find no work at every level. Some slots are left off the path.
func chainGraph(rng *rand.Rand, n uint64, eb int) *zoGraph {
	g := &zoGraph{slots: n, eb: eb, zero: make([][]uint64, n), unit: make([][]uint64, n)}
	order := rng.Perm(int(n))
	order = order[:len(order)*9/10+1]
	g.goals = []uint64{uint64(order[0])}
	for p := 0; p+1 < len(order); p++ {
		a, b := uint64(order[p]), uint64(order[p+1])
		lists := g.unit
		if p%5 == 3 {
			lists = g.zero
		}
		lists[a] = append(lists[a], b)
		lists[b] = append(lists[b], a)
	}
	return g
}

// stridedGraph links slot 0 by a unit edge to every slot whose index is ≡ 0 mod stride,
// and each of those by a unit edge to its neighbour slot: two wide, sparse levels whose
// bits sit at every position of a word for the settle pass to fold.
func stridedGraph(n uint64, eb int, stride uint64) *zoGraph {
	g := &zoGraph{slots: n, eb: eb, zero: make([][]uint64, n), unit: make([][]uint64, n), goals: []uint64{n / 2}}
	add := func(lists [][]uint64, a, b uint64) {
		lists[a] = append(lists[a], b)
		lists[b] = append(lists[b], a)
	}
	for s := uint64(1); s < n; s += stride {
		add(g.unit, n/2, s)
		if s+1 < n {
			add(g.unit, s, s+1)
		}
		if s+2 < n && s%3 == 0 {
			add(g.zero, s+1, s+2)
		}
	}
	return g
}

// sameZeroOne fails unless two results agree entry by entry and in every count.
func sameZeroOne(t *testing.T, what string, a, b *Result) {
	t.Helper()
	if !slices.Equal(a.Counts, b.Counts) || !slices.Equal(a.SlotCounts, b.SlotCounts) ||
		a.Reached != b.Reached || a.Unreached != b.Unreached || a.Entries != b.Entries {
		t.Fatalf("%s: counts %v slots %v reached %d unreached %d; reference %v %v %d %d",
			what, b.Counts, b.SlotCounts, b.Reached, b.Unreached, a.Counts, a.SlotCounts, a.Reached, a.Unreached)
	}
	for e := range a.Entries {
		if x, y := a.Values.Get(e), b.Values.Get(e); x != y {
			t.Fatalf("%s: entry %d has value %d, reference %d", what, e, y, x)
		}
	}
}

// TestZeroOneBFSSettle runs every settle policy with 1, 2, 3 and 7 workers and
// batches of 1, 5 and 64 over graphs of every entry width 0..6 with odd numbers of
// entries, non-closed zero moves (chains across entries and words), long thin levels
// (workers without work) and sparse wide levels, and checks each result against the
// oracle and against the others.
func TestZeroOneBFSSettle(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 22))
	type graph struct {
		name string
		g    *zoGraph
	}
	var graphs []graph
	for eb := range 7 {
		for _, entries := range []uint64{1, 3, 77, 1001} {
			if testing.Short() && entries > 77 {
				continue
			}
			graphs = append(graphs,
				graph{fmt.Sprintf("random/eb%d/e%d", eb, entries), zoRandomGraph(rng, entries, eb)},
				graph{fmt.Sprintf("layered/eb%d/e%d", eb, entries), layeredGraph(rng, entries, eb, 6, 70)})
		}
		graphs = append(graphs,
			graph{fmt.Sprintf("chain/eb%d", eb), chainGraph(rng, uint64(1+200>>eb)<<eb, eb)},
			graph{fmt.Sprintf("strided7/eb%d", eb), stridedGraph(uint64(1+3000>>eb)<<eb, eb, 7)},
		)
		if testing.Short() {
			continue
		}
		graphs = append(graphs,
			graph{fmt.Sprintf("strided64/eb%d", eb), stridedGraph(uint64(1+9000>>eb)<<eb, eb, 64)},
			graph{fmt.Sprintf("strided1/eb%d", eb), stridedGraph(uint64(1+600>>eb)<<eb, eb, 1)})
	}
	for _, gr := range graphs {
		t.Run(gr.name, func(t *testing.T) {
			t.Parallel()
			var ref *Result
			for _, workers := range []int{1, 2, 3, 7} {
				for _, batch := range []int{1, 5, 64} {
					for _, policy := range settlePolicies {
						opt := Options{Workers: workers, Batch: batch, settle: policy}
						res, err := Search(context.Background(), gr.g, opt)
						if err != nil {
							t.Fatal(err)
						}
						what := fmt.Sprintf("w%d/b%d/%v", workers, batch, policy)
						if ref == nil {
							checkZeroOne(t, gr.g, res)
							ref = res
							continue
						}
						sameZeroOne(t, what, ref, res)
					}
				}
			}
		})
	}
}

// TestZeroOneBFSSettleWide runs graphs of more than 2·4096 frontier words, so that
// both expandLevel and settle split their words among the workers (and settle's units
// start at a frontier's lo, not at a multiple of a unit); meant for -race too.
func TestZeroOneBFSSettleWide(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 24))
	entries, ebs := uint64(600_000), []int{0, 2, 5, 6}
	if testing.Short() {
		entries, ebs = 270_000, []int{0}
	}
	for _, eb := range ebs {
		ent := entries >> eb
		ent |= 1 // odd
		g := layeredGraph(rng, ent, eb, 5, 85)
		t.Run(fmt.Sprintf("eb%d", eb), func(t *testing.T) {
			var ref *Result
			for _, opt := range []Options{{Workers: 1, settle: levels.SettleNever}, {Workers: 3, Batch: 64, settle: levels.SettleAlways},
				{Workers: 2, Batch: 5, settle: levels.SettleWide}, {Workers: 7, Batch: 64, settle: levels.SettleAlways}} {
				res, err := Search(context.Background(), g, opt)
				if err != nil {
					t.Fatal(err)
				}
				if ref == nil {
					checkZeroOne(t, g, res)
					ref = res
					continue
				}
				sameZeroOne(t, fmt.Sprintf("w%d/b%d/%v", opt.Workers, opt.Batch, opt.settle), ref, res)
			}
		})
	}
}

// TestZeroOneBFSClosedTilesPolicies runs the closed and open tile spaces under
// every policy with 1, 3 and 7 workers and batch 1, against the oracle.
func TestZeroOneBFSClosedTilesPolicies(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		rows, cols int
		tiles      []uint8
	}{
		{2, 2, []uint8{1}}, {2, 2, []uint8{2, 3}}, {2, 3, []uint8{5}}, {3, 3, []uint8{8, 1, 4}},
	} {
		sp := newZoTiles(c.rows, c.cols, c.tiles)
		t.Run(fmt.Sprintf("%dx%d%v", c.rows, c.cols, c.tiles), func(t *testing.T) {
			t.Parallel()
			for _, workers := range []int{1, 3, 7} {
				for _, policy := range settlePolicies {
					for _, space := range []Space{sp, zoClosedTiles{sp}} {
						res, err := Search(context.Background(), space, Options{Workers: workers, Batch: 1, settle: policy})
						if err != nil {
							t.Fatal(err)
						}
						checkZeroOne(t, sp, res)
					}
				}
			}
		})
	}
}

// TestZeroOneBFSPDBSpace runs slide.PDBSpace (blank regions, the move tables) under
// every settle policy, worker count 1/2/3/7 and batch 1/5/64, and compares each
// placement's value and the entry counts with the search over (tiles, blank cell) of
// zoTiles, written apart from games/slide and checked against the oracle; the region
// counts must agree across all the runs.
func TestZeroOneBFSPDBSpace(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		rows, cols int
		tiles      []uint8
	}{
		{2, 2, []uint8{2}}, {2, 3, []uint8{1, 2}}, {2, 3, []uint8{5, 3, 1}}, {3, 3, []uint8{1, 2, 3, 4}},
		{3, 3, []uint8{8, 6, 4, 2, 1, 3}}, {2, 4, []uint8{1, 2, 5, 6}}, {3, 4, []uint8{2, 7, 11}},
		{4, 3, []uint8{1, 4, 7}}, {2, 8, []uint8{8, 1, 15}}, {4, 4, []uint8{1, 5, 9}},
	} {
		if testing.Short() && (c.rows*c.cols > 9 || len(c.tiles) > 4) {
			continue
		}
		t.Run(fmt.Sprintf("%dx%d%v", c.rows, c.cols, c.tiles), func(t *testing.T) {
			t.Parallel()
			zt := newZoTiles(c.rows, c.cols, c.tiles)
			ref, err := Search(context.Background(), zt, Options{Workers: 1, settle: levels.SettleNever})
			if err != nil {
				t.Fatal(err)
			}
			checkZeroOne(t, zt, ref)
			geo, err := slide.NewGeometry(c.rows, c.cols)
			if err != nil {
				t.Fatal(err)
			}
			sp, err := slide.NewPDBSpace(geo, slide.BlankLast, c.tiles)
			if err != nil {
				t.Fatal(err)
			}
			var first *Result
			for _, workers := range []int{1, 2, 3, 7} {
				for _, batch := range []int{1, 5, 64} {
					for _, policy := range settlePolicies {
						what := fmt.Sprintf("w%d/b%d/%v", workers, batch, policy)
						res, err := Search(context.Background(), sp, Options{Workers: workers, Batch: batch, settle: policy})
						if err != nil {
							t.Fatal(err)
						}
						if res.Entries != ref.Entries || res.Unreached != ref.Unreached || !slices.Equal(res.Counts, ref.Counts) {
							t.Fatalf("%s: %d entries, %d unreached, counts %v; tile search %d, %d, %v",
								what, res.Entries, res.Unreached, res.Counts, ref.Entries, ref.Unreached, ref.Counts)
						}
						for e := range ref.Entries {
							if got, want := res.Values.Get(e), ref.Values.Get(e); got != want {
								t.Fatalf("%s: placement %d has value %d, tile search %d", what, e, got, want)
							}
						}
						if first == nil {
							first = res
							continue
						}
						sameZeroOne(t, what, first, res)
					}
				}
			}
		})
	}
}
