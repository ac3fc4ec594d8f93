package levellog

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/builder/internal/bfstoys"
	"time"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/internal/bigmem"
)

// Tests of what the level log reads and how long it may read it: the last level of a search, bitset payloads written from the level's own words, forged zstd records, the zstd backoff.

// appendRandomBitset appends to l a random level of half the u slots given as a bitset
// outside the Go heap (as BFS hands a dense level over), and returns the payload it must
// write (computed here, byte by byte), the level's count and a channel closed once the
// bitset's buffer has become unreachable. It drops every reference to the buffer.
//
//go:noinline
func appendRandomBitset(t *testing.T, l *Log, u uint64) (want []byte, count uint64, gone chan struct{}) {
	words, buf := bigmem.NewWords(u)
	rng := rand.New(rand.NewPCG(21, 22))
	want = make([]byte, 8*len(words))
	for i := range words {
		w := rng.Uint64()
		words[i] = w
		count += uint64(bits.OnesCount64(w))
		for k := range 8 {
			want[8*i+k] = byte(w >> (8 * k))
		}
	}
	gone = make(chan struct{})
	runtime.AddCleanup(buf, func(ch chan struct{}) { close(ch) }, gone)
	if err := l.Append(bfs.Level{D: 3, Count: count, Words: words, Keep: buf}); err != nil {
		t.Fatal(err)
	}
	return want, count, gone
}

// TestBitsetPayloadKeptAliveUntilWritten: a dense level given as words is written
// from the level's own words (littleEndianBytes aliases them), but the record goroutine
// of Append keeps the level's memory alive (runtime.KeepAlive(lv.keep)) only until the
// record is encoded, not until its payload is written. Once the search lets go of the
// bitset (a search that returns, by an error or at its end, while its last level is in
// flight), the collector may unmap it under the write. The log's file here is a pipe that
// is not read until the bitset is gone, so the write is held up while the collector runs.
func TestBitsetPayloadKeptAliveUntilWritten(t *testing.T) {
	t.Parallel()
	const u = 1 << 23 // a 1 MiB bitset, well above bigAllocMin: outside the Go heap
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	l, err := newLog(pw, "pipe", u, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, count, gone := appendRandomBitset(t, l, u)
	released := false
	deadline := time.Now().Add(1500 * time.Millisecond)
	for !released && time.Now().Before(deadline) {
		runtime.GC()
		select {
		case <-gone:
			released = true
			time.Sleep(50 * time.Millisecond) // the bigmem.Buf's own cleanup (munmap) too
		case <-time.After(20 * time.Millisecond):
		}
	}
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(pr)
		got <- b
	}()
	werr := l.wait()
	pw.Close()
	raw := <-got
	l.enc.release()
	if !released {
		t.Log("the bitset stayed reachable until it was written")
	}
	if werr != nil {
		t.Fatalf("writing a level whose bitset the search let go of (released before the write: %v): %v", released, werr)
	}
	if len(raw) != recordHead+len(want)+4 {
		t.Fatalf("record of %d bytes, want %d", len(raw), recordHead+len(want)+4)
	}
	if raw[4] != recordBitset || binary.LittleEndian.Uint64(raw[6:]) != count {
		t.Fatalf("form %d, count %d; want the bitset form, %d", raw[4], binary.LittleEndian.Uint64(raw[6:]), count)
	}
	if !slices.Equal(raw[recordHead:recordHead+len(want)], want) {
		t.Fatal("the payload written is not the level's bitset")
	}
	if crc32.Checksum(raw[:len(raw)-4], castagnoli) != binary.LittleEndian.Uint32(raw[len(raw)-4:]) {
		t.Fatal("the record's checksum does not match what was written")
	}
}

