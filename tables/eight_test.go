package tables

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"tablesmith/builder"
	"tablesmith/format"
	"tablesmith/games/slide"
	"tablesmith/index"
)

// eightCounts is the distance distribution of the 8-puzzle from a goal with the blank
// in a corner (181,440 states, maximum 31).
var eightCounts = []uint64{1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512,
	4485, 5638, 9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2}

// buildEight builds and writes an 8-puzzle table and opens it.
func buildEight(t *testing.T, scheme, goal string, workers int) (*builder.Result, *Table) {
	t.Helper()
	sp, err := slide.NewSpace(slide.Params{Rows: 3, Cols: 3, Goal: goal, Index: scheme})
	if err != nil {
		t.Fatal(err)
	}
	res, err := builder.BFS(context.Background(), sp, builder.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "eight.tsm")
	params, _ := json.Marshal(map[string]any{"rows": 3, "cols": 3, "goal": goal})
	meta := format.Metadata{Game: GameSlide, Params: params, Index: scheme}
	if _, err := WritePuzzle(context.Background(), path, res, meta, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	tab, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tab.Close() })
	return res, tab
}

// TestEightEveryScheme checks the distribution for every scheme, goal and worker count,
// and that the parity test agrees with the table on all 9! permutations.
func TestEightEveryScheme(t *testing.T) {
	t.Parallel()
	geo, _ := slide.NewGeometry(3, 3)
	for _, scheme := range slide.SchemeNames(9) {
		for _, goal := range []string{"blank-last", "blank-first"} {
			for _, workers := range []int{1, 2, 3} {
				res, tab := buildEight(t, scheme, goal, workers)
				if !slices.Equal(res.Counts, eightCounts) {
					t.Fatalf("%s %s workers=%d: counts %v", scheme, goal, workers, res.Counts)
				}
				info := tab.Info()
				if !slices.Equal(info.Counts, eightCounts) || info.States != 181440 || info.MaxRemoteness != 31 {
					t.Fatalf("%s %s: info %+v", scheme, goal, info)
				}
				if workers != 2 {
					continue
				}
				wantUnreachable, wantHoles := uint64(181440), uint64(0)
				switch scheme {
				case "lex-half":
					wantUnreachable = 0
				case "branch767359":
					wantHoles = 767359 - 362880
				}
				if info.Unreachable != wantUnreachable || info.Holes != wantHoles {
					t.Fatalf("%s: %d unreachable, %d holes; want %d, %d", scheme, info.Unreachable, info.Holes, wantUnreachable, wantHoles)
				}
				g, _ := slide.ParseGoal(goal)
				checkAllPermutations(t, tab, geo, g)
			}
		}
	}
}

// checkAllPermutations looks up every 9-permutation: the table says reachable exactly when
// the parity test says solvable, and remoteness agrees with a neighbour one move closer.
func checkAllPermutations(t *testing.T, tab *Table, geo *slide.Geometry, goal slide.Goal) {
	t.Helper()
	lex := index.NewLex(9)
	board := make([]uint8, 9)
	for r := uint64(0); r < index.Factorial(9); r++ {
		lex.Unrank(r, board)
		state := geo.Format(board)
		a, err := tab.Lookup(state)
		if err != nil {
			t.Fatalf("%s: %v", state, err)
		}
		if a.Reachable != geo.Solvable(board, goal) {
			t.Fatalf("%s: table says reachable=%v, parity test says %v", state, a.Reachable, !a.Reachable)
		}
		if r%997 == 0 && a.Reachable {
			path, err := tab.Path(state)
			if err != nil || len(path) != a.Remoteness+1 {
				t.Fatalf("%s: path %v (%v), remoteness %d", state, path, err, a.Remoteness)
			}
		}
	}
}

// TestEightRoundTrip compares every value read back from the file with the search result.
func TestEightRoundTrip(t *testing.T) {
	t.Parallel()
	res, tab := buildEight(t, "branch767359", "blank-last", 2)
	enc := RemotenessCodes{Bits: tab.Meta().CodeBits}
	codes := make([]uint32, res.Values.Len())
	if err := tab.Reader().Codes(codes, 0); err != nil {
		t.Fatal(err)
	}
	for s := range codes {
		v := res.Values.Get(uint64(s))
		want := uint32(v)
		switch v {
		case res.Values.Hole():
			want = enc.Hole()
		case res.Values.Unset():
			want = enc.Unreachable()
		}
		if codes[s] != want {
			t.Fatalf("slot %d: code %d, want %d", s, codes[s], want)
		}
		if s%101 == 0 {
			c, err := tab.Reader().Code(uint64(s))
			if err != nil || c != want {
				t.Fatalf("slot %d: Code = %d, %v; want %d", s, c, err, want)
			}
		}
	}
	if err := tab.Verify(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
}

func TestLookupErrors(t *testing.T) {
	t.Parallel()
	_, tab := buildEight(t, "lex-half", "blank-last", 2)
	for _, bad := range []string{"", "12345678", "1234567800", "12345678x", "113456780", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"} {
		if _, err := tab.Lookup(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	a, err := tab.Lookup("213456780")
	if err != nil || a.Reachable {
		t.Fatalf("odd permutation: %+v, %v", a, err)
	}
	if p, err := tab.Path("213456780"); err != nil || p != nil {
		t.Fatalf("path of an unreachable state: %v, %v", p, err)
	}
	best, err := tab.BestMoves("123456708")
	if err != nil || !slices.Equal(best, []string{"123456780"}) {
		t.Fatalf("best moves: %v, %v", best, err)
	}
}
