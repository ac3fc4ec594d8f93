package slide

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestHeuristicsZeroAtGoal(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes() {
		g := mustGeometry(t, sz[0], sz[1])
		for _, goal := range goals {
			b := g.GoalBoard(goal)
			if m, h, d := g.Manhattan(b, goal), g.Hamming(b, goal), Discrete(b, g.GoalBoard(goal)); m != 0 || h != 0 || d != 0 {
				t.Errorf("%v %v at goal: Manhattan %d Hamming %d Discrete %d", g, goal, m, h, d)
			}
		}
	}
}

// TestHeuristicsAdmissible compares every heuristic with the exact distance of
// every solvable board. Manhattan also has the parity of the distance, since
// both change by one on every move.
func TestHeuristicsAdmissible(t *testing.T) {
	t.Parallel()
	for _, sz := range smallSizes {
		for _, goal := range goals {
			g := mustGeometry(t, sz[0], sz[1])
			t.Run(g.String()+"/"+goal.String(), func(t *testing.T) {
				t.Parallel()
				gb := g.GoalBoard(goal)
				for k, d := range exactDist(g.Rows, g.Cols, goal) {
					b := unkey(k, g.Cells())
					m, h, disc := g.Manhattan(b, goal), g.Hamming(b, goal), Discrete(b, gb)
					if m > d || h > d || disc > d || h > m || m%2 != d%2 || (disc == 0) != (d == 0) {
						t.Fatalf("%v: distance %d, Manhattan %d, Hamming %d, Discrete %d", b, d, m, h, disc)
					}
				}
			})
		}
	}
}

// TestManhattanConsistent walks every move of every solvable 3×3 board with
// the package's own Neighbors and Slide, checks them against the independent
// move generator, and checks that Manhattan changes by exactly one and that
// ManhattanDelta predicts the change.
func TestManhattanConsistent(t *testing.T) {
	t.Parallel()
	for _, goal := range goals {
		g := mustGeometry(t, 3, 3)
		t.Run(goal.String(), func(t *testing.T) {
			t.Parallel()
			dist := exactDist(3, 3, goal)
			for k, d := range dist {
				b := unkey(k, 9)
				m := g.Manhattan(b, goal)
				want := localMoves(3, 3, b)
				blank := Blank(b)
				nb := g.Neighbors(blank)
				if len(nb) != len(want) {
					t.Fatalf("%v: %d neighbours of cell %d, want %d", b, len(nb), blank, len(want))
				}
				for i, from := range nb {
					tile := b[from]
					Slide(b, blank, int(from))
					if !slices.Equal(b, want[i]) {
						t.Fatalf("Slide(%d, %d) gave %v, want %v", blank, from, b, want[i])
					}
					m2 := g.Manhattan(b, goal)
					if delta := g.ManhattanDelta(tile, int(from), blank, goal); delta != m2-m || (delta != 1 && delta != -1) {
						t.Fatalf("%v: ManhattanDelta(%d, %d, %d) = %d, Manhattan went %d -> %d", want[i], tile, from, blank, delta, m, m2)
					}
					if d2 := dist[key(b)]; d2 != d+1 && d2 != d-1 {
						t.Fatalf("BFS distances %d -> %d across one move", d, d2)
					}
					Slide(b, int(from), blank)
				}
			}
		})
	}
}

// TestManhattanDeltaWalks runs incremental Manhattan along random walks on
// every size, as IDA* would, and compares it with recomputation.
func TestManhattanDeltaWalks(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(8, 9))
	for _, sz := range sizes() {
		g := mustGeometry(t, sz[0], sz[1])
		for _, goal := range goals {
			b := randomBoard(rng, g.Cells())
			h := g.Manhattan(b, goal)
			blank := Blank(b)
			if g.ManhattanDelta(0, blank, int(g.Neighbors(blank)[0]), goal) != 0 {
				t.Fatalf("%v: the blank's ManhattanDelta is not 0", g)
			}
			for range 500 {
				nb := g.Neighbors(blank)
				from := int(nb[rng.IntN(len(nb))])
				h += g.ManhattanDelta(b[from], from, blank, goal)
				Slide(b, blank, from)
				blank = from
				if got := g.Manhattan(b, goal); got != h {
					t.Fatalf("%v %v: incremental Manhattan %d, recomputed %d at %v", g, goal, h, got, b)
				}
			}
		}
	}
}

