package slide_test

import (
	"math/rand/v2"
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

// BenchmarkPDBUnit is the 0-1 search's per-state work on the 15-puzzle's 8-tile group:
// a sorted frontier of placements about 8 apart, each with the blank's region around
// its lowest free cell, expanded by the move tables and by the flood fill.
func BenchmarkPDBUnit(b *testing.B) {
	geo, err := slide.NewGeometry(4, 4)
	if err != nil {
		b.Fatal(err)
	}
	sp, err := slide.NewPDBSpace(geo, slide.BlankFirst, []uint8{8, 9, 10, 11, 12, 13, 14, 15})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	src := make([]uint64, 1<<14)
	e := rng.Uint64N(sp.Slots() >> sp.EntryBits() / 2)
	for i := range src {
		e += 1 + rng.Uint64N(15)
		src[i] = e << sp.EntryBits()
	}
	_, tabulated := sp.NewExpanders()
	for _, gen := range []struct {
		name string
		unit func(dst, src []uint64) []uint64
	}{{"tabulated", tabulated}, {"flood", sp.FloodUnit()}} {
		b.Run(gen.name, func(b *testing.B) {
			dst := make([]uint64, 0, 16*len(src))
			for b.Loop() {
				dst = gen.unit(dst[:0], src)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(src)), "ns/state")
		})
	}
}
