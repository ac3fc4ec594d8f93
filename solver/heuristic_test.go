package solver

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games/slide"
)

// TestHeuristicsAdmissible checks every heuristic against the exact distance of every
// reachable board of the small boards, and that it is 0 at the goal. Discrete, Hamming
// and Manhattan must also be consistent (change by at most 1 per move); the PDB ones
// are logged (minimising over the blank can make a PDB inconsistent).
func TestHeuristicsAdmissible(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rows, cols int
		goal       slide.Goal
	}{{3, 3, slide.BlankLast}, {3, 3, slide.BlankFirst}, {2, 3, slide.BlankLast}, {2, 4, slide.BlankFirst}, {4, 2, slide.BlankLast}} {
		e := exactDistances(t, tc.rows, tc.cols, tc.goal)
		for _, h := range allHeuristics(t, e.geo, tc.goal) {
			t.Run(fmt.Sprintf("%v/%v/%s", e.geo, tc.goal, h.Name()), func(t *testing.T) {
				if got := h.Estimate(e.geo.GoalBoard(tc.goal)); got != 0 {
					t.Fatalf("h(goal) = %d", got)
				}
				b := make([]uint8, e.geo.Cells())
				inconsistent, sum := 0, 0
				for _, board := range e.boards {
					hb, d := h.Estimate(board), e.of(board)
					sum += hb
					if hb > d {
						t.Fatalf("h(%s) = %d > distance %d", e.geo.Format(board), hb, d)
					}
					copy(b, board)
					blank := slide.Blank(b)
					for _, nb := range e.geo.Neighbors(blank) {
						slide.Slide(b, blank, int(nb))
						if hn := h.Estimate(b); hn > hb+1 || hn < hb-1 {
							inconsistent++
						}
						slide.Slide(b, int(nb), blank)
					}
				}
				if inconsistent > 0 && !strings.HasPrefix(h.Name(), "pdb") {
					t.Fatalf("%d moves change h by more than 1", inconsistent)
				}
				t.Logf("mean h %.3f over %d boards; %d inconsistent moves", float64(sum)/float64(len(e.boards)), len(e.boards), inconsistent)
			})
		}
	}
}

// TestTrackersMatchEstimate walks random paths with Move and Undo and compares each
// tracker with Estimate from scratch after every step.
func TestTrackersMatchEstimate(t *testing.T) {
	t.Parallel()
	pdb15 := fifteenPatterns(t)
	for _, tc := range []struct {
		rows, cols int
		goal       slide.Goal
	}{{3, 3, slide.BlankLast}, {3, 3, slide.BlankFirst}, {2, 4, slide.BlankLast}, {4, 4, slide.BlankFirst}, {5, 5, slide.BlankLast}, {3, 5, slide.BlankFirst}} {
		geo, _ := slide.NewGeometry(tc.rows, tc.cols)
		hs := allHeuristics(t, geo, tc.goal)
		if tc.rows == 4 && tc.cols == 4 {
			for _, reflect := range []bool{false, true} {
				p, err := NewPDB(geo, tc.goal, pdb15, reflect)
				if err != nil {
					t.Fatal(err)
				}
				hs = append(hs, p)
			}
		}
		for _, h := range hs {
			r := rand.New(rand.NewPCG(uint64(tc.rows*10+tc.cols), uint64(tc.goal)))
			b := randomWalk(geo, tc.goal, 100, r)
			tr := h.NewTracker()
			if got, want := tr.Reset(b), h.Estimate(b); got != want {
				t.Fatalf("%v %s: Reset = %d, Estimate = %d", geo, h.Name(), got, want)
			}
			// A random walk with random backtracking, like a depth-first search.
			type step struct{ blank, from int }
			var stack []step
			hist := []int{h.Estimate(b)}
			for i := range 3000 {
				blank := slide.Blank(b)
				if len(stack) > 0 && (r.IntN(3) == 0 || len(stack) > 60) {
					s := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					slide.Slide(b, s.from, s.blank)
					tr.Undo()
					hist = hist[:len(hist)-1]
				} else {
					nbs := geo.Neighbors(blank)
					from := int(nbs[r.IntN(len(nbs))])
					tile := b[from]
					slide.Slide(b, blank, from)
					got := tr.Move(tile, from, blank)
					stack = append(stack, step{blank, from})
					hist = append(hist, got)
				}
				if want := h.Estimate(b); hist[len(hist)-1] != want {
					t.Fatalf("%v %v %s step %d: tracker says %d, Estimate(%s) = %d", geo, tc.goal, h.Name(), i,
						hist[len(hist)-1], geo.Format(b), want)
				}
			}
		}
	}
}

