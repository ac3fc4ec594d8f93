package slide

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestNewGeometryRejectsBadSizes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rows, cols int
		want       string
	}{
		{1, 3, "1×3"}, {3, 1, "3×1"}, {0, 0, "0×0"}, {2, 13, "2×13"},
		{13, 2, "13×2"}, {-1, 3, "-1×3"}, {6, 6, "6×6"}, {5, 6, "5×6"},
	} {
		g, err := NewGeometry(tc.rows, tc.cols)
		if err == nil {
			t.Errorf("NewGeometry(%d, %d) = %v, want error", tc.rows, tc.cols, g)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewGeometry(%d, %d) error %q does not name %q", tc.rows, tc.cols, err, tc.want)
		}
	}
}

func TestGeometryBasics(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes() {
		rows, cols := sz[0], sz[1]
		g := mustGeometry(t, rows, cols)
		n := rows * cols
		if g.Rows != rows || g.Cols != cols || g.Cells() != n {
			t.Fatalf("%d×%d: got Rows %d Cols %d Cells %d", rows, cols, g.Rows, g.Cols, g.Cells())
		}
		if s, want := g.String(), fmt.Sprintf("%d×%d", rows, cols); s != want {
			t.Errorf("String() = %q, want %q", s, want)
		}
		for _, goal := range goals {
			if got, want := g.GoalBoard(goal), wantGoal(n, goal); !slices.Equal(got, want) {
				t.Errorf("%v GoalBoard(%v) = %v, want %v", g, goal, got, want)
			}
		}
		// GoalBoard hands out a copy.
		b := g.GoalBoard(BlankLast)
		b[0] = 99
		if g.GoalBoard(BlankLast)[0] != 1 {
			t.Errorf("%v: GoalBoard shares its table", g)
		}
	}
}

func TestNeighbors(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes() {
		rows, cols := sz[0], sz[1]
		g := mustGeometry(t, rows, cols)
		for c := range rows * cols {
			r, q := c/cols, c%cols
			var want []uint8 // up, left, right, down
			if r > 0 {
				want = append(want, uint8(c-cols))
			}
			if q > 0 {
				want = append(want, uint8(c-1))
			}
			if q < cols-1 {
				want = append(want, uint8(c+1))
			}
			if r < rows-1 {
				want = append(want, uint8(c+cols))
			}
			got := g.Neighbors(c)
			if !slices.Equal(got, want) {
				t.Errorf("%v Neighbors(%d) = %v, want %v", g, c, got, want)
			}
			if cap(got) != len(got) {
				t.Errorf("%v Neighbors(%d): cap %d > len %d lets append clobber the table", g, c, cap(got), len(got))
			}
		}
	}
}

func TestParseGoal(t *testing.T) {
	t.Parallel()
	for _, goal := range goals {
		got, err := ParseGoal(goal.String())
		if err != nil || got != goal {
			t.Errorf("ParseGoal(%q) = %v, %v", goal.String(), got, err)
		}
	}
	for _, s := range []string{"", "blank_last", "Blank-Last", "last", "Goal(2)"} {
		if _, err := ParseGoal(s); err == nil || !strings.Contains(err.Error(), "blank-last or blank-first") {
			t.Errorf("ParseGoal(%q) error = %v", s, err)
		}
	}
	if s := Goal(7).String(); s != "Goal(7)" {
		t.Errorf("Goal(7).String() = %q", s)
	}
}

func TestBlankAndSlide(t *testing.T) {
	t.Parallel()
	if got := Blank([]uint8{1, 2, 3}); got != -1 {
		t.Errorf("Blank without blank = %d, want -1", got)
	}
	g := mustGeometry(t, 3, 3)
	b := g.GoalBoard(BlankLast) // blank at 8
	if Blank(b) != 8 {
		t.Fatalf("Blank(goal) = %d", Blank(b))
	}
	Slide(b, 8, 5)
	if want := []uint8{1, 2, 3, 4, 5, 0, 7, 8, 6}; !slices.Equal(b, want) {
		t.Fatalf("after Slide(8, 5): %v, want %v", b, want)
	}
	Slide(b, 5, 8) // undo
	if !slices.Equal(b, g.GoalBoard(BlankLast)) {
		t.Fatalf("undo did not restore the goal: %v", b)
	}
}

// TestNoAllocs is deliberately not parallel: AllocsPerRun counts the
// allocations of the whole process.
func TestNoAllocs(t *testing.T) {
	g := mustGeometry(t, 4, 4)
	board := randomBoard(rand.New(rand.NewPCG(1, 1)), 16)
	dst := make([]uint8, 16)
	sink := 0
	for name, f := range map[string]func(){
		"Neighbors":      func() { sink += len(g.Neighbors(5)) },
		"Blank":          func() { sink += Blank(board) },
		"Slide":          func() { b := Blank(board); n := g.Neighbors(b)[0]; Slide(board, b, int(n)) },
		"Manhattan":      func() { sink += g.Manhattan(board, BlankFirst) },
		"ManhattanDelta": func() { sink += g.ManhattanDelta(board[3], 3, 7, BlankLast) },
		"Hamming":        func() { sink += g.Hamming(board, BlankLast) },
		"Solvable": func() {
			if g.Solvable(board, BlankLast) {
				sink++
			}
		},
		"Mirror": func() {
			if g.Mirror(dst, board, BlankLast) != nil {
				sink++
			}
		},
	} {
		if a := testing.AllocsPerRun(100, f); a != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, a)
		}
	}
	_ = sink
}

func BenchmarkManhattan(b *testing.B) {
	g := mustGeometry(b, 4, 4)
	board := randomBoard(rand.New(rand.NewPCG(1, 2)), 16)
	sink := 0
	for b.Loop() {
		sink += g.Manhattan(board, BlankLast)
	}
	_ = sink
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/state")
}

func BenchmarkSolvable(b *testing.B) {
	g := mustGeometry(b, 5, 5)
	board := randomBoard(rand.New(rand.NewPCG(1, 3)), 25)
	sink := 0
	for b.Loop() {
		if g.Solvable(board, BlankLast) {
			sink++
		}
	}
	_ = sink
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/state")
}
