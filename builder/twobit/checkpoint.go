package twobit

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"unsafe"

	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/safefile"
)

// A checkpoint file holds a search's whole state at a level boundary, written under a
// temporary name and renamed into place (internal/safefile), so that a killed build
// leaves the previous checkpoint whole. All integers little-endian, every checksum
// CRC-32C:
//
//	magic     [8]  "TS2BITCK"
//	version   u32  1
//	levels    u32  number of levels expanded (len(Counts))
//	slots     u64
//	key       [32] SHA-256 of the build's key (game, parameters, index scheme)
//	counts    u64 × levels
//	CRC       u32  of everything before it
//	codes     (slots+31)/32 words, then recent (slots+63)/64 words, as bytes, in
//	          segments of 1 MiB (the last shorter), each followed by its CRC u32
//
// Version 2 is a lean search's (Options.Lean): the same, without the recent bits.
// Version 3 is a half-depth search's (Options.Half): no recent bits either, and codes
// 0 and 1 (⌊d/2⌋ mod 2), 2 (reached, not expanded) and 3.
//
// A file that is not whole, or whose bytes changed, fails a checksum and is refused with
// ErrCheckpoint, naming the part.

// ErrCheckpoint marks a checkpoint that is damaged or belongs to another build.
var ErrCheckpoint = errors.New("unusable two-bit checkpoint")

const (
	ckptMagic   = "TS2BITCK"
	ckptVersion = 1
	ckptLean    = 2 // a lean search's: no recent bits
	ckptHalf    = 3 // a half-depth search's: no recent bits, codes ⌊d/2⌋ mod 2
	ckptSegment = 1 << 20
	maxLevels   = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CheckpointBytes is the size of a checkpoint of n slots (about 3 bits a slot, 2 when
// lean).
func CheckpointBytes(n uint64, levels int, lean bool) uint64 {
	size := uint64(8 + 4 + 4 + 8 + 32 + 8*levels + 4)
	parts := []uint64{(n + 31) / 32 * 8, (n + 63) / 64 * 8} // codes, recent bits
	if lean {
		parts = parts[:1]
	}
	for _, b := range parts { // each part in segments, each with its CRC
		size += b + 4*((b+ckptSegment-1)/ckptSegment)
	}
	return size
}

func wordBytes(w []uint64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8)
}

// WriteCheckpoint writes cp to path atomically; key names the build.
func WriteCheckpoint(path, key string, cp *Checkpoint) (err error) {
	f, err := safefile.Create(path, 0o644)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, f.Abort())
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	hdr := []byte(ckptMagic)
	version := uint32(ckptVersion)
	switch {
	case cp.Half:
		version = ckptHalf
	case cp.Lean():
		version = ckptLean
	}
	hdr = binary.LittleEndian.AppendUint32(hdr, version)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(cp.Counts)))
	hdr = binary.LittleEndian.AppendUint64(hdr, cp.Codes.Len())
	sum := sha256.Sum256([]byte(key))
	hdr = append(hdr, sum[:]...)
	for _, c := range cp.Counts {
		hdr = binary.LittleEndian.AppendUint64(hdr, c)
	}
	hdr = binary.LittleEndian.AppendUint32(hdr, crc32.Checksum(hdr, castagnoli))
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	for _, part := range [][]byte{wordBytes(cp.Codes.Words), wordBytes(cp.Recent)} {
		for len(part) > 0 {
			seg := part[:min(len(part), ckptSegment)]
			part = part[len(seg):]
			if _, err := w.Write(seg); err != nil {
				return err
			}
			var crc [4]byte
			binary.LittleEndian.PutUint32(crc[:], crc32.Checksum(seg, castagnoli))
			if _, err := w.Write(crc[:]); err != nil {
				return err
			}
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Commit()
}

// ReadCheckpoint reads the checkpoint at path of a search of slots slots under key. A
// missing file is an error wrapping os.ErrNotExist; a damaged one, or one of another
// build, wraps ErrCheckpoint and names what is wrong.
func ReadCheckpoint(path, key string, slots uint64) (*Checkpoint, error) {
	return readCheckpointFile(path, key, slots, false)
}

// ReadCheckpointLean is ReadCheckpoint for a lean search (Options.Lean): a full
// checkpoint's recent bits are read and checked against their checksums but not kept, so
// the memory held never goes beyond the lean search's 2 bits a slot (the checkpoint is
// then checked as a lean one's).
func ReadCheckpointLean(path, key string, slots uint64) (*Checkpoint, error) {
	return readCheckpointFile(path, key, slots, true)
}

func readCheckpointFile(path, key string, slots uint64, dropRecent bool) (*Checkpoint, error) {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCheckpoint(f, path, key, slots, dropRecent)
}

// readCheckpoint reads a checkpoint from f, named path in errors; dropRecent: see
// ReadCheckpointLean.
func readCheckpoint(f io.Reader, path, key string, slots uint64, dropRecent bool) (*Checkpoint, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("checkpoint %s: %s: %w", path, fmt.Sprintf(format, args...), ErrCheckpoint)
	}
	r := bufio.NewReaderSize(f, 1<<20)
	fixed := make([]byte, 8+4+4+8+32)
	if _, err := io.ReadFull(r, fixed); err != nil {
		return nil, bad("header cut short (%v)", err)
	}
	if string(fixed[:8]) != ckptMagic {
		return nil, bad("not a two-bit checkpoint (a byte-engine level log? build with --engine bytes)")
	}
	version := binary.LittleEndian.Uint32(fixed[8:])
	if version < ckptVersion || version > ckptHalf {
		return nil, bad("version %d, this tablesmith reads %d to %d", version, ckptVersion, ckptHalf)
	}
	levels := binary.LittleEndian.Uint32(fixed[12:])
	n := binary.LittleEndian.Uint64(fixed[16:])
	if levels > maxLevels {
		return nil, bad("header says %d levels", levels)
	}
	rest := make([]byte, 8*int(levels)+4)
	if _, err := io.ReadFull(r, rest); err != nil {
		return nil, bad("header cut short (%v)", err)
	}
	hdr := append(fixed, rest[:len(rest)-4]...)
	if got, want := crc32.Checksum(hdr, castagnoli), binary.LittleEndian.Uint32(rest[len(rest)-4:]); got != want {
		return nil, bad("header checksum mismatch (stored %#08x, computed %#08x)", want, got)
	}
	if sum := sha256.Sum256([]byte(key)); string(fixed[24:56]) != string(sum[:]) {
		return nil, bad("written by another build (other game, parameters or index scheme)")
	}
	if n != slots {
		return nil, bad("%d slots, the space has %d", n, slots)
	}
	counts := make([]uint64, levels)
	for i := range counts {
		counts[i] = binary.LittleEndian.Uint64(rest[8*i:])
	}
	codes := NewCodes(n)
	cp := &Checkpoint{Codes: codes, Counts: counts, Half: version == ckptHalf}
	var dropped uint64 // the bytes of recent bits read and not kept
	switch {
	case version == ckptVersion && dropRecent:
		dropped = (n + 63) / 64 * 8
	case version == ckptVersion:
		cp.recentBuf = bigmem.New((n + 63) / 64 * 8)
		cp.Recent = cp.recentBuf.Words()
	}
	var scratch []byte
	seg := 0
	for pi, part := range [][]byte{wordBytes(codes.Words), wordBytes(cp.Recent)} {
		if pi == 1 && dropped > 0 {
			scratch = make([]byte, min(dropped, ckptSegment))
		}
		for len(part) > 0 || pi == 1 && dropped > 0 {
			var b []byte
			if len(part) > 0 {
				b = part[:min(len(part), ckptSegment)]
				part = part[len(b):]
			} else {
				b = scratch[:min(dropped, ckptSegment)]
				dropped -= uint64(len(b))
			}
			var crc [4]byte
			_, err := io.ReadFull(r, b)
			if err == nil {
				_, err = io.ReadFull(r, crc[:])
			}
			if err != nil {
				codes.Release()
				cp.Release()
				return nil, bad("cut short in segment %d (%v)", seg, err)
			}
			if got, want := crc32.Checksum(b, castagnoli), binary.LittleEndian.Uint32(crc[:]); got != want {
				codes.Release()
				cp.Release()
				what := []string{"codes", "recent bits"}[pi]
				return nil, bad("segment %d (%s) checksum mismatch (stored %#08x, computed %#08x)", seg, what, want, got)
			}
			seg++
		}
	}
	if _, err := r.ReadByte(); err != io.EOF {
		codes.Release()
		cp.Release()
		return nil, bad("bytes after the last segment")
	}
	if err := cp.check(); err != nil {
		codes.Release()
		cp.Release()
		return nil, bad("%v", err)
	}
	return cp, nil
}

