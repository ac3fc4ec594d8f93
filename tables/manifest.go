package tables

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/internal/safefile"
	"github.com/tablesmith/tablesmith/values"
)

// A set is a directory of table files plus manifest.json, which names the set's format and
// lists its member files. The builder writes the manifest last (and atomically), so a set
// whose manifest is present is complete.
const (
	ManifestName       = format.ManifestName
	PDBManifestFormat  = "tablesmith-pdb-set"
	PDBManifestVersion = 1
)

// PDBGroupInfo describes one group of a set in its manifest.
type PDBGroupInfo struct {
	Tiles    []int    `json:"tiles"`
	File     string   `json:"file"`
	Entries  uint64   `json:"entries"`
	MaxValue int      `json:"max_value"`
	Counts   []uint64 `json:"counts"` // Counts[v] = entries of value v
	CodeBits int      `json:"code_bits"`
	Bytes    int64    `json:"bytes"`
	SHA256   string   `json:"sha256,omitempty"` // of the file (sets built before it was recorded have none)
	Seconds  float64  `json:"seconds"`          // search and write
}

// PDBManifest is the content of a set's manifest.json.
type PDBManifest struct {
	Format   string         `json:"format"`
	Version  int            `json:"version"`
	Game     string         `json:"game"`
	Rows     int            `json:"rows"`
	Cols     int            `json:"cols"`
	Goal     string         `json:"goal"`
	Encoding string         `json:"encoding"`
	Groups   []PDBGroupInfo `json:"groups"`
	Build    format.Build   `json:"build"`
}

// readManifestFile reads dir/manifest.json, refusing a missing file with a message that
// names it.
func readManifestFile(dir string) ([]byte, string, error) {
	path := filepath.Join(dir, ManifestName)
	b, err := readRegular(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, path, fmt.Errorf("tables: %s is not a set: %s is missing: %w", dir, ManifestName, err)
		}
		return nil, path, fmt.Errorf("tables: %w", err)
	}
	return b, path, nil
}

// ReadPDBManifest reads and checks the manifest of the pattern-database set in dir.
func ReadPDBManifest(dir string) (*PDBManifest, error) {
	b, path, err := readManifestFile(dir)
	if err != nil {
		return nil, err
	}
	bad := func(what string, args ...any) error {
		return fmt.Errorf("tables: %s: %s: %w", path, fmt.Sprintf(what, args...), format.ErrCorrupt)
	}
	var m PDBManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, bad("%v", err)
	}
	switch {
	case m.Format != PDBManifestFormat:
		return nil, bad("format %q, want %q", m.Format, PDBManifestFormat)
	case m.Version > PDBManifestVersion:
		return nil, fmt.Errorf("tables: %s: manifest version %d, this tablesmith reads up to %d: %w", path, m.Version, PDBManifestVersion, format.ErrVersion)
	case m.Version < 1:
		return nil, bad("version %d", m.Version)
	case m.Game != (slide.PDBGame{}).Name():
		return nil, bad("game %q, want %q", m.Game, slide.PDBGame{}.Name())
	case !values.IsPDB(m.Encoding):
		return nil, bad("encoding %q", m.Encoding)
	}
	spec := slide.PDBSpec{Rows: m.Rows, Cols: m.Cols, Goal: m.Goal}
	for _, g := range m.Groups {
		p := slide.PDBParams{Tiles: g.Tiles}
		tiles, err := p.TilesUint8()
		if err != nil {
			return nil, bad("%v", err)
		}
		spec.Groups = append(spec.Groups, tiles)
	}
	if err := spec.Normalize(); err != nil {
		return nil, bad("%v", err)
	}
	for gi, g := range m.Groups {
		if err := checkMemberName(g.File); err != nil {
			return nil, bad("group %d: %v", gi+1, err)
		}
	}
	return &m, nil
}

// checkMemberName refuses a member file name that is not a plain name in the set's own
// directory: a manifest must not point outside it.
func checkMemberName(name string) error {
	if name == "" || filepath.Base(name) != name || name == "." || name == ".." || filepath.IsAbs(name) {
		return fmt.Errorf("file name %q must name a file in the set's directory", name)
	}
	return nil
}

// pdbParamsOf is a group's parameters as its file's metadata must state them.
func pdbParamsOf(m *PDBManifest, g PDBGroupInfo) slide.PDBParams {
	return slide.PDBParams{Rows: m.Rows, Cols: m.Cols, Goal: m.Goal, Tiles: g.Tiles}
}

// checkMember checks that a group's file is the table the manifest says it is.
func checkMember(m *PDBManifest, g PDBGroupInfo, meta format.Metadata) error {
	var p slide.PDBParams
	if err := json.Unmarshal(orEmpty(meta.Params), &p); err != nil {
		return fmt.Errorf("parameters %s: %w", meta.Params, format.ErrCorrupt)
	}
	want := pdbParamsOf(m, g)
	switch {
	case meta.Game != (slide.PDBGame{}).Name():
		return fmt.Errorf("a %s/%s table, want %s: %w", meta.Game, meta.Index, slide.PDBGame{}.Name(), format.ErrCorrupt)
	case meta.Encoding != m.Encoding:
		return fmt.Errorf("encoding %q, the manifest says %q: %w", meta.Encoding, m.Encoding, format.ErrCorrupt)
	case p.Rows != want.Rows || p.Cols != want.Cols || p.Goal != want.Goal || !slices.Equal(p.Tiles, want.Tiles):
		return fmt.Errorf("made for %d×%d %s tiles %v, the manifest says %d×%d %s tiles %v: %w",
			p.Rows, p.Cols, p.Goal, p.Tiles, want.Rows, want.Cols, want.Goal, want.Tiles, format.ErrCorrupt)
	case g.Entries != meta.Slots:
		return fmt.Errorf("%d entries, the manifest says %d: %w", meta.Slots, g.Entries, format.ErrCorrupt)
	}
	return nil
}

// readRegular reads a whole regular file; a FIFO, device or directory is refused before
// anything blocks on it.
func readRegular(path string) ([]byte, error) {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
