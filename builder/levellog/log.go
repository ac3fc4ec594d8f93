package levellog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/internal/bigmem"
)

// The magic numbers of the two versions (see doc.go).
const (
	levelLogMagic   = "TSMLOG03"
	levelLogMagicV2 = "TSMLOG02"
)

const (
	// recordHead is the size of a record's fixed part before the payload.
	recordHead = 4 + 1 + 1 + 8 + 8
	// smallRecord is the level size up to which a record is encoded by Append itself
	// (handing it to a goroutine would cost more) and written with its neighbours.
	smallRecord = 1 << 12
	// flushBytes and flushEvery bound how much of the small records waits in memory.
	flushBytes = 1 << 20
	flushEvery = time.Second
)

// ErrCheckpoint marks a checkpoint that is damaged or belongs to another build.
var ErrCheckpoint = errors.New("unusable checkpoint")

// Log appends levels to a checkpoint file.
type Log struct {
	f         *os.File
	out       *logFile // appends to f (past the page cache where it can)
	path      string
	slots     uint64
	lastSync  time.Time
	lastWrite time.Time
	// SyncEvery bounds how long a written level may stay in the OS cache only; a level is
	// always written (so a killed process loses at most the last second of small levels),
	// fsync waits for this interval.
	SyncEvery time.Duration

	// Between Append calls a record may be in flight: done then delivers its outcome, and
	// until it does the goroutine owns enc and pending.
	done chan error
	// syncing delivers the outcome of an fsync in flight (nil when none is): a sync runs
	// beside the search instead of holding up the next level. Like done, it is touched
	// only by whoever holds the log (Append's caller, or the record goroutine).
	syncing chan error
	err     error // the first write error: every later Append and Close return it
	enc     levelEncoder
	pending []byte // records encoded, not yet written
}

// MemoryEstimate is the most memory a level log of a search over slots slots
// holds while it encodes a level, in bytes: a payload and a scratch bitset, each at most
// about a bitset of the slots (4-peg Hanoi with 18 disks: 2 × 1.4 GB), and a zstd frame.
func MemoryEstimate(slots uint64) uint64 { return 2*(slots/8+8) + zstdChunk + 1<<10 }

// Create starts a new log at path (replacing any), tagged with key, a description
// of the build, so that a resume with other parameters is refused. width is the value
// width the search starts with (StartWidth).
func Create(path, key string, slots uint64, width int) (*Log, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("builder: checkpoint: %w", err)
	}
	hdr := append([]byte(levelLogMagic), binary.LittleEndian.AppendUint32(nil, uint32(len(key)))...)
	hdr = append(hdr, key...)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(width))
	hdr = binary.LittleEndian.AppendUint64(hdr, slots)
	hdr = binary.LittleEndian.AppendUint32(hdr, crc32.Checksum(hdr, castagnoli))
	if _, err := f.Write(hdr); err != nil {
		f.Close()
		return nil, fmt.Errorf("builder: checkpoint: %w", err)
	}
	l, err := newLog(f, path, slots, int64(len(hdr)))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("builder: checkpoint: %w", err)
	}
	return l, nil
}

// newLog returns the log appending to f, whose first size bytes are the log so far.
func newLog(f *os.File, path string, slots uint64, size int64) (*Log, error) {
	out, err := newLogFile(f, size)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	return &Log{f: f, out: out, path: path, slots: slots, lastSync: now, lastWrite: now,
		SyncEvery: 10 * time.Second}, nil
}

// Append logs one level. A large level is encoded and written in the background: its
// slices must stay unchanged until the next Append or Close returns, which BFS
// guarantees (see bfs.Options.AfterLevel). An error writing one level is returned by the
// next call.
func (l *Log) Append(lv bfs.Level) error {
	if err := l.wait(); err != nil {
		return err
	}
	if lv.Count <= smallRecord {
		head, payload, tail := l.record(lv)
		l.pending = append(append(append(l.pending, head[:]...), payload...), tail[:]...)
		if len(l.pending) < flushBytes && time.Since(l.lastWrite) < flushEvery {
			return nil
		}
		return l.setErr(l.write())
	}
	done := make(chan error, 1)
	l.done = done
	go func() {
		head, payload, tail := l.record(lv)
		l.pending = append(l.pending, head[:]...)
		err := l.write(payload, tail[:])
		// lv's slices may be outside the Go heap, and the payload may be lv's own
		// words: both must stay mapped until the write has read them.
		runtime.KeepAlive(lv.Keep)
		done <- err
	}()
	return nil
}

