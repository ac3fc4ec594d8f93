package format

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the table files in testdata/")

// goldenTables are small real table files kept in testdata/: they seed the
// fuzz targets and pin the on-disk format (a reader that can no longer read
// them has broken compatibility). Regenerate with `go generate` (which runs
// go test -run TestGolden -update).
var goldenTables = []struct {
	name        string
	seed, slots uint64
	bits, spb   int
}{
	{"small-5bit.tsm", 21, 1000, 5, 256},
	{"small-9bit.tsm", 22, 300, 9, 128},
	{"one-1bit.tsm", 23, 1, 1, 0},
	{"empty-8bit.tsm", 24, 0, 8, 64},
}

func goldenMeta(slots uint64, bits int) Metadata {
	m := testMeta(slots, bits)
	m.Build.GoVersion = "go1.26"
	m.Build.Created = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return m
}

func TestGolden(t *testing.T) {
	for _, g := range goldenTables {
		path := filepath.Join("testdata", g.name)
		if *update {
			_, err := WriteFile(context.Background(), path, goldenMeta(g.slots, g.bits), testSource(g.seed, g.bits),
				WriteOptions{SlotsPerBlock: g.spb, Level: 4, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
		}
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			r, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if r.FileSize() > 10<<10 {
				t.Errorf("%s is %d bytes; keep test tables under 10 KB", path, r.FileSize())
			}
			if err := r.Verify(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			want := make([]uint32, g.slots)
			testSource(g.seed, g.bits)(want, 0)
			m := r.Meta()
			written := goldenMeta(g.slots, g.bits)
			written.CodeCounts = m.CodeCounts // checked against the codes
			checkMeta(t, m, written, goldenMeta(g.slots, g.bits), want)
			checkCodes(t, r, want)
		})
	}
}

func addSeeds(f *testing.F) {
	for _, g := range goldenTables {
		data, err := os.ReadFile(filepath.Join("testdata", g.name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		for n := 0; n < len(data); n += max(1, len(data)/16) {
			f.Add(data[:n])
		}
	}
}

// FuzzOpen opens arbitrary bytes as a table; if that succeeds it verifies
// and reads codes. Nothing may panic, and every error must be a corruption
// (or version) error.
func FuzzOpen(f *testing.F) {
	addSeeds(f)
	f.Fuzz(fuzzTable)
}

// FuzzResealedOpen is FuzzOpen after fixing every checksum the damaged file
// still lets us find, so that the checks behind the checksums get fuzzed.
func FuzzResealedOpen(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzTable(t, reseal(data)) })
}

func fuzzTable(t *testing.T, data []byte) {
	tableErr := func(what string, err error) {
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVersion) {
			t.Fatalf("%s: error %v is neither ErrCorrupt nor ErrVersion", what, err)
		}
	}
	r, err := openBytes(data)
	if err != nil {
		tableErr("Open", err)
		return
	}
	m := r.Meta()
	if r.Blocks() != int((m.Slots+uint64(r.SlotsPerBlock())-1)/uint64(r.SlotsPerBlock())) {
		t.Fatalf("%d blocks for %d slots at %d per block", r.Blocks(), m.Slots, r.SlotsPerBlock())
	}
	verr := r.Verify(context.Background(), nil)
	tableErr("Verify", verr)
	if _, err := r.Code(m.Slots); err == nil || errors.Is(err, ErrCorrupt) {
		t.Fatalf("Code(Slots) error %v", err)
	}
	r.SetCacheBytes(1 << 16)
	if m.Slots > 1<<16 {
		for _, slot := range []uint64{0, m.Slots / 2, m.Slots - 1} {
			_, err := r.Code(slot)
			tableErr("Code", err)
		}
		return
	}
	codes := make([]uint32, m.Slots)
	err = r.Codes(codes, 0)
	tableErr("Codes", err)
	if err != nil {
		return
	}
	for slot, want := range codes {
		if got, err := r.Code(uint64(slot)); err != nil || got != want {
			t.Fatalf("Code(%d) = %d, %v; Codes said %d", slot, got, err, want)
		}
		if want>>uint(m.CodeBits) != 0 && m.CodeBits < 32 {
			t.Fatalf("code %d of slot %d exceeds %d bits", want, slot, m.CodeBits)
		}
	}
	if verr == nil && m.CodeCounts != nil {
		var c counter
		c.add(codes)
		if got := c.result(); !slices.Equal(got, m.CodeCounts) {
			t.Fatalf("Verify passed, but the codes count %v, metadata says %v", trunc(got), trunc(m.CodeCounts))
		}
	}
}
