package format

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPacked2WritesTheSameFile: a table of 2-bit codes written from its packed bytes
// (WriteOptions.Packed2) is the same file, byte for byte, as written from its
// CodeSource, with the same code counts: slot counts that end mid-byte, mid-word and
// mid-block, codes 3 past the last slot in the packed bytes (a two-bit search's
// padding), a table with no code 3 and one of code 0 alone.
func TestPacked2WritesTheSameFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		slots uint64
		spb   int
		codes func(s uint64) uint32
	}{
		{1, 64, func(uint64) uint32 { return 2 }},
		{1000, 64, func(s uint64) uint32 { return testCode(1, s, 2) }},
		{4093, 1024, func(s uint64) uint32 { return testCode(2, s, 2) }},
		{100000, 0, func(s uint64) uint32 { return testCode(3, s, 2) }},
		{70001, 4096, func(s uint64) uint32 { return uint32(s % 3) }},
		{5000, 128, func(uint64) uint32 { return 0 }},
	} {
		packed := make([]byte, (tc.slots+31)/32*8)
		for i := range packed {
			packed[i] = 0xff // padding past the last slot: code 3
		}
		for s := range tc.slots {
			packed[s/4] &^= 3 << (s % 4 * 2)
			packed[s/4] |= byte(tc.codes(s)) << (s % 4 * 2)
		}
		src := func(dst []uint32, start uint64) {
			for i := range dst {
				dst[i] = tc.codes(start + uint64(i))
			}
		}
		var files [2][]byte
		var metas [2]Metadata
		for i, opt := range []WriteOptions{{SlotsPerBlock: tc.spb, Workers: 3}, {SlotsPerBlock: tc.spb, Workers: 3, Packed2: packed}} {
			path := filepath.Join(dir, "t.tsm")
			m, err := WriteFile(context.Background(), path, testMeta(tc.slots, 2), src, opt)
			if err != nil {
				t.Fatal(err)
			}
			if files[i], err = os.ReadFile(path); err != nil {
				t.Fatal(err)
			}
			metas[i] = m
		}
		if !bytes.Equal(files[0], files[1]) || !slices.Equal(metas[0].CodeCounts, metas[1].CodeCounts) {
			t.Fatalf("%d slots, %d a block: the packed write differs (counts %v and %v)", tc.slots, tc.spb, metas[0].CodeCounts, metas[1].CodeCounts)
		}
	}
	if _, err := WriteFile(context.Background(), filepath.Join(dir, "u.tsm"), testMeta(1000, 2), testSource(1, 2), WriteOptions{Packed2: make([]byte, 249)}); err == nil {
		t.Fatal("packed codes too short for the slots: no error")
	}
	if _, err := WriteFile(context.Background(), filepath.Join(dir, "u.tsm"), testMeta(1000, 3), testSource(1, 3), WriteOptions{Packed2: make([]byte, 250)}); err == nil {
		t.Fatal("packed 2-bit codes for 3-bit codes: no error")
	}
}
