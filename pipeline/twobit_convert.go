package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/internal/safefile"
	"github.com/tablesmith/tablesmith/values"
)

// ConvertPuzzleTable converts the puzzle table src into dst with the other encoding:
// a remoteness table (a byte or more a state) into a two-bit table
// (values.EncodingDepthMod3: each code taken modulo 3, block by block, in little memory),
// or a two-bit table back into a remoteness table. The way back needs the exact
// remoteness of every state, which the codes hold only through descents: it searches the
// space again with the byte engine (refused, before any work, where that does not fit
// the memory available) and checks every code of src against it. It returns the
// metadata written.
func ConvertPuzzleTable(ctx context.Context, src, dst string, workers int, build format.Build) (format.Metadata, error) {
	if err := safefile.CheckOutput(dst); err != nil {
		return format.Metadata{}, fmt.Errorf("convert: %w", err)
	}
	if a, errA := os.Stat(src); errA == nil {
		if b, errB := os.Stat(dst); errB == nil && os.SameFile(a, b) {
			return format.Metadata{}, fmt.Errorf("convert: %s is the source table itself: write to another file", dst)
		}
	}
	r, err := format.Open(src)
	if err != nil {
		return format.Metadata{}, fmt.Errorf("convert: %w", err)
	}
	defer r.Close()
	meta := r.Meta()
	in, err := registry.Open(meta.Game, meta.Params, meta.Index)
	if err != nil {
		return meta, fmt.Errorf("convert: %s: %w", src, err)
	}
	if _, ok := in.Game.(games.PuzzleGame); !ok {
		return meta, fmt.Errorf("convert: %s is a table of %s, not of a puzzle", src, meta.Game)
	}
	meta.Build = build
	wopt := format.WriteOptions{Workers: workers}
	switch values.Encoding(meta.Encoding) {
	case values.EncodingRemoteness:
		wopt.Level, wopt.SlotsPerBlock = 1, TwoBitSlotsPerBlock
		return toDepthMod3(ctx, r, meta, dst, wopt)
	case values.EncodingDepthMod3:
		return fromDepthMod3(ctx, in, r, meta, dst, workers, wopt)
	}
	return meta, fmt.Errorf("convert: %s holds %s values; only remoteness and depth-mod-3 tables convert", src, meta.Encoding)
}

func toDepthMod3(ctx context.Context, r *format.Reader, meta format.Metadata, dst string, wopt format.WriteOptions) (format.Metadata, error) {
	rem := values.RemotenessCodes{Bits: meta.CodeBits}
	counts, unreachable, holes := rem.Summary(meta.CodeCounts)
	if meta.CodeCounts == nil {
		return meta, fmt.Errorf("convert: the table has no per-code counts")
	}
	extra, err := json.Marshal(values.DepthMod3Extra{Counts: counts, Unreachable: unreachable, Holes: holes, Engine: "convert"})
	if err != nil {
		return meta, err
	}
	meta.Encoding, meta.CodeBits, meta.CodeCounts, meta.Extra = string(values.EncodingDepthMod3), values.DepthMod3Bits, nil, extra
	var mu sync.Mutex
	var readErr error
	unreach, hole := rem.Unreachable(), rem.Hole()
	codes := func(d []uint32, start uint64) {
		if err := r.Codes(d, start); err != nil {
			mu.Lock()
			readErr = cmp.Or(readErr, err)
			mu.Unlock()
			clear(d)
			return
		}
		for i, c := range d {
			if c == unreach || c == hole {
				d[i] = values.DepthMod3NotReached
			} else {
				d[i] = c % 3
			}
		}
	}
	written, err := format.WriteFile(ctx, dst, meta, codes, wopt)
	if err == nil && readErr != nil {
		os.Remove(dst)
		err = readErr
	}
	if err != nil {
		return written, fmt.Errorf("convert: %w", err)
	}
	return written, nil
}

func fromDepthMod3(ctx context.Context, in *games.Instance, r *format.Reader, meta format.Metadata, dst string, workers int, wopt format.WriteOptions) (format.Metadata, error) {
	sp, ok := in.Space.(bfs.Space)
	if !ok {
		return meta, fmt.Errorf("convert: %s is not a puzzle the byte engine builds", in.Game.Name())
	}
	if _, err := ChooseEngine(sp, EngineBytes, 0, workers, false, false, dst); err != nil {
		return meta, fmt.Errorf("convert: a remoteness table needs the byte engine's search: %w", err)
	}
	res, err := bfs.Search(ctx, sp, bfs.Options{Workers: workers})
	if err != nil {
		return meta, err
	}
	v := res.Values
	buf := make([]uint32, 1<<16)
	for start := uint64(0); start < meta.Slots; start += uint64(len(buf)) {
		k := min(uint64(len(buf)), meta.Slots-start)
		if err := r.Codes(buf[:k], start); err != nil {
			return meta, fmt.Errorf("convert: %w", err)
		}
		for i := range k {
			want := uint32(values.DepthMod3NotReached)
			if x := v.Get(start + i); x != v.Unset() && x != v.Hole() {
				want = uint32(x % 3)
			}
			if buf[i] != want {
				return meta, fmt.Errorf("convert: slot %d of the source holds code %d, the search gives %d: %w", start+i, buf[i], want, format.ErrCorrupt)
			}
		}
	}
	meta.Extra, meta.CodeCounts = nil, nil
	written, err := WriteRemoteness(ctx, dst, res, meta, wopt)
	if err != nil {
		return written, fmt.Errorf("convert: %w", err)
	}
	return written, nil
}
