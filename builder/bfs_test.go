package builder

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// cube is the d-dimensional hypercube with some slots knocked out as holes: its levels
// grow wide enough to switch the frontier to a bitset, and the holes leave some states
// cut off (unreachable), so every path of the engine is exercised.
type cube struct {
	dim  int
	hole func(uint64) bool
}

func (c cube) Slots() uint64      { return 1 << c.dim }
func (c cube) Goals() []uint64    { return []uint64{0} }
func (c cube) DepthBound() uint64 { return uint64(c.dim) }
func (c cube) IsHole(s uint64) bool {
	return c.hole != nil && c.hole(s)
}
func (c cube) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			if c.IsHole(s) {
				continue
			}
			for b := 0; b < c.dim; b++ {
				if t := s ^ 1<<b; !c.IsHole(t) {
					dst = append(dst, t)
				}
			}
		}
		return dst
	}
}

// oracle is a plain sequential queue BFS.
func oracle(sp Space) []int {
	dist := make([]int, sp.Slots())
	for i := range dist {
		dist[i] = -1
	}
	exp := sp.NewExpander()
	queue := slices.Clone(sp.Goals())
	for _, g := range queue {
		dist[g] = 0
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, t := range exp(nil, []uint64{s}) {
			if dist[t] < 0 {
				dist[t] = dist[s] + 1
				queue = append(queue, t)
			}
		}
	}
	return dist
}

func checkAgainstOracle(t *testing.T, sp Space, res *Result) {
	t.Helper()
	want := oracle(sp)
	var reached, holes, unreachable uint64
	for s, d := range want {
		got := res.Values.Get(uint64(s))
		switch {
		case d >= 0:
			reached++
			if got != uint64(d) {
				t.Fatalf("slot %d: remoteness %d, want %d", s, got, d)
			}
		case sp.IsHole(uint64(s)):
			holes++
			if got != res.Values.Hole() {
				t.Fatalf("slot %d: value %d, want the hole marker", s, got)
			}
		default:
			unreachable++
			if got != res.Values.Unset() {
				t.Fatalf("slot %d: value %d, want the unreachable marker", s, got)
			}
		}
	}
	if res.Reached != reached || res.Holes != holes || res.Unreachable != unreachable {
		t.Fatalf("counts: reached %d holes %d unreachable %d, want %d %d %d",
			res.Reached, res.Holes, res.Unreachable, reached, holes, unreachable)
	}
	var sum uint64
	for _, c := range res.Counts {
		sum += c
	}
	if sum != reached {
		t.Fatalf("level counts add up to %d, want %d", sum, reached)
	}
}

func TestBFSMatchesOracle(t *testing.T) {
	t.Parallel()
	spaces := map[string]cube{
		"cube12":       {dim: 12},
		"cube16-holes": {dim: 16, hole: func(s uint64) bool { return s%7 == 3 || bits.OnesCount64(s) == 9 }},
	}
	for name, sp := range spaces {
		for _, workers := range []int{1, 2, 4} {
			for _, batch := range []int{1, 7, 1024} {
				res, err := BFS(context.Background(), sp, Options{Workers: workers, Batch: batch})
				if err != nil {
					t.Fatalf("%s workers=%d batch=%d: %v", name, workers, batch, err)
				}
				checkAgainstOracle(t, sp, res)
			}
		}
	}
}

// echo lists every neighbour of its cube twice in a row and the whole list once more
// reversed: repeats within one visited word and across words, which the claim of a
// word's neighbours together (runs) must count once, as the claim one by one does.
type echo struct {
	cube
	runs bool
}

func (e echo) ListsNeighbourRuns() bool { return e.runs }

func (e echo) NewExpander() func(dst, src []uint64) []uint64 {
	inner := e.cube.NewExpander()
	var buf []uint64
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			buf = inner(buf[:0], []uint64{s})
			for _, t := range buf {
				dst = append(dst, t, t)
			}
			for i := len(buf) - 1; i >= 0; i-- {
				dst = append(dst, buf[i])
			}
		}
		return dst
	}
}

