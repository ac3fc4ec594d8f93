package cli

import (
	"flag"
	"fmt"
	"runtime"
	"strings"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/solver"
	"github.com/tablesmith/tablesmith/values"
)

const buildPDBArgs = "pdb --rows R --cols C [--goal blank-last|blank-first] (--groups 1,2,3/4,5 | --partition 7-8) [--group K | --assemble] [--workers N] -o DIR"

// pdbFamily returns the registered pattern-database family: `build pdb` and `plan pdb`
// name the capability, not a game, so there must be exactly one.
func pdbFamily() (games.PDBFamily, error) {
	var fams []games.PDBFamily
	for _, g := range registry.All() {
		if f, ok := g.(games.PDBFamily); ok {
			fams = append(fams, f)
		}
	}
	if len(fams) != 1 {
		return nil, fmt.Errorf("%d pattern-database families are registered; want one", len(fams))
	}
	return fams[0], nil
}

// pdbSpecFlags declares on fs the flags that describe a pattern-database set: the
// family's (board, goal, groups: see games.PDBFamily.BindSetFlags) and the files'
// encoding; the returned func checks them once fs is parsed.
func pdbSpecFlags(fs *flag.FlagSet) func() (pipeline.PDBBuildSpec, error) {
	fam, err := pdbFamily()
	if err != nil {
		return func() (pipeline.PDBBuildSpec, error) { return pipeline.PDBBuildSpec{}, err }
	}
	setOf := fam.BindSetFlags(fs)
	encoding := fs.String("encoding", "excess", "what the files store: excess (over the Manhattan distance, halved: fewer bits) or value")
	return func() (pipeline.PDBBuildSpec, error) {
		set, err := setOf()
		if err != nil {
			return pipeline.PDBBuildSpec{}, fmt.Errorf("%w: %v", errUsage, err)
		}
		spec := pipeline.PDBBuildSpec{Family: fam, PDBSetSpec: set}
		switch *encoding {
		case "excess":
			spec.Encoding = string(values.EncodingPDBExcess)
		case "value":
			spec.Encoding = string(values.EncodingPDBValue)
		default:
			return spec, fmt.Errorf("%w: --encoding must be excess or value", errUsage)
		}
		if err := spec.Normalize(); err != nil {
			return spec, fmt.Errorf("%w: %v", errUsage, err)
		}
		return spec, nil
	}
}

// runBuildPDB implements `tablesmith build pdb`: an additive pattern-database set for a
// sliding-tile puzzle, one table per group of tiles plus DIR/manifest.json — whole, or one
// group (--group K) or the manifest (--assemble) as a unit of a plan.
func runBuildPDB(e *env, args []string) (err error) {
	fs := newFlags(e, "build", buildPDBArgs)
	specOf := pdbSpecFlags(fs)
	group := fs.Int("group", 0, "build only `K`, the group's number from 1, and record it in DIR: one unit of a plan (tablesmith plan pdb)")
	assemble := fs.Bool("assemble", false, "write DIR/manifest.json from the groups built with --group")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers")
	out := fs.String("o", "", "output directory (required)")
	asJSON := fs.Bool("json", false, "print the manifest as JSON")
	profile := cpuProfileFlag(fs)
	if err := parseBuildFlags(fs, args, out, "DIR", workers); err != nil {
		return err
	}
	if flagSet(fs, "group") && (*group < 1 || *assemble) {
		return fmt.Errorf("%w: --group K takes K from 1 (without it, every group is built), and not with --assemble", errUsage)
	}
	spec, err := specOf()
	if err != nil {
		return err
	}
	if *group > len(spec.Groups) {
		return fmt.Errorf("%w: --group %d: the set has %d groups", errUsage, *group, len(spec.Groups))
	}

	stopProfile, err := profile()
	if err != nil {
		return err
	}
	defer stopProfile.into(&err)
	ctx, stop := signalContext()
	defer stop()
	bar := newStatus(e, 0)
	n := len(spec.Groups)
	groupLine := func(g int, info pipeline.PDBGroupInfo, note string) {
		if !*asJSON {
			printf(e, "group %d %s: %s entries, max %d, %.1fs, %s (%d-bit codes, %.3f bytes/entry)%s\n",
				g+1, tileList(info.Tiles), commas(info.Entries), info.MaxValue, info.Seconds(),
				humanBytes(info.Bytes), info.CodeBits, float64(info.Bytes)/float64(info.Entries), note)
		}
	}
	opt := pipeline.PDBOptions{
		Workers: *workers,
		Search: func(g int, p builder.Progress) {
			bar.search(fmt.Sprintf("group %d/%d: cost", g+1, n), p)
		},
		Write: func(g int, done, total uint64) {
			bar.show(fmt.Sprintf("group %d/%d: write %.1f%% of %s entries", g+1, n, 100*float64(done)/float64(total), commas(total)))
		},
		GroupDone: func(g int, info pipeline.PDBGroupInfo) { bar.clear(); groupLine(g, info, "") },
		Build:     pipeline.Stamp(*workers, e.args),
	}
	var m *format.Manifest
	switch {
	case *group > 0:
		info, built, err := pipeline.BuildPDBGroup(ctx, *out, spec, *group-1, opt)
		bar.clear()
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e, map[string]any{"dir": *out, "group": *group, "built": built, "info": info})
		}
		note := " (already complete)"
		if built {
			note = ""
		}
		groupLine(*group-1, info, note)
		return nil
	case *assemble:
		m, _, err = pipeline.AssemblePDBSet(*out, spec, opt)
	default:
		m, err = pipeline.BuildPDBSet(ctx, *out, spec, opt)
	}
	bar.clear()
	if err != nil {
		return err
	}
	return printPDBSet(e, *out, m, *asJSON)
}

// printPDBSet loads the set back as a solver would (which checks every file, and tells
// the memory) and prints a summary line or JSON object.
func printPDBSet(e *env, dir string, m *format.Manifest, asJSON bool) error {
	set, err := solver.OpenPDBSet(dir)
	if err != nil {
		return fmt.Errorf("reopening the new set: %w", err)
	}
	defer set.Close()
	entries := set.Entries()
	var bytes int64
	for _, x := range m.Members {
		bytes += x.Bytes
	}
	if asJSON {
		return writeJSON(e, map[string]any{
			"dir": dir, "manifest": m, "entries": entries, "file_bytes": bytes,
			"file_bytes_per_entry": float64(bytes) / float64(entries),
			"memory_bytes":         set.Bytes(), "memory_bytes_per_entry": set.BytesPerEntry(),
			"seconds": m.Build.Seconds,
		})
	}
	return printf(e, "%s: %d groups, %s entries, H at most %d, %.1fs; files %s (%.3f bytes/entry), in memory %s (%.3f bytes/entry)\n",
		dir, len(m.Members), commas(entries), set.MaxH(), m.Build.Seconds, humanBytes(bytes), float64(bytes)/float64(entries),
		humanBytes(int64(set.Bytes())), set.BytesPerEntry())
}

// tileList writes tiles compactly: runs of consecutive tiles as ranges, "[1-7]",
// "[1,4,5-8]".
func tileList(tiles []int) string {
	var parts []string
	for i := 0; i < len(tiles); {
		j := i
		for j+1 < len(tiles) && tiles[j+1] == tiles[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, fmt.Sprint(tiles[i]))
		default:
			parts = append(parts, fmt.Sprintf("%d-%d", tiles[i], tiles[j]))
		}
		i = j + 1
	}
	return "[" + strings.Join(parts, ",") + "]"
}
