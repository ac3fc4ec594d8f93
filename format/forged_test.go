package format

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"runtime"
	"slices"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// Forged files have correct checksums but wrong contents: the checks behind
// the checksums must still catch them.

func zstdFrame(t *testing.T, data []byte) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(data, nil)
}

// zstdStream compresses data as a frame without a content size.
func zstdStream(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc, err := zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	for len(data) > 0 { // several writes: no single-segment frame
		n := min(len(data), 1<<16)
		enc.Write(data[:n])
		data = data[n:]
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestForgedBlocks(t *testing.T) {
	t.Parallel()
	const slots, bits, spb = 197, 5, 64 // blocks of 40, 40, 40 and 4 bytes (5 codes, 7 padding bits)
	orig := tableBytes(t, 8, slots, bits, spb)
	h, blocks, meta := disassemble(t, orig)
	good := make([]byte, 40)
	for i := range good {
		good[i] = byte(i * 7)
	}
	for _, tc := range []struct {
		name   string
		block  int
		data   []byte
		msg    string
		verify bool // only Verify notices
	}{
		{"too long", 1, zstdFrame(t, append(bytes.Clone(good), 0)), "decoded 41 bytes, want 40", false}, // into the decoding slack
		{"too short", 1, zstdFrame(t, good[:39]), "decoded 39 bytes, want 40", false},
		{"empty frame", 1, zstdFrame(t, nil), "decoded 0 bytes, want 40", false},
		{"stream too long", 1, zstdStream(t, make([]byte, 300)), "decompressing", false},
		{"not zstd", 2, []byte("this is not a zstd frame at all"), "decompressing", false},
		{"two frames", 2, append(zstdFrame(t, good[:20]), zstdFrame(t, good[20:])...), "", false},
		{"trailing garbage", 0, append(zstdFrame(t, good), 1, 2, 3), "decompressing", false},
		{"last block short", 3, zstdFrame(t, []byte{1, 2, 3}), "decoded 3 bytes, want 4", false},
		{"nonzero padding", 3, zstdFrame(t, []byte{1, 2, 3, 0x80}), "nonzero padding bits", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bl := slices.Clone(blocks)
			bl[tc.block] = tc.data
			r, err := openBytes(assemble(h, bl, meta))
			if err != nil {
				t.Fatal(err)
			}
			slot := uint64(tc.block * spb)
			_, err = r.Code(slot)
			if tc.msg == "" { // a legal encoding of other codes: only the counts notice
				if err != nil {
					t.Fatal(err)
				}
				wantCorrupt(t, r.Verify(context.Background(), nil), "occurs")
				return
			}
			if tc.verify {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				wantCorrupt(t, err, tc.msg)
			}
			wantCorrupt(t, r.Verify(context.Background(), nil), tc.msg)
		})
	}
}

// TestForgedHugeFrame: a block that decompresses to far more than its size
// must fail without allocating the claimed size.
func TestForgedHugeFrame(t *testing.T) {
	huge := make([]byte, 16<<20)
	orig := tableBytes(t, 9, 100, 8, 64)
	h, blocks, meta := disassemble(t, orig)
	for _, frame := range [][]byte{zstdFrame(t, huge), zstdStream(t, huge)} {
		bl := slices.Clone(blocks)
		bl[0] = frame
		r, err := openBytes(assemble(h, bl, meta))
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = r.Code(0)
		runtime.ReadMemStats(&after)
		wantCorrupt(t, err, "block 0 of 2: decompressing")
		t.Logf("%v; allocated %d bytes", err, after.TotalAlloc-before.TotalAlloc)
		if n := after.TotalAlloc - before.TotalAlloc; n > 4<<20 {
			t.Errorf("decoding a forged %d-byte frame allocated %d bytes", len(frame), n)
		}
	}
}

func TestForgedMetadata(t *testing.T) {
	t.Parallel()
	orig := tableBytes(t, 10, 100, 3, 64)
	h, blocks, meta := disassemble(t, orig)
	var m map[string]any
	if err := json.Unmarshal(meta, &m); err != nil {
		t.Fatal(err)
	}
	edit := func(key string, v any) []byte {
		c := map[string]any{}
		for k, x := range m {
			c[k] = x
		}
		c[key] = v
		b, _ := json.Marshal(c)
		return b
	}
	counts := m["code_counts"].([]any)
	swapped := append([]any{counts[1], counts[0]}, counts[2:]...)
	for _, tc := range []struct {
		name, msg string
		meta      []byte
		verify    bool
	}{
		{"not json", "metadata: invalid character", []byte("{not json"), false},
		{"array", "metadata: json: cannot unmarshal array", []byte("[1,2]"), false},
		{"slots", "metadata: 101 slots, header says 100", edit("slots", 101), false},
		{"code bits", "metadata: 4 code bits, header says 3", edit("code_bits", 4), false},
		{"negative slots", "metadata: json: cannot unmarshal", edit("slots", -1), false},
		{"counts missing", "code_counts missing", edit("code_counts", nil), false},
		{"counts sum", "add up to 99", edit("code_counts", append([]any{counts[0].(float64) - 1}, counts[1:]...)), false},
		{"counts overflow", "add up to more than", edit("code_counts", []any{json.Number("10000000000000000000"), json.Number("10000000000000000000")}), false},
		{"trailing zero", "ends with a zero count", edit("code_counts", []any{100, 0}), false},
		{"too many counts", "9 code counts for 3-bit codes", edit("code_counts", []any{0, 0, 0, 0, 0, 0, 0, 0, 100}), false},
		{"counts swapped", "code 0 occurs", edit("code_counts", swapped), true},
		{"huge number", "metadata: json: cannot unmarshal number", edit("slots", 1e30), false},
		{"other params", "give file id", edit("params", map[string]any{"n": 4, "name": "x"}), false},
		{"other game", "give file id", edit("game", "tests"), false},
		{"other encoding", "give file id", edit("encoding", "remoteness"), false},
	} {
		_, err := openBytes(assemble(h, blocks, tc.meta))
		if tc.verify {
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			r, _ := openBytes(assemble(h, blocks, tc.meta))
			err = r.Verify(context.Background(), nil)
		}
		t.Run(tc.name, func(t *testing.T) { wantCorrupt(t, err, tc.msg) })
	}
}

// TestForgedLayout edits offsets, lengths and counts, then fixes the
// checksums: the structural checks must catch each edit.
func TestForgedLayout(t *testing.T) {
	t.Parallel()
	orig := tableBytes(t, 11, 200, 5, 64) // 4 blocks
	le := binary.LittleEndian
	ft := len(orig) - footerSize
	_, blocks, meta := disassemble(t, orig)
	indexOff := ft - 4*indexEntrySize
	for _, tc := range []struct {
		name, msg string
		edit      func(b []byte)
	}{
		{"code bits 0", "code bits 0 outside 1..32", func(b []byte) { b[12] = 0 }},
		{"code bits 33", "code bits 33", func(b []byte) { b[12] = 33 }},
		{"reserved header", "reserved bytes 13..15", func(b []byte) { b[14] = 1 }},
		{"spb 100", "slots per block 100", func(b []byte) { le.PutUint32(b[16:], 100) }},
		{"spb 0", "slots per block 0", func(b []byte) { le.PutUint32(b[16:], 0) }},
		{"spb huge", "exceeds", func(b []byte) { le.PutUint32(b[16:], 1<<31) }},
		{"spb 128", "footer: 4 blocks, but 200 slots at 128 per block need 2", func(b []byte) { le.PutUint32(b[16:], 128) }},
		{"header slots", "footer: 200 slots, header says 201", func(b []byte) { le.PutUint64(b[20:], 201) }},
		{"slots too many", "exceed the maximum", func(b []byte) { le.PutUint64(b[20:], 1<<60) }},
		{"footer version", "differs from the header", func(b []byte) { le.PutUint16(b[ft+48:], 1) }},
		{"footer reserved", "reserved bytes 50..51", func(b []byte) { b[ft+51] = 1 }},
		{"file id", "the header has", func(b []byte) { b[40] ^= 1 }}, // reseal fixes the block checksums too
		{"meta offset small", "metadata offset 5 outside", func(b []byte) { le.PutUint64(b[ft:], 5) }},
		{"meta offset huge", "metadata offset", func(b []byte) { le.PutUint64(b[ft:], 1<<63) }},
		{"meta length huge", "metadata length", func(b []byte) { le.PutUint64(b[ft+8:], 1<<64-1) }},
		{"meta length +1", "does not follow the metadata", func(b []byte) { le.PutUint64(b[ft+8:], uint64(len(meta)+1)) }},
		{"index offset", "does not follow", func(b []byte) { le.PutUint64(b[ft+16:], 1<<64-16) }},
		{"block count", "block index of 5 entries", func(b []byte) { le.PutUint64(b[ft+24:], 5) }},
		{"block count huge", "block index of", func(b []byte) { le.PutUint64(b[ft+24:], 1<<62) }},
		{"footer slots", "footer: 199 slots", func(b []byte) { le.PutUint64(b[ft+32:], 199) }},
		{"block offset", "block 1 of 4 at offset", func(b []byte) { le.PutUint64(b[indexOff+16:], 33) }},
		{"block length 0", "block 0 of 4 has length 0", func(b []byte) { le.PutUint32(b[indexOff+8:], 0) }},
		{"block length huge", "block 3 of 4 has length 4294967295", func(b []byte) { le.PutUint32(b[indexOff+3*16+8:], 1<<32-1) }},
		{"blocks short", "block 1 of 4 at offset", func(b []byte) { le.PutUint32(b[indexOff+8:], uint32(len(blocks[0])-1)) }},
		{"last block short", "blocks end at", func(b []byte) { le.PutUint32(b[indexOff+3*16+8:], uint32(len(blocks[3])-1)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := bytes.Clone(orig)
			tc.edit(c)
			_, err := openBytes(reseal(c))
			wantCorrupt(t, err, tc.msg)
		})
	}
}