// wait waits for the record in flight, if any, and returns the log's error.
func (l *Log) wait() error {
	if l.done != nil {
		l.setErr(<-l.done)
		l.done = nil
	}
	return l.err
}

func (l *Log) setErr(err error) error {
	if err != nil && l.err == nil {
		l.err = fmt.Errorf("builder: checkpoint: %w", err)
	}
	return l.err
}

// record encodes lv: the record is head, payload (valid until the next call, and only
// as long as lv's slices, which it may be) and tail (the checksum of both).
func (l *Log) record(lv bfs.Level) (head [recordHead]byte, payload []byte, tail [4]byte) {
	kind, param, payload := l.enc.encode(lv, l.slots)
	binary.LittleEndian.PutUint32(head[0:], uint32(lv.D))
	head[4], head[5] = kind, byte(param)
	binary.LittleEndian.PutUint64(head[6:], lv.Count)
	binary.LittleEndian.PutUint64(head[14:], uint64(len(payload)))
	crc := crc32.Update(crc32.Checksum(head[:], castagnoli), castagnoli, payload)
	binary.LittleEndian.PutUint32(tail[:], crc)
	return head, payload, tail
}

// write writes the pending records followed by more, and syncs when SyncEvery has passed.
func (l *Log) write(more ...[]byte) error {
	err := l.out.write(append([][]byte{l.pending}, more...)...)
	l.pending = l.pending[:0]
	l.lastWrite = time.Now()
	if e := l.reapSync(false); err == nil {
		err = e
	}
	if err == nil && l.syncing == nil && time.Since(l.lastSync) >= l.SyncEvery {
		l.lastSync = time.Now()
		syncing, f := make(chan error, 1), l.f
		l.syncing = syncing
		go func() { syncing <- f.Sync() }()
	}
	return err
}

// reapSync returns the outcome of the sync in flight once it has ended (waiting for it
// if block), nil while it runs or when there is none.
func (l *Log) reapSync(block bool) error {
	if l.syncing == nil {
		return nil
	}
	var err error
	if block {
		err = <-l.syncing
	} else {
		select {
		case err = <-l.syncing:
		default:
			return nil
		}
	}
	l.syncing = nil
	return err
}

// Close writes the levels still pending, syncs and closes the log.
func (l *Log) Close() error {
	l.wait()
	l.setErr(l.write())
	l.setErr(l.reapSync(true))
	l.enc.release()
	err := l.err
	if e := l.f.Sync(); err == nil {
		err = e
	}
	if e := l.out.close(); err == nil {
		err = e
	}
	if e := l.f.Close(); err == nil {
		err = e
	}
	return err
}

// CloseUnsynced closes a log that is about to be removed because its table is whole:
// it waits for the writes in flight but neither writes what is pending nor syncs, which
// for a log of gigabytes would cost the build seconds of disk time for nothing.
func (l *Log) CloseUnsynced() error {
	l.wait()
	l.reapSync(true)
	l.enc.release()
	l.out.close()
	return l.f.Close()
}

