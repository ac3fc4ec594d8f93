package slide_test

import (
	"testing"

	"github.com/tablesmith/tablesmith/games/slide"
)

// BenchmarkExpand is the builder's per-state work: unrank a slot, generate the moves, rank
// each successor.
func BenchmarkExpand(b *testing.B) {
	for _, tc := range []struct {
		rows, cols int
		scheme     string
	}{{3, 3, "lex"}, {3, 3, "lex-half"}, {3, 3, "mr"}, {3, 3, "branch767359"}, {3, 4, "lex-half"}} {
		sp, err := slide.NewSpace(slide.Params{Rows: tc.rows, Cols: tc.cols, Index: tc.scheme})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(sp.Geometry().String()+"/"+tc.scheme, func(b *testing.B) {
			expand := sp.NewExpander()
			src := make([]uint64, 1024)
			for i := range src {
				src[i] = uint64(i) * 7919 % sp.Slots()
				for sp.IsHole(src[i]) {
					src[i] = (src[i] + 1) % sp.Slots()
				}
			}
			dst := make([]uint64, 0, 4096)
			for b.Loop() {
				dst = expand(dst[:0], src)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(src)), "ns/state")
		})
	}
}
