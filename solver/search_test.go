package solver

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/games/slide"
)

// TestSearchesOptimalEight: both searches with every heuristic return solutions of the
// exact BFS length on random 8-puzzle boards (both goals), along legal paths.
func TestSearchesOptimalEight(t *testing.T) {
	t.Parallel()
	for _, goal := range []slide.Goal{slide.BlankLast, slide.BlankFirst} {
		e := exactDistances(t, 3, 3, goal)
		for _, h := range allHeuristics(t, e.geo, goal) {
			for _, algo := range AlgoNames {
				t.Run(fmt.Sprintf("%v/%s/%s", goal, h.Name(), algo), func(t *testing.T) {
					t.Parallel()
					run, _ := AlgoByName(algo)
					count, maxDist := 150, 40
					switch {
					case h.Name() == "discrete" && algo == "idastar":
						count, maxDist = 40, 16 // exponential without a heuristic
					case h.Name() == "discrete":
						count, maxDist = 15, 22
					case h.Name() == "hamming":
						count, maxDist = 30, 24
					}
					boards := e.sample(4*count, uint64(goal)+7)
					solved := 0
					for _, b := range boards {
						want := e.of(b)
						if want > maxDist {
							continue
						}
						if solved++; solved > count {
							break
						}
						res, err := run(context.Background(), h, b, Options{})
						if err != nil {
							t.Fatalf("%s: %v", e.geo.Format(b), err)
						}
						checkResult(t, e.geo, goal, b, res, want, algo)
						if h.Name() != "pdb" && h.Name() != "pdb+reflect" && res.Reopened != 0 {
							t.Fatalf("%s: a consistent heuristic reopened %d nodes", e.geo.Format(b), res.Reopened)
						}
					}
				})
			}
		}
	}
}

// checkResult checks a solution's length, path and counters.
func checkResult(t *testing.T, geo *slide.Geometry, goal slide.Goal, start []uint8, res *Result, want int, algo string) {
	t.Helper()
	s := geo.Format(start)
	if res.Length != want {
		t.Fatalf("%s: length %d, want %d", s, res.Length, want)
	}
	if len(res.Path) != res.Length+1 || !equal(res.Path[0], start) {
		t.Fatalf("%s: path of %d boards from %v for length %d", s, len(res.Path), res.Path[0], res.Length)
	}
	if err := CheckPath(geo, goal, res.Path); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	if got := len(Moves(res.Path)); got != res.Length {
		t.Fatalf("%s: %d moves for length %d", s, got, res.Length)
	}
	if res.Expanded < uint64(res.Length) || res.Generated < res.Expanded && res.Length > 0 {
		t.Fatalf("%s: expanded %d, generated %d for length %d", s, res.Expanded, res.Generated, res.Length)
	}
	switch algo {
	case "astar":
		if res.MaxHeap < 1 || res.MaxHeap > res.Stored || uint64(res.Stored) > res.Generated+1 {
			t.Fatalf("%s: max heap %d, stored %d, generated %d", s, res.MaxHeap, res.Stored, res.Generated)
		}
	case "idastar":
		if res.MaxHeap != 0 || res.Iterations < 1 {
			t.Fatalf("%s: IDA* max heap %d, iterations %d", s, res.MaxHeap, res.Iterations)
		}
	}
}

func equal(a, b []uint8) bool { return string(a) == string(b) }

// TestSearchesOptimalSmallBoards: non-square boards against their exact distances.
func TestSearchesOptimalSmallBoards(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rows, cols int
		goal       slide.Goal
	}{{2, 3, slide.BlankLast}, {2, 4, slide.BlankFirst}, {4, 2, slide.BlankLast}, {2, 2, slide.BlankFirst}} {
		e := exactDistances(t, tc.rows, tc.cols, tc.goal)
		for _, h := range allHeuristics(t, e.geo, tc.goal) {
			for _, algo := range AlgoNames {
				run, _ := AlgoByName(algo)
				for _, b := range e.sample(30, 3) {
					res, err := run(context.Background(), h, b, Options{})
					if err != nil {
						t.Fatalf("%v %s %s: %v", e.geo, h.Name(), algo, err)
					}
					checkResult(t, e.geo, tc.goal, b, res, e.of(b), algo)
				}
			}
		}
	}
}

