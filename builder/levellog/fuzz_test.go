package levellog

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/builder/internal/bfstoys"

	"github.com/tablesmith/tablesmith/builder/bfs"
)

// The seeds of FuzzReplay: real logs of small searches, committed under testdata/ (made
// by TestFuzzSeeds with LEVELLOG_WRITE_SEEDS=1), each with the build it belongs to.
var fuzzSeeds = []struct {
	file  string
	key   string
	sp    bfs.Space
	width int
}{
	// Packed, bitset and Elias–Fano records of a hypercube with holes.
	{"cube10.ckpt", "fuzz cube10", bfstoys.Cube{Dim: 10, Hole: func(s uint64) bool { return s%7 == 2 }}, 1},
	// A search that widens its values from one byte to two (level 254 on).
	{"chain300.ckpt", "fuzz chain300", bfstoys.Chain{Length: 300, N: 320}, 1},
	// zstd records: levels that are dense, periodic bitsets of 2^20 slots.
	{"stripes-zstd.ckpt", "fuzz stripes", stripes{}, 1},
	// The cube10 log as version 2 wrote it (the same records, the older magic).
	{"cube10-v2.ckpt", "fuzz cube10", bfstoys.Cube{Dim: 10, Hole: func(s uint64) bool { return s%7 == 2 }}, 1},
}

// TestFuzzSeeds checks that the committed seeds are what they claim: whole logs of
// their builds, replaying to the levels of a search (and, with LEVELLOG_WRITE_SEEDS=1,
// writes them anew first).
func TestFuzzSeeds(t *testing.T) {
	if os.Getenv("LEVELLOG_WRITE_SEEDS") != "" {
		writeFuzzSeeds(t)
	}
	for _, s := range fuzzSeeds {
		path := filepath.Join(t.TempDir(), s.file)
		mustWrite(t, path, mustRead(t, filepath.Join("testdata", s.file)))
		cp, log, err := Resume(path, s.key, s.sp)
		if err != nil {
			t.Fatalf("%s: %v", s.file, err)
		}
		log.Close()
		full := checkSearch(t, s.sp)
		if len(cp.Counts) < 2 || !slices.Equal(cp.Counts, full.Counts[:len(cp.Counts)]) {
			t.Fatalf("%s: replays to %v, the search's levels are %v", s.file, cp.Counts, full.Counts)
		}
	}
}

func checkSearch(t *testing.T, sp bfs.Space) *bfs.Result {
	t.Helper()
	res, err := bfs.Search(context.Background(), sp, bfs.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func writeFuzzSeeds(t *testing.T) {
	dir := t.TempDir()
	for _, s := range fuzzSeeds {
		path := filepath.Join(dir, s.file)
		switch s.file {
		case "cube10-v2.ckpt":
			raw := mustRead(t, filepath.Join("testdata", "cube10.ckpt"))
			copy(raw, levelLogMagicV2)
			hdrEnd := 12 + int(binary.LittleEndian.Uint32(raw[8:])) + 12
			binary.LittleEndian.PutUint32(raw[hdrEnd:], crc32.Checksum(raw[:hdrEnd], castagnoli))
			mustWrite(t, path, raw)
		default:
			log, err := Create(path, s.key, s.sp.Slots(), s.width)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := runLogged(t, s.sp, log, nil, -1); err != nil {
				t.Fatal(err)
			}
			log.Close()
			if _, ok := s.sp.(stripes); ok && !slices.Contains(recordKinds(t, mustRead(t, path)), recordZstd) {
				t.Fatal("stripes: no zstd record")
			}
		}
		mustWrite(t, filepath.Join("testdata", s.file), mustRead(t, path))
	}
}

// FuzzReplay feeds the replay damaged logs. It must never panic, must report a damaged
// header as ErrCheckpoint, and whatever it accepts must be consistent: the values hold
// exactly the states each level's record counts, and no value beyond the last level, and
// the offset it would cut the file at lies within the file and replays to the same.
func FuzzReplay(f *testing.F) {
	for i, s := range fuzzSeeds {
		raw, err := os.ReadFile(filepath.Join("testdata", s.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), raw)
		f.Add(uint8(i), raw[:len(raw)/2])
		f.Add(uint8(i), raw[:28+len(s.key)]) // the header alone
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		s := fuzzSeeds[int(which)%len(fuzzSeeds)]
		cp, end, _, err := replay(bytes.NewReader(data), int64(len(data)), "fuzz", s.key, s.sp.Slots(), s.width)
		if err != nil {
			if !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("an error that is not ErrCheckpoint: %v", err)
			}
			return
		}
		if end < int64(28+len(s.key)) || end > int64(len(data)) {
			t.Fatalf("cut at %d of %d bytes", end, len(data))
		}
		if cp == nil {
			return
		}
		v := cp.Values
		if v.Len() != s.sp.Slots() {
			t.Fatalf("%d values for %d slots", v.Len(), s.sp.Slots())
		}
		per := make([]uint64, len(cp.Counts))
		for i := range v.Len() {
			x := v.Get(i)
			if x == v.Unset() {
				continue
			}
			if x >= uint64(len(cp.Counts)) {
				t.Fatalf("slot %d holds %d beyond the last level %d", i, x, len(cp.Counts)-1)
			}
			per[x]++
		}
		if !slices.Equal(per, cp.Counts) {
			t.Fatalf("the values hold %v states per level, the records say %v", per, cp.Counts)
		}
		again, end2, _, err := replay(bytes.NewReader(data[:end]), end, "fuzz", s.key, s.sp.Slots(), s.width)
		if err != nil || end2 != end || !slices.Equal(again.Counts, cp.Counts) {
			t.Fatalf("the log cut at %d replays differently: %v", end, err)
		}
	})
}

// stripes is a space of 2^20 slots whose levels 1 to 3 are the slots 4k, 4k+1 and 4k+2:
// dense, periodic bitsets that the log stores as small zstd records.
type stripes struct{}

func (stripes) Slots() uint64        { return 1 << 20 }
func (stripes) Goals() []uint64      { return []uint64{0} }
func (stripes) DepthBound() uint64   { return 3 }
func (stripes) IsHole(s uint64) bool { return s%4 == 3 }
func (stripes) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			switch {
			case s == 0:
				for x := uint64(4); x < 1<<20; x += 4 {
					dst = append(dst, x)
				}
			case s%4 == 0:
				dst = append(dst, 0, s+1)
			case s%4 == 1:
				dst = append(dst, s-1, s+1)
			case s%4 == 2:
				dst = append(dst, s-1)
			}
		}
		return dst
	}
}
