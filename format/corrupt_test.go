package format

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wantCorrupt fails unless err wraps ErrCorrupt and mentions one of want.
func wantCorrupt(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("error %v, want one wrapping ErrCorrupt", err)
	}
	for _, w := range want {
		if strings.Contains(err.Error(), w) {
			return
		}
	}
	if len(want) > 0 {
		t.Fatalf("error %q mentions none of %q", err, want)
	}
}

func TestTruncated(t *testing.T) {
	t.Parallel()
	b := tableBytes(t, 3, 300, 5, 64)
	for n := range len(b) {
		_, err := openBytes(b[:n])
		if err == nil || !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d of %d bytes: error %v", n, len(b), err)
		}
	}
	_, err := openBytes(append(bytes.Clone(b), 0))
	wantCorrupt(t, err, "footer: bad magic")
}

// region names the part of a file holding byte off, as error messages do.
func region(t *testing.T, b []byte, off int) []string {
	t.Helper()
	h, blocks, meta := disassemble(t, b)
	switch {
	case off < 8:
		return []string{"not a tablesmith table file"}
	case off < int(h.size()):
		return []string{"header"}
	case off >= len(b)-footerSize:
		return []string{"footer"}
	}
	pos := int(h.size())
	for i, blk := range blocks {
		if pos += len(blk); off < pos {
			return []string{fmt.Sprintf("block %d of %d", i, len(blocks))}
		}
	}
	if pos += len(meta); off < pos {
		return []string{"metadata"}
	}
	return []string{"block index"}
}

