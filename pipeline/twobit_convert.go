package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/builder/twobit"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/internal/safefile"
	"github.com/tablesmith/tablesmith/values"
)

// ConvertPuzzleTable converts the puzzle table src into dst with the other encoding:
// a remoteness table (a byte or more a state) into a two-bit table of codes (CodesAuto
// or "": values.EncodingHalfDepth where twobit.CheckHalf allows the table's space, else
// EncodingDepthMod3; each remoteness turned into its code block by block, in little
// memory), or a two-bit table (of either encoding; codes must then be auto) back into a
// remoteness table. The way back needs the exact remoteness of every state, which the
// codes hold only through descents: it searches the space again with the byte engine
// (refused, before any work, where that does not fit the memory available) and checks
// every code of src against it. It returns the metadata written.
func ConvertPuzzleTable(ctx context.Context, src, dst, codes string, workers int, build format.Build) (format.Metadata, error) {
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
	enc := values.Encoding(meta.Encoding)
	switch {
	case codes != "" && codes != CodesAuto && codes != CodesDepthMod3 && codes != CodesHalfDepth:
		return meta, fmt.Errorf("convert: unknown codes %q (want auto, %s or %s)", codes, CodesDepthMod3, CodesHalfDepth)
	case enc == values.EncodingRemoteness:
		to, err := convertCodes(in, codes)
		if err != nil {
			return meta, err
		}
		wopt.Level, wopt.SlotsPerBlock = 1, TwoBitSlotsPerBlock
		return toTwoBit(ctx, r, meta, to, dst, wopt)
	case values.IsTwoBit(enc) && codes != "" && codes != CodesAuto:
		return meta, fmt.Errorf("convert: %s is a %s table, which converts only to a remoteness table: the codes (%s) are for converting a remoteness table", src, enc, codes)
	case values.IsTwoBit(enc):
		return fromTwoBit(ctx, in, r, meta, dst, workers, wopt)
	}
	return meta, fmt.Errorf("convert: %s holds %s values; only remoteness, depth-mod-3 and half-depth tables convert", src, meta.Encoding)
}

// convertCodes resolves the codes of a remoteness table of in converted to two bits:
// half-depth where the space allows it, unless depth-mod-3 is asked for.
func convertCodes(in *games.Instance, codes string) (values.Encoding, error) {
	if codes == CodesDepthMod3 {
		return values.EncodingDepthMod3, nil
	}
	halfErr := errors.New("a half-depth table needs a space the two-bit search can search")
	if sp, ok := in.Space.(twobit.Space); ok {
		halfErr = twobit.CheckHalf(sp)
	}
	switch {
	case halfErr == nil:
		return values.EncodingHalfDepth, nil
	case codes == CodesHalfDepth:
		return "", fmt.Errorf("convert: half-depth codes cannot hold this table (use --codes depth-mod-3): %w", halfErr)
	}
	return values.EncodingDepthMod3, nil
}

// toTwoBit writes the remoteness table of r as a two-bit table of encoding enc.
func toTwoBit(ctx context.Context, r *format.Reader, meta format.Metadata, enc values.Encoding, dst string, wopt format.WriteOptions) (format.Metadata, error) {
	rem := values.RemotenessCodes{Bits: meta.CodeBits}
	counts, unreachable, holes := rem.Summary(meta.CodeCounts)
	if meta.CodeCounts == nil {
		return meta, fmt.Errorf("convert: the table has no per-code counts")
	}
	extra, err := json.Marshal(values.DepthMod3Extra{Counts: counts, Unreachable: unreachable, Holes: holes, Engine: "convert"})
	if err != nil {
		return meta, err
	}
	meta.Encoding, meta.CodeBits, meta.CodeCounts, meta.Extra = string(enc), values.DepthMod3Bits, nil, extra
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
				d[i] = values.TwoBitCode(enc, uint64(c))
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

// fromTwoBit writes the two-bit table of r (either encoding) as a remoteness table,
// searching the space again and checking every code against the search.
func fromTwoBit(ctx context.Context, in *games.Instance, r *format.Reader, meta format.Metadata, dst string, workers int, wopt format.WriteOptions) (format.Metadata, error) {
	enc := values.Encoding(meta.Encoding)
	sp, ok := in.Space.(bfs.Space)
	if !ok {
		return meta, fmt.Errorf("convert: %s is not a puzzle the byte engine builds", in.Game.Name())
	}
	if _, err := ChooseEngine(sp, EngineBytes, CodesAuto, 0, workers, false, false, dst); err != nil {
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
				want = values.TwoBitCode(enc, uint64(x))
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
