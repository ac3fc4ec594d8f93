package tables_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/index"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

// buildEight builds and writes an 8-puzzle table and opens it.
func buildEight(t *testing.T, scheme, goal string, workers int) (*bfs.Result, *tables.Table) {
	t.Helper()
	return buildSlide(t, 3, 3, scheme, goal, workers)
}

// buildSlide builds and writes the byte (remoteness) table of a sliding-tile board and
// opens it.
func buildSlide(t *testing.T, rows, cols int, scheme, goal string, workers int) (*bfs.Result, *tables.Table) {
	t.Helper()
	sp, err := slide.NewSpace(slide.Params{Rows: rows, Cols: cols, Goal: goal, Index: scheme})
	if err != nil {
		t.Fatal(err)
	}
	res, err := bfs.Search(context.Background(), sp, bfs.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "slide.tsm")
	params, _ := json.Marshal(map[string]any{"rows": rows, "cols": cols, "goal": goal})
	meta := format.Metadata{Game: "slide", Params: params, Index: scheme}
	if _, err := pipeline.WriteRemoteness(context.Background(), path, res, meta, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	tab, err := tables.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tab.Close() })
	return res, tab
}

// TestEightEveryScheme checks the distribution for every scheme, goal and worker count,
// and that the parity test agrees with the table on all 9! permutations.
func TestEightEveryScheme(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 16 s")
	t.Parallel()
	geo, _ := slide.NewGeometry(3, 3)
	for _, scheme := range slide.SchemeNames(9) {
		for _, goal := range []string{"blank-last", "blank-first"} {
			for _, workers := range []int{1, 2, 3} {
				res, tab := buildEight(t, scheme, goal, workers)
				if !slices.Equal(res.Counts, slide.EightPuzzleCounts) {
					t.Fatalf("%s %s workers=%d: counts %v", scheme, goal, workers, res.Counts)
				}
				info := tab.Info()
				if !slices.Equal(info.Counts, slide.EightPuzzleCounts) || info.States != 181440 || info.MaxRemoteness != 31 {
					t.Fatalf("%s %s: info %+v", scheme, goal, info)
				}
				if workers != 2 || (testing.Short() && goal != "blank-last") {
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
				checkAllPermutations(t, tab, geo, goal, scheme)
			}
		}
	}
}

// checkAllPermutations looks up every 9-permutation: the table says reachable exactly when
// the parity test says solvable; a sample also walks its shortest path by state strings.
func checkAllPermutations(t *testing.T, tab *tables.Table, geo *slide.Geometry, goal, scheme string) {
	t.Helper()
	g, _ := slide.ParseGoal(goal)
	sp, err := slide.NewSpace(slide.Params{Rows: 3, Cols: 3, Goal: goal, Index: scheme})
	if err != nil {
		t.Fatal(err)
	}
	lex := index.NewLex(9)
	board, pos := make([]uint8, 9), make([]uint8, 9)
	for r := uint64(0); r < index.Factorial(9); r++ {
		lex.Unrank(r, board)
		solvable := geo.Solvable(board, g)
		slot, ok := sp.SlotOf(board, pos)
		reachable := false
		if ok {
			_, reachable, err = tab.SlotRemoteness(slot)
			if err != nil {
				t.Fatalf("%s: %v", geo.Format(board), err)
			}
		}
		if reachable != solvable {
			t.Fatalf("%s: table says reachable=%v, parity test says %v", geo.Format(board), reachable, solvable)
		}
		if r%4999 == 0 && reachable {
			state := geo.Format(board)
			a, err := tab.Lookup(state)
			if err != nil || !a.Reachable {
				t.Fatalf("%s: lookup %+v, %v", state, a, err)
			}
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
	enc := values.RemotenessCodes{Bits: tab.Meta().CodeBits}
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
	if err := tab.Verify(context.Background(), tables.VerifyOptions{}); err != nil {
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

// mustInstance recreates an instance from the registry as table metadata names it.
func mustInstance(t *testing.T, game, params, index string) *games.Instance {
	t.Helper()
	in, err := registry.Open(game, []byte(params), index)
	if err != nil {
		t.Fatal(err)
	}
	return in
}
