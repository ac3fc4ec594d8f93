package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"

	"github.com/tablesmith/tablesmith/internal/safefile"
)

// Reader reads one table file. It is safe for concurrent use.
type Reader struct {
	ra     io.ReaderAt
	closer io.Closer // the file Open opened, or nil
	name   string    // for error messages: "path: " or ""
	size   int64

	meta    Metadata
	hdr     header
	foot    footer
	slots   uint64
	spb     uint64
	bits    int
	mask    uint64
	nblocks int
	closed  atomic.Bool

	// The block index and the cache of decoded blocks, loaded at open or, for a reader
	// of OpenDeferred, by the first read of a block.
	blocks     atomic.Pointer[blockIndex]
	loadMu     sync.Mutex // serialises loading and SetCacheBytes
	cacheBytes int64      // the cache budget, under loadMu
}

// blockIndex is a table's block index with its decoded-block cache.
type blockIndex struct {
	handles []blockHandle
	cache   *blockCache
}

// decoder is shared by all Readers. DecodeAll is safe for concurrent use;
// with WithDecodeAllCapLimit a frame may not decode to more than the
// capacity of the destination (the block's packed size plus decodeSlack, or what
// a PackedBlockInto caller gives), and its decoded length must be the block's. The
// frames' own xxhash checksums are not verified: every frame is checked against its
// CRC-32C before it is decoded, so the second hash (3% of loading a pattern database)
// would guard only against a bug in the decoder.
var decoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(0),
		zstd.WithDecoderMaxMemory(MaxBlockBytes),
		zstd.WithDecodeAllCapLimit(true),
		zstd.IgnoreChecksum(true))
})

