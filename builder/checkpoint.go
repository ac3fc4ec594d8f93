package builder

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/bits-and-blooms/bitset"
	"golang.org/x/sync/errgroup"
)

// Checkpoint is the state of a search after a completed level: every slot's value so far
// (Unset where not yet reached) and the states per level. It is all a search needs to go
// on: the visited set is the set of set values, the frontier the slots at the last level.
type Checkpoint struct {
	Values *Values
	Counts []uint64
}

func (c *Checkpoint) validate(n uint64, width int) error {
	switch {
	case c.Values == nil || len(c.Counts) == 0:
		return errors.New("builder: empty checkpoint")
	case c.Values.Len() != n:
		return fmt.Errorf("builder: checkpoint has %d slots, the space %d", c.Values.Len(), n)
	case c.Values.Width() != width:
		return fmt.Errorf("builder: checkpoint stores %d-byte values, the space needs %d", c.Values.Width(), width)
	}
	return nil
}

// restore rebuilds the visited bitset and the frontier (the last level) from a checkpoint,
// and checks the level counts against the values.
func (r *bfsRun) restore(ctx context.Context, c *Checkpoint) (frontier, error) {
	r.visited = bitset.MustNew(uint(r.n)).Words()
	last := uint64(len(c.Counts) - 1)
	unset := r.values.Unset()
	front := make([]uint64, len(r.visited))
	perLevel := make([]atomic.Uint64, len(c.Counts))
	g, _ := errgroup.WithContext(ctx)
	const chunkWords = 1 << 12
	var nextChunk atomic.Uint64
	for range r.workers {
		g.Go(func() error {
			local := make([]uint64, len(c.Counts))
			defer func() {
				for d, k := range local {
					perLevel[d].Add(k)
				}
			}()
			for {
				lo := nextChunk.Add(chunkWords) - chunkWords
				if lo >= uint64(len(r.visited)) {
					return nil
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				for wi := lo; wi < min(lo+chunkWords, uint64(len(r.visited))); wi++ {
					var vis, fr uint64
					for b := uint64(0); b < 64 && wi*64+b < r.n; b++ {
						v := r.values.Get(wi*64 + b)
						if v == unset {
							continue
						}
						if v > last {
							return fmt.Errorf("builder: checkpoint slot %d has value %d beyond its last level %d", wi*64+b, v, last)
						}
						local[v]++
						vis |= 1 << b
						if v == last {
							fr |= 1 << b
						}
					}
					r.visited[wi], front[wi] = vis, fr
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return frontier{}, err
	}
	for d := range c.Counts {
		if got := perLevel[d].Load(); got != c.Counts[d] {
			return frontier{}, fmt.Errorf("builder: checkpoint level %d holds %d states, its header says %d", d, got, c.Counts[d])
		}
	}
	return frontier{words: front, count: c.Counts[last]}, nil
}

// checkpointMagic starts a checkpoint file; the version follows it.
const checkpointMagic = "TSMCKPT1"

// WriteCheckpoint saves c to path atomically (temp file, fsync, rename), tagged with key
// (a description of the build that made it, so that a resume with other flags is refused).
//
// Layout, little-endian: magic, u32 len(key), key, u32 width, u64 slots, u32 levels,
// levels×u64 counts, values (slots×width bytes), u32 CRC32C of everything before it.
func WriteCheckpoint(path, key string, c *Checkpoint) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("builder: checkpoint: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	crc := crc32.New(castagnoli)
	w := bufio.NewWriterSize(io.MultiWriter(f, crc), 1<<20)
	var hdr []byte
	hdr = append(hdr, checkpointMagic...)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(key)))
	hdr = append(hdr, key...)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(c.Values.Width()))
	hdr = binary.LittleEndian.AppendUint64(hdr, c.Values.Len())
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(c.Counts)))
	for _, k := range c.Counts {
		hdr = binary.LittleEndian.AppendUint64(hdr, k)
	}
	if _, err = w.Write(hdr); err != nil {
		return fmt.Errorf("builder: checkpoint: %w", err)
	}
	if _, err = w.Write(c.Values.Bytes()); err != nil {
		return fmt.Errorf("builder: checkpoint: %w", err)
	}
	if err = w.Flush(); err != nil {
		return fmt.Errorf("builder: checkpoint: %w", err)
	}
	if _, err = f.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32())); err != nil {
		return fmt.Errorf("builder: checkpoint: %w", err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("builder: checkpoint: %w", err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("builder: checkpoint: %w", err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("builder: checkpoint: %w", err)
	}
	return nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCheckpoint marks a checkpoint file that is damaged or belongs to another build.
var ErrCheckpoint = errors.New("unusable checkpoint")

// ReadCheckpoint loads a checkpoint written by WriteCheckpoint for the same key.
func ReadCheckpoint(path, key string) (*Checkpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("builder: checkpoint: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("builder: checkpoint: %w", err)
	}
	bad := func(what string, args ...any) error {
		return fmt.Errorf("builder: checkpoint %s: %s: %w", path, fmt.Sprintf(what, args...), ErrCheckpoint)
	}
	crc := crc32.New(castagnoli)
	br := bufio.NewReaderSize(f, 1<<20)
	// read consumes exactly len(b) bytes and adds them to the running checksum.
	read := func(b []byte) error {
		if _, err := io.ReadFull(br, b); err != nil {
			return err
		}
		crc.Write(b)
		return nil
	}
	var fixed [12]byte
	if err := read(fixed[:]); err != nil || string(fixed[:8]) != checkpointMagic {
		return nil, bad("not a checkpoint file")
	}
	klen := binary.LittleEndian.Uint32(fixed[8:])
	if int64(klen) > st.Size() {
		return nil, bad("key length %d exceeds the file", klen)
	}
	kb := make([]byte, klen)
	if err := read(kb); err != nil {
		return nil, bad("truncated key")
	}
	if string(kb) != key {
		return nil, bad("made by another build (%q, this build is %q)", kb, key)
	}
	var dims [16]byte
	if err := read(dims[:]); err != nil {
		return nil, bad("truncated header")
	}
	width := int(binary.LittleEndian.Uint32(dims[0:]))
	slots := binary.LittleEndian.Uint64(dims[4:])
	levels := binary.LittleEndian.Uint32(dims[12:])
	if width < 1 || width > 4 || levels == 0 || int64(levels) > st.Size()/8 ||
		slots > uint64(st.Size())/uint64(width) {
		return nil, bad("implausible header (width %d, slots %d, levels %d)", width, slots, levels)
	}
	counts := make([]uint64, levels)
	for i := range counts {
		var b [8]byte
		if err := read(b[:]); err != nil {
			return nil, bad("truncated counts")
		}
		counts[i] = binary.LittleEndian.Uint64(b[:])
	}
	v := &Values{data: make([]byte, slots*uint64(width)), width: width, n: slots}
	if err := read(v.data); err != nil {
		return nil, bad("truncated values")
	}
	sum := crc.Sum32()
	var tail [4]byte
	if _, err := io.ReadFull(br, tail[:]); err != nil {
		return nil, bad("truncated checksum")
	}
	if got := binary.LittleEndian.Uint32(tail[:]); got != sum {
		return nil, bad("checksum mismatch (stored %#x, computed %#x)", got, sum)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, bad("data after the checksum")
	}
	return &Checkpoint{Values: v, Counts: counts}, nil
}
