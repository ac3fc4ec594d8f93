package cli

import (
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/pipeline"
)

const convertArgs = "[--values wdl] [--workers N] [--json] -o OUT DIR | [--codes auto|depth-mod-3|half-depth] -o OUT FILE"

// runConvert implements `tablesmith convert`: the win/draw/loss-only set derived from a
// finished full set of a two-player game, tier by tier, without solving anything; or a
// puzzle table FILE between the remoteness and the two-bit encodings.
func runConvert(e *env, args []string) error {
	fs := newFlags(e, "convert", convertArgs)
	valueKind := fs.String("values", string(format.ValuesWDL), "what the new set stores: wdl (win, draw or loss alone), the one a full set can be reduced to")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "blocks compressed in parallel")
	out := fs.String("o", "", "the new set's directory (required; not DIR)")
	asJSON := fs.Bool("json", false, "print one JSON object per tier")
	codes := fs.String("codes", pipeline.CodesAuto, "a remoteness puzzle table FILE converted to two bits stores: half-depth (⌊remoteness/2⌋ mod 2; spaces of two sides), "+
		"depth-mod-3 (remoteness mod 3), or auto (half-depth where the table's space allows it, else depth-mod-3)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 1:
		return fmt.Errorf("%w: want exactly one set DIR to convert", errUsage)
	case *out == "":
		return fmt.Errorf("%w: -o OUT is required", errUsage)
	}
	switch *codes {
	case pipeline.CodesAuto, pipeline.CodesDepthMod3, pipeline.CodesHalfDepth:
	default:
		return fmt.Errorf("%w: --codes must be auto, %s or %s, not %q", errUsage, pipeline.CodesDepthMod3, pipeline.CodesHalfDepth, *codes)
	}
	if st, err := os.Stat(pos[0]); err == nil && st.Mode().IsRegular() {
		return convertPuzzleTable(e, pos[0], *out, *codes, *workers, *asJSON)
	}
	switch {
	case *codes != pipeline.CodesAuto:
		return fmt.Errorf("%w: --codes is for a puzzle table FILE, not a set DIR", errUsage)
	case format.ValueKind(*valueKind) != format.ValuesWDL:
		return fmt.Errorf("%w: --values %q: a full set converts only to wdl (win, draw or loss alone)", errUsage, *valueKind)
	}
	if err := checkWorkerFlags(fs); err != nil {
		return err
	}
	m, err := format.ReadManifest(pos[0])
	if err != nil {
		return err
	}
	g0, err := registry.Lookup(m.Game)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	g, ok := g0.(games.TieredGame)
	if !ok || m.Kind != format.SetTiers {
		return fmt.Errorf("%s holds a %s set of %s, not a two-player game's tiers: only those convert", pos[0], m.Kind, m.Game)
	}
	g = games.ForRules(g, m.Rules) // the rule set the set was built under
	ctx, stop := signalContext()
	defer stop()
	noun := g.TierNoun()
	var werr error
	var tiers int
	start := time.Now()
	err = pipeline.ConvertTierSet(ctx, g, pos[0], *out, pipeline.ConvertOptions{
		Workers: *workers,
		Build:   pipeline.Stamp(*workers, e.args),
		TierDone: func(x pipeline.TierMember, skipped bool) {
			tiers++
			if werr != nil {
				return
			}
			c := x.Counts
			if *asJSON {
				werr = writeJSON(e, map[string]any{"skipped": skipped, noun: x.Name, "classes": x.Slots, "wins": c.Wins,
					"losses": c.Losses, "draws": c.Draws, "bytes": x.Bytes, "file": x.File, "sha256": x.SHA256})
				return
			}
			verb := "converted"
			if skipped {
				verb = "already converted"
			}
			werr = printf(e, "%s %s: %s classes, %s wins, %s losses, %s draws, %s (%s)\n", noun, x.Name, commas(x.Slots),
				commas(c.Wins), commas(c.Losses), commas(c.Draws), humanBytes(x.Bytes), verb)
		},
	})
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if !*asJSON {
		return printf(e, "%s: %d %ss, win/draw/loss only, in %.1fs\n", *out, tiers, noun, time.Since(start).Seconds())
	}
	return nil
}

// convertPuzzleTable converts a puzzle table FILE between the remoteness (byte) and the
// two-bit encodings (half-depth or depth-mod-3, as codes says), whichever it is not.
func convertPuzzleTable(e *env, src, dst, codes string, workers int, asJSON bool) error {
	ctx, stop := signalContext()
	defer stop()
	start := time.Now()
	meta, err := pipeline.ConvertPuzzleTable(ctx, src, dst, codes, workers, pipeline.Stamp(workers, e.args))
	if err != nil {
		return err
	}
	st, err := os.Stat(dst)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(e, map[string]any{"file": dst, "encoding": meta.Encoding, "code_bits": meta.CodeBits, "bytes": st.Size(),
			"seconds": time.Since(start).Seconds()})
	}
	return printf(e, "%s: %s table (%d-bit codes), %s, in %.1fs\n", dst, meta.Encoding, meta.CodeBits, humanBytes(st.Size()), time.Since(start).Seconds())
}