// Open opens the table file at path and checks its header, footer, metadata
// and block index (checksums, offsets, lengths, counts) without reading the
// blocks. Use Verify to check the blocks too. A path that is not a regular
// file (a FIFO, a device, a directory) is refused without waiting on it.
func Open(path string) (*Reader, error) {
	r, err := OpenDeferred(path)
	if err != nil {
		return nil, err
	}
	if _, err := r.index(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// OpenDeferred is Open checking only the header, footer, metadata and the file's layout
// at open; the block index (a few hundred kilobytes for a large table) is read and
// checked on the first read of a block, whose error then names the problem as Open's
// would. A program that opens hundreds of tables to read a few of them (a tiered set)
// opens in milliseconds.
func OpenDeferred(path string) (*Reader, error) {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return nil, fmt.Errorf("format: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("format: %w", err)
	}
	r, err := openReaderAt(f, fi.Size(), path+": ")
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closer = f
	return r, nil
}

// OpenReaderAt is Open for a table of size bytes read from ra.
func OpenReaderAt(ra io.ReaderAt, size int64) (*Reader, error) {
	r, err := openReaderAt(ra, size, "")
	if err != nil {
		return nil, err
	}
	if _, err := r.index(); err != nil {
		return nil, err
	}
	return r, nil
}

func openReaderAt(ra io.ReaderAt, size int64, name string) (*Reader, error) {
	r, err := open(ra, size)
	if err != nil {
		return nil, fmt.Errorf("format: %s%w", name, err)
	}
	r.name = name
	return r, nil
}

// index returns the block index, reading and checking it on first use.
func (r *Reader) index() (*blockIndex, error) {
	if bi := r.blocks.Load(); bi != nil {
		return bi, nil
	}
	if r.closed.Load() {
		return nil, fmt.Errorf("format: %sread after Close", r.name)
	}
	r.loadMu.Lock()
	defer r.loadMu.Unlock()
	if bi := r.blocks.Load(); bi != nil {
		return bi, nil
	}
	// A failure is not kept: a read error may pass, and a damaged index fails again.
	handles, err := r.readIndex()
	if err != nil {
		return nil, fmt.Errorf("format: %s%w", r.name, err)
	}
	stride := packedBytes(r.spb, r.bits) + blockPad
	bi := &blockIndex{handles: handles, cache: newBlockCache(len(handles), r.cacheBytes, stride)}
	r.blocks.Store(bi)
	return bi, nil
}

// readIndex reads the block index and checks it against its checksum and the layout.
func (r *Reader) readIndex() ([]blockHandle, error) {
	f := r.foot
	ib := make([]byte, f.blocks*indexEntrySize) // checkLayout bounded it by the file size
	if err := readFull(r.ra, ib, int64(f.indexOff)); err != nil {
		return nil, fmt.Errorf("reading block index: %w", err)
	}
	if got := checksum(ib); got != f.indexCRC {
		return nil, corruptf("block index checksum mismatch (stored 0x%08x, computed 0x%08x)", f.indexCRC, got)
	}
	return parseIndex(ib, r.hdr.size(), f.metaOff)
}

func open(ra io.ReaderAt, size int64) (*Reader, error) {
	if size <= 0 {
		if size == 0 {
			return nil, corruptf("empty file, not a table file")
		}
		return nil, fmt.Errorf("negative size %d", size)
	}
	first := make([]byte, min(size, maxHeaderSize))
	if err := readFull(ra, first, 0); err != nil {
		return nil, fmt.Errorf("reading header: %w", err)
	}
	h, err := parseHeader(first)
	if err != nil {
		return nil, err
	}
	if minSize := h.size() + footerSize; uint64(size) < minSize {
		return nil, corruptf("file truncated: %d bytes, a version %d table file has at least %d", size, h.version, minSize)
	}
	fb := make([]byte, footerSize)
	if err := readFull(ra, fb, size-footerSize); err != nil {
		return nil, fmt.Errorf("reading footer: %w", err)
	}
	f, err := parseFooter(fb)
	if err != nil {
		return nil, err
	}
	if err := checkLayout(&h, f, uint64(size)); err != nil {
		return nil, err
	}

	// checkLayout bounds metaLen and the index by the file size.
	mb := make([]byte, f.metaLen)
	if err := readFull(ra, mb, int64(f.metaOff)); err != nil {
		return nil, fmt.Errorf("reading metadata: %w", err)
	}
	if got := checksum(mb); got != f.metaCRC {
		return nil, corruptf("metadata checksum mismatch (stored 0x%08x, computed 0x%08x)", f.metaCRC, got)
	}
	meta, err := parseMeta(mb, &h)
	if err != nil {
		return nil, err
	}
	return &Reader{
		ra: ra, size: size, meta: meta, hdr: h, foot: f,
		slots: h.slots, spb: h.spb, bits: h.codeBits, mask: 1<<uint(h.codeBits) - 1,
		nblocks: int(f.blocks), cacheBytes: DefaultCacheBytes,
	}, nil
}

// readFull reads len(b) bytes at off. Running into the end of the data is
// corruption (the file is shorter than its own structure says).
func readFull(ra io.ReaderAt, b []byte, off int64) error {
	n, err := ra.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return corruptf("short read: %d of %d bytes at offset %d", n, len(b), off)
	}
	return err
}

// Meta returns a copy of the table's metadata.
func (r *Reader) Meta() Metadata { return r.meta.clone() }

// FileSize returns the size of the table file in bytes.
func (r *Reader) FileSize() int64 { return r.size }

// Version returns the format version the file was written with.
func (r *Reader) Version() int { return int(r.hdr.version) }

// FileID returns the file id from the header of a version 2 (or later)
// file: a hash of the metadata's game, params, index, encoding, slots and
// code bits, so equal for every build of the same table. It is zero for a
// version 1 file.
func (r *Reader) FileID() [16]byte { return r.hdr.id }

// Blocks returns the number of compressed blocks.
func (r *Reader) Blocks() int { return r.nblocks }

// SlotsPerBlock returns the number of slots per block (the last block may
// hold fewer).
func (r *Reader) SlotsPerBlock() int { return int(r.spb) }

// SetCacheBytes sets the budget of the decoded-block cache (default
// DefaultCacheBytes), evicting blocks as needed. n <= 0 disables caching.
func (r *Reader) SetCacheBytes(n int64) {
	r.loadMu.Lock()
	defer r.loadMu.Unlock()
	r.cacheBytes = n
	if bi := r.blocks.Load(); bi != nil {
		bi.cache.setLimit(n)
	}
}

// CacheBytes returns the decoded-block cache budget (SetCacheBytes).
func (r *Reader) CacheBytes() int64 {
	r.loadMu.Lock()
	defer r.loadMu.Unlock()
	return r.cacheBytes
}

// Close releases the file opened by Open and empties the cache. Further
// reads fail.
func (r *Reader) Close() error {
	if r.closed.Swap(true) {
		return nil
	}
	r.SetCacheBytes(0)
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// Code returns the code of one slot. It decompresses at most one block, and
// keeps decoded blocks in a bounded cache.
func (r *Reader) Code(slot uint64) (uint32, error) {
	if slot >= r.slots {
		return 0, fmt.Errorf("format: %sslot %d out of range [0, %d)", r.name, slot, r.slots)
	}
	bi, err := r.index()
	if err != nil {
		return 0, err
	}
	block := slot / r.spb
	data := bi.cache.get(int(block))
	if data == nil {
		if data, err = r.cachedBlock(bi, int(block)); err != nil {
			return 0, err
		}
	}
	bit := (slot - block*r.spb) * uint64(r.bits)
	w := binary.LittleEndian.Uint64(data[bit>>3:]) // blocks are padded
	runtime.KeepAlive(bi)                          // data may be the cache's whole-table array
	return uint32(w >> (bit & 7) & r.mask), nil
}

// CodesAt sets dst[i] to the code of slots[i] for every i (len(dst) ≥ len(slots)).
// The reads do not depend on each other: where the blocks are in the whole-table cache,
// every address is worked out first and the loads are then issued back to back, so that
// their cache misses overlap (a code of a table of gigabytes is a miss, hundreds of
// nanoseconds). Other slots are read as Code reads them.
func (r *Reader) CodesAt(dst []uint32, slots []uint64) error {
	if len(dst) < len(slots) {
		return fmt.Errorf("format: %s%d codes asked into %d", r.name, len(slots), len(dst))
	}
	bi, err := r.index()
	if err != nil {
		return err
	}
	const batch = 32
	var bitAt [batch]uint64 // a slot's first bit in the whole-table array
	for len(slots) > 0 {
		n := min(len(slots), batch)
		w := bi.cache.whole.Load()
		held := w != nil
		for i, slot := range slots[:n] {
			if slot >= r.slots {
				return fmt.Errorf("format: %sslot %d out of range [0, %d)", r.name, slot, r.slots)
			}
			block := slot / r.spb
			if held && w.ready[block>>6].Load()&(1<<(block&63)) == 0 {
				held = false
			}
			bitAt[i] = block*bi.cache.stride*8 + (slot-block*r.spb)*uint64(r.bits)
		}
		if held {
			data := w.data
			for i, bit := range bitAt[:n] {
				dst[i] = uint32(binary.LittleEndian.Uint64(data[bit>>3:]) >> (bit & 7) & r.mask)
			}
			runtime.KeepAlive(bi)
		} else {
			for i, slot := range slots[:n] {
				if dst[i], err = r.Code(slot); err != nil {
					return err
				}
			}
		}
		dst, slots = dst[n:], slots[n:]
	}
	return nil
}

// cachedBlock decodes a block into the cache and returns it.
func (r *Reader) cachedBlock(bi *blockIndex, block int) ([]byte, error) {
	data, err := r.readBlock(block, nil)
	if err != nil {
		return nil, err
	}
	return bi.cache.put(block, data), nil
}

// Codes fills dst with the codes of slots [start, start+len(dst)). Cached
// blocks are used; a block read whole is decoded without entering the cache,
// so a sequential scan does not evict the blocks of random lookups.
func (r *Reader) Codes(dst []uint32, start uint64) error {
	if start > r.slots || uint64(len(dst)) > r.slots-start {
		return fmt.Errorf("format: %sslots [%d, %d+%d) out of range [0, %d)", r.name, start, start, len(dst), r.slots)
	}
	bi, err := r.index()
	if err != nil {
		return err
	}
	var scratch []byte
	for len(dst) > 0 {
		block := start / r.spb
		first := start - block*r.spb
		n := min(uint64(len(dst)), r.blockSlots(int(block))-first)
		data := bi.cache.get(int(block))
		if data == nil {
			if first == 0 && n == r.blockSlots(int(block)) {
				data, err = r.readBlock(int(block), scratch)
				scratch = data
			} else {
				data, err = r.cachedBlock(bi, int(block))
			}
			if err != nil {
				return err
			}
		}
		unpack(dst[:n], data, first, r.bits)
		dst = dst[n:]
		start += n
	}
	runtime.KeepAlive(bi) // data may have been the cache's whole-table array
	return nil
}

// PackedBlock returns the codes of block b as the file packs them: slots
// [b·SlotsPerBlock(), …) at Meta().CodeBits bits each, LSB first, the unused
// high bits of the last byte zero — read, checked against the block's
// checksum, decompressed and its padding bits checked, into buf when it is
// large enough (the block cache is bypassed). A table loaded whole into memory in the file's own
// layout (a pattern database) copies these bytes instead of unpacking and
// repacking every code.
func (r *Reader) PackedBlock(b int, buf []byte) ([]byte, error) {
	if b < 0 || b >= r.nblocks {
		return nil, fmt.Errorf("format: %sblock %d out of range [0, %d)", r.name, b, r.nblocks)
	}
	data, err := r.readBlock(b, buf)
	if err != nil {
		return nil, err
	}
	if err := r.checkPadding(b, data); err != nil {
		return nil, err
	}
	return data[:packedBytes(r.blockSlots(b), r.bits)], nil
}

// PackedBlockBytes is the length of block b's packed codes (PackedBlock's result), 0 for
// a block out of range.
func (r *Reader) PackedBlockBytes(b int) int {
	if b < 0 || b >= r.nblocks {
		return 0
	}
	return int(packedBytes(r.blockSlots(b), r.bits))
}

// PackedBlockInto is PackedBlock decoding straight into dst, whose length must be
// PackedBlockBytes(b): a table loaded whole in the file's layout skips a copy. The
// decoder may overwrite dst's bytes past its length, up to its capacity; with 16 of
// them to spare it copies matches with wide moves, about twice as fast, so a caller
// filling consecutive blocks of one array gives each the room of the next and fills
// that one afterwards.
func (r *Reader) PackedBlockInto(b int, dst []byte) error {
	if b < 0 || b >= r.nblocks {
		return fmt.Errorf("format: %sblock %d out of range [0, %d)", r.name, b, r.nblocks)
	}
	if want := r.PackedBlockBytes(b); len(dst) != want {
		return fmt.Errorf("format: %sblock %d: destination of %d bytes, want %d", r.name, b, len(dst), want)
	}
	if err := r.decodeBlock(b, dst); err != nil {
		return err
	}
	return r.checkPadding(b, dst)
}

// blockSlots is the number of slots in a block.
func (r *Reader) blockSlots(block int) uint64 {
	return min(r.spb, r.slots-uint64(block)*r.spb)
}

var compressedBufs = sync.Pool{New: func() any { return new([]byte) }}

// readBlock reads, checks and decompresses one block into buf (reused if
// large enough) and returns the packed codes followed by blockPad zero bytes.
func (r *Reader) readBlock(block int, buf []byte) ([]byte, error) {
	size := int(packedBytes(r.blockSlots(block), r.bits))
	room := size + max(blockPad, decodeSlack)
	if cap(buf) < room {
		buf = make([]byte, room)
	}
	if err := r.decodeBlock(block, buf[:size:room]); err != nil {
		return nil, err
	}
	clear(buf[size:room])
	return buf[:size+blockPad], nil
}

// decodeBlock reads block, checks it against its checksum and decompresses it into
// dst, whose length must be the block's packed size. The decoder may overwrite the
// bytes of dst between its length and its capacity.
func (r *Reader) decodeBlock(block int, dst []byte) error {
	if r.closed.Load() {
		return fmt.Errorf("format: %sread after Close", r.name)
	}
	bi, err := r.index()
	if err != nil {
		return err
	}
	bh := bi.handles[block]
	cp := compressedBufs.Get().(*[]byte)
	defer compressedBufs.Put(cp)
	if cap(*cp) < int(bh.n) {
		*cp = make([]byte, bh.n)
	}
	comp := (*cp)[:bh.n]
	if err := readFull(r.ra, comp, int64(bh.off)); err != nil {
		return r.blockErr(block, fmt.Errorf("reading: %w", err))
	}
	if got := r.hdr.blockChecksum(uint64(block), comp); got != bh.crc {
		return r.blockErr(block, corruptf("checksum mismatch (stored 0x%08x, computed 0x%08x)", bh.crc, got))
	}
	dec, err := decoder()
	if err != nil {
		return fmt.Errorf("format: zstd decoder: %w", err)
	}
	size := len(dst)
	out, err := dec.DecodeAll(comp, dst[:0])
	if err != nil {
		return r.blockErr(block, corruptf("decompressing: %v", err))
	}
	if len(out) != size {
		return r.blockErr(block, corruptf("decoded %d bytes, want %d", len(out), size))
	}
	if size > 0 && &out[0] != &dst[0] { // cannot happen with the cap limit; be sure
		copy(dst, out)
	}
	return nil
}

func (r *Reader) blockErr(block int, err error) error {
	return fmt.Errorf("format: %sblock %d of %d: %w", r.name, block, r.nblocks, err)
}
