package format

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	type tc struct {
		bits  int
		slots uint64
		spb   int
	}
	var cases []tc
	for _, bits := range []int{1, 2, 5, 8, 13, 20, 32} {
		for _, slots := range []uint64{0, 1, 63, 64, 1000, 3*192 + 7} {
			if bits == 20 && (slots == 63 || slots == 64 || slots == 1000) {
				continue // sparse 20-bit codes make ~1M code counts: slow under -race
			}
			cases = append(cases, tc{bits, slots, 192})
		}
		cases = append(cases, tc{bits, 5000, 0}) // default block size
		if bits != 20 {
			cases = append(cases, tc{bits, 777, 100}) // rounded up to 128
		}
	}
	cases = append(cases, tc{1, 300_000, 0}) // blocks of 262144 slots, asked for in chunks
	for _, c := range cases {
		t.Run(fmt.Sprintf("bits=%d/slots=%d/spb=%d", c.bits, c.slots, c.spb), func(t *testing.T) {
			t.Parallel()
			seed := uint64(c.bits)*1e6 + c.slots
			path, written := writeTest(t, seed, c.slots, c.bits, c.spb)
			want := make([]uint32, c.slots)
			testSource(seed, c.bits)(want, 0)

			r, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			checkMeta(t, r.Meta(), written, testMeta(c.slots, c.bits), want)
			wantSPB := c.spb
			switch {
			case c.spb == 0:
				wantSPB = max(32<<10*8/c.bits/64*64, 64)
			case c.spb%64 != 0:
				wantSPB = (c.spb + 63) / 64 * 64
			}
			if r.SlotsPerBlock() != wantSPB {
				t.Errorf("SlotsPerBlock = %d, want %d", r.SlotsPerBlock(), wantSPB)
			}
			if wantBlocks := (int(c.slots) + wantSPB - 1) / wantSPB; r.Blocks() != wantBlocks {
				t.Errorf("Blocks = %d, want %d", r.Blocks(), wantBlocks)
			}
			checkCodes(t, r, want)
			if err := r.Verify(context.Background(), nil); err != nil {
				t.Errorf("Verify: %v", err)
			}
		})
	}
}

// checkMeta compares the metadata read back with what WriteFile returned and
// what the test wrote (in), and the counts with the codes.
func checkMeta(t *testing.T, got, written, in Metadata, codes []uint32) {
	t.Helper()
	var c counter
	c.add(codes)
	if want := c.result(); !slices.Equal(got.CodeCounts, want) || (got.CodeCounts == nil) != (want == nil) {
		t.Errorf("CodeCounts = %v, want %v", trunc(got.CodeCounts), trunc(want))
	}
	if !slices.Equal(got.CodeCounts, written.CodeCounts) {
		t.Errorf("CodeCounts = %v, WriteFile returned %v", trunc(got.CodeCounts), trunc(written.CodeCounts))
	}
	if got.CodeCounts == nil && (written.Slots == 0 || written.CodeBits <= 20) {
		t.Errorf("CodeCounts nil for %d slots of %d bits", written.Slots, written.CodeBits)
	}
	got.CodeCounts, written.CodeCounts = nil, nil
	if !reflect.DeepEqual(got, written) {
		t.Errorf("Meta() = %+v\nWriteFile returned %+v", got, written)
	}
	if !bytes.Equal(got.Params, in.Params) || !bytes.Equal(got.Extra, in.Extra) {
		t.Errorf("raw JSON not preserved: params %s extra %s", got.Params, got.Extra)
	}
	if !reflect.DeepEqual(got, in) {
		t.Errorf("Meta() = %+v\nwant %+v", got, in)
	}
}

func trunc(c []uint64) string {
	if len(c) > 10 {
		return fmt.Sprintf("%v... (%d counts)", c[:10], len(c))
	}
	return fmt.Sprint(c)
}

