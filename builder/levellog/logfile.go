package levellog

import (
	"errors"
	"io"
	"os"
	"syscall"
	"unsafe"
)

// logFile appends a level log's bytes to its file. Where the system allows, the whole
// 4 KiB blocks go through a second descriptor opened with O_DIRECT, from an aligned
// staging buffer, and only the last partial block of each write through the page
// cache. A log is written once and, after a build that completes, deleted unread: the
// copy into the page cache was most of its cost (a 3×4 build's 316 MB log took 0.2 to
// 1 s of system time that way on the build machine, where direct writes of the same
// bytes take 0.03 s), and it pushed the build's own data out of the cache.
//
// The file is always whole up to the last byte written: the partial block is written
// through the page cache, and rewritten as a whole block directly once it fills (the
// kernel writes back and drops the cached page first).
type logFile struct {
	f      *os.File // the log: the header, partial blocks, Sync, Close
	direct *os.File // the log opened with O_DIRECT, or nil: everything goes through f
	off    int64    // the file offset of stage[0], a multiple of directBlock
	stage  []byte   // the bytes from off on, directBlock-aligned; len = bytes held
}

const (
	// directBlock is the alignment of direct writes: offset, length and buffer.
	directBlock = 4096
	// directStage is the staging buffer's size: the largest single direct write.
	directStage = 4 << 20
)

// newLogFile prepares appending to f, whose first size bytes are the log so far and at
// whose end f's offset is. It falls back to writing f in sequence where O_DIRECT cannot
// be had (another system, a file system without it, a pipe).
func newLogFile(f *os.File, size int64) (*logFile, error) {
	lf := &logFile{f: f}
	direct, err := openDirect(f)
	if err != nil {
		return lf, nil
	}
	mem := make([]byte, directStage+directBlock)
	skip := int(-uintptr(unsafe.Pointer(unsafe.SliceData(mem))) & (directBlock - 1))
	lf.stage = mem[skip : skip : skip+directStage]
	// The partial block at the end is read back: the next whole block includes it.
	lf.off = size &^ (directBlock - 1)
	lf.stage = lf.stage[:size-lf.off]
	if _, err := f.ReadAt(lf.stage, lf.off); err != nil {
		direct.Close()
		return nil, err
	}
	lf.direct = direct
	return lf, nil
}

// write appends the parts in order, the whole of them on return.
func (lf *logFile) write(parts ...[]byte) error {
	for _, b := range parts {
		if err := lf.append(b); err != nil {
			return err
		}
	}
	if lf.direct == nil {
		return nil
	}
	if err := lf.flushBlocks(); err != nil || lf.direct == nil {
		return err
	}
	// The partial block: through the page cache, so the file is whole up to here.
	_, err := lf.f.WriteAt(lf.stage, lf.off)
	return err
}

// append writes b but for the stage's last partial block.
func (lf *logFile) append(b []byte) error {
	for lf.direct != nil && len(b) > 0 {
		n := copy(lf.stage[len(lf.stage):cap(lf.stage)], b)
		lf.stage = lf.stage[:len(lf.stage)+n]
		b = b[n:]
		if len(lf.stage) == cap(lf.stage) {
			if err := lf.flushBlocks(); err != nil {
				return err
			}
		}
	}
	if lf.direct == nil && len(b) > 0 {
		_, err := lf.f.Write(b)
		return err
	}
	return nil
}

// flushBlocks writes the whole blocks of the stage directly and keeps the rest.
func (lf *logFile) flushBlocks() error {
	whole := len(lf.stage) &^ (directBlock - 1)
	if whole == 0 {
		return nil
	}
	if _, err := lf.direct.WriteAt(lf.stage[:whole], lf.off); err != nil {
		if !errors.Is(err, syscall.EINVAL) {
			return err
		}
		// The file system takes no direct writes after all: the page cache from now
		// on, starting with what the stage holds.
		lf.direct.Close()
		lf.direct = nil
		stage := lf.stage
		lf.stage = nil
		if _, err := lf.f.Seek(lf.off, io.SeekStart); err != nil {
			return err
		}
		_, err = lf.f.Write(stage)
		return err
	}
	lf.off += int64(whole)
	rest := copy(lf.stage, lf.stage[whole:])
	lf.stage = lf.stage[:rest]
	return nil
}

// close closes the direct descriptor (f is the caller's).
func (lf *logFile) close() error {
	if lf.direct == nil {
		return nil
	}
	err := lf.direct.Close()
	lf.direct = nil
	return err
}
