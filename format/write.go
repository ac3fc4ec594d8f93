package format

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/tablesmith/tablesmith/internal/safefile"
)

// CodeSource fills dst with the codes of slots [start, start+len(dst)). It is
// called from several goroutines at once, for disjoint ranges.
type CodeSource func(dst []uint32, start uint64)

// WriteOptions tune WriteFile. The zero value is a good default.
type WriteOptions struct {
	// SlotsPerBlock is the number of slots per compressed block, rounded up
	// to a multiple of 64. 0 chooses about 32 KiB of packed codes per block.
	SlotsPerBlock int
	// Level is the zstd level 1 (fastest) .. 4 (best); 0 is the default (2).
	Level int
	// Workers is the number of blocks compressed in parallel (0: GOMAXPROCS).
	Workers int
	// Progress, if set, is called from one goroutine after each block is
	// written.
	Progress func(doneSlots, totalSlots uint64)
	// Packed2, if set for a table of 2-bit codes, is the codes already packed as the
	// file stores them (slot i at bits 2(i mod 4) of byte i/4: a two-bit search's
	// arrays), at least (Slots+3)/4 bytes; the writer then takes each block's bytes
	// and counts its codes a word at a time instead of asking the CodeSource slot by
	// slot (the 2×7's 43.6·10^9 codes: minutes less). Bits past the last slot are
	// written as zeros either way.
	Packed2 []byte
	// Reproducible leaves Build.GoVersion and Build.Created as given (empty), so that
	// the same table gives the same bytes whenever and wherever it is built; sets keep
	// the volatile build information in their manifest instead.
	Reproducible bool
}

// WriteFile writes a complete table to path atomically: it writes a
// temporary file in the same directory, syncs it, renames it over path and
// syncs the directory. On any error, or when ctx is cancelled, the temporary
// file is removed and path is left untouched. If src panics, the temporary
// file is removed and the panic is re-raised in the caller's goroutine.
//
// WriteFile refuses, before computing any code, a path that exists and is
// not a regular file (a device, FIFO, symbolic link or directory): it never
// replaces such a node. It removes the temporary files that killed writers
// left in the directory (see package internal/safefile).
//
// WriteFile computes meta.CodeCounts itself (any given value is replaced),
// fills Build.GoVersion and Build.Created when they are empty (unless
// opt.Reproducible), and rejects a
// code that does not fit in meta.CodeBits. It returns the metadata written.
func WriteFile(ctx context.Context, path string, meta Metadata, src CodeSource, opt WriteOptions) (Metadata, error) {
	written, err := writeFile(ctx, path, meta, src, opt)
	var pe *fs.PathError
	switch {
	case errors.Is(err, safefile.ErrNotRegular), errors.As(err, &pe) && pe.Path == path: // the error names path
		return meta, fmt.Errorf("format: %w", err)
	case err != nil:
		return meta, fmt.Errorf("format: write %s: %w", path, err)
	}
	return written, nil
}

func writeFile(ctx context.Context, path string, meta Metadata, src CodeSource, opt WriteOptions) (_ Metadata, err error) {
	w, err := newTableWriter(ctx, &meta, src, opt)
	if err != nil {
		return meta, err
	}
	f, err := safefile.Create(path, 0o644)
	if err != nil {
		return meta, err
	}
	// On errors and on a re-raised panic; nothing to do after Commit.
	defer func() { err = errors.Join(err, f.Abort()) }()
	if err := w.write(f); err != nil {
		return meta, err
	}
	if err := ctx.Err(); err != nil {
		return meta, err
	}
	return meta, f.Commit()
}

// slotsPerBlock picks the block size for the given code width.
func slotsPerBlock(bits, want int) (uint64, error) {
	if bits < 1 || bits > 32 {
		return 0, fmt.Errorf("code bits %d outside 1..32", bits)
	}
	switch {
	case want < 0:
		return 0, fmt.Errorf("negative slots per block %d", want)
	case want == 0:
		return max(targetBlockBytes*8/uint64(bits)/64*64, 64), nil
	}
	return (uint64(want) + 63) / 64 * 64, nil
}

// tableWriter streams one table: header, blocks (compressed in parallel,
// written in order), metadata, index, footer.
type tableWriter struct {
	ctx   context.Context
	src   CodeSource
	meta  *Metadata
	h     header
	level zstd.EncoderLevel
	opt   WriteOptions

	out   *bufio.Writer
	off   uint64
	index []byte
}