// Resume replays the log at path into a checkpoint for the build tagged key over
// sp, cuts off a trailing partial or damaged record, and returns the log ready to append
// the next level. It fails with ErrCheckpoint when the file is not a log of this build:
// another key, a slot count or value width other than sp's (checked before anything is
// allocated), or levels that are not a breadth-first search of sp (a sample of every
// level is checked against sp's moves, so a log whose key was forged is refused too).
//
// A log of this build without a whole level (a build killed within milliseconds leaves
// the header alone, or the header and part of level 0) returns a nil Checkpoint and the
// log cut back to its header: the search starts from the goals, as without a log, and
// appends level 0 to it. Refusing it, as before, made --resume fail on exactly the
// builds that had lost nothing.
func Resume(path, key string, sp bfs.Space) (*bfs.Checkpoint, *Log, error) {
	width, err := bfs.StartWidth(sp)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("builder: checkpoint: %w", err)
	}
	var cp *bfs.Checkpoint
	var end int64
	var zstdOK bool
	st, err := f.Stat()
	if err != nil {
		err = fmt.Errorf("builder: checkpoint: %w", err)
	} else {
		cp, end, zstdOK, err = replay(bufio.NewReaderSize(f, 1<<20), st.Size(), path, key, sp.Slots(), width)
	}
	if err == nil && cp != nil {
		err = checkLevels(sp, cp, path)
	}
	if err == nil {
		err = f.Truncate(end)
	}
	if err == nil {
		_, err = f.Seek(end, io.SeekStart)
	}
	var l *Log
	if err == nil {
		l, err = newLog(f, path, sp.Slots(), end)
		if err != nil {
			err = fmt.Errorf("builder: checkpoint: %w", err)
		}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	// A version 2 log goes on without zstd records, which its readers would not take.
	l.enc.noZstd = !zstdOK
	return cp, l, nil
}

