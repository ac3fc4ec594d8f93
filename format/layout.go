package format

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
)

// Version is the table file format version this package writes. Versions form
// a linear enum: a reader accepts every version from 1 up to its own Version
// and rejects newer ones with an error wrapping ErrVersion.
//
//   - 1: the first format.
//   - 2: the header holds a file id derived from the table's identity, and
//     every block checksum covers the file id and the block number, so a
//     block moved within the file or copied from another table fails it.
const Version = 2

// ErrCorrupt is wrapped by every error that reports a damaged or non-table
// file: errors.Is(err, ErrCorrupt).
var ErrCorrupt = errors.New("corrupt table file")

// ErrVersion is wrapped by the error for a file written by a newer version of
// this package (a newer format version, or feature flags this reader lacks).
var ErrVersion = errors.New("unsupported table format version")

const (
	// MaxSlots is the largest slot count a table may have (keeps every bit
	// offset computation far from overflow).
	MaxSlots = 1 << 48

	// MaxCodeCounts bounds Metadata.CodeCounts: when some code is
	// >= MaxCodeCounts (only possible with CodeBits > 22), the writer records
	// no per-code counts and CodeCounts is nil. 2^22 keeps the counts of a
	// 21-bit remoteness table (3-peg Hanoi with 20 disks) at a few MB of JSON.
	MaxCodeCounts = 1 << 22

	// MaxBlockBytes is the largest uncompressed (bit-packed) block.
	MaxBlockBytes = 8 << 20
)

const (
	headerSizeV1   = 32
	headerSizeV2   = 52 // version 1's 32 bytes, the file id, its checksum
	maxHeaderSize  = headerSizeV2
	fileIDSize     = 16
	footerSize     = 64
	indexEntrySize = 16

	flagZstd   = 1 << 0 // blocks are zstd frames (required in versions 1 and 2)
	knownFlags = flagZstd

	targetBlockBytes = 32 << 10 // default uncompressed block size
	blockPad         = 8        // zero bytes after a decoded block, for 8-byte loads
	// decodeSlack is the room a block is decoded with beyond its size: with 16 bytes
	// to spare the zstd decoder copies matches with wide unchecked moves, without
	// them it takes its bounds-checked ("safe") loop, about twice as slow. A frame
	// that decodes into the slack is still refused (its length is checked).
	decodeSlack = 16
)

// magic opens and closes every table file. Like PNG's signature it catches
// the usual mangling: a high-bit byte (7-bit channels), CR LF (line-ending
// conversion) and ^Z (DOS end of text).
var magic = [8]byte{0x89, 'T', 'S', 'M', '\r', '\n', 0x1a, '\n'}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// corruptf returns an error wrapping ErrCorrupt with the given description.
func corruptf(format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, ErrCorrupt)...)
}

// packedBytes is the size of n bit-packed codes of the given width.
func packedBytes(n uint64, bits int) uint64 { return (n*uint64(bits) + 7) / 8 }

// header is the fixed start of the file: 32 bytes in version 1, 52 from
// version 2 on.
type header struct {
	version  uint16
	flags    uint16
	codeBits int
	spb      uint64 // slots per block
	slots    uint64
	id       [fileIDSize]byte // version >= 2
}

// size is the length of the header in the file.
func (h *header) size() uint64 {
	if h.version >= 2 {
		return headerSizeV2
	}
	return headerSizeV1
}

func (h *header) append(b []byte) []byte {
	start := len(b)
	b = append(b, magic[:]...)
	b = binary.LittleEndian.AppendUint16(b, h.version)
	b = binary.LittleEndian.AppendUint16(b, h.flags)
	b = append(b, byte(h.codeBits), 0, 0, 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(h.spb))
	b = binary.LittleEndian.AppendUint64(b, h.slots)
	b = binary.LittleEndian.AppendUint32(b, checksum(b[start:]))
	if h.version < 2 {
		return b
	}
	b = append(b, h.id[:]...)
	return binary.LittleEndian.AppendUint32(b, checksum(b[start:]))
}

// blockChecksum is the checksum stored in the index for block n with the
// given compressed bytes: from version 2 on, CRC-32C of file id, block
// number (u64) and the bytes; in version 1, of the bytes alone.
func (h *header) blockChecksum(n uint64, data []byte) uint32 {
	if h.version < 2 {
		return checksum(data)
	}
	var prefix [fileIDSize + 8]byte
	copy(prefix[:], h.id[:])
	binary.LittleEndian.PutUint64(prefix[fileIDSize:], n)
	return crc32.Update(checksum(prefix[:]), castagnoli, data)
}

