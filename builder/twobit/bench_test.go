package twobit_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tablesmith/tablesmith/builder/twobit"
	"github.com/tablesmith/tablesmith/games/slide"
)

// BenchmarkSlide searches a whole sliding-tile puzzle under lex-half with each kind of
// search (3 bits a slot, half-depth, lean), with the horizontal moves as shifts and
// without: 3×3 by default (go test -bench); the 3×4 and 2×6 (239,500,800 states each,
// 60 MiB of codes) run with -bench 'Slide/(3x4|2x6)'.
func BenchmarkSlide(b *testing.B) {
	for _, bd := range []struct {
		name       string
		rows, cols int
	}{{"3x3", 3, 3}, {"2x5", 2, 5}, {"3x4", 3, 4}, {"2x6", 2, 6}} {
		sp, err := slide.NewSpace(slide.Params{Rows: bd.rows, Cols: bd.cols, Index: "lex-half"})
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []struct {
			name string
			opt  twobit.Options
		}{{"3bit", twobit.Options{}}, {"half", twobit.Options{Half: true}}, {"lean", twobit.Options{Lean: true}}} {
			for _, shifts := range []bool{true, false} {
				name := fmt.Sprintf("%s/%s/shifts=%v", bd.name, mode.name, shifts)
				b.Run(name, func(b *testing.B) {
					opt := mode.opt
					opt.NoShifts = !shifts
					for b.Loop() {
						res, err := twobit.Search(context.Background(), sp, opt)
						if err != nil {
							b.Fatal(err)
						}
						res.Codes.Release()
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sp.ExpectedStates()), "ns/state")
				})
			}
		}
	}
}