// TestBFSRepeatedNeighbours runs both claims (one by one, and a word's neighbours
// together) and both ways of recording a level: claimed as found, and marked then
// settled (markBatch, settle), which the 14-cube's levels of at least one slot per 8
// bitset words take.
func TestBFSRepeatedNeighbours(t *testing.T) {
	t.Parallel()
	for _, runs := range []bool{false, true} {
		sp := echo{cube{dim: 14, hole: func(s uint64) bool { return s%13 == 4 }}, runs}
		for _, workers := range []int{1, 2, 3} {
			res, err := BFS(context.Background(), sp, Options{Workers: workers, Batch: 5})
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstOracle(t, sp, res)
		}
	}
}

func TestBFSHypercubeCountsAreBinomial(t *testing.T) {
	t.Parallel()
	res, err := BFS(context.Background(), cube{dim: 20}, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	binom := uint64(1)
	for k, c := range res.Counts {
		if c != binom {
			t.Fatalf("level %d: %d states, want C(20,%d) = %d", k, c, k, binom)
		}
		binom = binom * uint64(20-k) / uint64(k+1)
	}
	if res.MaxRemoteness() != 20 {
		t.Fatalf("max remoteness %d, want 20", res.MaxRemoteness())
	}
}

func TestBFSRejectsWrongDepthBound(t *testing.T) {
	t.Parallel()
	sp := lyingBound{cube{dim: 10}}
	if _, err := BFS(context.Background(), sp, Options{}); err == nil {
		t.Fatal("a bound below the true depth must be an error")
	}
}

// lyingBound claims more than a byte can hold would never be needed, yet the chain is long.
type lyingBound struct{ cube }

func (lyingBound) Slots() uint64      { return 600 }
func (lyingBound) DepthBound() uint64 { return 10 }
func (lyingBound) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			if s+1 < 600 {
				dst = append(dst, s+1)
			}
		}
		return dst
	}
}

// runLogged runs a search that appends every level to a log at path, stopping with
// errStop after level stopAt (-1: never).
func runLogged(t *testing.T, sp Space, log *LevelLog, resume *Checkpoint, stopAt int) (*Result, error) {
	t.Helper()
	return BFS(context.Background(), sp, Options{Workers: 2, Resume: resume, AfterLevel: func(lv Level) error {
		if err := log.Append(lv); err != nil {
			return err
		}
		if lv.D == stopAt {
			return errStop
		}
		return nil
	}})
}

var errStop = errors.New("simulated interruption")

func TestBFSResumeFromLevelLog(t *testing.T) {
	t.Parallel()
	// SyncEvery 0: a sync starts after every write unless one is running, so syncs
	// overlap the next records (the race pass checks the hand-over).
	for _, syncEvery := range []time.Duration{10 * time.Second, 0} {
		t.Run(syncEvery.String(), func(t *testing.T) { testResumeFromLevelLog(t, syncEvery) })
	}
}

func testResumeFromLevelLog(t *testing.T, syncEvery time.Duration) {
	sp := cube{dim: 16, hole: func(s uint64) bool { return s%11 == 5 }}
	path := filepath.Join(t.TempDir(), "cube.ckpt")
	const key = "cube16 test"
	log, err := CreateLevelLog(path, key, sp.Slots(), 1)
	if err != nil {
		t.Fatal(err)
	}
	log.SyncEvery = syncEvery
	// Level 8 of the 16-cube is its widest: the log holds lists and bitsets.
	if _, err := runLogged(t, sp, log, nil, 8); !errors.Is(err, errStop) {
		t.Fatalf("want the simulated interruption, got %v", err)
	}
	log.Close()
	// A kill in the middle of writing level 9 leaves part of a record behind.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte{9, 0, 0, 0, 0, 7, 7})
	f.Close()
	if _, _, err := ResumeLevelLog(path, "another build", sp); !errors.Is(err, ErrCheckpoint) {
		t.Fatalf("a log of another build must be refused, got %v", err)
	}
	levels, res := resumeAndFinish(t, sp, path, key, syncEvery)
	if levels != 9 {
		t.Fatalf("resumed at %d levels, want 9 (0..8)", levels)
	}
	// The finished log replays to the whole search.
	if got := replayedCounts(t, sp, path, key); !slices.Equal(got, res.Counts) {
		t.Fatalf("replayed counts %v, search %v", got, res.Counts)
	}
}

