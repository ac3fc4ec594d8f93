package slide_test

import (
	"context"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/games/gametest"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/index"
)

var (
	_ bfs.Space    = (*slide.Space)(nil)
	_ bfs.Holed    = (*slide.Space)(nil)
	_ bfs.Expecter = (*slide.Space)(nil)
)

// oracleCounts is an independent breadth-first search over board strings with a map: no
// index scheme, no bitsets, no workers.
func oracleCounts(geo *slide.Geometry, goal slide.Goal) []uint64 {
	start := geo.GoalBoard(goal)
	seen := map[string]bool{string(start): true}
	cur := [][]uint8{start}
	counts := []uint64{1}
	for len(cur) > 0 {
		var next [][]uint8
		for _, b := range cur {
			blank := slide.Blank(b)
			for _, from := range geo.Neighbors(blank) {
				n := slices.Clone(b)
				slide.Slide(n, blank, int(from))
				if !seen[string(n)] {
					seen[string(n)] = true
					next = append(next, n)
				}
			}
		}
		if len(next) > 0 {
			counts = append(counts, uint64(len(next)))
		}
		cur = next
	}
	return counts
}

func TestBoardsAgainstOracle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rows, cols int
		max        int
		long       bool
	}{
		{2, 2, 6, false}, {2, 3, 21, false}, {3, 2, 21, false}, {2, 4, 36, false}, {3, 3, 31, false}, {2, 5, 55, true},
	} {
		if tc.long && testing.Short() {
			continue
		}
		geo, err := slide.NewGeometry(tc.rows, tc.cols)
		if err != nil {
			t.Fatal(err)
		}
		for _, goal := range []slide.Goal{slide.BlankLast, slide.BlankFirst} {
			want := oracleCounts(geo, goal)
			if len(want)-1 != tc.max {
				t.Fatalf("%v %v: oracle max %d, want %d", geo, goal, len(want)-1, tc.max)
			}
			for _, scheme := range slide.SchemeNames(geo.Cells()) {
				sp, err := slide.NewSpace(slide.Params{Rows: tc.rows, Cols: tc.cols, Goal: goal.String(), Index: scheme})
				if err != nil {
					t.Fatal(err)
				}
				res, err := bfs.Search(context.Background(), sp, bfs.Options{Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(res.Counts, want) {
					t.Fatalf("%v %v %s: counts %v, oracle %v", geo, goal, scheme, res.Counts, want)
				}
				if res.Reached != sp.ExpectedStates() {
					t.Fatalf("%v %s: reached %d, want n!/2 = %d", geo, scheme, res.Reached, sp.ExpectedStates())
				}
			}
		}
	}
}

// TestSlotsAreABijection ranks every board of small boards under every scheme: slots are
// distinct and in range, the parity-halved scheme maps exactly the solvable boards onto
// [0, n!/2), and non-hole slots of the branch hash are exactly 9!.
func TestSlotsAreABijection(t *testing.T) {
	t.Parallel()
	for _, dims := range [][2]int{{2, 2}, {2, 3}, {3, 3}} {
		geo, _ := slide.NewGeometry(dims[0], dims[1])
		n := geo.Cells()
		lex := index.NewLex(n)
		board := make([]uint8, n)
		for _, scheme := range slide.SchemeNames(n) {
			sp, err := slide.NewSpace(slide.Params{Rows: dims[0], Cols: dims[1], Index: scheme})
			if err != nil {
				t.Fatal(err)
			}
			seen := make([]bool, sp.Slots())
			for r := uint64(0); r < index.Factorial(n); r++ {
				lex.Unrank(r, board)
				slot, ok, err := sp.Slot(geo.Format(board))
				if err != nil {
					t.Fatal(err)
				}
				if scheme == "lex-half" && ok != sp.Solvable(board) {
					t.Fatalf("%v lex-half: has-slot %v for solvable=%v", geo, ok, sp.Solvable(board))
				}
				if !ok {
					continue
				}
				if slot >= sp.Slots() || seen[slot] {
					t.Fatalf("%v %s: slot %d out of range or taken twice", geo, scheme, slot)
				}
				seen[slot] = true
			}
			var used, holes uint64
			for s, u := range seen {
				if u {
					used++
				}
				if sp.IsHole(uint64(s)) {
					holes++
					if u {
						t.Fatalf("%v %s: slot %d is used but called a hole", geo, scheme, s)
					}
				}
			}
			if used+holes != sp.Slots() {
				t.Fatalf("%v %s: %d used + %d holes != %d slots", geo, scheme, used, holes, sp.Slots())
			}
		}
	}
}

func TestNewSpaceErrors(t *testing.T) {
	t.Parallel()
	for _, p := range []slide.Params{
		{Rows: 3, Cols: 3, Index: "nope"}, {Rows: 2, Cols: 4, Index: "branch767359"},
		{Rows: 1, Cols: 3, Index: "lex"}, {Rows: 5, Cols: 5, Index: "lex"}, {Rows: 3, Cols: 3, Goal: "sideways", Index: "lex"},
	} {
		if _, err := slide.NewSpace(p); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
}

// TestSpacesKeepTheirPromises: every board and scheme passes the puzzle-space contract
// (package gametest): its moves undo each other and each slide crosses sides, and the
// runs RunSide names (a whole blank cell's boards under the lex schemes) hold one side.
func TestSpacesKeepTheirPromises(t *testing.T) {
	t.Parallel()
	for _, b := range []struct{ rows, cols int }{{2, 2}, {2, 3}, {3, 3}, {2, 5}, {3, 4}, {2, 7}} {
		cells := b.rows * b.cols
		for _, scheme := range slide.SchemeNames(cells) {
			for _, goal := range []string{"blank-last", "blank-first"} {
				sp, err := slide.NewSpace(slide.Params{Rows: b.rows, Cols: b.cols, Goal: goal, Index: scheme})
				if err != nil {
					t.Fatal(err)
				}
				gametest.CheckPuzzleSpace(t, sp, 3000)
			}
		}
	}
}

// TestRunSidesOfTheLexSchemes: under lex and lex-half each blank cell's boards are one
// run, which RunSide answers for whole; mr and the branch hash answer for single slots.
func TestRunSidesOfTheLexSchemes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		scheme string
		run    uint64 // the slots of one blank cell, 0: single slots only
	}{{"lex", 40320}, {"lex-half", 20160}, {"mr", 0}, {"branch767359", 0}} {
		sp, err := slide.NewSpace(slide.Params{Rows: 3, Cols: 3, Index: tc.scheme})
		if err != nil {
			t.Fatal(err)
		}
		for c := range uint64(9) {
			lo, hi := c*tc.run, (c+1)*tc.run
			side, ok := sp.RunSide(lo, hi)
			if ok != (tc.run > 0) || ok && side != uint8((2-c/3+2-c%3)%2) {
				t.Fatalf("%s: RunSide(%d, %d) = %d, %v", tc.scheme, lo, hi, side, ok)
			}
			if _, ok := sp.RunSide(lo, hi+1); ok && tc.run > 0 && c < 8 {
				t.Fatalf("%s: RunSide(%d, %d) spans two blank cells yet answers", tc.scheme, lo, hi+1)
			}
		}
		if _, ok := sp.RunSide(5, 5); ok {
			t.Fatalf("%s: an empty run answers", tc.scheme)
		}
		if _, ok := sp.RunSide(0, sp.Slots()+1); ok {
			t.Fatalf("%s: a run past the slots answers", tc.scheme)
		}
	}
}

