package mill_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
)

// benchSectors are the sectors the benchmarks time: a middle one and a large one.
var benchSectors = []sector{{5, 4}, {8, 7}}

const benchBatch = 1024

// forBenchSectors runs f for each bench sector with benchBatch random positions and
// random slots of it, reporting ns per position.
func forBenchSectors(b *testing.B, f func(b *testing.B, s *mill.Sector, own, opp []uint32, slots []uint64)) {
	for _, sc := range benchSectors {
		b.Run(sc.String(), func(b *testing.B) {
			s := mustSector(b, sc.w, sc.b)
			r := rand.New(rand.NewPCG(7, uint64(sc.w*10+sc.b)))
			own, opp := make([]uint32, benchBatch), make([]uint32, benchBatch)
			slots := make([]uint64, benchBatch)
			for i := range own {
				own[i], opp[i] = randomPosition(r, sc.w, sc.b)
				slots[i] = r.Uint64N(s.Slots())
			}
			f(b, s, own, opp, slots)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchBatch), "ns/op")
		})
	}
}

func BenchmarkSuccessors(b *testing.B) { benchMoves(b, mill.Successors, "succ/pos") }

func BenchmarkPredecessors(b *testing.B) { benchMoves(b, mill.Predecessors, "pred/pos") }

// benchMoves times gen, Successors or Predecessors, appending into one reused buffer.
func benchMoves[T any](b *testing.B, gen func([]T, uint32, uint32) []T, unit string) {
	forBenchSectors(b, func(b *testing.B, _ *mill.Sector, own, opp []uint32, _ []uint64) {
		buf := make([]T, 0, 4096)
		n := 0
		for b.Loop() {
			for i := range own {
				buf = gen(buf[:0], own[i], opp[i])
				n += len(buf)
			}
		}
		b.ReportMetric(float64(n)/float64(b.N*len(own)), unit)
	})
}

func BenchmarkCanonical(b *testing.B) {
	forBenchSectors(b, func(b *testing.B, s *mill.Sector, own, opp []uint32, _ []uint64) {
		var sink uint32
		for b.Loop() {
			for i := range own {
				o, p := s.Canonical(own[i], opp[i])
				sink += o ^ p
			}
		}
		_ = sink
	})
}

func BenchmarkRank(b *testing.B) {
	forBenchSectors(b, func(b *testing.B, s *mill.Sector, own, opp []uint32, _ []uint64) {
		var sink uint64
		for b.Loop() {
			for i := range own {
				sink += s.Rank(own[i], opp[i])
			}
		}
		_ = sink
	})
}

func BenchmarkUnrank(b *testing.B) {
	forBenchSectors(b, func(b *testing.B, s *mill.Sector, _, _ []uint32, slots []uint64) {
		var sink uint32
		for b.Loop() {
			for _, slot := range slots {
				o, p := s.Unrank(slot)
				sink += o ^ p
			}
		}
		_ = sink
	})
}