// resumeAndFinish resumes the log at path, runs the search to its end appending to the
// log, checks the result against the oracle and returns it with the number of levels
// the resume started from.
func resumeAndFinish(t *testing.T, sp Space, path, key string, syncEvery time.Duration) (int, *Result) {
	t.Helper()
	cp, log, err := ResumeLevelLog(path, key, sp)
	if err != nil {
		t.Fatal(err)
	}
	log.SyncEvery = syncEvery
	levels := len(cp.Counts)
	res, err := runLogged(t, sp, log, cp, -1)
	log.Close()
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstOracle(t, sp, res)
	return levels, res
}

// replayedCounts is the level counts the log at path replays to.
func replayedCounts(t *testing.T, sp Space, path, key string) []uint64 {
	t.Helper()
	cp, log, err := ResumeLevelLog(path, key, sp)
	if err != nil {
		t.Fatal(err)
	}
	log.Close()
	return cp.Counts
}

// TestLevelLogDamage flips bytes all over a log: a resume either refuses the file or
// recovers a prefix of the levels, and the search it finishes is always right.
func TestLevelLogDamage(t *testing.T) {
	t.Parallel()
	sp := cube{dim: 10, hole: func(s uint64) bool { return s%7 == 2 }}
	path := filepath.Join(t.TempDir(), "x.ckpt")
	log, err := CreateLevelLog(path, "k", sp.Slots(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runLogged(t, sp, log, nil, -1); err != nil {
		t.Fatal(err)
	}
	log.Close()
	raw := mustRead(t, path)
	for i := 0; i < len(raw); i += 13 {
		damaged := slices.Clone(raw)
		damaged[i] ^= 0x10
		mustWrite(t, path, damaged)
		cp, log, err := ResumeLevelLog(path, "k", sp)
		if err != nil {
			if !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("flip at byte %d: %v is not ErrCheckpoint", i, err)
			}
			continue
		}
		res, err := runLogged(t, sp, log, cp, -1)
		log.Close()
		if err != nil {
			t.Fatalf("flip at byte %d: resumed search: %v", i, err)
		}
		checkAgainstOracle(t, sp, res)
	}
	for _, n := range []int{0, 5, 12, 30} {
		mustWrite(t, path, raw[:n])
		if _, _, err := ResumeLevelLog(path, "k", sp); !errors.Is(err, ErrCheckpoint) {
			t.Fatalf("truncated to %d bytes: got %v, want ErrCheckpoint", n, err)
		}
	}
}

func TestValuesWidths(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		bound uint64
		width int
	}{{0, 1}, {253, 1}, {254, 2}, {65533, 2}, {65534, 3}, {1<<20 - 1, 3}, {1<<32 - 3, 4}} {
		w, err := WidthFor(tc.bound)
		if err != nil || w != tc.width {
			t.Fatalf("WidthFor(%d) = %d, %v; want %d", tc.bound, w, err, tc.width)
		}
		v, err := NewValues(130, w)
		if err != nil {
			t.Fatal(err)
		}
		for i := uint64(0); i < 130; i++ {
			if v.Get(i) != v.Unset() {
				t.Fatalf("width %d: slot %d starts at %d, want Unset", w, i, v.Get(i))
			}
		}
		v.Set(129, tc.bound)
		v.Set(0, v.Hole())
		if v.Get(129) != tc.bound || v.Get(0) != v.Hole() || v.Get(128) != v.Unset() {
			t.Fatalf("width %d: set/get mismatch", w)
		}
	}
	if _, err := WidthFor(1 << 33); err == nil {
		t.Fatal("a bound beyond 32 bits must be refused")
	}
}