// TestPatternsExactOnFullGroup: with every tile in one group, the pattern database is
// the exact distance.
func TestPatternsExactOnFullGroup(t *testing.T) {
	t.Parallel()
	e := exactDistances(t, 2, 3, slide.BlankLast)
	set, err := BuildPatterns(e.geo, slide.BlankLast, [][]uint8{{1, 2, 3, 4, 5}})
	if err != nil {
		t.Fatal(err)
	}
	pos := make([]uint8, 6)
	for _, b := range e.boards {
		for c, x := range b {
			pos[x] = uint8(c)
		}
		if got, want := set.H(pos), e.of(b); got != want {
			t.Fatalf("PDB(%s) = %d, distance %d", e.geo.Format(b), got, want)
		}
	}
}

// TestPatternsAtLeastManhattan: a group's value is at least the Manhattan distance of
// its tiles (each move shifts one tile one cell), on every 8-puzzle board.
func TestPatternsAtLeastManhattan(t *testing.T) {
	t.Parallel()
	for _, goal := range []slide.Goal{slide.BlankLast, slide.BlankFirst} {
		e := exactDistances(t, 3, 3, goal)
		set := eightPatterns(t, goal)
		m := NewManhattan(e.geo, goal)
		pos := make([]uint8, 9)
		better := 0
		for _, b := range e.boards {
			for c, x := range b {
				pos[x] = uint8(c)
			}
			for g, tiles := range set.Groups() {
				md := 0
				for _, x := range tiles {
					md += int(m.dist[int(x)*slide.MaxCells+int(pos[x])])
				}
				v := set.GroupValue(g, pos)
				if v < md {
					t.Fatalf("%v: group %d value %d < its Manhattan %d at %s", goal, g, v, md, e.geo.Format(b))
				}
				if v > md {
					better++
				}
			}
		}
		if better == 0 {
			t.Fatalf("%v: the PDB never beats Manhattan", goal)
		}
	}
}

// fakeSet is a PatternSet with settable answers, for NewPDB's checks.
type fakeSet struct {
	rows, cols int
	goal       string
	groups     [][]uint8
	groupOf    map[uint8]int
}

func (f *fakeSet) Rows() int                   { return f.rows }
func (f *fakeSet) Cols() int                   { return f.cols }
func (f *fakeSet) Goal() string                { return f.goal }
func (f *fakeSet) Groups() [][]uint8           { return f.groups }
func (f *fakeSet) GroupValue(int, []uint8) int { return 0 }
func (f *fakeSet) GroupOf(t uint8) int {
	if g, ok := f.groupOf[t]; ok {
		return g
	}
	return -1
}

func TestNewPDBRejects(t *testing.T) {
	t.Parallel()
	geo33, _ := slide.NewGeometry(3, 3)
	geo23, _ := slide.NewGeometry(2, 3)
	ok := func() *fakeSet {
		return &fakeSet{3, 3, "blank-last", [][]uint8{{1, 2}, {3}}, map[uint8]int{1: 0, 2: 0, 3: 1}}
	}
	for _, tc := range []struct {
		name    string
		geo     *slide.Geometry
		edit    func(*fakeSet)
		reflect bool
		want    string
	}{
		{"size", geo33, func(f *fakeSet) { f.rows = 4 }, false, "4×3 board"},
		{"goal", geo33, func(f *fakeSet) { f.goal = "blank-first" }, false, "blank-first goal"},
		{"overlap", geo33, func(f *fakeSet) { f.groups[1] = []uint8{2} }, false, "tile 2 is in pattern groups 0 and 1"},
		{"blank", geo33, func(f *fakeSet) { f.groups[1] = []uint8{0} }, false, "has tile 0"},
		{"range", geo33, func(f *fakeSet) { f.groups[1] = []uint8{9} }, false, "has tile 9"},
		{"empty", geo33, func(f *fakeSet) { f.groups[1] = nil }, false, "group 1 is empty"},
		{"groupOf", geo33, func(f *fakeSet) { f.groupOf[3] = 0 }, false, "puts tile 3 in group 0"},
		{"reflect", geo23, func(f *fakeSet) { f.rows, f.cols = 2, 3 }, true, "square board"},
	} {
		f := ok()
		tc.edit(f)
		_, err := NewPDB(tc.geo, slide.BlankLast, f, tc.reflect)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
	if _, err := NewPDB(geo33, slide.BlankLast, ok(), true); err != nil {
		t.Fatalf("valid set: %v", err)
	}
}

func TestBuildPatternsRejects(t *testing.T) {
	t.Parallel()
	geo, _ := slide.NewGeometry(4, 4)
	for _, tc := range []struct {
		groups [][]uint8
		want   string
	}{
		{[][]uint8{{1, 2, 3, 4, 5, 6}}, "at most 5"},
		{[][]uint8{{1}, {1}}, "groups 0 and 1"},
		{[][]uint8{{0}}, "has tile 0"},
		{[][]uint8{{16}}, "has tile 16"},
		{[][]uint8{{}}, "empty"},
	} {
		if _, err := BuildPatterns(geo, slide.BlankFirst, tc.groups); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want it to mention %q", tc.groups, err, tc.want)
		}
	}
}

