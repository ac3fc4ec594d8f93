package solver

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/format"
)

// Tests of copyPacked decoding blocks straight into the table, against codes packed here.

// writeCodesTable writes a table of the given codes (fileBits bits each) and returns its path.
func writeCodesTable(t *testing.T, codes []uint32, fileBits uint, spb int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.tsm")
	meta := format.Metadata{Game: "test", Index: "test", Encoding: "test", Slots: uint64(len(codes)), CodeBits: int(fileBits)}
	src := func(dst []uint32, start uint64) { copy(dst, codes[start:]) }
	if _, err := format.WriteFile(context.Background(), path, meta, src, format.WriteOptions{SlotsPerBlock: spb, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCopyPackedRuns: every run length (one block a run: no block has room; runs
// longer than the file: only the last block has none), more workers than runs, a file of
// one partial block, and 3-bit files widened to nibbles give the codes packed bit by bit
// and their counts, computed here independently.
func TestCopyPackedRuns(t *testing.T) {
	defer func(old int) { pdbRunBlocks = old }(pdbRunBlocks)
	rng := rand.New(rand.NewPCG(31, 32))
	type widths struct{ file, table uint }
	for _, w := range []widths{{1, 1}, {2, 2}, {4, 4}, {8, 8}, {3, 4}, {1, 2}} {
		for _, slots := range []uint64{37, 64*25 + 3, 64 * 25} {
			codes := make([]uint32, slots)
			want := make([]byte, (slots*uint64(w.table)+7)/8)
			wantCnt := make([]uint64, 1<<w.table)
			for i := range codes {
				v := uint32(rng.Uint64N(1 << w.file))
				if rng.IntN(2) == 0 {
					v = codes[max(i, 1)-1]
				}
				codes[i] = v
				for k := range w.table {
					if v>>k&1 != 0 {
						pos := uint64(i)*uint64(w.table) + uint64(k)
						want[pos/8] |= 1 << (pos % 8)
					}
				}
				wantCnt[v]++
			}
			path := writeCodesTable(t, codes, w.file, 64)
			for _, run := range []int{1, 2, 5, 64, 1000} {
				for _, workers := range []int{1, 3, 8} {
					pdbRunBlocks = run
					r, err := format.Open(path)
					if err != nil {
						t.Fatal(err)
					}
					// The table in a larger array: nothing past its end may change.
					arena := bytes.Repeat([]byte{0x5C}, len(want)+64)
					data := arena[:len(want):len(want)]
					if w.file != w.table {
						clear(data) // widen writes into a zeroed table
					}
					counts := make([][]uint64, workers)
					err = copyPacked(r, slots, data, w.file, w.table, counts)
					r.Close()
					if err != nil {
						t.Fatal(err)
					}
					name := func() string { return fmt.Sprintf("%d→%d bits", w.file, w.table) }
					if !bytes.Equal(data, want) {
						t.Fatalf("%s, %d slots, runs of %d, %d workers: codes differ", name(), slots, run, workers)
					}
					if !bytes.Equal(arena[len(want):], bytes.Repeat([]byte{0x5C}, 64)) {
						t.Fatalf("%s, %d slots, runs of %d: bytes past the table changed", name(), slots, run)
					}
					got := make([]uint64, 1<<w.table)
					for _, c := range counts {
						for v, n := range c {
							got[v] += n
						}
					}
					if !slices.Equal(got, wantCnt) {
						t.Fatalf("%s, %d slots, runs of %d, %d workers: counts %v, want %v", name(), slots, run, workers, got, wantCnt)
					}
				}
			}
		}
	}
}

// TestCopyPackedDamage: a damaged block (a flipped byte in the file) is an error of
// copyPacked, in place or widened, with any run length, never a panic.
func TestCopyPackedDamage(t *testing.T) {
	defer func(old int) { pdbRunBlocks = old }(pdbRunBlocks)
	rng := rand.New(rand.NewPCG(33, 34))
	tried := 0
	for _, fileBits := range []uint{4, 3} {
		codes := make([]uint32, 64*30+7)
		for i := range codes {
			codes[i] = uint32(rng.Uint64N(1 << fileBits))
		}
		path := writeCodesTable(t, codes, fileBits, 64)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, off := range []int{100, len(raw) / 3, len(raw) / 2} {
			damaged := slices.Clone(raw)
			damaged[off] ^= 0x20
			p := filepath.Join(t.TempDir(), "d.tsm")
			if err := os.WriteFile(p, damaged, 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := format.Open(p)
			if err != nil {
				continue // the damage is in the header, index or metadata
			}
			tried++
			for _, run := range []int{1, 3, 64} {
				pdbRunBlocks = run
				data := make([]byte, (len(codes)*4+7)/8)
				if err := copyPacked(r, uint64(len(codes)), data, fileBits, 4, make([][]uint64, 3)); err == nil {
					// Only a block's bytes were damaged if Open succeeded; its checksum
					// must catch it.
					t.Fatalf("%d-bit file, byte %d flipped, runs of %d: no error", fileBits, off, run)
				}
			}
			r.Close()
		}
	}
	t.Logf("%d damaged files opened", tried)
	if tried == 0 {
		t.Fatal("every flip was caught by Open: no block was damaged")
	}
}
