package benchmarks

import (
	"context"
	"math"
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/racetest"
)

// TestMillSchemesSmall runs the comparison on sector 3-3: every scheme but the additive
// signature finds exactly ClassCount classes, one key each (no collision of the exact
// signature), the additive signature mod 2^64 collides nowhere, and mod 2^24 (some 7,000
// expected for independent keys) it does, each collision costing a key.
func TestMillSchemesSmall(t *testing.T) {
	racetest.SkipSlow(t, "builds Mühle sectors, slow")
	t.Parallel()
	if testing.Short() {
		t.Skip("canonicalises every position of sector 3-3 five times")
	}
	rows, err := MillSchemes(context.Background(), MillOptions{W: 3, B: 3, Rounds: 1, AdditiveBits: []int{64, 24}})
	if err != nil {
		t.Fatal(err)
	}
	classes := mill.ClassCount(3, 3)
	want := []struct {
		scheme string
		bits   int
	}{{"class rank", 0}, {"exact signature", 0}, {"additive signature", 64}, {"additive signature", 24}, {"mill.Canonical", 0}}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, r := range rows {
		if r.Scheme != want[i].scheme || r.ModBits != want[i].bits || r.CanonNs <= 0 || r.Enumerate <= 0 ||
			r.VisitedBytes == 0 || r.Positions != 2691920 {
			t.Fatalf("row %d: %+v", i, r)
		}
		switch {
		case r.ModBits == 0 && (r.Keys != classes || r.KeysPerClass != 1 || r.Collisions != 0):
			t.Errorf("%s: %d keys for %d classes", r.Scheme, r.Keys, classes)
		case r.ModBits == 64 && r.Collisions != 0:
			t.Errorf("additive mod 2^64: %d collisions", r.Collisions)
		case r.ModBits == 24 && (r.Keys+r.Collisions != classes || r.Collisions == 0 || r.ExpectedCollisions < 5000):
			t.Errorf("additive mod 2^24: %d keys, %d collisions, expected %.1f", r.Keys, r.Collisions, r.ExpectedCollisions)
		}
	}
	if rows[0].BytesPerClass > 0.126 || math.IsNaN(rows[0].RankNs) || !math.IsNaN(rows[1].RankNs) {
		t.Errorf("class rank row %+v, exact row %+v", rows[0], rows[1])
	}
	if _, err := MillSchemes(context.Background(), MillOptions{W: 3, B: 3, AdditiveBits: []int{65}}); err == nil {
		t.Error("additive mod 2^65 accepted")
	}
	if _, err := MillSchemes(context.Background(), MillOptions{W: 2, B: 3}); err == nil {
		t.Error("sector 2-3 accepted")
	}
}

// BenchmarkMillEnumerate keys every position of sector 3-3 (2,691,920) into each scheme's
// visited structure, as `tablesmith bench mill` does, one thread.
func BenchmarkMillEnumerate(b *testing.B) {
	s, err := mill.NewSector(3, 3)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	run := func(name string, f func() (enumeration, error)) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if e, err := f(); err != nil || e.keys != s.Slots() {
					b.Fatalf("%d keys, %v", e.keys, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/2691920, "ns/position")
		})
	}
	run("rank-bitset", func() (enumeration, error) { return enumerateSlots(ctx, s, 3, 3) })
	run("exact-set", func() (enumeration, error) { return enumerateKeys(ctx, exactKey{}, 3, 3) })
	add := mill.NewAdditiveSig(mill.DefaultSigSeed, 64)
	run("additive-set", func() (enumeration, error) { return enumerateKeys(ctx, additiveKey{add}, 3, 3) })
	run("canonical-set", func() (enumeration, error) { return enumerateKeys(ctx, canonicalKey{}, 3, 3) })
}
