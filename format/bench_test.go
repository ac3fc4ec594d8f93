package format

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

const benchSlots, benchBits = 1 << 20, 5 // 640 KiB packed, 21 blocks of ~32 KiB

func benchReader(b *testing.B) (*Reader, []uint64) {
	path, _ := writeTest(b, 1, benchSlots, benchBits, 0)
	r, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	rng := rand.New(rand.NewPCG(1, 2))
	slots := make([]uint64, 1<<12)
	for i := range slots {
		slots[i] = rng.Uint64N(benchSlots)
	}
	return r, slots
}

// BenchmarkCodeHit: random lookups in a table that fits in the cache.
func BenchmarkCodeHit(b *testing.B) {
	r, slots := benchReader(b)
	for s := uint64(0); s < benchSlots; s += uint64(r.SlotsPerBlock()) {
		r.Code(s) // warm the cache
	}
	i := 0
	for b.Loop() {
		if _, err := r.Code(slots[i&(len(slots)-1)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkCodeHitParallel: cache hits from all Ps at once.
func BenchmarkCodeHitParallel(b *testing.B) {
	r, slots := benchReader(b)
	for s := uint64(0); s < benchSlots; s += uint64(r.SlotsPerBlock()) {
		r.Code(s)
	}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := r.Code(slots[i&(len(slots)-1)]); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
}

// BenchmarkCodeMiss: every lookup reads, checks and decompresses a block.
func BenchmarkCodeMiss(b *testing.B) {
	r, slots := benchReader(b)
	r.SetCacheBytes(0)
	i := 0
	for b.Loop() {
		if _, err := r.Code(slots[i&(len(slots)-1)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.SetBytes(int64(packedBytes(uint64(r.SlotsPerBlock()), benchBits)))
}

// BenchmarkCodes: a sequential scan of the whole table (MB/s of packed codes).
func BenchmarkCodes(b *testing.B) {
	r, _ := benchReader(b)
	dst := make([]uint32, 1<<16)
	b.SetBytes(int64(packedBytes(benchSlots, benchBits)))
	for b.Loop() {
		for s := uint64(0); s < benchSlots; s += uint64(len(dst)) {
			if err := r.Codes(dst, s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchSlots, "ns/slot")
}

// BenchmarkWrite: WriteFile throughput (MB/s of packed codes), default options.
func BenchmarkWrite(b *testing.B) {
	const slots = 1 << 22
	path := filepath.Join(b.TempDir(), "t.tsm")
	// The source copies precomputed codes, as a builder copies its arrays,
	// so that the benchmark measures the writer.
	pattern := make([]uint32, 2<<16)
	testSource(1, benchBits)(pattern, 0)
	src := func(dst []uint32, start uint64) { copy(dst, pattern[start%(1<<16):]) }
	b.SetBytes(int64(packedBytes(slots, benchBits)))
	for b.Loop() {
		if _, err := WriteFile(context.Background(), path, testMeta(slots, benchBits), src, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/slots, "ns/slot")
}

// BenchmarkVerify: Verify throughput (MB/s of packed codes).
func BenchmarkVerify(b *testing.B) {
	r, _ := benchReader(b)
	b.SetBytes(int64(packedBytes(benchSlots, benchBits)))
	for b.Loop() {
		if err := r.Verify(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
	}
}