// TestLexSchemesShiftHorizontalMoves: under lex and lex-half a horizontal move is a shift
// of its blank cell's whole run (CheckPuzzleSpace checks each shift against the
// expander); the other schemes, and boards whose runs are not whole words, have none.
func TestLexSchemesShiftHorizontalMoves(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rows, cols int
		scheme     string
		shifts     int
		run        uint64
	}{
		{3, 4, "lex-half", 18, 19958400},
		{3, 4, "lex", 18, 39916800},
		{2, 7, "lex-half", 24, 3113510400},
		{3, 3, "lex-half", 12, 20160},
		{3, 4, "mr", 0, 0},
		{2, 4, "lex-half", 0, 0}, // 7!/2 = 2520 slots a run: not whole words
	} {
		sp, err := slide.NewSpace(slide.Params{Rows: tc.rows, Cols: tc.cols, Index: tc.scheme})
		if err != nil {
			t.Fatal(err)
		}
		lo, hi, delta := sp.MoveShifts()
		if len(lo) != tc.shifts {
			t.Fatalf("%d×%d %s: %d shifts, want %d", tc.rows, tc.cols, tc.scheme, len(lo), tc.shifts)
		}
		for i := range lo {
			if hi[i]-lo[i] != tc.run || (delta[i] != int64(tc.run) && delta[i] != -int64(tc.run)) {
				t.Fatalf("%d×%d %s: run [%d, %d) shifted by %d", tc.rows, tc.cols, tc.scheme, lo[i], hi[i], delta[i])
			}
		}
	}
}
