package twobit

import (
	"context"
	"testing"

	"github.com/tablesmith/tablesmith/builder/internal/bfstoys"
)

// BenchmarkScan measures a level's scan of codes and recent bits where no slot is on
// the frontier (every chunk flagged): the cost a level pays besides its expansions.
func BenchmarkScan(b *testing.B) {
	const n = 1 << 30
	sp := bfstoys.Cube{Dim: 30}
	r := &run{sp: sp, n: n}
	codes := NewCodes(n)
	defer codes.Release()
	r.codes = codes.Words
	r.recent = make([]uint64, n/64)
	chunks := uint64(n / chunkSize)
	r.cur = make([]uint64, (chunks+63)/64)
	r.next = make([]uint64, (chunks+63)/64)
	for i := range r.cur {
		r.cur[i] = ^uint64(0)
	}
	r.workers = []*worker{{expand: sp.NewExpander(), batch: make([]uint64, 0, 2048)}, {expand: sp.NewExpander(), batch: make([]uint64, 0, 2048)}}
	for b.Loop() {
		if _, err := r.expandLevel(context.Background(), 0); err != nil {
			b.Fatal(err)
		}
	}
	bytes := float64(n) * 3 / 8
	b.ReportMetric(bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}
