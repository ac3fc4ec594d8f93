package solver

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/tablesmith/tablesmith/games/slide"
)

// exact holds every reachable board's distance to the goal, found by a plain BFS over
// packed boards: the oracle the searches and heuristics are checked against.
type exact struct {
	geo  *slide.Geometry
	goal slide.Goal
	dist map[uint64]int
	// boards lists every reachable board, in BFS order.
	boards [][]uint8
}

var (
	exactMu    sync.Mutex
	exactCache = map[[3]int]*exact{}
)

// exactDistances returns the BFS oracle for a board of at most 12 cells (cached).
func exactDistances(t testing.TB, rows, cols int, goal slide.Goal) *exact {
	t.Helper()
	exactMu.Lock()
	defer exactMu.Unlock()
	k := [3]int{rows, cols, int(goal)}
	if e := exactCache[k]; e != nil {
		return e
	}
	geo, err := slide.NewGeometry(rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	e := &exact{geo: geo, goal: goal, dist: map[uint64]int{}}
	n := geo.Cells()
	gb := geo.GoalBoard(goal)
	e.dist[pack16(gb)] = 0
	e.boards = append(e.boards, gb)
	b := make([]uint8, n)
	for i := 0; i < len(e.boards); i++ {
		cur := e.boards[i]
		d := e.dist[pack16(cur)]
		copy(b, cur)
		blank := slide.Blank(b)
		for _, nb := range geo.Neighbors(blank) {
			slide.Slide(b, blank, int(nb))
			if k := pack16(b); !hasKey(e.dist, k) {
				e.dist[k] = d + 1
				e.boards = append(e.boards, append([]uint8(nil), b...))
			}
			slide.Slide(b, int(nb), blank)
		}
	}
	exactCache[k] = e
	return e
}

func hasKey(m map[uint64]int, k uint64) bool {
	_, ok := m[k]
	return ok
}

func (e *exact) of(b []uint8) int { return e.dist[pack16(b)] }

// sample returns count reachable boards drawn with a fixed seed.
func (e *exact) sample(count int, seed uint64) [][]uint8 {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([][]uint8, count)
	for i := range out {
		out[i] = e.boards[r.IntN(len(e.boards))]
	}
	return out
}

// randomWalk returns the goal scrambled by steps random moves (never straight back).
func randomWalk(geo *slide.Geometry, goal slide.Goal, steps int, r *rand.Rand) []uint8 {
	b := geo.GoalBoard(goal)
	blank, prev := slide.Blank(b), -1
	for range steps {
		nbs := geo.Neighbors(blank)
		for {
			c := int(nbs[r.IntN(len(nbs))])
			if c != prev {
				slide.Slide(b, blank, c)
				prev, blank = blank, c
				break
			}
		}
	}
	return b
}

// eightPatterns is the 1-4 / 5-8 in-memory PDB of the 8-puzzle for goal (cached).
func eightPatterns(t testing.TB, goal slide.Goal) *Patterns {
	t.Helper()
	exactMu.Lock()
	defer exactMu.Unlock()
	if p := eightPatternsCache[goal]; p != nil {
		return p
	}
	geo, _ := slide.NewGeometry(3, 3)
	p, err := BuildPatterns(geo, goal, [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}})
	if err != nil {
		t.Fatal(err)
	}
	eightPatternsCache[goal] = p
	return p
}

var eightPatternsCache = map[slide.Goal]*Patterns{}

// allHeuristics returns every heuristic for the geometry (the PDB ones on 3×3 only).
func allHeuristics(t testing.TB, geo *slide.Geometry, goal slide.Goal) []Heuristic {
	t.Helper()
	hs := []Heuristic{NewDiscrete(geo, goal), NewHamming(geo, goal), NewManhattan(geo, goal)}
	if geo.Rows == 3 && geo.Cols == 3 {
		set := eightPatterns(t, goal)
		for _, reflect := range []bool{false, true} {
			p, err := NewPDB(geo, goal, set, reflect)
			if err != nil {
				t.Fatal(err)
			}
			hs = append(hs, p)
		}
	}
	return hs
}

var (
	fifteenOnce sync.Once
	fifteenSet  *Patterns
	fifteenErr  error
)

// fifteenGroups is a 5-5-5 partition of the 15-puzzle's tiles (blank-first goal).
var fifteenGroups = [][]uint8{{1, 2, 3, 6, 7}, {4, 5, 8, 9, 12}, {10, 11, 13, 14, 15}}

// fifteenPatterns builds the 5-5-5 in-memory PDB of the 15-puzzle once (about a second).
func fifteenPatterns(t testing.TB) *Patterns {
	t.Helper()
	fifteenOnce.Do(func() {
		geo, _ := slide.NewGeometry(4, 4)
		fifteenSet, fifteenErr = BuildPatterns(geo, slide.BlankFirst, fifteenGroups)
	})
	if fifteenErr != nil {
		t.Fatal(fifteenErr)
	}
	return fifteenSet
}
