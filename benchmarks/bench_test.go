package benchmarks

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/hanoi"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/index"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/tables"
)

func TestZobristBFSCounts(t *testing.T) {
	t.Parallel()
	geo, _ := slide.NewGeometry(3, 3)
	for _, goal := range []slide.Goal{slide.BlankLast, slide.BlankFirst} {
		got := ZobristBFS(geo, geo.GoalBoard(goal), index.NewZobrist(9, 9, index.DefaultZobristSeed))
		if !slices.Equal(got, slide.EightPuzzleCounts) {
			t.Fatalf("%v: %v", goal, got)
		}
	}
}

func TestEightSchemesQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("builds five 8-puzzle tables")
	}
	rows, err := EightSchemes(context.Background(), EightOptions{Workers: 2, Rounds: 1, Repeats: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		if !slices.Equal(r.Counts, slide.EightPuzzleCounts) || r.RankNs <= 0 || r.BFS <= 0 {
			t.Fatalf("row %+v", r)
		}
	}
}

// BenchmarkEightBFS is the full breadth-first search over all 9! permutations under each
// index scheme with 2 workers, and the Zobrist hash-set search beside it.
func BenchmarkEightBFS(b *testing.B) {
	for _, scheme := range slide.SchemeNames(9) {
		sp, err := slide.NewSpace(slide.Params{Rows: 3, Cols: 3, Goal: "blank-last", Index: scheme})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(scheme, func(b *testing.B) {
			for b.Loop() {
				if _, err := bfs.Search(context.Background(), sp, bfs.Options{Workers: 2}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/181440, "ns/state")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/build")
		})
	}
	b.Run("zobrist", func(b *testing.B) {
		geo, _ := slide.NewGeometry(3, 3)
		z := index.NewZobrist(9, 9, index.DefaultZobristSeed)
		goal := geo.GoalBoard(slide.BlankLast)
		for b.Loop() {
			ZobristBFS(geo, goal, z)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/181440, "ns/state")
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/build")
	})
}

// BenchmarkLookup is a random remoteness lookup through the table file (cache warm).
func BenchmarkLookup(b *testing.B) {
	sp, _ := slide.NewSpace(slide.Params{Rows: 3, Cols: 3, Goal: "blank-last", Index: "lex"})
	res, err := bfs.Search(context.Background(), sp, bfs.Options{Workers: 2})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "eight.tsm")
	meta := format.Metadata{Game: "slide", Index: "lex", Params: []byte(`{"rows":3,"cols":3,"goal":"blank-last"}`)}
	if _, err := pipeline.WriteRemoteness(context.Background(), path, res, meta, format.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	tab, err := tables.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer tab.Close()
	b.Run("slot", func(b *testing.B) {
		var slot uint64
		for b.Loop() {
			slot = (slot + 7919) % 362880
			if _, _, err := tab.SlotRemoteness(slot); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("state-string", func(b *testing.B) {
		for b.Loop() {
			if _, err := tab.Lookup("867254301"); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Random states: every lookup ranks a different permutation and lands in a block
	// chosen at random (all of them stay cached: the table is warm).
	rng := rand.New(rand.NewPCG(3, 4))
	boards := make([]slide.Board, 1<<12)
	strs := make([]string, len(boards))
	for i := range boards {
		boards[i] = slide.Board{0, 1, 2, 3, 4, 5, 6, 7, 8}
		rng.Shuffle(9, func(x, y int) { boards[i][x], boards[i][y] = boards[i][y], boards[i][x] })
		strs[i] = sp.Geometry().Format(boards[i])
	}
	b.Run("random-string", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := tab.Lookup(strs[i&(len(strs)-1)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("random-board", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := tables.Probe(tab, boards[i&(len(boards)-1)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

func TestHanoiSchemesAgree(t *testing.T) {
	t.Parallel()
	rows, err := HanoiSchemes(context.Background(), 4, 7, 2, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	classes := hanoi.ClassCount(4, 7)
	want := map[string][3]uint64{ // slots, states reached, holes
		"classes": {classes, classes, 0},
		"seed":    {1 << 14, classes, 1<<14 - classes},
		"plain":   {1 << 14, 1 << 14, 0},
	}
	for _, r := range rows {
		w, ok := want[r.Scheme]
		if !ok || r.Slots != w[0] || r.States != w[1] || r.Holes != w[2] {
			t.Fatalf("%s: slots %d, states %d, holes %d; want %v", r.Scheme, r.Slots, r.States, r.Holes, w)
		}
		if r.MaxDepth != 25 || r.TableBytes <= 0 { // the farthest state is the standard start: Frame–Stewart(4, 7) = 25
			t.Fatalf("%s: max remoteness %d, table %d bytes", r.Scheme, r.MaxDepth, r.TableBytes)
		}
	}
}
