package builder

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"time"
)

// A level log is the checkpoint of a breadth-first build: an append-only file with one
// record per completed level, holding the slots first reached at that level. Writing a
// level costs only that level (its slot list, or its frontier bitset when that is
// smaller), so every level is checkpointed — also for 3-peg Hanoi's 2^20 levels, where
// rewriting the value array would be out of the question. Resuming replays the records
// into a fresh value array; a record cut short by a kill, or damaged, ends the replay and
// is cut off, so the build resumes from the last whole level.
//
// Layout, little-endian:
//
//	header:  magic "TSMLOG01" | u32 key length | key | u32 value width | u64 slots | u32 CRC-32C of the header
//	record:  u32 level | u8 kind (0: list of u64 slots, 1: bitset words) | u64 states | u64 payload bytes |
//	         payload | u32 CRC-32C of the record before it
const levelLogMagic = "TSMLOG01"

const (
	recordList   = 0
	recordBitset = 1
)

// ErrCheckpoint marks a checkpoint that is damaged or belongs to another build.
var ErrCheckpoint = errors.New("unusable checkpoint")

// Level is one completed level of a search, as handed to Options.AfterLevel: the slots
// first reached at remoteness D, as lists or as a bitset (Words non-nil).
type Level struct {
	D     int
	Count uint64
	Lists [][]uint64
	Words []uint64
}

// LevelLog appends levels to a checkpoint file.
type LevelLog struct {
	f        *os.File
	w        *bufio.Writer
	path     string
	lastSync time.Time
	// SyncEvery bounds how long a written level may stay in the OS cache only; a level is
	// always written (so a killed process loses nothing), fsync waits for this interval.
	SyncEvery time.Duration
}

// CreateLevelLog starts a new log at path (replacing any), tagged with key, a description
// of the build, so that a resume with other parameters is refused.
func CreateLevelLog(path, key string, slots uint64, width int) (*LevelLog, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("builder: checkpoint: %w", err)
	}
	hdr := append([]byte(levelLogMagic), binary.LittleEndian.AppendUint32(nil, uint32(len(key)))...)
	hdr = append(hdr, key...)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(width))
	hdr = binary.LittleEndian.AppendUint64(hdr, slots)
	hdr = binary.LittleEndian.AppendUint32(hdr, crc32.Checksum(hdr, castagnoli))
	l := &LevelLog{f: f, w: bufio.NewWriterSize(f, 1<<20), path: path, lastSync: time.Now(), SyncEvery: 10 * time.Second}
	if _, err := l.w.Write(hdr); err != nil {
		l.Close()
		return nil, fmt.Errorf("builder: checkpoint: %w", err)
	}
	return l, nil
}

// Append writes one level: as a list of slots, or as a bitset when that is smaller.
func (l *LevelLog) Append(lv Level) error {
	kind, payload := recordList, lv.Count*8
	if lv.Words != nil {
		kind, payload = recordBitset, uint64(len(lv.Words))*8
	}
	var head []byte
	head = binary.LittleEndian.AppendUint32(head, uint32(lv.D))
	head = append(head, byte(kind))
	head = binary.LittleEndian.AppendUint64(head, lv.Count)
	head = binary.LittleEndian.AppendUint64(head, payload)
	crc := crc32.Update(0, castagnoli, head)
	if _, err := l.w.Write(head); err != nil {
		return fmt.Errorf("builder: checkpoint: %w", err)
	}
	var buf [8]byte
	put := func(x uint64) error {
		binary.LittleEndian.PutUint64(buf[:], x)
		crc = crc32.Update(crc, castagnoli, buf[:])
		_, err := l.w.Write(buf[:])
		return err
	}
	if kind == recordBitset {
		for _, w := range lv.Words {
			if err := put(w); err != nil {
				return fmt.Errorf("builder: checkpoint: %w", err)
			}
		}
	} else {
		for _, list := range lv.Lists {
			for _, s := range list {
				if err := put(s); err != nil {
					return fmt.Errorf("builder: checkpoint: %w", err)
				}
			}
		}
	}
	if _, err := l.w.Write(binary.LittleEndian.AppendUint32(nil, crc)); err != nil {
		return fmt.Errorf("builder: checkpoint: %w", err)
	}
	// The level reaches the OS now, so a killed process loses nothing; the fsync (for a
	// machine that goes down) is rate-limited, since 3-peg Hanoi has a million levels.
	if err := l.w.Flush(); err != nil {
		return fmt.Errorf("builder: checkpoint: %w", err)
	}
	if time.Since(l.lastSync) >= l.SyncEvery {
		l.lastSync = time.Now()
		if err := l.f.Sync(); err != nil {
			return fmt.Errorf("builder: checkpoint: %w", err)
		}
	}
	return nil
}

// Close flushes, syncs and closes the log.
func (l *LevelLog) Close() error {
	err := l.w.Flush()
	if e := l.f.Sync(); err == nil {
		err = e
	}
	if e := l.f.Close(); err == nil {
		err = e
	}
	return err
}

