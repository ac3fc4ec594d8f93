package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/safefile"
	"github.com/tablesmith/tablesmith/values"
)

// ConvertOptions tune ConvertTierSet. The zero value is usable.
type ConvertOptions struct {
	Workers int // blocks compressed at a time (0: GOMAXPROCS)
	// TierDone, if set, is called after each tier: skipped is true when it was already
	// converted in the destination.
	TierDone func(m TierMember, skipped bool)
	Build    format.Build // recorded in the destination's manifest
}

// ConvertTierSet derives the win/draw/loss-only set (format.ValuesWDL) of the full set of
// g in src into dst: every tier of src, its codes mapped to their outcome
// (values.OutcomeCode), block by block, without solving anything. The files are those a
// build with TierOptions.Values = format.ValuesWDL writes, byte for byte. Each source
// file is checked against src's manifest (SHA-256, and every block's checksum as it is
// read) first; tiers dst already holds converted are skipped, so an interrupted
// conversion resumes. dst must not be src, nor hold a full set.
func ConvertTierSet(ctx context.Context, g games.TieredGame, src, dst string, opt ConvertOptions) error {
	m, err := format.ReadManifest(src)
	if err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	if m.Kind != format.SetTiers || m.Game != g.Name() {
		return fmt.Errorf("convert: %s holds a %s set of %s, not the tiers of %s", src, m.Kind, m.Game, g.Name())
	}
	if m.ValueKind() != format.ValuesFull {
		return fmt.Errorf("convert: %s is a win/draw/loss-only set already (values %s)", src, m.ValueKind())
	}
	if m, err = readTierManifest(g, src); err != nil { // the rules, as a build would read them
		return fmt.Errorf("convert: %w", err)
	}
	if err := prepareSetDir(dst); err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	if a, errA := os.Stat(src); errA == nil {
		if b, errB := os.Stat(dst); errB == nil && os.SameFile(a, b) {
			return fmt.Errorf("convert: %s is the source set itself: write the win/draw/loss-only set to another directory", dst)
		}
	}
	// A destination holding a set of its own is no place for the conversion: say so in
	// convert's terms (a build's message would suggest converting the destination).
	if dm, err := format.ReadManifest(dst); err == nil && dm.Kind == format.SetTiers && dm.ValueKind() != format.ValuesWDL {
		return fmt.Errorf("convert: %s holds a full set (with remoteness) already: write the win/draw/loss-only set of %s to a directory of its own", dst, src)
	}
	have, err := readTierManifestFor(g, dst, format.ValuesWDL)
	if err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	for _, x := range m.Members {
		if err := ctx.Err(); err != nil {
			return err
		}
		t, err := g.ParseTier(x.Name)
		if err != nil {
			return fmt.Errorf("convert: %s: %w: %w", filepath.Join(src, format.ManifestName), err, format.ErrCorrupt)
		}
		if done, members := tierUnitComplete(g, dst, have, TierUnit{Name: x.Name, Tiers: []games.Tier{t}}); done {
			if opt.TierDone != nil {
				opt.TierDone(members[0], true)
			}
			continue
		}
		mem, err := convertTier(ctx, g, src, dst, x, t, opt)
		if err != nil {
			return err
		}
		if err := recordTiers(g, dst, format.ValuesWDL, []TierMember{mem}); err != nil {
			return err
		}
		if opt.TierDone != nil {
			opt.TierDone(mem, false)
		}
	}
	return nil
}

// convertTier writes the win/draw/loss-only file of the tier member x of the full set in src
// into dst.
func convertTier(ctx context.Context, g games.TieredGame, src, dst string, x format.Member, t games.Tier, opt ConvertOptions) (TierMember, error) {
	noun, start := g.TierNoun(), time.Now()
	in := filepath.Join(src, x.File)
	sum, err := format.FileSHA256(in)
	if err != nil {
		return TierMember{}, fmt.Errorf("convert: %s %s: %w", noun, x.Name, err)
	}
	if sum != x.SHA256 {
		return TierMember{}, fmt.Errorf("convert: %s %s: %s is not the file the manifest records (SHA-256 %s, want %s): %w",
			noun, x.Name, in, sum, x.SHA256, format.ErrCorrupt)
	}
	r, err := format.Open(in)
	if err != nil {
		return TierMember{}, fmt.Errorf("convert: %s %s: %w", noun, x.Name, err)
	}
	defer r.Close()
	meta := r.Meta()
	full := games.Layout(g).Encoding() // the full set's encoding
	if values.Encoding(meta.Encoding) != full || meta.Slots != g.TierSize(t) || meta.Game != g.Name() {
		return TierMember{}, fmt.Errorf("convert: %s holds %d slots of %s %s, want %d of %s %s: %w",
			in, meta.Slots, meta.Game, meta.Encoding, g.TierSize(t), g.Name(), full, format.ErrCorrupt)
	}
	out := filepath.Join(dst, tierFile(g, t))
	if err := safefile.CheckOutput(out); err != nil {
		return TierMember{}, fmt.Errorf("convert: %w", err)
	}
	meta.Encoding, meta.CodeBits, meta.CodeCounts = string(values.EncodingWDLOnly), values.WDLOnlyBits, nil
	var (
		mu      sync.Mutex
		readErr error
	)
	codes := func(d []uint32, start uint64) {
		if err := r.Codes(d, start); err != nil {
			mu.Lock()
			readErr = cmp.Or(readErr, err)
			mu.Unlock()
			clear(d)
			return
		}
		for i, c := range d {
			d[i] = values.OutcomeCode(c)
		}
	}
	written, err := format.WriteFile(ctx, out, meta, codes, tierWriteOptions(meta.Encoding, opt.Workers))
	if err == nil {
		err = readErr
		if err != nil {
			os.Remove(out)
		}
	}
	if err != nil {
		return TierMember{}, fmt.Errorf("convert: %s %s: %w", noun, x.Name, err)
	}
	st, err := os.Stat(out)
	if err != nil {
		return TierMember{}, err
	}
	outSum, err := format.FileSHA256(out)
	if err != nil {
		return TierMember{}, err
	}
	b := opt.Build
	b.Seconds = time.Since(start).Seconds()
	b.Workers = opt.Workers
	return TierMember{Member: format.Member{Name: x.Name, File: filepath.Base(out), Bytes: st.Size(), SHA256: outSum, Build: &b},
		Slots: written.Slots, Counts: values.WDLOnlySummary(written.CodeCounts)}, nil
}
