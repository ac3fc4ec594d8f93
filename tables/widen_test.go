package tables

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWiden: every width change copyPacked makes gives the codes and counts of a plain
// code-by-code conversion, at lengths around the 8-code steps of the 3-to-4-bit path.
func TestWiden(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ from, to uint }{{3, 4}, {1, 4}, {2, 4}, {3, 8}, {1, 2}, {5, 8}} {
		for _, slots := range []uint64{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 1000, 32768} {
			codes := make([]uint64, slots)
			packed := make([]byte, (slots*uint64(c.from)+7)/8)
			for i := range codes {
				codes[i] = rng.Uint64N(1 << c.from)
				bit := uint64(i) * uint64(c.from)
				for k := range uint64(c.from) {
					packed[(bit+k)/8] |= byte(codes[i]>>k&1) << ((bit + k) % 8)
				}
			}
			want := make([]byte, (slots*uint64(c.to)+7)/8)
			wantCnt := make([]uint64, 1<<c.to)
			for i, v := range codes {
				bit := uint64(i) * uint64(c.to)
				want[bit/8] |= byte(v) << (bit % 8)
				wantCnt[v]++
			}
			out := make([]byte, len(want))
			cnt := make([]uint64, 1<<c.to)
			var hist [256]uint64
			widen(out, packed, slots, c.from, c.to, cnt, &hist)
			for v, h := range hist {
				for sh := uint(0); sh < 8; sh += c.to {
					cnt[uint64(v)>>sh&(1<<c.to-1)] += h
				}
			}
			if !bytes.Equal(out, want) {
				t.Fatalf("%d→%d bits, %d slots: codes differ", c.from, c.to, slots)
			}
			if !slices.Equal(cnt, wantCnt) {
				t.Fatalf("%d→%d bits, %d slots: counts %v, want %v", c.from, c.to, slots, cnt, wantCnt)
			}
		}
	}
}
