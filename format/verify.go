package format

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/tablesmith/tablesmith/internal/parallel"
)

// Verify reads every block, checks its checksum, decoded length and padding,
// recounts the codes and compares the counts with Metadata.CodeCounts. Blocks
// are checked in parallel; the error names the first bad block ("block 17 of
// 23: checksum mismatch ...") and wraps ErrCorrupt. progress, if set, is
// called from the calling goroutine with the number of slots checked so far.
func (r *Reader) Verify(ctx context.Context, progress func(done, total uint64)) error {
	return r.VerifyEach(ctx, 0, progress, nil)
}

// VerifyEach is Verify on workers goroutines (0: GOMAXPROCS), handing the codes to each
// as they are checked: a run of them from slot first on, in no particular order, from
// several goroutines (codes is reused after each returns). A reader that needs every
// code checks them as it reads them, rather than decompressing the file twice. An error
// from each stops the check and is returned.
func (r *Reader) VerifyEach(ctx context.Context, workers int, progress func(done, total uint64), each func(first uint64, codes []uint32) error) error {
	if _, err := r.index(); err != nil {
		return err
	}
	n := r.nblocks
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(min(workers, n), 1)
	var (
		mu       sync.Mutex
		firstBad = n
		firstErr error
	)
	type worker struct {
		buf   []byte
		codes []uint32
		c     counter
	}
	ws := make([]*worker, workers)
	for k := range ws {
		ws[k] = &worker{}
	}
	done := make(chan uint64, 4*workers)
	var verr error
	go func() {
		defer close(done)
		// Blocks are handed out in order, one at a time, so when a worker fails every
		// lower block has been handed out and will be finished (the others stop at
		// their next block): the lowest failing block is the first bad block of the
		// file.
		verr = parallel.ForWorkers(ctx, ws, uint64(n), 1, func(wk *worker, lo, _ uint64) error {
			block := int(lo)
			if wk.codes == nil {
				wk.codes = make([]uint32, min(r.spb, 4096))
			}
			data, err := r.readBlock(block, wk.buf)
			if err == nil {
				wk.buf = data
				err = r.countBlock(block, data, wk.codes, &wk.c, each)
			}
			if err != nil {
				mu.Lock()
				if block < firstBad {
					firstBad, firstErr = block, err
				}
				mu.Unlock()
				return err
			}
			done <- r.blockSlots(block)
			return nil
		})
	}()
	var checked uint64
	for d := range done {
		checked += d
		if progress != nil {
			progress(checked, r.slots)
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if verr != nil {
		return fmt.Errorf("format: %sverify: %w", r.name, verr)
	}
	c := &ws[0].c
	for _, wk := range ws[1:] {
		c.merge(&wk.c)
	}
	return r.compareCounts(c)
}

// countBlock counts the codes of a decoded block, handing them to each if set, and
// checks that the bits after the last code are zero.
func (r *Reader) countBlock(block int, data []byte, codes []uint32, c *counter, each func(uint64, []uint32) error) error {
	slots := r.blockSlots(block)
	for first := uint64(0); first < slots; first += uint64(len(codes)) {
		chunk := codes[:min(uint64(len(codes)), slots-first)]
		unpack(chunk, data, first, r.bits)
		c.add(chunk)
		if each != nil {
			if err := each(uint64(block)*r.spb+first, chunk); err != nil {
				return err
			}
		}
	}
	return r.checkPadding(block, data)
}

// checkPadding checks that the bits of a decoded block after its last code are zero.
func (r *Reader) checkPadding(block int, data []byte) error {
	totalBits := r.blockSlots(block) * uint64(r.bits)
	if used := totalBits % 8; used != 0 {
		if last := data[totalBits/8]; last>>used != 0 {
			return r.blockErr(block, corruptf("nonzero padding bits after the last code (last byte 0x%02x)", last))
		}
	}
	return nil
}

// compareCounts checks recounted codes against Metadata.CodeCounts.
func (r *Reader) compareCounts(c *counter) error {
	want := r.meta.CodeCounts
	if want == nil && r.slots > 0 {
		if !c.over {
			return corruptf("format: %scode_counts missing although every code is below %d", r.name, MaxCodeCounts)
		}
		return nil
	}
	if c.over {
		return corruptf("format: %sa code >= %d was found, but the metadata has code counts", r.name, MaxCodeCounts)
	}
	got := c.result()
	for v := range max(len(got), len(want)) {
		var g, w uint64
		if v < len(got) {
			g = got[v]
		}
		if v < len(want) {
			w = want[v]
		}
		if g != w {
			return corruptf("format: %scode %d occurs %d times, metadata says %d", r.name, v, g, w)
		}
	}
	return nil
}