// TestBitFlips flips every bit of a tiny table, and of a version 1 golden
// file. Each flip must be reported as corruption naming the damaged part,
// by Open or else by Verify, and no read may return a wrong code.
func TestBitFlips(t *testing.T) {
	t.Parallel()
	v1, err := os.ReadFile(filepath.Join("testdata", "one-1bit.tsm"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		file        []byte
		seed, slots uint64
		bits        int
	}{
		{"new", tableBytes(t, 4, 100, 3, 64), 4, 100, 3},
		{"v1", v1, 23, 1, 1},
	} {
		want := make([]uint32, tc.slots)
		testSource(tc.seed, tc.bits)(want, 0)
		regions := make([][]string, len(tc.file))
		for off := range tc.file {
			regions[off] = region(t, tc.file, off)
		}
		for _, half := range []int{0, 1} { // two parallel halves
			t.Run(fmt.Sprint(tc.name, half), func(t *testing.T) {
				t.Parallel()
				c := bytes.Clone(tc.file)
				for off := half; off < len(c); off += 2 {
					for bit := range 8 {
						c[off] ^= 1 << bit
						checkFlip(t, c, want, fmt.Sprintf("byte %d bit %d", off, bit), regions[off])
						c[off] ^= 1 << bit
					}
				}
			})
		}
	}
}

func checkFlip(t *testing.T, c []byte, want []uint32, where string, region []string) {
	t.Helper()
	r, err := openBytes(c)
	if err != nil {
		if !errors.Is(err, ErrCorrupt) || !containsAny(err.Error(), region) {
			t.Fatalf("%s: Open error %v, want corruption naming %q", where, err, region)
		}
		return
	}
	for slot, w := range want {
		got, err := r.Code(uint64(slot))
		if err != nil && (!errors.Is(err, ErrCorrupt) || !containsAny(err.Error(), region)) {
			t.Fatalf("%s: Code(%d) error %v, want corruption naming %q", where, slot, err, region)
		}
		if err == nil && got != w {
			t.Fatalf("%s: Code(%d) = %d, want %d", where, slot, got, w)
		}
	}
	err = r.Verify(context.Background(), nil)
	if err == nil || !errors.Is(err, ErrCorrupt) || !containsAny(err.Error(), region) {
		t.Fatalf("%s: Verify error %v, want corruption naming %q", where, err, region)
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func TestFirstBadBlock(t *testing.T) {
	t.Parallel()
	c := tableBytes(t, 5, 64*20, 7, 64)
	h, blocks, _ := disassemble(t, c)
	off := int(h.size())
	for i, blk := range blocks {
		if i == 3 || i == 7 || i == 19 {
			c[off+len(blk)/2] ^= 0x10 // the index keeps the old checksum
		}
		off += len(blk)
	}
	r, err := openBytes(c)
	if err != nil {
		t.Fatal(err)
	}
	wantCorrupt(t, r.Verify(context.Background(), nil), "block 3 of 20: checksum mismatch (stored 0x")
	_, err = r.Code(7*64 + 5)
	wantCorrupt(t, err, "block 7 of 20: checksum mismatch")
	if _, err := r.Code(8 * 64); err != nil {
		t.Fatalf("Code in a good block: %v", err)
	}
	wantCorrupt(t, r.Codes(make([]uint32, 64*20), 0), "block 3 of 20")
}

func TestVersionAndFlags(t *testing.T) {
	t.Parallel()
	b := tableBytes(t, 6, 100, 4, 64)
	for _, tc := range []struct {
		name    string
		version uint16
		flags   uint16
		want    error
		msg     string
	}{
		{"newer version", Version + 1, flagZstd, ErrVersion, fmt.Sprintf("format version %d is newer", Version+1)},
		{"much newer", 0xffff, flagZstd, ErrVersion, "newer"},
		{"version 0", 0, flagZstd, ErrCorrupt, "version 0"},
		{"unknown flag", Version, flagZstd | 1<<5, ErrVersion, "unknown feature flags 0x0020"},
		{"no zstd flag", Version, 0, ErrCorrupt, "zstd"},
	} {
		c := bytes.Clone(b)
		binary.LittleEndian.PutUint16(c[8:], tc.version)
		binary.LittleEndian.PutUint16(c[10:], tc.flags)
		binary.LittleEndian.PutUint32(c[28:], checksum(c[:28]))
		_, err := openBytes(c)
		if !errors.Is(err, tc.want) || !strings.Contains(fmt.Sprint(err), tc.msg) {
			t.Errorf("%s: error %v, want %v mentioning %q", tc.name, err, tc.want, tc.msg)
		}
		if tc.want == ErrVersion && errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v is reported as corruption", tc.name, err)
		}
	}
}

func TestNotATable(t *testing.T) {
	t.Parallel()
	table := tableBytes(t, 7, 100, 4, 64)
	random := make([]byte, 1000)
	rand.NewChaCha8([32]byte{1}).Read(random)
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"empty", nil, "empty file"},
		{"random", random, "not a tablesmith table file"},
		{"text", []byte("game,index,slots\n8-puzzle,lex,362880\n"), `not a tablesmith table file (starts with "game,ind"`},
		{"short", []byte("hi"), "not a tablesmith table file"},
		{"magic only", magic[:], "header truncated"},
		{"header only", table[:headerSizeV2], "file truncated"},
		{"half a header", table[:headerSizeV2-1], "header truncated (51 of 52 bytes)"},
		{"CRLF to LF", bytes.Replace(table, []byte("\r\n"), []byte("\n"), 1), "not a tablesmith table file"},
		{"high bit stripped", append([]byte{0x09}, table[1:]...), "not a tablesmith table file"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Open(path)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(fmt.Sprint(err), tc.msg) || !strings.Contains(fmt.Sprint(err), path) {
			t.Errorf("%s: error %v, want corruption of %s mentioning %q", tc.name, err, path, tc.msg)
		}
	}
	_, err := Open(filepath.Join(dir, "missing"))
	if !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrCorrupt) {
		t.Errorf("missing file: error %v", err)
	}
	if _, err := Open(dir); err == nil || errors.Is(err, ErrCorrupt) {
		t.Errorf("directory: error %v", err)
	}
}
