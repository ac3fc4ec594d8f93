package format

import (
	"bytes"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// Tests of PackedBlockInto (blocks decoded straight into a caller's
// array, the decoder free to write up to the destination's capacity).

// packLSB packs codes of bits bits LSB first, bit by bit (independent of pack).
func packLSB(codes []uint32, bits int) []byte {
	out := make([]byte, (len(codes)*bits+7)/8)
	for i, c := range codes {
		for k := range bits {
			if c>>k&1 != 0 {
				pos := i*bits + k
				out[pos/8] |= 1 << (pos % 8)
			}
		}
	}
	return out
}

const sentinel = 0xC3

// intoArena decodes block b with room bytes of room into an arena guarded by 8 sentinel
// bytes on either side, and reports the error and whether a byte outside
// [8, 8+len+room) changed.
func intoArena(r *Reader, b, n, room int) (dst []byte, err error, outside bool) {
	arena := bytes.Repeat([]byte{sentinel}, 8+n+room+8)
	dst = arena[8 : 8+n : 8+n+room]
	err = r.PackedBlockInto(b, dst)
	for i, x := range arena {
		if (i < 8 || i >= 8+n+room) && x != sentinel {
			outside = true
		}
	}
	return dst, err, outside
}

// TestPackedBlockIntoForged: blocks whose frames decode to too much or too little,
// a stream far too long, garbage and nonzero padding bits are errors from PackedBlockInto
// whatever the room, and the decoder never writes outside the destination's capacity.
func TestPackedBlockIntoForged(t *testing.T) {
	t.Parallel()
	const slots, bits, spb = 197, 5, 64 // blocks of 40, 40, 40 and 4 bytes
	h, blocks, meta := disassemble(t, tableBytes(t, 8, slots, bits, spb))
	good := make([]byte, 40)
	for i := range good {
		good[i] = byte(i*7 + 1)
	}
	for _, tc := range []struct {
		name  string
		block int
		data  []byte
	}{
		{"one byte long", 1, zstdFrame(t, append(slices.Clone(good), 9))},
		{"a block long", 1, zstdFrame(t, append(slices.Clone(good), good...))},
		{"short", 1, zstdFrame(t, good[:39])},
		{"stream too long", 1, zstdStream(t, bytes.Repeat([]byte{0x5A}, 300))},
		{"huge stream", 0, zstdStream(t, make([]byte, 4<<20))},
		{"not zstd", 2, []byte("this is not a zstd frame at all")},
		{"last block long", 3, zstdFrame(t, []byte{1, 2, 3, 4, 5})},
		{"nonzero padding", 3, zstdFrame(t, []byte{1, 2, 3, 0x80})},
	} {
		bl := slices.Clone(blocks)
		bl[tc.block] = tc.data
		r, err := openBytes(assemble(h, bl, meta))
		if err != nil {
			t.Fatal(err)
		}
		n := r.PackedBlockBytes(tc.block)
		for _, room := range []int{0, 1, 15, 16, 40, 200} {
			_, err, outside := intoArena(r, tc.block, n, room)
			if outside {
				t.Fatalf("%s, room %d: bytes outside the destination's capacity changed", tc.name, room)
			}
			wantCorrupt(t, err)
		}
	}
}

// TestPackedBlockIntoRuns decodes every block of tables of several widths (the last
// block partial or full, spb·bits whole bytes) straight into one array, as copyPacked
// does, on several goroutines taking runs of blocks, each block with the room of the next
// in its run: the array holds the codes packed bit by bit, and nothing past the array's
// end is touched.
func TestPackedBlockIntoRuns(t *testing.T) {
	t.Parallel()
	for _, bits := range []int{1, 2, 4, 8} {
		for _, n := range []uint64{64*37 + 5, 64 * 40} {
			const spb = 64
			path, _ := writeTest(t, 11, n, bits, spb)
			r, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			codes := make([]uint32, n)
			testSource(11, bits)(codes, 0)
			want := packLSB(codes, bits)
			for _, run := range []int{1, 2, 3, 64} {
				arena := bytes.Repeat([]byte{sentinel}, len(want)+32)
				data := arena[:len(want)]
				per := spb * bits / 8
				runs := (r.Blocks() + run - 1) / run
				var next atomic.Int64
				var wg sync.WaitGroup
				errs := make(chan error, 3)
				for range 3 {
					wg.Go(func() {
						for {
							k := int(next.Add(1) - 1)
							if k >= runs {
								return
							}
							for b := k * run; b < min(k*run+run, r.Blocks()); b++ {
								start := b * per
								end := start + r.PackedBlockBytes(b)
								room := end
								if b+1 < k*run+run {
									room = min(start+2*per, len(data))
								}
								if err := r.PackedBlockInto(b, data[start:end:room]); err != nil {
									errs <- err
									return
								}
							}
						}
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					t.Fatal(err)
				}
				if !bytes.Equal(data, want) {
					t.Fatalf("%d bits, %d slots, runs of %d: the array differs from the codes", bits, n, run)
				}
				for _, x := range arena[len(want):] {
					if x != sentinel {
						t.Fatalf("%d bits, %d slots, runs of %d: a byte past the array changed", bits, n, run)
					}
				}
			}
			r.Close()
			if err := r.PackedBlockInto(0, make([]byte, r.PackedBlockBytes(0))); err == nil {
				t.Fatal("PackedBlockInto after Close must fail")
			}
			if err := r.PackedBlockInto(-1, nil); err == nil {
				t.Fatal("a negative block must be an error")
			}
		}
	}
}