// TestSearchesAgreeLarger: on 15- and 24-puzzle boards scrambled by random walks (no
// exact oracle), the searches and heuristics agree on the length, and the paths are
// legal. The 15-puzzle runs the 5-5-5 in-memory PDB with and without reflection.
func TestSearchesAgreeLarger(t *testing.T) {
	t.Parallel()
	set := fifteenPatterns(t)
	for _, tc := range []struct {
		rows, cols, walk int
		goal             slide.Goal
	}{{4, 4, 36, slide.BlankFirst}, {5, 5, 36, slide.BlankLast}, {3, 5, 40, slide.BlankFirst}, {5, 4, 36, slide.BlankLast}} {
		geo, _ := slide.NewGeometry(tc.rows, tc.cols)
		hs := []Heuristic{NewManhattan(geo, tc.goal)}
		if tc.rows == 4 && tc.cols == 4 {
			for _, reflect := range []bool{false, true} {
				p, err := NewPDB(geo, tc.goal, set, reflect)
				if err != nil {
					t.Fatal(err)
				}
				hs = append(hs, p)
			}
		}
		r := rand.New(rand.NewPCG(uint64(tc.rows), uint64(tc.cols)))
		for range 4 {
			b := randomWalk(geo, tc.goal, tc.walk, r)
			length := -1
			for _, h := range hs {
				for _, algo := range AlgoNames {
					run, _ := AlgoByName(algo)
					res, err := run(context.Background(), h, b, Options{MaxNodes: 5_000_000})
					if errors.Is(err, ErrNodeLimit) {
						t.Logf("%v %s %s: %v", geo, h.Name(), algo, err)
						continue
					}
					if err != nil {
						t.Fatalf("%v %s %s %s: %v", geo, h.Name(), algo, geo.Format(b), err)
					}
					if length < 0 {
						length = res.Length
					}
					if res.Elapsed > 200*time.Millisecond {
						t.Logf("%v %s %s %s: %d moves, %d expanded, %v", geo, h.Name(), algo, geo.Format(b), res.Length, res.Expanded, res.Elapsed)
					}
					checkResult(t, geo, tc.goal, b, res, length, algo)
				}
			}
		}
	}
}

func TestUnsolvableAndInvalid(t *testing.T) {
	t.Parallel()
	geo, _ := slide.NewGeometry(3, 3)
	h := NewManhattan(geo, slide.BlankLast)
	for _, algo := range AlgoNames {
		run, _ := AlgoByName(algo)
		_, err := run(context.Background(), h, []uint8{2, 1, 3, 4, 5, 6, 7, 8, 0}, Options{})
		if !errors.Is(err, ErrUnsolvable) || !strings.Contains(err.Error(), "213456780 cannot reach the blank-last goal") {
			t.Fatalf("%s: unsolvable: %v", algo, err)
		}
		_, err = run(context.Background(), h, []uint8{1, 1, 3, 4, 5, 6, 7, 8, 0}, Options{})
		if err == nil || !strings.Contains(err.Error(), "tile 1 appears twice; tile 2 is missing") {
			t.Fatalf("%s: repeated tile: %v", algo, err)
		}
		_, err = run(context.Background(), h, []uint8{1, 2, 3}, Options{})
		if err == nil || !strings.Contains(err.Error(), "got 3 tiles") {
			t.Fatalf("%s: short board: %v", algo, err)
		}
		res, err := run(context.Background(), h, geo.GoalBoard(slide.BlankLast), Options{})
		if err != nil || res.Length != 0 || len(res.Path) != 1 || res.Expanded != 0 {
			t.Fatalf("%s: the goal itself: %+v, %v", algo, res, err)
		}
	}
	if _, err := AlgoByName("bfs"); err == nil || !strings.Contains(err.Error(), `"bfs"`) {
		t.Fatalf("unknown algorithm: %v", err)
	}
}

func TestLimitsAndCancel(t *testing.T) {
	t.Parallel()
	geo, _ := slide.NewGeometry(3, 3)
	far := []uint8{8, 6, 7, 2, 5, 4, 3, 0, 1} // 31 moves from blank-last
	_, err := AStar(context.Background(), NewDiscrete(geo, slide.BlankLast), far, Options{MaxNodes: 1000})
	if !errors.Is(err, ErrNodeLimit) || !strings.Contains(err.Error(), "1000 nodes") {
		t.Fatalf("node limit: %v", err)
	}
	// Korf's instance 88 takes minutes with Manhattan; a cancelled search stops at once.
	g4, _ := slide.NewGeometry(4, 4)
	hard := []uint8{15, 2, 12, 11, 14, 13, 9, 5, 1, 3, 8, 7, 0, 10, 6, 4}
	for _, algo := range AlgoNames {
		run, _ := AlgoByName(algo)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		t0 := time.Now()
		_, err := run(ctx, NewManhattan(g4, slide.BlankFirst), hard, Options{})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(t0) > 5*time.Second {
			t.Fatalf("%s: cancelled search: %v after %v", algo, err, time.Since(t0))
		}
	}
}

// inconsistent is an admissible but inconsistent heuristic: the exact distance on half
// the boards (by a hash of the board) and 0 on the others.
type inconsistent struct {
	*Discrete
	e *exact
}