// replay reads the header and the whole records of a log of size bytes from r, and
// returns the checkpoint (nil when no level is whole), the offset just past the last
// whole record (or the header) and whether the log's version takes zstd records. Damage
// in the header is an error (ErrCheckpoint); damage in a record ends the replay before
// it. It reads no more than size bytes, and allocates no more than the header's slots
// (checked against wantSlots) and a record's payload (checked against size).
func replay(r io.Reader, size int64, path, key string, wantSlots uint64, wantWidth int) (*bfs.Checkpoint, int64, bool, error) {
	bad := func(what string, args ...any) error {
		return fmt.Errorf("builder: checkpoint %s: %s: %w", path, fmt.Sprintf(what, args...), ErrCheckpoint)
	}
	var fixed [12]byte
	if _, err := io.ReadFull(r, fixed[:]); err != nil || string(fixed[:8]) != levelLogMagic && string(fixed[:8]) != levelLogMagicV2 {
		return nil, 0, false, bad("not a tablesmith checkpoint of this version")
	}
	zstdOK := string(fixed[:8]) == levelLogMagic
	klen := binary.LittleEndian.Uint32(fixed[8:])
	if int64(klen) > size {
		return nil, 0, false, bad("key length %d exceeds the file", klen)
	}
	rest := make([]byte, int(klen)+16)
	if _, err := io.ReadFull(r, rest); err != nil {
		return nil, 0, false, bad("truncated header")
	}
	hdr := append(fixed[:], rest[:klen+12]...)
	if crc32.Checksum(hdr, castagnoli) != binary.LittleEndian.Uint32(rest[klen+12:]) {
		return nil, 0, false, bad("header checksum mismatch")
	}
	if got := string(rest[:klen]); got != key {
		return nil, 0, false, bad("made by another build (%q; this build is %q)", got, key)
	}
	width := int(binary.LittleEndian.Uint32(rest[klen:]))
	slots := binary.LittleEndian.Uint64(rest[klen+4:])
	if slots != wantSlots || width != wantWidth {
		return nil, 0, false, bad("made for %d slots of %d-byte values, this build has %d slots of %d-byte values "+
			"(remove %s, or build without --resume)", slots, width, wantSlots, wantWidth, path)
	}
	values, err := builder.NewValues(slots, width)
	if err != nil {
		return nil, 0, false, bad("%v", err)
	}
	cp := &bfs.Checkpoint{Values: values}
	end := int64(len(hdr) + 4)
	var rec []byte
	var scratch *bigmem.Buf // a zstd record's bitset
	defer func() { scratch.Release() }()
	for {
		// The record, whole, its size checked against its form before it is read, and
		// its checksum before anything is applied.
		var head [recordHead]byte
		if _, err := io.ReadFull(r, head[:]); err != nil {
			break // the end, or a record cut short
		}
		d := int(binary.LittleEndian.Uint32(head[0:]))
		kind, param := head[4], uint(head[5])
		count := binary.LittleEndian.Uint64(head[6:])
		payload := binary.LittleEndian.Uint64(head[14:])
		if !payloadFits(kind, param, count, slots, payload, zstdOK) || d != len(cp.Counts) || int64(payload) > size-end {
			break
		}
		size := recordHead + int(payload) + 4
		if cap(rec) < size {
			rec = make([]byte, size)
		}
		rec = rec[:size]
		copy(rec, head[:])
		if _, err := io.ReadFull(r, rec[recordHead:]); err != nil {
			break
		}
		if crc32.Checksum(rec[:size-4], castagnoli) != binary.LittleEndian.Uint32(rec[size-4:]) {
			break
		}
		if uint64(d) > values.Max() {
			// The search widened its values at this level; so does the replay.
			if err := values.Widen(); err != nil {
				break
			}
		}
		unset := values.Unset()
		body := rec[recordHead : size-4]
		var err error
		if kind == recordZstd {
			kind, param = recordBitset, 0
			body, err = inflateZstd(body, slots, &scratch)
		}
		if err == nil {
			err = decodeRecord(kind, param, count, slots, body, func(s uint64) error {
				if values.Get(s) != unset {
					return errBadRecord
				}
				values.Set(s, uint64(d))
				return nil
			})
		}
		if err != nil {
			// A checksummed record with impossible content: undo it and stop there.
			for s := range slots {
				if values.Get(s) == uint64(d) {
					values.Set(s, unset)
				}
			}
			break
		}
		cp.Counts = append(cp.Counts, count)
		end += int64(size)
	}
	if len(cp.Counts) == 0 {
		return nil, end, zstdOK, nil // see Resume
	}
	return cp, end, zstdOK, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checkLevels checks a replayed checkpoint against the space it claims to be a search of:
// the goals hold 0 and level 0 holds only them, and a sample of every level's slots
// (up to levelSamples each, spread evenly) has a neighbour one level down and none lower,
// and — below the last level — no neighbour unreached. It costs a few thousand
// expansions, and refuses a log replayed into the wrong space (a forged key).
func checkLevels(sp bfs.Space, cp *bfs.Checkpoint, path string) error {
	bad := func(what string, args ...any) error {
		return fmt.Errorf("builder: checkpoint %s is not a search of this space: %s (remove it, or build without --resume): %w",
			path, fmt.Sprintf(what, args...), ErrCheckpoint)
	}
	v := cp.Values
	goals := sp.Goals()
	if cp.Counts[0] != uint64(len(goals)) {
		return bad("level 0 holds %d states, the space has %d goals", cp.Counts[0], len(goals))
	}
	for _, g := range goals {
		if g >= v.Len() || v.Get(g) != 0 {
			return bad("goal slot %d is not at level 0", g)
		}
	}
	const levelSamples = 64
	last := uint64(len(cp.Counts) - 1)
	unset := v.Unset()
	// Pick the samples in one pass: every k-th slot of each level, k from its count.
	step := make([]uint64, len(cp.Counts))
	seen := make([]uint64, len(cp.Counts))
	taken := make([]int, len(cp.Counts))
	for d, c := range cp.Counts {
		step[d] = max(1, c/levelSamples)
	}
	expand := sp.NewExpander()
	var src [1]uint64
	var nbrs []uint64
	for s := uint64(0); s < v.Len(); s++ {
		d := v.Get(s)
		if d == unset || d == 0 || d > last {
			continue
		}
		seen[d]++
		if (seen[d]-1)%step[d] != 0 || taken[d] >= levelSamples {
			continue
		}
		taken[d]++
		src[0] = s
		nbrs = expand(nbrs[:0], src[:])
		least := unset
		for _, nb := range nbrs {
			nd := v.Get(nb)
			if nd == unset && d < last {
				return bad("slot %d at level %d has an unreached neighbour", s, d)
			}
			least = min(least, nd)
		}
		if least != d-1 {
			return bad("slot %d at level %d has its nearest neighbour at level %d", s, d, int64(least))
		}
	}
	return nil
}