// checkCodes reads every code back by Code and by Codes over several splits.
func checkCodes(t *testing.T, r *Reader, want []uint32) {
	t.Helper()
	n := uint64(len(want))
	for slot, w := range want {
		got, err := r.Code(uint64(slot))
		if err != nil || got != w {
			t.Fatalf("Code(%d) = %d, %v; want %d", slot, got, err, w)
		}
	}
	for _, slot := range []uint64{n, n + 1, 1 << 63} {
		if _, err := r.Code(slot); err == nil {
			t.Errorf("Code(%d) of %d slots: no error", slot, n)
		}
	}
	got := make([]uint32, n)
	if err := r.Codes(got, 0); err != nil || !slicesEqual(got, want) {
		t.Fatalf("Codes(all) = %v; codes differ: %v", err, !slicesEqual(got, want))
	}
	rng := rand.New(rand.NewPCG(n, 1))
	for range 50 {
		if n == 0 {
			break
		}
		start := rng.Uint64N(n)
		dst := make([]uint32, rng.Uint64N(n-start+1))
		if err := r.Codes(dst, start); err != nil || !slicesEqual(dst, want[start:start+uint64(len(dst))]) {
			t.Fatalf("Codes([%d, +%d)) = %v, or codes differ", start, len(dst), err)
		}
	}
	if err := r.Codes(make([]uint32, 1), n); err == nil {
		t.Errorf("Codes past the end: no error")
	}
	if err := r.Codes(make([]uint32, 2), 1<<64-1); err == nil {
		t.Errorf("Codes with wrapping range: no error")
	}
}

func slicesEqual(a, b []uint32) bool { return slices.Equal(a, b) }

func TestCodeCountsLargeCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		codes []uint32
		bits  int
		want  []uint64
	}{
		{"below limit", []uint32{7, MaxCodeCounts - 1, 7}, 32, countsOf(map[int]uint64{7: 2, MaxCodeCounts - 1: 1})},
		{"at limit", []uint32{7, MaxCodeCounts, 7}, 32, nil},
		{"max 32-bit", []uint32{1<<32 - 1, 0}, 32, nil},
		{"zeros only", []uint32{0, 0, 0}, 3, []uint64{3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "t.tsm")
			m, err := WriteFile(context.Background(), path, testMeta(uint64(len(tc.codes)), tc.bits),
				func(dst []uint32, start uint64) { copy(dst, tc.codes[start:]) }, WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.CodeCounts, tc.want) || (m.CodeCounts == nil) != (tc.want == nil) {
				t.Fatalf("CodeCounts = %s, want %s", trunc(m.CodeCounts), trunc(tc.want))
			}
			checkCodes(t, openVerified(t, path), tc.codes)
		})
	}
}

func countsOf(m map[int]uint64) []uint64 {
	var c []uint64
	for v, n := range m {
		if v >= len(c) {
			c = append(c, make([]uint64, v+1-len(c))...)
		}
		c[v] = n
	}
	return c
}

func TestMetaJSON(t *testing.T) {
	t.Parallel()
	path, _ := writeTest(t, 1, 10, 4, 0)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	m := r.Meta()
	m.CodeCounts[0] = 1 << 40 // a copy: the reader must not change
	m.Params[0] = 'X'
	if r.Meta().CodeCounts[0] == 1<<40 || r.Meta().Params[0] == 'X' {
		t.Fatal("Meta() shares memory with the reader")
	}
	b, _ := json.Marshal(r.Meta())
	for _, key := range []string{`"game":"test"`, `"params":{"n":3,"name":"x"}`, `"code_bits":4`, `"code_counts":[`, `"extra":{"note":"hi","list":[1,2]}`, `"go_version":"go-test"`} {
		if !bytes.Contains(b, []byte(key)) {
			t.Errorf("metadata JSON lacks %s: %s", key, b)
		}
	}
}

func TestProgress(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "t.tsm")
	var calls, last uint64
	_, err := WriteFile(context.Background(), path, testMeta(1000, 3), testSource(1, 3), WriteOptions{
		SlotsPerBlock: 64, Workers: 3,
		Progress: func(done, total uint64) {
			if total != 1000 || done <= last || done > total {
				t.Errorf("progress(%d, %d) after %d", done, total, last)
			}
			calls++
			last = done
		},
	})
	if err != nil || calls != 16 || last != 1000 {
		t.Fatalf("err %v, %d progress calls, last %d", err, calls, last)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var vlast uint64
	if err := r.Verify(context.Background(), func(done, total uint64) { vlast = done }); err != nil || vlast != 1000 {
		t.Fatalf("Verify: %v, last progress %d", err, vlast)
	}
}