func (h *inconsistent) Name() string { return "inconsistent" }
func (h *inconsistent) Estimate(b []uint8) int {
	if k := pack16(b); (k*0x9e3779b97f4a7c15)>>63 == 0 {
		return h.e.of(b)
	}
	return 0
}
func (h *inconsistent) NewTracker() Tracker { return &scratchTracker{h: h} }

// scratchTracker evaluates every board from scratch, keeping one board per depth: the
// simplest correct tracker.
type scratchTracker struct {
	h      Heuristic
	boards [][]uint8
	hs     []int
}

func (t *scratchTracker) Reset(b []uint8) int {
	t.boards = append(t.boards[:0], append([]uint8(nil), b...))
	t.hs = append(t.hs[:0], t.h.Estimate(b))
	return t.hs[0]
}

func (t *scratchTracker) Move(tile uint8, from, to int) int {
	b := append([]uint8(nil), t.boards[len(t.boards)-1]...)
	b[to], b[from] = tile, 0
	t.boards = append(t.boards, b)
	t.hs = append(t.hs, t.h.Estimate(b))
	return t.hs[len(t.hs)-1]
}

func (t *scratchTracker) Undo() {
	t.boards = t.boards[:len(t.boards)-1]
	t.hs = t.hs[:len(t.hs)-1]
}

// TestAStarReopens: with an inconsistent heuristic A* still returns optimal lengths,
// reopening closed nodes.
func TestAStarReopens(t *testing.T) {
	t.Parallel()
	e := exactDistances(t, 3, 3, slide.BlankLast)
	h := &inconsistent{NewDiscrete(e.geo, slide.BlankLast), e}
	var reopened uint64
	for _, b := range e.sample(200, 11) {
		res, err := AStar(context.Background(), h, b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, e.geo, slide.BlankLast, b, res, e.of(b), "astar")
		reopened += res.Reopened
	}
	if reopened == 0 {
		t.Fatal("no node was reopened: the test heuristic is not inconsistent enough")
	}
	t.Logf("reopened %d nodes over 200 searches", reopened)
}

func TestPackRoundTrip(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{4, 9, 16, 20, 25} {
		b := make([]uint8, n)
		c := make([]uint8, n)
		for range 100 {
			for i, p := range r.Perm(n) {
				b[i] = uint8(p)
			}
			if n <= 16 {
				unpack16(pack16(b), c)
			} else {
				unpack25(pack25(b), c)
			}
			if !equal(b, c) {
				t.Fatalf("%v -> %v", b, c)
			}
		}
	}
}

// TestIDAStarDoesNotAllocatePerNode: a search of many nodes allocates a bounded number
// of times (set-up and the returned path), for the Manhattan loop and the tracker loop.
func TestIDAStarDoesNotAllocatePerNode(t *testing.T) {
	g3, _ := slide.NewGeometry(3, 3)
	b3 := []uint8{8, 6, 7, 2, 5, 4, 3, 0, 1} // 31 moves
	pdb, err := NewPDB(g3, slide.BlankLast, eightPatterns(t, slide.BlankLast), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []Heuristic{NewManhattan(g3, slide.BlankLast), NewHamming(g3, slide.BlankLast), pdb} {
		var res *Result
		allocs := testing.AllocsPerRun(2, func() {
			var err error
			if res, err = IDAStar(context.Background(), h, b3, Options{}); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 150 || res.Generated < 100 {
			t.Fatalf("%s: %.0f allocations for %d nodes", h.Name(), allocs, res.Generated)
		}
		t.Logf("%s: %.0f allocations for %d generated nodes", h.Name(), allocs, res.Generated)
	}
}

// TestIDAStarIterations: Manhattan thresholds rise by 2 (every move changes the sum by
// one), the callback sees every iteration but the last, and its counts add up.
func TestIDAStarIterations(t *testing.T) {
	t.Parallel()
	geo, _ := slide.NewGeometry(3, 3)
	b := []uint8{8, 6, 7, 2, 5, 4, 3, 0, 1}
	var thresholds []int
	var sum uint64
	res, err := IDAStar(context.Background(), NewManhattan(geo, slide.BlankLast), b, Options{
		Iteration: func(th int, gen uint64) { thresholds = append(thresholds, th); sum += gen }})
	if err != nil {
		t.Fatal(err)
	}
	if len(thresholds) != res.Iterations-1 || sum >= res.Generated {
		t.Fatalf("%d callbacks for %d iterations; %d of %d nodes", len(thresholds), res.Iterations, sum, res.Generated)
	}
	for i, th := range thresholds {
		if th != geo.Manhattan(b, slide.BlankLast)+2*i || th >= res.Length {
			t.Fatalf("thresholds %v for length %d", thresholds, res.Length)
		}
	}
}
