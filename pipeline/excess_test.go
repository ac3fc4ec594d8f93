package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/slide"
)

// pdbBuildOf is the build of the sliding-tile group p.
func pdbBuildOf(t testing.TB, p slide.PDBParams) games.PDBBuild {
	t.Helper()
	sp, err := slide.PDBGame{}.NewPDBBuild(&p)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// TestToExcessEveryEntry converts the values of groups spanning many of toExcess's
// chunks and blocks, each entry's value made from its own Manhattan distance
// (unranked from scratch), and checks every code; a value of the wrong parity is
// reported with its placement.
func TestToExcessEveryEntry(t *testing.T) {
	t.Parallel()
	for _, p := range []slide.PDBParams{
		{Rows: 4, Cols: 4, Goal: "blank-first", Tiles: []int{1, 2, 3, 4, 5}},
		{Rows: 3, Cols: 5, Goal: "blank-last", Tiles: []int{2, 7, 11, 14}},
		{Rows: 2, Cols: 3, Goal: "blank-last", Tiles: []int{1}},
	} {
		g, err := slide.NewPDBGroup(p)
		if err != nil {
			t.Fatal(err)
		}
		sp := pdbBuildOf(t, p)
		// fresh gives every entry the value of code e%7 at its own Manhattan distance.
		fresh := func() *builder.Values {
			v, err := builder.NewValues(g.Slots(), 1)
			if err != nil {
				t.Fatal(err)
			}
			for e := range g.Slots() {
				v.Set(e, uint64(g.EntryMD(e))+2*(e%7))
			}
			return v
		}
		for _, workers := range []int{1, 3} {
			v := fresh()
			top, err := toExcess(context.Background(), sp, v, workers)
			if err != nil {
				t.Fatal(err)
			}
			if want := min(6, g.Slots()-1); top != want {
				t.Fatalf("%v: largest code %d, want %d", p.Tiles, top, want)
			}
			for e := range g.Slots() {
				if got := v.Get(e); got != e%7 {
					t.Fatalf("%v, %d workers: entry %d has code %d, want %d", p.Tiles, workers, e, got, e%7)
				}
			}
		}
		v := fresh()
		bad := g.Slots() - 2
		v.Set(bad, uint64(g.EntryMD(bad))+1)
		cells := make([]uint8, g.K())
		g.Unrank(bad, cells)
		_, err = toExcess(context.Background(), sp, v, 2)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("placement %v:", cells)) {
			t.Fatalf("%v: a value of the wrong parity at placement %v gave %v", p.Tiles, cells, err)
		}
	}
}

// BenchmarkToExcess converts the values of the 15-puzzle's group of tiles 1-6
// (5,765,760 entries) on one worker.
func BenchmarkToExcess(b *testing.B) {
	p := slide.PDBParams{Rows: 4, Cols: 4, Goal: "blank-first", Tiles: []int{1, 2, 3, 4, 5, 6}}
	g, err := slide.NewPDBGroup(p)
	if err != nil {
		b.Fatal(err)
	}
	sp := pdbBuildOf(b, p)
	orig, err := builder.NewValues(g.Slots(), 1)
	if err != nil {
		b.Fatal(err)
	}
	for e := range g.Slots() {
		orig.Set(e, uint64(g.EntryMD(e))+2*(e%7))
	}
	v, _ := builder.NewValues(g.Slots(), 1)
	for b.Loop() {
		b.StopTimer()
		for e := range g.Slots() {
			v.Set(e, orig.Get(e))
		}
		b.StartTimer()
		if _, err := toExcess(context.Background(), sp, v, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(g.Slots()), "ns/entry")
}