func TestNewHeuristicNames(t *testing.T) {
	t.Parallel()
	geo, _ := slide.NewGeometry(3, 3)
	for _, name := range HeuristicNames {
		h, err := NewHeuristic(name, geo, slide.BlankLast, eightPatterns(t, slide.BlankLast))
		if err != nil || h.Name() != name {
			t.Fatalf("%s: %v, %v", name, h, err)
		}
	}
	if _, err := NewHeuristic("pdb", geo, slide.BlankLast, nil); err == nil || !strings.Contains(err.Error(), "needs a pattern") {
		t.Fatalf("pdb without a set: %v", err)
	}
	if _, err := NewHeuristic("euclid", geo, slide.BlankLast, nil); err == nil || !strings.Contains(err.Error(), `"euclid"`) {
		t.Fatalf("unknown: %v", err)
	}
}

// TestPatternsMatchFullBoardSearch recomputes the 8-puzzle pattern databases by a 0-1
// BFS over all 9! full boards (both parity classes: the other tiles are interchangeable
// in the abstraction), moving a group tile costing 1, and compares every entry.
func TestPatternsMatchFullBoardSearch(t *testing.T) {
	t.Parallel()
	geo, _ := slide.NewGeometry(3, 3)
	for _, goal := range []slide.Goal{slide.BlankLast, slide.BlankFirst} {
		set := eightPatterns(t, goal)
		for g, tiles := range set.Groups() {
			inGroup := map[uint8]bool{}
			for _, x := range tiles {
				inGroup[x] = true
			}
			// Sources: every full board with the group's tiles and the blank home.
			gb := geo.GoalBoard(goal)
			dist := map[uint64]int{}
			var cur, next [][]uint8
			var rest []uint8
			var free []int
			for c, x := range gb {
				if x != 0 && !inGroup[x] {
					rest = append(rest, x)
					free = append(free, c)
				}
			}
			permute(rest, 0, func(p []uint8) {
				b := append([]uint8(nil), gb...)
				for i, c := range free {
					b[c] = p[i]
				}
				dist[pack16(b)] = 0
				cur = append(cur, b)
			})
			for d := 0; len(cur) > 0; d++ {
				for i := 0; i < len(cur); i++ {
					b := cur[i]
					if dist[pack16(b)] != d {
						continue
					}
					blank := slide.Blank(b)
					for _, nb := range geo.Neighbors(blank) {
						c := append([]uint8(nil), b...)
						cost := b2i(inGroup[c[nb]])
						slide.Slide(c, blank, int(nb))
						k := pack16(c)
						if old, ok := dist[k]; !ok || old > d+cost {
							dist[k] = d + cost
							if cost == 0 {
								cur = append(cur, c)
							} else {
								next = append(next, c)
							}
						}
					}
				}
				cur, next = next, nil
			}
			if len(dist) != 362880 {
				t.Fatalf("reached %d full boards, want 9!", len(dist))
			}
			want := map[uint64]int{} // group cells packed -> min over full boards
			pos := make([]uint8, 9)
			b := make([]uint8, 9)
			for k, d := range dist {
				unpack16(k, b)
				for c, x := range b {
					pos[x] = uint8(c)
				}
				var pk uint64
				for i, x := range tiles {
					pk |= uint64(pos[x]) << (4 * i)
				}
				if old, ok := want[pk]; !ok || d < old {
					want[pk] = d
				}
				if got := set.GroupValue(g, pos); got > d {
					t.Fatalf("%v group %d: value %d at %s exceeds its full-board distance %d", goal, g, got, geo.Format(b), d)
				}
			}
			for k, d := range want {
				for i, x := range tiles {
					pos[x] = uint8(k >> (4 * i) & 15)
				}
				if got := set.GroupValue(g, pos); got != d {
					t.Fatalf("%v group %d: value %d, full-board search says %d", goal, g, got, d)
				}
			}
		}
	}
}

// permute calls f with every permutation of p[i:] (p itself, rearranged in place).
func permute(p []uint8, i int, f func([]uint8)) {
	if i == len(p) {
		f(p)
		return
	}
	for j := i; j < len(p); j++ {
		p[i], p[j] = p[j], p[i]
		permute(p, i+1, f)
		p[i], p[j] = p[j], p[i]
	}
}