// newTableWriter checks the table's shape and the options, and completes
// meta's build information.
func newTableWriter(ctx context.Context, meta *Metadata, src CodeSource, opt WriteOptions) (*tableWriter, error) {
	spb, err := slotsPerBlock(meta.CodeBits, opt.SlotsPerBlock)
	if err != nil {
		return nil, err
	}
	if err := checkGeometry(meta.CodeBits, spb, meta.Slots); err != nil {
		return nil, err
	}
	level := zstd.SpeedDefault
	if opt.Level != 0 {
		if opt.Level < 1 || opt.Level > 4 {
			return nil, fmt.Errorf("zstd level %d outside 1..4", opt.Level)
		}
		level = zstd.EncoderLevel(opt.Level)
	}
	params, err := storedParams(meta.Params)
	if err != nil {
		return nil, fmt.Errorf("encoding metadata: params: %w", err)
	}
	if meta.Build.GoVersion == "" && !opt.Reproducible {
		meta.Build.GoVersion = runtime.Version()
	}
	if meta.Build.Created.IsZero() && !opt.Reproducible {
		meta.Build.Created = time.Now().UTC().Truncate(time.Second)
	}
	if opt.Packed2 != nil && (meta.CodeBits != 2 || uint64(len(opt.Packed2)) < (meta.Slots+3)/4) {
		return nil, fmt.Errorf("packed codes: %d bytes of 2-bit codes for %d slots of %d bits", len(opt.Packed2), meta.Slots, meta.CodeBits)
	}
	h := header{
		version: Version, flags: flagZstd, codeBits: meta.CodeBits, spb: spb, slots: meta.Slots,
		id: fileID(meta, params),
	}
	return &tableWriter{ctx: ctx, src: src, meta: meta, h: h, level: level, opt: opt}, nil
}

func (w *tableWriter) emit(b []byte) error {
	_, err := w.out.Write(b)
	w.off += uint64(len(b))
	return err
}

// write writes the table to out. Every error of out is returned, the one
// of the final flush included.
func (w *tableWriter) write(out io.Writer) error {
	w.out = bufio.NewWriterSize(out, 1<<20)
	m := w.meta
	if err := w.emit(w.h.append(nil)); err != nil {
		return err
	}
	blocks := (m.Slots + w.h.spb - 1) / w.h.spb
	counts, err := w.writeBlocks(blocks)
	if err != nil {
		return err
	}
	m.CodeCounts = counts
	metaJSON, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encoding metadata: %w", err)
	}
	ft := footer{
		metaOff: w.off, metaLen: uint64(len(metaJSON)), metaCRC: checksum(metaJSON),
		blocks: blocks, slots: m.Slots, indexCRC: checksum(w.index), version: w.h.version,
	}
	ft.indexOff = ft.metaOff + ft.metaLen
	for _, b := range [][]byte{metaJSON, w.index, ft.append(nil)} {
		if err := w.emit(b); err != nil {
			return err
		}
	}
	return w.out.Flush()
}

// blockResult is a compressed block, or why there is none.
type blockResult struct {
	data  *[]byte
	err   error
	panic any
	stack []byte
	slots [2]uint64 // slot range, for panic reports
}

var compressedPool sync.Pool // of *[]byte