// check compares the codes with the counts: the slots of code r that are expanded
// (recent bit clear) are the states of the levels d ≡ r (mod 3) so far. A lean
// checkpoint has no recent bits: the next level's code may hold more slots, the others
// exactly those. A half-depth checkpoint's codes 0 and 1 are the levels so far with
// ⌊d/2⌋ mod 2 of that value, code 2 the next level.
func (cp *Checkpoint) check() error {
	var got [4]uint64
	if cp.Half {
		for _, w := range cp.Codes.Words {
			for c := range uint64(3) {
				got[c] += uint64(bits.OnesCount64(match(w, c)))
			}
		}
		var want [2]uint64
		for d, k := range cp.Counts {
			want[d/2%2] += k
		}
		for c := range 2 {
			if got[c] != want[c] {
				return fmt.Errorf("%d states hold code %d, the counts say %d", got[c], c, want[c])
			}
		}
		if got[halfOpen] == 0 {
			return errors.New("a half-depth checkpoint with no next level")
		}
		return nil
	}
	for wi, w := range cp.Codes.Words {
		done := uint64(evenBits)
		if !cp.Lean() {
			done = ^spread(cp.Recent[wi>>1]>>(wi&1*32)) & evenBits
		}
		for c := range uint64(3) {
			got[c] += uint64(bits.OnesCount64(match(w, c) & done))
		}
	}
	var want [3]uint64
	for d, k := range cp.Counts {
		want[d%3] += k
	}
	next := len(cp.Counts) % 3
	for c := range 3 {
		if got[c] != want[c] && !(cp.Lean() && c == next && got[c] > want[c]) {
			return fmt.Errorf("%d expanded states hold code %d, the counts say %d", got[c], c, want[c])
		}
	}
	if cp.Lean() && got[next] == want[next] {
		return errors.New("a lean checkpoint with no next level")
	}
	return nil
}
