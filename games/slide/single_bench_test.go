package slide

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSingleSlot measures what a two-bit table's descent spends on one state of the
// 2×7 at a random slot: its expansion alone (no block of ranks to share it with), its
// spelling (a path's state), and the unrank under both.
func BenchmarkSingleSlot(b *testing.B) {
	s, _ := NewSpace(Params{Rows: 2, Cols: 7, Index: "lex-half"})
	rng := rand.New(rand.NewPCG(1, 2))
	slots := make([]uint64, 4096)
	for i := range slots {
		slots[i] = rng.Uint64N(s.Slots())
	}
	b.Run("expand", func(b *testing.B) {
		ex := s.NewExpander()
		var dst []uint64
		var src [1]uint64
		i := 0
		for b.Loop() {
			src[0] = slots[i&4095]
			i++
			dst = ex(dst[:0], src[:])
		}
	})
	b.Run("stateof", func(b *testing.B) {
		i := 0
		for b.Loop() {
			s.StateOf(slots[i&4095])
			i++
		}
	})
	b.Run("unrank", func(b *testing.B) {
		var pos [MaxCells]uint8
		i := 0
		for b.Loop() {
			s.unrankPos(slots[i&4095], pos[:14])
			i++
		}
	})
}