// writeBlocks compresses blocks on worker goroutines and writes them in
// order. At most about three blocks per worker are in memory at once.
func (w *tableWriter) writeBlocks(blocks uint64) ([]uint64, error) {
	workers := w.opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = int(max(min(uint64(workers), blocks), 1))
	ctx, cancel := context.WithCancel(w.ctx)
	defer cancel()

	type job struct {
		block uint64
		res   chan blockResult
	}
	jobs := make(chan job, workers)
	order := make(chan chan blockResult, 2*workers)
	var wg sync.WaitGroup
	wg.Go(func() { // producer: hands out blocks and records their order
		defer close(order)
		defer close(jobs)
		for i := range blocks {
			j := job{i, make(chan blockResult, 1)}
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
			select {
			case order <- j.res:
			case <-ctx.Done():
				return
			}
		}
	})
	counters := make([]counter, workers)
	encErr := make([]error, workers)
	for k := range workers {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(w.level))
		if err != nil {
			encErr[k] = err
		}
		wg.Go(func() {
			codes := make([]uint32, min(w.h.spb, sourceChunk))
			packed := make([]byte, 0, packedBytes(w.h.spb, w.meta.CodeBits))
			var pending chan blockResult
			defer func() { // src called runtime.Goexit (t.FailNow, say)
				if pending != nil {
					pending <- blockResult{err: errors.New("CodeSource called runtime.Goexit")}
				}
			}()
			for j := range jobs {
				if encErr[k] != nil {
					j.res <- blockResult{err: encErr[k]}
					continue
				}
				pending = j.res
				r := w.compress(ctx, enc, j.block, codes, packed, &counters[k])
				pending = nil
				j.res <- r
			}
		})
	}

	var err error
	var panicked *blockResult
	total := w.meta.Slots
	for ch := range order {
		r := <-ch
		if r.panic != nil {
			panicked = &r
			break
		}
		if err = r.err; err != nil {
			break
		}
		block := *r.data
		n := uint64(len(w.index) / indexEntrySize)
		w.index = blockHandle{off: w.off, n: uint32(len(block)), crc: w.h.blockChecksum(n, block)}.append(w.index)
		err = w.emit(block)
		compressedPool.Put(r.data)
		if err != nil {
			break
		}
		if w.opt.Progress != nil {
			w.opt.Progress(min(uint64(len(w.index)/indexEntrySize)*w.h.spb, total), total)
		}
	}
	cancel()
	wg.Wait()
	if panicked != nil {
		panic(fmt.Sprintf("format: CodeSource panicked for slots [%d, %d): %v\n\ngoroutine stack:\n%s",
			panicked.slots[0], panicked.slots[1], panicked.panic, panicked.stack))
	}
	if err == nil {
		err = w.ctx.Err() // a cancel may have stopped the producer early
	}
	if err != nil {
		return nil, err
	}
	c := &counters[0]
	for k := 1; k < workers; k++ {
		c.merge(&counters[k])
	}
	return c.result(), nil
}

// sourceChunk bounds the codes asked of src at once, so a worker's code
// buffer stays small even for huge blocks. It is a multiple of 64, so each
// chunk packs to whole bytes.
const sourceChunk = 1 << 16

// compress produces one block: fetch codes, check and count them, pack,
// compress.
func (w *tableWriter) compress(ctx context.Context, enc *zstd.Encoder, block uint64, codes []uint32, packed []byte, cnt *counter) blockResult {
	if err := ctx.Err(); err != nil {
		return blockResult{err: err}
	}
	bits := w.meta.CodeBits
	start := block * w.h.spb
	end := min(start+w.h.spb, w.meta.Slots)
	packed = packed[:0]
	if p := w.opt.Packed2; p != nil {
		packed = append(packed, p[start/4:(end+3)/4]...)
		if end%4 != 0 {
			packed[len(packed)-1] &= byte(1)<<(end%4*2) - 1 // zeros past the last slot, as pack writes
		}
		cnt.addPacked2(packed, end-start)
	}
	for s := start; s < end && w.opt.Packed2 == nil; s += uint64(len(codes)) {
		chunk := codes[:min(uint64(len(codes)), end-s)]
		if r := callSource(w.src, chunk, s); r.panic != nil {
			return r
		}
		if err := checkFit(chunk, s, bits); err != nil {
			return blockResult{err: err}
		}
		cnt.add(chunk)
		packed = pack(packed, chunk, bits)
	}
	out, _ := compressedPool.Get().(*[]byte)
	if out == nil {
		out = new([]byte)
	}
	*out = enc.EncodeAll(packed, (*out)[:0])
	return blockResult{data: out}
}

// checkFit reports the first code that does not fit in bits.
func checkFit(codes []uint32, start uint64, bits int) error {
	if bits == 32 {
		return nil
	}
	var or uint32
	for _, c := range codes {
		or |= c
	}
	if or>>uint(bits) == 0 {
		return nil
	}
	for i, c := range codes {
		if c>>uint(bits) != 0 {
			return fmt.Errorf("slot %d: code %d does not fit in %d bits", start+uint64(i), c, bits)
		}
	}
	return nil
}

// callSource runs src, turning a panic into a result for the writer
// goroutine to re-raise.
func callSource(src CodeSource, codes []uint32, start uint64) (r blockResult) {
	ok := false
	defer func() {
		if !ok {
			r.panic = recover() // nil for runtime.Goexit, which goes on unwinding
			r.stack = debug.Stack()
			r.slots = [2]uint64{start, start + uint64(len(codes))}
		}
	}()
	src(codes, start)
	ok = true
	return r
}