// chain is the path 0-1-…-(length-1), then slots that are holes (even) or unreachable
// states (odd). Its hint of 10 sizes the values at one byte, its remoteness goes to
// length-1: the search must widen its values on the way.
type chain struct{ length, slots uint64 }

func (c chain) Slots() uint64        { return c.slots }
func (c chain) Goals() []uint64      { return []uint64{0} }
func (c chain) DepthBound() uint64   { return c.length - 1 }
func (c chain) DepthHint() uint64    { return 10 }
func (c chain) IsHole(s uint64) bool { return s >= c.length && s%2 == 0 }
func (c chain) NewExpander() func(dst, src []uint64) []uint64 {
	return func(dst, src []uint64) []uint64 {
		for _, s := range src {
			if s >= c.length {
				continue
			}
			if s > 0 {
				dst = append(dst, s-1)
			}
			if s+1 < c.length {
				dst = append(dst, s+1)
			}
		}
		return dst
	}
}

func TestBFSWidensBeyondHint(t *testing.T) {
	t.Parallel()
	sp := chain{length: 700, slots: 800}
	if w, err := StartWidth(sp); err != nil || w != 1 {
		t.Fatalf("StartWidth = %d, %v; want 1", w, err)
	}
	for _, workers := range []int{1, 2} {
		res, err := BFS(context.Background(), sp, Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if res.Values.Width() != 2 || res.MaxRemoteness() != 699 {
			t.Fatalf("width %d, max %d; want 2, 699", res.Values.Width(), res.MaxRemoteness())
		}
		checkAgainstOracle(t, sp, res)
	}
	// Interrupted before and after the widening, resumed from the log.
	for _, stopAt := range []int{100, 400} {
		path := filepath.Join(t.TempDir(), "chain.ckpt")
		log, err := CreateLevelLog(path, "chain", sp.Slots(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runLogged(t, sp, log, nil, stopAt); !errors.Is(err, errStop) {
			t.Fatalf("want the simulated interruption, got %v", err)
		}
		log.Close()
		cp, log, err := ResumeLevelLog(path, "chain", sp)
		if err != nil {
			t.Fatal(err)
		}
		if len(cp.Counts) != stopAt+1 {
			t.Fatalf("resumed at %d levels, want %d", len(cp.Counts), stopAt+1)
		}
		res, err := runLogged(t, sp, log, cp, -1)
		log.Close()
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstOracle(t, sp, res)
	}
}

func TestValuesWiden(t *testing.T) {
	t.Parallel()
	for w := 1; w < 4; w++ {
		v, err := NewValues(1000, w)
		if err != nil {
			t.Fatal(err)
		}
		for i := range uint64(1000) {
			switch i % 4 {
			case 0:
				v.Set(i, v.Hole())
			case 1:
				v.Set(i, i%(v.Max()+1))
			case 2:
				v.Set(i, v.Max())
			} // 3: Unset
		}
		old := v.Max()
		if err := v.Widen(); err != nil {
			t.Fatal(err)
		}
		if v.Width() != w+1 {
			t.Fatalf("width %d after widening %d", v.Width(), w)
		}
		for i := range uint64(1000) {
			want := [4]uint64{v.Hole(), i % (old + 1), old, v.Unset()}[i%4]
			if got := v.Get(i); got != want {
				t.Fatalf("width %d→%d: slot %d holds %d, want %d", w, w+1, i, got, want)
			}
		}
	}
	v, _ := NewValues(10, 4)
	if err := v.Widen(); err == nil {
		t.Fatal("4-byte values cannot be widened")
	}
}

// TestBFSResumeFromZstdLog: a search whose dense levels go to the log as zstd frames
// (the 20-cube's levels are structured, and its bitsets large enough) resumes from it
// after an interruption and after damage inside a zstd record, and ends right.
func TestBFSResumeFromZstdLog(t *testing.T) {
	t.Parallel()
	sp := cube20()
	const key = "cube20 test"
	path := interruptedLog(t, sp, key, 12)
	raw := mustRead(t, path)
	kinds := recordKinds(t, raw)
	first := slices.Index(kinds, recordZstd)
	if first < 0 {
		t.Fatalf("no zstd record in the log: forms %v", kinds)
	}
	if levels, _ := resumeAndFinish(t, sp, path, key, 10*time.Second); levels != 13 {
		t.Fatalf("resumed at %d levels, want 13 (0..12)", levels)
	}

	// A zstd record whose payload was changed and its checksum forged to match: the
	// replay stops before it, and the resumed search is still right.
	off := recordOffsets(t, raw)[first]
	forged := slices.Clone(raw)
	payload := forged[off+recordHead : off+recordHead+int(binary.LittleEndian.Uint64(forged[off+14:]))]
	payload[len(payload)/2] ^= 0x55
	end := off + recordHead + len(payload)
	binary.LittleEndian.PutUint32(forged[end:], crc32.Checksum(forged[off:end], castagnoli))
	mustWrite(t, path, forged)
	if levels, _ := resumeAndFinish(t, sp, path, key, 10*time.Second); levels > first {
		t.Fatalf("replayed %d levels through a forged record at level %d", levels, first)
	}
}

// cube20 is a space whose levels are structured and whose bitsets (2^20 bits) are large
// enough for the log to try zstd on.
func cube20() cube { return cube{dim: 20, hole: func(s uint64) bool { return s%11 == 5 }} }

// interruptedLog runs a logged search of sp, its zstd frames small (several a record),
// stops it after level stopAt and returns the log's path.
func interruptedLog(t *testing.T, sp Space, key string, stopAt int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.ckpt")
	log, err := CreateLevelLog(path, key, sp.Slots(), 1)
	if err != nil {
		t.Fatal(err)
	}
	log.enc.chunk = 16 << 10
	if _, err := runLogged(t, sp, log, nil, stopAt); !errors.Is(err, errStop) {
		t.Fatalf("want the simulated interruption, got %v", err)
	}
	log.Close()
	return path
}

// recordOffsets returns the offset of every whole record of a log's bytes.
func recordOffsets(t *testing.T, raw []byte) []int {
	t.Helper()
	off := 12 + int(binary.LittleEndian.Uint32(raw[8:])) + 16
	var offs []int
	for off+recordHead <= len(raw) {
		size := recordHead + int(binary.LittleEndian.Uint64(raw[off+14:])) + 4
		if off+size > len(raw) {
			break
		}
		offs = append(offs, off)
		off += size
	}
	return offs
}

// recordKinds returns the form of every whole record of a log's bytes.
func recordKinds(t *testing.T, raw []byte) []byte {
	var kinds []byte
	for _, off := range recordOffsets(t, raw) {
		kinds = append(kinds, raw[off+4])
	}
	return kinds
}

// TestResumeVersion2Log: a log of the previous format (no zstd records) resumes, and the
// levels appended to it stay in forms its version takes, so that it replays whole.
func TestResumeVersion2Log(t *testing.T) {
	t.Parallel()
	sp := cube20()
	const key = "cube20 v2"
	path := interruptedLog(t, sp, key, 4)
	raw := mustRead(t, path)
	if slices.Contains(recordKinds(t, raw), recordZstd) {
		t.Fatal("levels 0..4 were not meant to be zstd records")
	}
	copy(raw, levelLogMagicV2)
	hdrEnd := 12 + int(binary.LittleEndian.Uint32(raw[8:])) + 12
	binary.LittleEndian.PutUint32(raw[hdrEnd:], crc32.Checksum(raw[:hdrEnd], castagnoli))
	mustWrite(t, path, raw)
	_, res := resumeAndFinish(t, sp, path, key, 10*time.Second)
	if kinds := recordKinds(t, mustRead(t, path)); slices.Contains(kinds, recordZstd) {
		t.Fatalf("a version 2 log got zstd records: forms %v", kinds)
	}
	if got := replayedCounts(t, sp, path, key); !slices.Equal(got, res.Counts) {
		t.Fatalf("the version 2 log replays to %d levels, the search has %d", len(got), len(res.Counts))
	}
}