// ResumeLevelLog replays the log at path into a checkpoint for the build tagged key over
// sp, cuts off a trailing partial or damaged record, and returns the log ready to append
// the next level. It fails with ErrCheckpoint when the file is not a log of this build:
// another key, a slot count or value width other than sp's (checked before anything is
// allocated), no whole level, or levels that are not a breadth-first search of sp (a
// sample of every level is checked against sp's moves, so a log whose key was forged
// is refused too).
func ResumeLevelLog(path, key string, sp Space) (*Checkpoint, *LevelLog, error) {
	width, err := StartWidth(sp)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("builder: checkpoint: %w", err)
	}
	cp, end, err := replay(f, path, key, sp.Slots(), width)
	if err == nil {
		err = checkLevels(sp, cp, path)
	}
	if err == nil {
		err = f.Truncate(end)
	}
	if err == nil {
		_, err = f.Seek(end, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	l := &LevelLog{f: f, w: bufio.NewWriterSize(f, 1<<20), path: path, lastSync: time.Now(), SyncEvery: 10 * time.Second}
	return cp, l, nil
}

// replay reads the header and the whole records, and returns the checkpoint and the
// offset just past the last whole record.
func replay(f *os.File, path, key string, wantSlots uint64, wantWidth int) (*Checkpoint, int64, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, 0, fmt.Errorf("builder: checkpoint: %w", err)
	}
	bad := func(what string, args ...any) error {
		return fmt.Errorf("builder: checkpoint %s: %s: %w", path, fmt.Sprintf(what, args...), ErrCheckpoint)
	}
	r := bufio.NewReaderSize(f, 1<<20)
	var fixed [12]byte
	if _, err := io.ReadFull(r, fixed[:]); err != nil || string(fixed[:8]) != levelLogMagic {
		return nil, 0, bad("not a tablesmith checkpoint")
	}
	klen := binary.LittleEndian.Uint32(fixed[8:])
	if int64(klen) > st.Size() {
		return nil, 0, bad("key length %d exceeds the file", klen)
	}
	rest := make([]byte, int(klen)+16)
	if _, err := io.ReadFull(r, rest); err != nil {
		return nil, 0, bad("truncated header")
	}
	hdr := append(fixed[:], rest[:klen+12]...)
	if crc32.Checksum(hdr, castagnoli) != binary.LittleEndian.Uint32(rest[klen+12:]) {
		return nil, 0, bad("header checksum mismatch")
	}
	if got := string(rest[:klen]); got != key {
		return nil, 0, bad("made by another build (%q; this build is %q)", got, key)
	}
	width := int(binary.LittleEndian.Uint32(rest[klen:]))
	slots := binary.LittleEndian.Uint64(rest[klen+4:])
	if slots != wantSlots || width != wantWidth {
		return nil, 0, bad("made for %d slots of %d-byte values, this build has %d slots of %d-byte values "+
			"(remove %s, or build without --resume)", slots, width, wantSlots, wantWidth, path)
	}
	values, err := NewValues(slots, width)
	if err != nil {
		return nil, 0, bad("%v", err)
	}
	words := (slots + 63) / 64
	cp := &Checkpoint{Values: values}
	end := int64(len(hdr) + 4)
	var head [21]byte
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			break // the end, or a record cut short
		}
		d := int(binary.LittleEndian.Uint32(head[0:]))
		kind, count := head[4], binary.LittleEndian.Uint64(head[5:])
		payload := binary.LittleEndian.Uint64(head[13:])
		okShape := d == len(cp.Counts) && payload <= uint64(st.Size()) &&
			((kind == recordList && payload == 8*count) || (kind == recordBitset && payload == 8*words))
		if !okShape {
			break
		}
		if uint64(d) > values.Max() {
			// The search widened its values at this level; so does the replay.
			if err := values.Widen(); err != nil {
				break
			}
		}
		crc := crc32.Update(0, castagnoli, head[:])
		var buf [8]byte
		var seen uint64
		valid := true
		// Apply as we read, and undo if the record proves damaged: a record can be too
		// large to hold a second time in memory.
		for i := uint64(0); i < payload/8; i++ {
			if _, err := io.ReadFull(r, buf[:]); err != nil {
				valid = false
				break
			}
			crc = crc32.Update(crc, castagnoli, buf[:])
			x := binary.LittleEndian.Uint64(buf[:])
			if kind == recordList {
				if x >= slots || values.Get(x) != values.Unset() {
					valid = false
					break
				}
				values.Set(x, uint64(d))
				seen++
				continue
			}
			for x != 0 {
				s := i*64 + uint64(bits.TrailingZeros64(x))
				x &= x - 1
				if s >= slots || values.Get(s) != values.Unset() {
					valid = false
					break
				}
				values.Set(s, uint64(d))
				seen++
			}
			if !valid {
				break
			}
		}
		var tail [4]byte
		if valid {
			_, err := io.ReadFull(r, tail[:])
			valid = err == nil && binary.LittleEndian.Uint32(tail[:]) == crc && seen == count
		}
		if !valid {
			for s := uint64(0); s < slots; s++ {
				if values.Get(s) == uint64(d) {
					values.Set(s, values.Unset())
				}
			}
			break
		}
		cp.Counts = append(cp.Counts, count)
		end += int64(len(head)) + int64(payload) + 4
	}
	if len(cp.Counts) == 0 {
		return nil, 0, bad("no completed level")
	}
	return cp, end, nil
}