// forgeRecord appends a record of level d with the given form, count and payload and its
// checksum.
func forgeRecord(b []byte, d uint32, kind byte, param byte, count uint64, payload []byte) []byte {
	start := len(b)
	b = binary.LittleEndian.AppendUint32(b, d)
	b = append(b, kind, param)
	b = binary.LittleEndian.AppendUint64(b, count)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(payload)))
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// zstdFrameHeader is a zstd frame with the given header descriptor, window descriptor
// (if not single-segment) and frame content size bytes, and one empty last raw block.
func zstdFrameHeader(desc byte, window []byte, fcs []byte) []byte {
	f := []byte{0x28, 0xB5, 0x2F, 0xFD, desc}
	f = append(f, window...)
	f = append(f, fcs...)
	return append(f, 0x01, 0x00, 0x00) // last block, raw, 0 bytes
}

// TestForgedZstdRecords: checksummed zstd records that declare huge sizes or
// windows, decode to too little or too much, hold a level's bitset with another count,
// or come in a version 2 log, end the replay there (the levels before them replay) and
// allocate nothing near what they declare.
func TestForgedZstdRecords(t *testing.T) { // not parallel: it measures the process's allocation
	sp := bfstoys.Cube{Dim: 20}
	const u = 1 << 20
	path := filepath.Join(t.TempDir(), "forged.ckpt")
	const key = "forged zstd"
	log, err := Create(path, key, sp.Slots(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runLogged(t, sp, log, nil, 1); err == nil {
		t.Fatal("want the simulated interruption")
	}
	log.Close()
	base := mustRead(t, path)

	// bfs.Level 2 of the 20-cube: the 190 slots with two bits set, as a bitset.
	var level2 []uint64
	bitset := make([]byte, u/8)
	for i := range 20 {
		for j := i + 1; j < 20; j++ {
			s := uint64(1)<<i | uint64(1)<<j
			level2 = append(level2, s)
			bitset[s>>3] |= 1 << (s & 7)
		}
	}
	enc := func(p []byte) []byte {
		var e levelEncoder
		e.chunk = 16 << 10
		defer e.release()
		words := make([]uint64, len(p)/8)
		for i := range words {
			words[i] = binary.LittleEndian.Uint64(p[8*i:])
		}
		n := uint64(len(words))
		out, ok := e.zstdWords(words[:e.frameWords(n)], n, uint64(len(p)), func() []uint64 { return words })
		if !ok {
			t.Fatal("a bitset of 190 slots does not compress")
		}
		return slices.Clone(out)
	}
	good := enc(bitset)
	fcs8 := binary.LittleEndian.AppendUint64(nil, 1<<40)
	for _, c := range []struct {
		name   string
		count  uint64
		frames []byte
		v2     bool
		levels int // levels replayed
	}{
		{"the level itself", 190, good, false, 3},
		{"the level in a version 2 log", 190, good, true, 2},
		{"another count", 189, good, false, 2},
		{"content size 2^40", 190, zstdFrameHeader(0xC0, []byte{0}, fcs8), false, 2},
		{"window 2^41, no content size", 190, zstdFrameHeader(0x00, []byte{31 << 3}, nil), false, 2},
		{"single segment of the bitset's size, empty", 190, zstdFrameHeader(0xA0, nil, binary.LittleEndian.AppendUint32(nil, u/8)), false, 2},
		{"the bitset and one byte more", 190, enc(append(slices.Clone(bitset), make([]byte, 8)...)), false, 2},
		{"the bitset's first half", 190, enc(bitset[:u/16]), false, 2},
		{"the frames twice", 190, append(slices.Clone(good), good...), false, 2},
	} {
		raw := slices.Clone(base)
		if c.v2 {
			copy(raw, levelLogMagicV2)
			hdrEnd := 12 + int(binary.LittleEndian.Uint32(raw[8:])) + 12
			binary.LittleEndian.PutUint32(raw[hdrEnd:], crc32.Checksum(raw[:hdrEnd], castagnoli))
		}
		raw = forgeRecord(raw, 2, recordZstd, 0, c.count, c.frames)
		p := filepath.Join(t.TempDir(), "f.ckpt")
		mustWrite(t, p, raw)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		cp, l, err := Resume(p, key, sp)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		l.Close()
		if len(cp.Counts) != c.levels {
			t.Fatalf("%s: replayed %d levels, want %d", c.name, len(cp.Counts), c.levels)
		}
		if c.levels == 3 {
			for _, s := range level2 {
				if cp.Values.Get(s) != 2 {
					t.Fatalf("%s: slot %d holds %d, want 2", c.name, s, cp.Values.Get(s))
				}
			}
		} else if st, _ := os.Stat(p); st.Size() != int64(len(base)) {
			t.Fatalf("%s: the refused record was not cut off (%d bytes, want %d)", c.name, st.Size(), len(base))
		}
		// A replay allocates its values (1 MiB) and a bitset (128 KiB); a forged frame
		// must not make it allocate what it declares.
		if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
			t.Fatalf("%s: the replay allocated %d bytes", c.name, n)
		}
	}
}

// TestZstdBackoffCounts: the backoff's skips are spent only on levels that could
// be tried, a version 2 log never tries (and spends nothing), and release keeps the
// state (Close releases the buffers, not the search's history).
func TestZstdBackoffCounts(t *testing.T) {
	t.Parallel()
	e := levelEncoder{zstdFails: 2, zstdSkip: 3}
	for range 5 {
		if e.shouldTryZstd(false) {
			t.Fatal("an ineligible level was tried")
		}
	}
	if e.zstdSkip != 3 {
		t.Fatalf("ineligible levels spent skips: %d left, want 3", e.zstdSkip)
	}
	for i := range 3 {
		if e.shouldTryZstd(true) {
			t.Fatalf("eligible level %d tried during the skips", i)
		}
	}
	if !e.shouldTryZstd(true) {
		t.Fatal("the level after the skips was not tried")
	}
	e.zstdSkip = 1
	e.release()
	if e.zstdFails != 2 || e.zstdSkip != 1 {
		t.Fatalf("release lost the backoff: %d failures, %d skips", e.zstdFails, e.zstdSkip)
	}
	v2 := levelEncoder{noZstd: true, zstdSkip: 2}
	for range 4 {
		if v2.shouldTryZstd(true) {
			t.Fatal("a version 2 log tried zstd")
		}
	}
	v2.release()
	if !v2.noZstd {
		t.Fatal("release forgot the log's version")
	}
}

// scattered is a space whose goal 0 reaches n slots scattered over the slot range in one
// move, and nothing else: a last level of n slots given as lists whose bitset is
// eligible for a zstd try but does not compress, so the log's goroutine reads the lists
// for the bitset, tries zstd on it, and reads them again for Elias–Fano.
type scattered struct{ slots, n uint64 }

func (s scattered) Slots() uint64      { return s.slots }
func (s scattered) Goals() []uint64    { return []uint64{0} }
func (s scattered) DepthBound() uint64 { return 2 }
func (s scattered) IsHole(uint64) bool { return false }
func (s scattered) HasHoles() bool     { return false }

func (s scattered) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, x := range src {
			if x == 0 {
				for t := uint64(1); t <= s.n; t++ {
					dst = append(dst, (t*0x9E3779B97F4A7C15>>20)%s.slots)
				}
			}
		}
		return dst
	}
}

// TestLevelLogOfLastListLevel: a logged search whose last level is a list level
// above smallRecord (encoded by Append's goroutine) must not crash. The search releases
// the last level's chunks (munmap) before it returns, while the goroutine is still
// encoding them: SIGSEGV in listBitset or efFromLists. Run in a child process, since the
// fault kills the test binary.
func TestLevelLogOfLastListLevel(t *testing.T) {
	if os.Getenv("TABLESMITH_REVIEW_CHILD") == "1" {
		sp := scattered{slots: 1 << 24, n: 120_000} // a list: below the dense threshold
		for range 5 {
			path := filepath.Join(t.TempDir(), "x.ckpt")
			log, err := Create(path, "k", sp.Slots(), 1)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := bfs.Search(context.Background(), sp, bfs.Options{Workers: 2, AfterLevel: log.Append}); err != nil {
				t.Fatal(err)
			}
			if err := log.Close(); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLevelLogOfLastListLevel$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TABLESMITH_REVIEW_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		lines := strings.Split(string(out), "\n")
		t.Fatalf("a logged search whose last level is a list of %d slots: %v\n%s", 120_000, err,
			strings.Join(lines[:min(len(lines), 12)], "\n"))
	}
}
