package twobit_test

import (
	"context"
	"testing"

	"github.com/tablesmith/tablesmith/builder/twobit"
	"github.com/tablesmith/tablesmith/games/slide"
)

// BenchmarkSlide searches a whole sliding-tile puzzle: 3×3 by default (go test -bench);
// the 3×4 and 2×6 (239,500,800 states each, 60 MiB of codes) run with -bench 'Slide/(3x4|2x6)'.
func BenchmarkSlide(b *testing.B) {
	for _, bd := range []struct {
		name       string
		rows, cols int
	}{{"3x3", 3, 3}, {"2x5", 2, 5}, {"3x4", 3, 4}, {"2x6", 2, 6}} {
		b.Run(bd.name, func(b *testing.B) {
			sp, err := slide.NewSpace(slide.Params{Rows: bd.rows, Cols: bd.cols, Index: "lex-half"})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				res, err := twobit.Search(context.Background(), sp, twobit.Options{})
				if err != nil {
					b.Fatal(err)
				}
				res.Codes.Release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sp.ExpectedStates()), "ns/state")
		})
	}
}
