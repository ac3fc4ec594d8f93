package solver

import (
	"bytes"
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/format"
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

// TestCopyPackedInPlace: copyPacked decodes files of many blocks straight into the table
// (runs of three blocks, so that blocks are decoded with and without the room of the
// next one, and the last block is partial or full) and on both workers with the same
// codes and counts as a plain code-by-code packing.
func TestCopyPackedInPlace(t *testing.T) {
	defer func(old int) { pdbRunBlocks = old }(pdbRunBlocks)
	pdbRunBlocks = 3
	rng := rand.New(rand.NewPCG(7, 8))
	for _, bits := range []uint{1, 2, 4, 8} {
		for _, slots := range []uint64{64, 640*10 + 1, 640 * 11, 640*17 - 64} {
			codes := make([]uint32, slots)
			want := make([]byte, (slots*uint64(bits)+7)/8)
			wantCnt := make([]uint64, 1<<bits)
			for i := range codes {
				v := uint32(rng.Uint64N(1 << bits))
				if rng.IntN(3) == 0 { // runs, as the tables have, so the frames hold matches
					v = codes[max(i, 1)-1]
				}
				codes[i] = v
				bit := uint64(i) * uint64(bits)
				want[bit/8] |= byte(v) << (bit % 8)
				wantCnt[v]++
			}
			path := filepath.Join(t.TempDir(), "t.tsm")
			meta := format.Metadata{Game: "test", Index: "test", Encoding: "test", Slots: slots, CodeBits: int(bits)}
			src := func(dst []uint32, start uint64) { copy(dst, codes[start:]) }
			if _, err := format.WriteFile(context.Background(), path, meta, src, format.WriteOptions{SlotsPerBlock: 640}); err != nil {
				t.Fatal(err)
			}
			r, err := format.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			data := make([]byte, len(want))
			counts := make([][]uint64, 2)
			if err := copyPacked(r, slots, data, bits, bits, counts); err != nil {
				t.Fatal(err)
			}
			r.Close()
			if !bytes.Equal(data, want) {
				t.Fatalf("%d bits, %d slots: codes differ", bits, slots)
			}
			got := make([]uint64, 1<<bits)
			for _, c := range counts {
				for v, n := range c {
					got[v] += n
				}
			}
			if !slices.Equal(got, wantCnt) {
				t.Fatalf("%d bits, %d slots: counts %v, want %v", bits, slots, got, wantCnt)
			}
		}
	}
}