// fileID derives the version 2 file id from the fields that say which table
// this is (not from its counts or build information, so the same table
// always gets the same id): the first 16 bytes of the SHA-256 of game,
// params, index and encoding, each as a u32 length and the bytes, then slots
// (u64) and code bits (u8). params are the bytes of the JSON value as stored
// in the metadata (see storedParams), empty when absent.
func fileID(m *Metadata, params []byte) [fileIDSize]byte {
	var b []byte
	for _, s := range [][]byte{[]byte(m.Game), params, []byte(m.Index), []byte(m.Encoding)} {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	b = binary.LittleEndian.AppendUint64(b, m.Slots)
	b = append(b, byte(m.CodeBits))
	sum := sha256.Sum256(b)
	return [fileIDSize]byte(sum[:fileIDSize])
}

// storedParams returns the bytes that encoding Metadata writes for params
// (compacted and escaped as json.Marshal does), which are the bytes a reader
// gets back; nil when params are omitted.
func storedParams(params json.RawMessage) ([]byte, error) {
	if len(params) == 0 {
		return nil, nil
	}
	return json.Marshal(params)
}

func parseHeader(b []byte) (header, error) {
	if len(b) < len(magic) || [8]byte(b[:8]) != magic {
		n := min(len(b), len(magic))
		return header{}, corruptf("not a tablesmith table file (starts with %q, want %q)", b[:n], magic[:])
	}
	if len(b) < headerSizeV1 {
		return header{}, corruptf("header truncated (%d of %d bytes)", len(b), headerSizeV1)
	}
	le := binary.LittleEndian
	if stored, got := le.Uint32(b[28:]), checksum(b[:28]); stored != got {
		return header{}, corruptf("header checksum mismatch (stored 0x%08x, computed 0x%08x)", stored, got)
	}
	h := header{
		version:  le.Uint16(b[8:]),
		flags:    le.Uint16(b[10:]),
		codeBits: int(b[12]),
		spb:      uint64(le.Uint32(b[16:])),
		slots:    le.Uint64(b[20:]),
	}
	switch {
	case h.version == 0:
		return h, corruptf("header: invalid format version 0")
	case h.version > Version:
		return h, fmt.Errorf("header: format version %d is newer than this reader (supports 1..%d): %w", h.version, Version, ErrVersion)
	case h.flags&^knownFlags != 0:
		return h, fmt.Errorf("header: unknown feature flags 0x%04x (this reader knows 0x%04x): %w", h.flags&^knownFlags, knownFlags, ErrVersion)
	case h.flags&flagZstd == 0:
		return h, corruptf("header: feature flags 0x%04x lack the required zstd bit", h.flags)
	case b[13]|b[14]|b[15] != 0:
		return h, corruptf("header: reserved bytes 13..15 are not zero")
	}
	if h.version >= 2 {
		if len(b) < headerSizeV2 {
			return h, corruptf("header truncated (%d of %d bytes)", len(b), headerSizeV2)
		}
		if stored, got := le.Uint32(b[48:]), checksum(b[:48]); stored != got {
			return h, corruptf("header: file id checksum mismatch (stored 0x%08x, computed 0x%08x)", stored, got)
		}
		h.id = [fileIDSize]byte(b[32:48])
	}
	if err := checkGeometry(h.codeBits, h.spb, h.slots); err != nil {
		return h, corruptf("header: %v", err)
	}
	return h, nil
}

// checkGeometry validates code width, block size and slot count.
func checkGeometry(bits int, spb, slots uint64) error {
	switch {
	case bits < 1 || bits > 32:
		return fmt.Errorf("code bits %d outside 1..32", bits)
	case spb == 0 || spb%64 != 0:
		return fmt.Errorf("slots per block %d is not a positive multiple of 64", spb)
	case packedBytes(spb, bits) > MaxBlockBytes:
		return fmt.Errorf("block of %d %d-bit codes exceeds %d bytes", spb, bits, MaxBlockBytes)
	case slots > MaxSlots:
		return fmt.Errorf("%d slots exceed the maximum %d", slots, uint64(MaxSlots))
	}
	return nil
}

// footer is the fixed 64-byte end of the file.
type footer struct {
	metaOff, metaLen uint64
	indexOff, blocks uint64
	slots            uint64
	metaCRC          uint32
	indexCRC         uint32
	version          uint16
}

func (f footer) append(b []byte) []byte {
	start := len(b)
	le := binary.LittleEndian
	b = le.AppendUint64(b, f.metaOff)
	b = le.AppendUint64(b, f.metaLen)
	b = le.AppendUint64(b, f.indexOff)
	b = le.AppendUint64(b, f.blocks)
	b = le.AppendUint64(b, f.slots)
	b = le.AppendUint32(b, f.metaCRC)
	b = le.AppendUint32(b, f.indexCRC)
	b = le.AppendUint16(b, f.version)
	b = le.AppendUint16(b, 0)
	b = le.AppendUint32(b, checksum(b[start:]))
	return append(b, magic[:]...)
}

func parseFooter(b []byte) (footer, error) {
	if [8]byte(b[56:64]) != magic {
		return footer{}, corruptf("footer: bad magic %q at the end of the file (truncated or not a table file)", b[56:64])
	}
	le := binary.LittleEndian
	if stored, got := le.Uint32(b[52:]), checksum(b[:52]); stored != got {
		return footer{}, corruptf("footer checksum mismatch (stored 0x%08x, computed 0x%08x)", stored, got)
	}
	f := footer{
		metaOff:  le.Uint64(b[0:]),
		metaLen:  le.Uint64(b[8:]),
		indexOff: le.Uint64(b[16:]),
		blocks:   le.Uint64(b[24:]),
		slots:    le.Uint64(b[32:]),
		metaCRC:  le.Uint32(b[40:]),
		indexCRC: le.Uint32(b[44:]),
		version:  le.Uint16(b[48:]),
	}
	if le.Uint16(b[50:]) != 0 {
		return f, corruptf("footer: reserved bytes 50..51 are not zero")
	}
	return f, nil
}

// checkLayout checks the footer against the header and the file size: the
// regions header | blocks | metadata | index | footer must tile the file.
// All comparisons are arranged so that no sum can overflow.
func checkLayout(h *header, f footer, size uint64) error {
	end := size - footerSize // start of the footer; size >= h.size()+footerSize
	switch {
	case f.version != h.version:
		return corruptf("footer: format version %d differs from the header's %d", f.version, h.version)
	case f.slots != h.slots:
		return corruptf("footer: %d slots, header says %d", f.slots, h.slots)
	case f.metaOff < h.size() || f.metaOff > end:
		return corruptf("footer: metadata offset %d outside [%d, %d]", f.metaOff, h.size(), end)
	case f.metaLen > end-f.metaOff:
		return corruptf("footer: metadata length %d at offset %d runs past the index (file size %d)", f.metaLen, f.metaOff, size)
	case f.indexOff != f.metaOff+f.metaLen:
		return corruptf("footer: index offset %d does not follow the metadata (%d+%d)", f.indexOff, f.metaOff, f.metaLen)
	case f.blocks > (end-f.indexOff)/indexEntrySize || f.indexOff+f.blocks*indexEntrySize != end:
		return corruptf("footer: block index of %d entries at offset %d does not end at the footer (offset %d)", f.blocks, f.indexOff, end)
	}
	if want := (h.slots + h.spb - 1) / h.spb; f.blocks != want {
		return corruptf("footer: %d blocks, but %d slots at %d per block need %d", f.blocks, h.slots, h.spb, want)
	}
	return nil
}

// blockHandle locates one compressed block.
type blockHandle struct {
	off uint64
	n   uint32 // compressed length
	crc uint32 // header.blockChecksum of the block
}

func (bh blockHandle) append(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, bh.off)
	b = binary.LittleEndian.AppendUint32(b, bh.n)
	return binary.LittleEndian.AppendUint32(b, bh.crc)
}

// parseIndex decodes the block index and checks that the blocks lie back to
// back from the end of the header (at start) to the start of the metadata.
func parseIndex(b []byte, start, metaOff uint64) ([]blockHandle, error) {
	n := len(b) / indexEntrySize
	idx := make([]blockHandle, n)
	next := start
	for i := range idx {
		e := b[i*indexEntrySize:]
		bh := blockHandle{
			off: binary.LittleEndian.Uint64(e),
			n:   binary.LittleEndian.Uint32(e[8:]),
			crc: binary.LittleEndian.Uint32(e[12:]),
		}
		switch {
		case bh.off != next:
			return nil, corruptf("block index: block %d of %d at offset %d, want %d", i, n, bh.off, next)
		case bh.n == 0 || uint64(bh.n) > metaOff-next:
			return nil, corruptf("block index: block %d of %d has length %d, %d bytes remain before the metadata", i, n, bh.n, metaOff-next)
		}
		idx[i] = bh
		next += uint64(bh.n)
	}
	if next != metaOff {
		return nil, corruptf("block index: blocks end at %d, metadata starts at %d", next, metaOff)
	}
	return idx, nil
}
