package hanoi_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tablesmith/tablesmith/games/hanoi"
)

// benchSizes are the sizes of the performance targets.
var benchSizes = []struct{ pegs, disks int }{{3, 20}, {4, 16}}

// benchSlots returns count slots spread over sp's non-hole slots: a run of consecutive
// slots from random places, as a BFS level of a dense frontier hands them over.
func benchSlots(sp *hanoi.Space, count int) []uint64 {
	r := rand.New(rand.NewPCG(1, 2))
	st := make([]uint8, sp.Params().Disks)
	var out []uint64
	for len(out) < count {
		base := r.Uint64N(sp.Slots() - 64)
		for s := base; s < base+64 && len(out) < count; s++ {
			if sp.Unrank(s, st) {
				out = append(out, s)
			}
		}
	}
	return out
}

// randomStates returns count random states in the user's labels (not canonical).
func randomStates(pegs, disks, count int) [][]uint8 {
	r := rand.New(rand.NewPCG(3, 4))
	out := make([][]uint8, count)
	for i := range out {
		out[i] = make([]uint8, disks)
		for d := range out[i] {
			out[i][d] = uint8(r.IntN(pegs))
		}
	}
	return out
}

func forBenchSpaces(b *testing.B, f func(b *testing.B, sp *hanoi.Space)) {
	for _, size := range benchSizes {
		for _, index := range hanoi.SchemeNames() {
			name := fmt.Sprintf("k%d/n%d/%s", size.pegs, size.disks, index)
			b.Run(name, func(b *testing.B) {
				sp, err := hanoi.NewSpace(hanoi.Params{Pegs: size.pegs, Disks: size.disks, Index: index})
				if err != nil {
					b.Fatal(err)
				}
				f(b, sp)
			})
		}
	}
}

const benchBatch = 1024

func BenchmarkRank(b *testing.B) {
	forBenchSpaces(b, func(b *testing.B, sp *hanoi.Space) {
		p := sp.Params()
		states := randomStates(p.Pegs, p.Disks, benchBatch)
		var sink uint64
		for b.Loop() {
			for _, st := range states {
				sink += sp.Rank(st)
			}
		}
		_ = sink
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(states)), "ns/state")
	})
}

func BenchmarkUnrank(b *testing.B) {
	forBenchSpaces(b, func(b *testing.B, sp *hanoi.Space) {
		slots := benchSlots(sp, benchBatch)
		st := make([]uint8, sp.Params().Disks)
		for b.Loop() {
			for _, s := range slots {
				sp.Unrank(s, st)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(slots)), "ns/state")
	})
}

// BenchmarkExpand expands batches of slots as the builder does; ns/state is per
// expanded slot (each yields up to k(k−1)/2 neighbours). "runs" hands over runs of
// consecutive slots, as a dense (bitset) frontier does; "random" shuffles them, the
// worst case for the expander's incremental decoding.
func BenchmarkExpand(b *testing.B) {
	forBenchSpaces(b, func(b *testing.B, sp *hanoi.Space) {
		for _, order := range []string{"runs", "random"} {
			b.Run(order, func(b *testing.B) {
				slots := benchSlots(sp, benchBatch)
				if order == "random" {
					r := rand.New(rand.NewPCG(5, 6))
					r.Shuffle(len(slots), func(i, j int) { slots[i], slots[j] = slots[j], slots[i] })
				}
				exp := sp.NewExpander()
				dst := exp(nil, slots)
				nbrs := len(dst)
				for b.Loop() {
					dst = exp(dst[:0], slots)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(slots)), "ns/state")
				b.ReportMetric(float64(nbrs)/float64(len(slots)), "nbrs/state")
			})
		}
	})
}
