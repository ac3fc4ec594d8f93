package twobit_test

import (
	"testing"

	"github.com/tablesmith/tablesmith/games/slide"
)

// BenchmarkExpandFrontier is the expander's share of a two-bit level: a batch of 2,048
// increasing slots about 11 apart (a frontier of a tenth of the slots, as in the middle
// of a search), on 2×6 (12 cells: ranks below 2^32, the incremental unrank) and 2×7, by
// the whole expander and by the rest expander (the vertical moves, the horizontal ones
// being shifts).
func BenchmarkExpandFrontier(b *testing.B) {
	for _, bd := range []struct {
		name       string
		rows, cols int
	}{{"2x6", 2, 6}, {"3x4", 3, 4}, {"2x7", 2, 7}} {
		sp, err := slide.NewSpace(slide.Params{Rows: bd.rows, Cols: bd.cols, Index: "lex-half"})
		if err != nil {
			b.Fatal(err)
		}
		for _, rest := range []bool{false, true} {
			name := bd.name
			expand := sp.NewExpander()
			if rest {
				name, expand = bd.name+"/rest", sp.NewRestExpander() // the vertical moves alone
			}
			benchExpand(b, name, sp, expand)
		}
	}
}

func benchExpand(b *testing.B, name string, sp *slide.Space, expand func(dst, src []uint64) []uint64) {
	{
		b.Run(name, func(b *testing.B) {
			src := make([]uint64, 2048)
			dst := make([]uint64, 0, 4*len(src))
			base := sp.Slots() / 3
			i := 0
			for b.Loop() {
				if base+uint64((i+1)*len(src))*11 >= sp.Slots() {
					i = 0 // start the run again
				}
				for k := range src {
					src[k] = base + uint64(i*len(src)+k)*11
				}
				i++
				dst = expand(dst[:0], src)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(src)), "ns/state")
		})
	}
}
