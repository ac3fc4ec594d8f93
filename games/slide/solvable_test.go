package slide

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSolvableMatchesBFS checks Solvable exhaustively against the set that a
// BFS from the goal reaches, and that this set is exactly half of all boards.
func TestSolvableMatchesBFS(t *testing.T) {
	t.Parallel()
	for _, sz := range smallSizes {
		for _, goal := range goals {
			g := mustGeometry(t, sz[0], sz[1])
			t.Run(g.String()+"/"+goal.String(), func(t *testing.T) {
				t.Parallel()
				dist := exactDist(g.Rows, g.Cols, goal)
				if want := factorial(g.Cells()) / 2; len(dist) != want {
					t.Fatalf("BFS reached %d boards, want n!/2 = %d", len(dist), want)
				}
				solvable := 0
				forEachPerm(g.Cells(), func(b []uint8) {
					_, reached := dist[key(b)]
					if got := g.Solvable(b, goal); got != reached {
						t.Fatalf("Solvable(%v) = %v, BFS says %v", b, got, reached)
					}
					if reached {
						solvable++
					}
				})
				if solvable != len(dist) {
					t.Fatalf("%d solvable boards, BFS reached %d", solvable, len(dist))
				}
			})
		}
	}
}

// classicSolvable is the textbook rule, with tile inversions counted without
// the blank in O(n²): on odd widths a vertical move shifts a tile past an even
// number of others, so the inversion parity is invariant; on even widths it
// flips together with the blank's row. Compared with the goal's own values,
// for the blank-last goal this is "inversions + blank row from the bottom is
// even" on even widths.
func classicSolvable(rows, cols int, b []uint8, goal Goal) bool {
	invariant := func(b []uint8) int {
		inv, blankRow := 0, 0
		for i := range b {
			if b[i] == 0 {
				blankRow = i / cols
				continue
			}
			for j := i + 1; j < len(b); j++ {
				if b[j] != 0 && b[j] < b[i] {
					inv++
				}
			}
		}
		if cols%2 == 1 {
			return inv % 2
		}
		return (inv + blankRow) % 2
	}
	return invariant(b) == invariant(wantGoal(rows*cols, goal))
}

func TestSolvableClassicRule(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sz := range sizes() {
		g := mustGeometry(t, sz[0], sz[1])
		trials := 300
		if g.Rows >= 4 && g.Cols >= 4 {
			trials = 5000 // the brief's focus: 4×4, 4×5, 5×4, 5×5
		}
		seen := [2]int{}
		for range trials {
			b := randomBoard(rng, g.Cells())
			for _, goal := range goals {
				got, want := g.Solvable(b, goal), classicSolvable(g.Rows, g.Cols, b, goal)
				if got != want {
					t.Fatalf("%v Solvable(%v, %v) = %v, classic rule says %v", g, b, goal, got, want)
				}
				if got {
					seen[1]++
				} else {
					seen[0]++
				}
			}
		}
		if seen[0] == 0 || seen[1] == 0 {
			t.Errorf("%v: random boards were all one way: %v", g, seen)
		}
	}
}

// TestSolvableWalks checks the large boards along random walks from the goal
// (always solvable), and that swapping two tiles breaks solvability.
func TestSolvableWalks(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sz := range [][2]int{{4, 4}, {4, 5}, {5, 4}, {5, 5}} {
		g := mustGeometry(t, sz[0], sz[1])
		for _, goal := range goals {
			b := wantGoal(g.Cells(), goal)
			for step := range 2000 {
				next := localMoves(g.Rows, g.Cols, b)
				b = next[rng.IntN(len(next))]
				if !g.Solvable(b, goal) {
					t.Fatalf("%v step %d: Solvable(%v, %v) = false", g, step, b, goal)
				}
				i, j := rng.IntN(g.Cells()), rng.IntN(g.Cells())
				if i == j || b[i] == 0 || b[j] == 0 {
					continue
				}
				sw := slices.Clone(b)
				sw[i], sw[j] = sw[j], sw[i]
				if g.Solvable(sw, goal) {
					t.Fatalf("%v: Solvable(%v, %v) = true after a tile swap", g, sw, goal)
				}
			}
		}
	}
}

// TestSolvableKnownBoards pins published positions.
func TestSolvableKnownBoards(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rows, cols int
		board      string
		goal       Goal
		want       bool
	}{
		// Korf (1985) 15-puzzle instance 1, goal blank-first.
		{4, 4, "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", BlankFirst, true},
		// Sam Loyd's 14-15 puzzle: the goal with 14 and 15 swapped.
		{4, 4, "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0", BlankLast, false},
		// The two 8-puzzle boards 31 moves from 123456780.
		{3, 3, "867254301", BlankLast, true},
		{3, 3, "647850321", BlankLast, true},
		{3, 3, "123456870", BlankLast, false},
	} {
		g := mustGeometry(t, tc.rows, tc.cols)
		b, err := g.Parse(tc.board)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Solvable(b, tc.goal); got != tc.want {
			t.Errorf("%v Solvable(%s, %v) = %v, want %v", g, tc.board, tc.goal, got, tc.want)
		}
	}
}

// TestEightPuzzleDistribution checks the local BFS itself against the known
// 8-puzzle facts: 181,440 boards, diameter 31, reached only by two boards.
func TestEightPuzzleDistribution(t *testing.T) {
	t.Parallel()
	dist := exactDist(3, 3, BlankLast)
	g := mustGeometry(t, 3, 3)
	var far []string
	max := 0
	for k, d := range dist {
		if d > max {
			max, far = d, nil
		}
		if d == max {
			far = append(far, g.Format(unkey(k, 9)))
		}
	}
	slices.Sort(far)
	if len(dist) != 181440 || max != 31 || !slices.Equal(far, []string{"647850321", "867254301"}) {
		t.Fatalf("8-puzzle BFS: %d boards, diameter %d at %v", len(dist), max, far)
	}
}
