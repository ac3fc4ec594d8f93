package levellog

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/builder/internal/bfstoys"
	"github.com/tablesmith/tablesmith/internal/racetest"
)

// runLogged runs a search that appends every level to a log at path, stopping with
// errStop after level stopAt (-1: never).
func runLogged(t *testing.T, sp bfs.Space, log *Log, resume *bfs.Checkpoint, stopAt int) (*bfs.Result, error) {
	t.Helper()
	return bfs.Search(context.Background(), sp, bfs.Options{Workers: 2, Resume: resume, AfterLevel: func(lv bfs.Level) error {
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
	sp := bfstoys.Cube{Dim: 16, Hole: func(s uint64) bool { return s%11 == 5 }}
	path := filepath.Join(t.TempDir(), "cube.ckpt")
	const key = "cube16 test"
	log, err := Create(path, key, sp.Slots(), 1)
	if err != nil {
		t.Fatal(err)
	}
	log.SyncEvery = syncEvery
	// bfs.Level 8 of the 16-cube is its widest: the log holds lists and bitsets.
	if _, err := runLogged(t, sp, log, nil, 8); !errors.Is(err, errStop) {
		t.Fatalf("want the simulated interruption, got %v", err)
	}
	log.Close()
	// A kill in the middle of writing level 9 leaves part of a record behind.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte{9, 0, 0, 0, 0, 7, 7})
	f.Close()
	if _, _, err := Resume(path, "another build", sp); !errors.Is(err, ErrCheckpoint) {
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
func resumeAndFinish(t *testing.T, sp bfs.Space, path, key string, syncEvery time.Duration) (int, *bfs.Result) {
	t.Helper()
	cp, log, err := Resume(path, key, sp)
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
	bfstoys.Check(t, sp, res.Values, res.Reached, res.Holes, res.Unreachable, res.Counts)
	return levels, res
}

// replayedCounts is the level counts the log at path replays to.
func replayedCounts(t *testing.T, sp bfs.Space, path, key string) []uint64 {
	t.Helper()
	cp, log, err := Resume(path, key, sp)
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
	sp := bfstoys.Cube{Dim: 10, Hole: func(s uint64) bool { return s%7 == 2 }}
	path := filepath.Join(t.TempDir(), "x.ckpt")
	log, err := Create(path, "k", sp.Slots(), 1)
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
		cp, log, err := Resume(path, "k", sp)
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
		bfstoys.Check(t, sp, res.Values, res.Reached, res.Holes, res.Unreachable, res.Counts)
	}
	// Cut inside the header: not a log at all.
	const header = 29 // magic 8, key length 4, key "k", width 4, slots 8, CRC 4
	for _, n := range []int{0, 5, 12, header - 1} {
		mustWrite(t, path, raw[:n])
		if _, _, err := Resume(path, "k", sp); !errors.Is(err, ErrCheckpoint) {
			t.Fatalf("truncated to %d bytes: got %v, want ErrCheckpoint", n, err)
		}
	}
}

// TestResumeWithoutWholeLevel (issue 27, item 3): a log cut after its header, or inside
// its first record, as a build killed within milliseconds leaves it, has no level to
// resume from but is this build's: Resume returns no checkpoint and the log cut back to
// its header, and the search from the goals that appends to it leaves a whole log.
func TestResumeWithoutWholeLevel(t *testing.T) {
	t.Parallel()
	sp := bfstoys.Cube{Dim: 10, Hole: func(s uint64) bool { return s%7 == 2 }}
	path := filepath.Join(t.TempDir(), "x.ckpt")
	log, err := Create(path, "k", sp.Slots(), 1)
	if err != nil {
		t.Fatal(err)
	}
	full, err := runLogged(t, sp, log, nil, -1)
	if err != nil {
		t.Fatal(err)
	}
	log.Close()
	raw := mustRead(t, path)
	const header = 29
	for _, n := range []int{header, header + 1, header + recordHead, header + recordHead + 1} {
		mustWrite(t, path, raw[:n])
		cp, log, err := Resume(path, "k", sp)
		if err != nil || cp != nil {
			t.Fatalf("cut to %d bytes: checkpoint %v, %v; want none and no error", n, cp, err)
		}
		if st, err := os.Stat(path); err != nil || st.Size() != header {
			t.Fatalf("cut to %d bytes: the log is not cut back to its header: %v", n, err)
		}
		res, err := runLogged(t, sp, log, nil, -1)
		log.Close()
		if err != nil {
			t.Fatal(err)
		}
		bfstoys.Check(t, sp, res.Values, res.Reached, res.Holes, res.Unreachable, res.Counts)
		if got := replayedCounts(t, sp, path, "k"); !slices.Equal(got, full.Counts) {
			t.Fatalf("cut to %d bytes: the log rewritten replays to %v, want %v", n, got, full.Counts)
		}
	}
	// Still refused when it is another build's.
	mustWrite(t, path, raw[:header])
	if _, _, err := Resume(path, "other", sp); !errors.Is(err, ErrCheckpoint) {
		t.Fatalf("another build's header: %v", err)
	}
}

// TestResumeAcrossWidening interrupts a search before and after it widens its values
// (chain: a hint of 10, a remoteness of 699) and resumes it from the log.
func TestResumeAcrossWidening(t *testing.T) {
	t.Parallel()
	sp := bfstoys.Chain{Length: 700, N: 800}
	// Interrupted before and after the widening, resumed from the log.
	for _, stopAt := range []int{100, 400} {
		path := filepath.Join(t.TempDir(), "chain.ckpt")
		log, err := Create(path, "chain", sp.Slots(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runLogged(t, sp, log, nil, stopAt); !errors.Is(err, errStop) {
			t.Fatalf("want the simulated interruption, got %v", err)
		}
		log.Close()
		cp, log, err := Resume(path, "chain", sp)
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
		bfstoys.Check(t, sp, res.Values, res.Reached, res.Holes, res.Unreachable, res.Counts)
	}
}

// TestBFSResumeFromZstdLog: a search whose dense levels go to the log as zstd frames
// (the 20-cube's levels are structured, and its bitsets large enough) resumes from it
// after an interruption and after damage inside a zstd record, and ends right.
func TestBFSResumeFromZstdLog(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 17 s")
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
func cube20() bfstoys.Cube {
	return bfstoys.Cube{Dim: 20, Hole: func(s uint64) bool { return s%11 == 5 }}
}

// interruptedLog runs a logged search of sp, its zstd frames small (several a record),
// stops it after level stopAt and returns the log's path.
func interruptedLog(t *testing.T, sp bfs.Space, key string, stopAt int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.ckpt")
	log, err := Create(path, key, sp.Slots(), 1)
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
	racetest.SkipSlow(t, "takes up to 12 s")
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

// TestDeferredLevelsResume interrupts logged searches after every level (of the tail,
// for tailcube), resumes them and checks the values, the counts and the log's replay.
func TestDeferredLevelsResume(t *testing.T) {
	t.Parallel()
	spaces := map[string]bfs.Space{
		"cube14-holes": bfstoys.Cube{Dim: 14, Hole: func(s uint64) bool { return s%13 == 4 }},
		"star5000":     bfstoys.WideStar{N: 5000},
		"tailcube":     bfstoys.TailCube{L: 300, Dim: 11},
	}
	for name, sp := range spaces {
		full, err := bfs.Search(context.Background(), sp, bfs.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, runs := range []bool{false, true} {
			for stopAt := 0; stopAt < len(full.Counts); stopAt++ {
				if name == "tailcube" && stopAt < 295 {
					continue
				}
				wsp := bfstoys.WithRuns{Space: sp, Runs: runs}
				path := filepath.Join(t.TempDir(), "x.ckpt")
				w0, _ := bfs.StartWidth(wsp)
				log, err := Create(path, name, sp.Slots(), w0)
				if err != nil {
					t.Fatal(err)
				}
				_, err = runLogged(t, wsp, log, nil, stopAt)
				log.Close()
				if stopAt < len(full.Counts)-1 && !errors.Is(err, errStop) {
					t.Fatalf("%s stop %d: %v", name, stopAt, err)
				}
				cp, log, err := Resume(path, name, wsp)
				if err != nil {
					t.Fatalf("%s stop %d: %v", name, stopAt, err)
				}
				res, err := bfs.Search(context.Background(), wsp, bfs.Options{Workers: 3, Batch: 7, Resume: cp, AfterLevel: log.Append})
				log.Close()
				if err != nil {
					t.Fatalf("%s stop %d: %v", name, stopAt, err)
				}
				bfstoys.Check(t, sp, res.Values, res.Reached, res.Holes, res.Unreachable, res.Counts)
				if fmt.Sprint(res.Counts) != fmt.Sprint(full.Counts) {
					t.Fatalf("%s stop %d: counts %v want %v", name, stopAt, res.Counts, full.Counts)
				}
				cp2, log2, err := Resume(path, name, wsp)
				if err != nil {
					t.Fatal(err)
				}
				log2.Close()
				if fmt.Sprint(cp2.Counts) != fmt.Sprint(full.Counts) {
					t.Fatalf("%s stop %d: replayed %v want %v", name, stopAt, cp2.Counts, full.Counts)
				}
			}
		}
	}
}
