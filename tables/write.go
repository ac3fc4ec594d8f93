package tables

import (
	"context"
	"fmt"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/format"
)

// WritePuzzle writes the result of a breadth-first build as a remoteness table. meta names
// the game, its parameters and the index scheme; the encoding, slot count and code width
// are filled in here. It returns the metadata as written (with the per-code counts).
func WritePuzzle(ctx context.Context, path string, res *builder.Result, meta format.Metadata, opt format.WriteOptions) (format.Metadata, error) {
	enc, err := RemotenessBits(uint64(max(res.MaxRemoteness(), 0)))
	if err != nil {
		return meta, err
	}
	v := res.Values
	unset, hole := v.Unset(), v.Hole()
	meta.Encoding = EncodingRemoteness
	meta.Slots = v.Len()
	meta.CodeBits = enc.Bits
	src := func(dst []uint32, start uint64) {
		for i := range dst {
			switch x := v.Get(start + uint64(i)); x {
			case unset:
				dst[i] = enc.Unreachable()
			case hole:
				dst[i] = enc.Hole()
			default:
				dst[i] = uint32(x)
			}
		}
	}
	written, err := format.WriteFile(ctx, path, meta, src, opt)
	if err != nil {
		return written, fmt.Errorf("tables: writing %s: %w", path, err)
	}
	return written, nil
}