func TestHeuristicsKnownValues(t *testing.T) {
	t.Parallel()
	g := mustGeometry(t, 4, 4)
	// Korf (1985) instance 1: Manhattan 41 for the blank-first goal.
	b, err := g.Parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3")
	if err != nil {
		t.Fatal(err)
	}
	if m := g.Manhattan(b, BlankFirst); m != 41 {
		t.Errorf("Korf #1 Manhattan = %d, want 41", m)
	}
	g3 := mustGeometry(t, 3, 3)
	b, _ = g3.Parse("812043765") // all tiles but 7 misplaced
	if h := g3.Hamming(b, BlankLast); h != 7 {
		t.Errorf("Hamming(812043765) = %d, want 7", h)
	}
}

func TestMirrorErrors(t *testing.T) {
	t.Parallel()
	g := mustGeometry(t, 2, 3)
	b := g.GoalBoard(BlankLast)
	if err := g.Mirror(make([]uint8, 6), b, BlankLast); err == nil || !strings.Contains(err.Error(), "2×3") {
		t.Errorf("Mirror on 2×3: error %v, want one naming the size", err)
	}
	g3 := mustGeometry(t, 3, 3)
	if err := g3.Mirror(make([]uint8, 8), g3.GoalBoard(BlankLast), BlankLast); err == nil {
		t.Error("Mirror into a short dst: no error")
	}
	if err := g3.Mirror(make([]uint8, 9), b, BlankLast); err == nil {
		t.Error("Mirror of a short board: no error")
	}
}

// TestMirrorRelabelling pins the documented 4×4 blank-last relabelling.
func TestMirrorRelabelling(t *testing.T) {
	t.Parallel()
	g := mustGeometry(t, 4, 4)
	sigma := []uint8{0, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12}
	b := []uint8{14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3}
	got := make([]uint8, 16)
	if err := g.Mirror(got, b, BlankLast); err != nil {
		t.Fatal(err)
	}
	for r := range 4 {
		for c := range 4 {
			if want := sigma[b[r*4+c]]; got[c*4+r] != want {
				t.Fatalf("Mirror(%v) = %v: cell (%d,%d) holds %d, want %d", b, got, c, r, got[c*4+r], want)
			}
		}
	}
}

func TestMirrorSquareBoards(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(10, 11))
	for side := minSide; side*side <= MaxCells; side++ {
		g := mustGeometry(t, side, side)
		for _, goal := range goals {
			gb := g.GoalBoard(goal)
			m := make([]uint8, g.Cells())
			if err := g.Mirror(m, gb, goal); err != nil || !slices.Equal(m, gb) {
				t.Fatalf("%v %v: Mirror(goal) = %v, %v", g, goal, m, err)
			}
			for range 300 {
				b := randomBoard(rng, g.Cells())
				m, mm := make([]uint8, len(b)), make([]uint8, len(b))
				_ = g.Mirror(m, b, goal)
				_ = g.Mirror(mm, m, goal)
				if !slices.Equal(mm, b) || g.Check(m) != nil {
					t.Fatalf("%v %v: %v -> %v -> %v", g, goal, b, m, mm)
				}
				if g.Manhattan(m, goal) != g.Manhattan(b, goal) || g.Solvable(m, goal) != g.Solvable(b, goal) {
					t.Fatalf("%v %v: Mirror(%v) = %v changes Manhattan or solvability", g, goal, b, m)
				}
				inPlace := slices.Clone(b)
				_ = g.Mirror(inPlace, inPlace, goal)
				if !slices.Equal(inPlace, m) {
					t.Fatalf("%v: Mirror in place = %v, want %v", g, inPlace, m)
				}
			}
		}
	}
}

// TestMirrorPreservesDistance checks on 2×2 and 3×3 that a board and its
// mirror are equally far from the goal, using the exact BFS distances.
func TestMirrorPreservesDistance(t *testing.T) {
	t.Parallel()
	for _, side := range []int{2, 3} {
		g := mustGeometry(t, side, side)
		for _, goal := range goals {
			dist := exactDist(side, side, goal)
			m := make([]uint8, g.Cells())
			for k, d := range dist {
				if err := g.Mirror(m, unkey(k, g.Cells()), goal); err != nil {
					t.Fatal(err)
				}
				if dm, ok := dist[key(m)]; !ok || dm != d {
					t.Fatalf("%v %v: board %v at distance %d, its mirror %v at %d (reachable %v)",
						g, goal, unkey(k, g.Cells()), d, m, dm, ok)
				}
			}
		}
	}
}