func TestPackUnpack(t *testing.T) {
	t.Parallel()
	for bits := 1; bits <= 32; bits++ {
		codes := make([]uint32, 200)
		for i := range codes {
			codes[i] = testCode(9, uint64(i), bits)
		}
		packed := pack(nil, codes, bits)
		if uint64(len(packed)) != packedBytes(200, bits) {
			t.Fatalf("bits %d: packed %d bytes, want %d", bits, len(packed), packedBytes(200, bits))
		}
		// LSB-first: bit k of the stream is bit k%8 of byte k/8.
		for i, c := range codes {
			for j := range bits {
				k := i*bits + j
				if got := packed[k/8] >> (k % 8) & 1; uint32(got) != c>>j&1 {
					t.Fatalf("bits %d: code %d bit %d is %d in the stream", bits, i, j, got)
				}
			}
		}
		padded := append(packed, make([]byte, blockPad)...)
		for _, first := range []int{0, 1, 7, 199} {
			got := make([]uint32, 200-first)
			unpack(got, padded, uint64(first), bits)
			if !slicesEqual(got, codes[first:]) {
				t.Fatalf("bits %d: unpack from %d differs", bits, first)
			}
		}
	}
}

func TestLayoutSizes(t *testing.T) {
	for _, h := range []header{{version: 1}, {version: 2}, {version: Version}} {
		if n := len(h.append(nil)); uint64(n) != h.size() || n > maxHeaderSize {
			t.Errorf("version %d header is %d bytes, want %d", h.version, n, h.size())
		}
	}
	if n := len(footer{}.append(nil)); n != footerSize {
		t.Errorf("footer is %d bytes, want %d", n, footerSize)
	}
	if n := len(blockHandle{}.append(nil)); n != indexEntrySize {
		t.Errorf("index entry is %d bytes, want %d", n, indexEntrySize)
	}
}

// TestPackedBlock: a block's packed bytes are the file's codes packed LSB first, checked
// like any read (a flipped byte in the block fails its checksum).
func TestPackedBlock(t *testing.T) {
	t.Parallel()
	for _, bits := range []int{1, 2, 4, 5, 8, 13} {
		const slots, spb = 10_000, 1_000 // the last block full; spb·bits whole bytes or not
		for _, n := range []uint64{slots, slots - 3} {
			path, _ := writeTest(t, 7, n, bits, spb)
			r, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			var buf []byte
			for b := range r.Blocks() {
				got, err := r.PackedBlock(b, buf)
				if err != nil {
					t.Fatal(err)
				}
				buf = got
				per := uint64(r.SlotsPerBlock())
				lo := uint64(b) * per
				codes := make([]uint32, min(per, n-lo))
				testSource(7, bits)(codes, lo)
				want := pack(nil, codes, bits)
				if !bytes.Equal(got, want) {
					t.Fatalf("%d bits, %d slots, block %d: packed bytes differ", bits, n, b)
				}
				// Into a destination with no room, and with room after it: the same
				// bytes, and nothing before the destination touched.
				if r.PackedBlockBytes(b) != len(want) {
					t.Fatalf("%d bits, block %d: PackedBlockBytes %d, want %d", bits, b, r.PackedBlockBytes(b), len(want))
				}
				for _, room := range []int{0, 1, decodeSlack, 100} {
					arena := bytes.Repeat([]byte{0xA5}, 8+len(want)+room)
					dst := arena[8 : 8+len(want) : 8+len(want)+room]
					if err := r.PackedBlockInto(b, dst); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(dst, want) || !bytes.Equal(arena[:8], bytes.Repeat([]byte{0xA5}, 8)) {
						t.Fatalf("%d bits, %d slots, block %d, room %d: PackedBlockInto differs", bits, n, b, room)
					}
				}
				if err := r.PackedBlockInto(b, make([]byte, len(want)+1)); err == nil {
					t.Fatal("a destination of the wrong length must be an error")
				}
			}
			if err := r.PackedBlockInto(r.Blocks(), nil); err == nil {
				t.Fatal("a block past the end must be an error")
			}
			if r.PackedBlockBytes(r.Blocks()) != 0 || r.PackedBlockBytes(-1) != 0 {
				t.Fatal("a block out of range must have 0 packed bytes")
			}
			if _, err := r.PackedBlock(r.Blocks(), nil); err == nil {
				t.Fatal("a block past the end must be an error")
			}
			r.Close()
		}
	}
	path, _ := writeTest(t, 7, 10_000, 4, 1000)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	raw[headerSizeV2+5] ^= 1 // inside block 0
	bad := filepath.Join(t.TempDir(), "bad.tsm")
	if err := os.WriteFile(bad, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(bad)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.PackedBlock(0, nil); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("damaged block: %v, want ErrCorrupt", err)
	}
	if err := r.PackedBlockInto(0, make([]byte, r.PackedBlockBytes(0))); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("damaged block into place: %v, want ErrCorrupt", err)
	}
}
