package format

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tablesmith/tablesmith/internal/safefile"
)

// A set is a directory of table files (its members) and manifest.json, which names the
// set's kind, its game and the member files with their size and SHA-256. The pipelines
// write the manifest last and atomically; the lookup reads it. It states nothing about a
// member that the member's own checksummed metadata holds (slots, code counts): those are
// read from the member, so an edited manifest cannot make `info` or `serve` report
// numbers that are not in the files.
//
//	{
//	  "format": "tablesmith-set", "version": 1,
//	  "kind": "tiers",                 // tiers (a two-player game) or pdb
//	  "game": "mill", "rules": "mill-v2-…",
//	  "values": "wdl",                 // tiers: what the members store (absent: full)
//	  "params": {…},                   // what every member shares (a PDB set's board)
//	  "members": [{"name": "3-3", "file": "sector-3-3.tsm", "bytes": 123,
//	               "sha256": "…",
//	               "params": {…},      // a PDB group's: its file's metadata params
//	               "build": {…}}, …],
//	  "build": {…}
//	}
const (
	ManifestName    = "manifest.json"
	ManifestFormat  = "tablesmith-set"
	ManifestVersion = 1
	// MaxManifestBytes caps what a reader loads: the largest real manifest (all of Mühle's
	// tiers) is well under a megabyte.
	MaxManifestBytes = 16 << 20
)

// Kinds of sets.
const (
	SetTiers = "tiers" // a two-player game, one member per tier
	SetPDB   = "pdb"   // an additive pattern-database set, one member per group
)

// ValueKind is what a tiered game's set stores (Manifest.Values): the value of every
// position with its remoteness (ValuesFull, the default, written as no field at all), or
// the value alone (ValuesWDL: a win/draw/loss-only set, whose members' encoding is
// values.EncodingWDLOnly). A type of its own: "wdl" is also the name of that encoding,
// and the two must not be taken for each other.
type ValueKind string

// The value kinds of a tiered game's set.
const (
	ValuesFull ValueKind = "full"
	ValuesWDL  ValueKind = "wdl"
)

// Manifest is the content of a set's manifest.json.
type Manifest struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Kind    string `json:"kind"`
	Game    string `json:"game"`
	Rules   string `json:"rules,omitempty"`
	// Values is what a tiered game's set stores: ValuesWDL, or empty for ValuesFull (see
	// ValueKind). A pattern-database set has none.
	Values  ValueKind       `json:"values,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Members []Member        `json:"members"`
	Build   *Build          `json:"build,omitempty"`

	legacy bool // read from an earlier format, whose PDB sets could lack SHA-256 sums
}

// Member is one table file of a set.
type Member struct {
	Name   string `json:"name"` // the tier's name, or a group's tiles ("1,2,3")
	File   string `json:"file"` // a plain name in the set's directory
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
	// Params are the parameters the member file's metadata states, exactly (a
	// pattern-database group's board, goal and tiles); the reader checks the file against
	// them. Tiers leave them out: the tier's name says which it is.
	Params json.RawMessage `json:"params,omitempty"`
	Build  *Build          `json:"build,omitempty"` // how this member was made (not in its reproducible file)
}

// NewManifest starts an empty manifest of a set.
func NewManifest(kind, game, rules string) *Manifest {
	return &Manifest{Format: ManifestFormat, Version: ManifestVersion, Kind: kind, Game: game, Rules: rules}
}

// ValueKind is what the set stores: ValuesFull or ValuesWDL.
func (m *Manifest) ValueKind() ValueKind {
	if m.Values == "" {
		return ValuesFull
	}
	return m.Values
}

// Member returns the member called name.
func (m *Manifest) Member(name string) (Member, bool) {
	for _, x := range m.Members {
		if x.Name == name {
			return x, true
		}
	}
	return Member{}, false
}

// Put adds or replaces the member of the same name.
func (m *Manifest) Put(x Member) {
	for i := range m.Members {
		if m.Members[i].Name == x.Name {
			m.Members[i] = x
			return
		}
	}
	m.Members = append(m.Members, x)
}

// ReadManifest reads and checks dir/manifest.json: its size, format, version, kind and
// member names (a plain file name in dir, listed once). A missing manifest is an error
// wrapping os.ErrNotExist that names it; a damaged one wraps ErrCorrupt; a newer version
// ErrVersion. Manifests of the two formats before this one are read too.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestName)
	b, err := readManifestBytes(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s is not a table set: %s is missing: %w", dir, path, os.ErrNotExist)
		}
		return nil, err
	}
	m, err := ParseManifest(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// ParseManifest decodes and checks a manifest's bytes (see ReadManifest).
func ParseManifest(b []byte) (*Manifest, error) {
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, corruptf("manifest: %v", err)
	}
	var m *Manifest
	switch head.Format {
	case ManifestFormat:
		if head.Version > ManifestVersion {
			return nil, fmt.Errorf("manifest version %d, this tablesmith reads up to %d: %w", head.Version, ManifestVersion, ErrVersion)
		}
		m = &Manifest{}
		if err := json.Unmarshal(b, m); err != nil {
			return nil, corruptf("manifest: %v", err)
		}
	case legacySectorFormat, legacyPDBFormat:
		if head.Version > 1 {
			return nil, fmt.Errorf("manifest version %d of %s, this tablesmith reads up to 1: %w", head.Version, head.Format, ErrVersion)
		}
		var err error
		if m, err = upgradeLegacy(head.Format, b); err != nil {
			return nil, err
		}
		m.legacy = true
	default:
		return nil, corruptf("manifest: format %q, want %q", head.Format, ManifestFormat)
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	// Parameters read back compact, as the files' metadata and the writers hold them
	// (WriteManifest indents them with the rest).
	m.Params = compactJSON(m.Params)
	for i := range m.Members {
		m.Members[i].Params = compactJSON(m.Members[i].Params)
	}
	return m, nil
}

// compactJSON returns raw without insignificant space (raw itself if it has none, or is
// not valid JSON, which json.Unmarshal has already refused).
func compactJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil || buf.Len() == len(raw) {
		return raw
	}
	return buf.Bytes()
}

// check validates what a manifest states on its own.
func (m *Manifest) check() error {
	switch {
	case m.Version < 1:
		return corruptf("manifest: version %d", m.Version)
	case m.Kind != SetTiers && m.Kind != SetPDB:
		return corruptf("manifest: kind %q, want %s or %s", m.Kind, SetTiers, SetPDB)
	case m.Game == "":
		return corruptf("manifest: no game")
	case len(m.Members) == 0:
		return corruptf("manifest: no member (a set is written once it has one)")
	case m.Values != "" && m.Values != ValuesFull && m.Values != ValuesWDL:
		return corruptf("manifest: values %q, want %s or %s", m.Values, ValuesFull, ValuesWDL)
	case m.Values != "" && m.Kind != SetTiers:
		return corruptf("manifest: values %q in a %s set (only a two-player game's set states them)", m.Values, m.Kind)
	}
	seen := map[string]bool{}
	for i, x := range m.Members {
		switch {
		case x.Name == "":
			return corruptf("manifest: member %d has no name", i+1)
		case seen[x.Name]:
			return corruptf("manifest: member %s listed twice", x.Name)
		case x.Bytes < 0:
			return corruptf("manifest: member %s: %d bytes", x.Name, x.Bytes)
		case x.SHA256 == "" && m.legacy:
		case len(x.SHA256) != 64 || strings.Trim(x.SHA256, "0123456789abcdef") != "":
			return corruptf("manifest: member %s: SHA-256 %q is not 64 hex digits", x.Name, x.SHA256)
		}
		if m.Kind == SetPDB && len(x.Params) == 0 {
			return corruptf("manifest: member %s: no params (a pattern-database group names its tiles)", x.Name)
		}
		if err := CheckMemberFile(x.File); err != nil {
			return corruptf("manifest: member %s: %v", x.Name, err)
		}
		seen[x.Name] = true
	}
	return nil
}

// CheckMemberFile refuses a member file name that is not a plain name in the set's own
// directory: a manifest must not point outside it.
func CheckMemberFile(name string) error {
	if name == "" || filepath.Base(name) != name || name == "." || name == ".." || filepath.IsAbs(name) ||
		strings.ContainsAny(name, `/\`) || name == ManifestName {
		return fmt.Errorf("file name %q must name a table file in the set's directory", name)
	}
	return nil
}

// WriteManifest writes m as dir/manifest.json, atomically: readers see the old manifest
// or the new one, never a part.
func WriteManifest(dir string, m *Manifest) error {
	// What is written is of this format: every member with its SHA-256, even where the
	// manifest was read from an earlier one that lacked some.
	current := *m
	current.legacy = false
	if err := current.check(); err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Join(dir, ManifestName), err)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, ManifestName)
	if err := safefile.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) && pe.Path == path {
			return err // "write DIR/manifest.json: no space left on device"
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// CheckManifestPath refuses, before any work, a manifest path that is a symbolic link, a
// device, a FIFO or a directory: the pipelines write the manifest last, and must not
// find out only then.
func CheckManifestPath(dir string) error {
	return safefile.CheckOutput(filepath.Join(dir, ManifestName))
}

// readManifestBytes reads a regular file of at most MaxManifestBytes.
func readManifestBytes(path string) ([]byte, error) {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxManifestBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(b) > MaxManifestBytes {
		return nil, fmt.Errorf("%s: over %d bytes, no manifest is this large: %w", path, MaxManifestBytes, ErrCorrupt)
	}
	return b, nil
}

// FileSHA256 is the hex SHA-256 of a regular file.
func FileSHA256(path string) (string, error) {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// The two manifest formats before ManifestFormat, read for sets built by earlier versions.
const (
	legacySectorFormat = "tablesmith-sector-set"
	legacyPDBFormat    = "tablesmith-pdb-set"
)

// upgradeLegacy reads a manifest of an earlier format as a Manifest. The counts those
// formats stated about members are dropped: they are read from the members.
func upgradeLegacy(format string, b []byte) (*Manifest, error) {
	if format == legacySectorFormat {
		var old struct {
			Version int    `json:"version"`
			Game    string `json:"game"`
			Rules   string `json:"rules"`
			Sectors []struct {
				Sector string `json:"sector"`
				File   string `json:"file"`
				Bytes  int64  `json:"bytes"`
				SHA256 string `json:"sha256"`
				Build  *Build `json:"build"`
			} `json:"sectors"`
		}
		if err := json.Unmarshal(b, &old); err != nil {
			return nil, corruptf("manifest: %v", err)
		}
		m := &Manifest{Format: ManifestFormat, Version: old.Version, Kind: SetTiers, Game: old.Game, Rules: old.Rules}
		for _, s := range old.Sectors {
			m.Members = append(m.Members, Member{Name: s.Sector, File: s.File, Bytes: s.Bytes, SHA256: s.SHA256, Build: s.Build})
		}
		return m, nil
	}
	var old struct {
		Version  int    `json:"version"`
		Game     string `json:"game"`
		Rows     int    `json:"rows"`
		Cols     int    `json:"cols"`
		Goal     string `json:"goal"`
		Encoding string `json:"encoding"`
		Groups   []struct {
			Tiles   []int   `json:"tiles"`
			File    string  `json:"file"`
			Bytes   int64   `json:"bytes"`
			SHA256  string  `json:"sha256"`
			Seconds float64 `json:"seconds"`
		} `json:"groups"`
		Build *Build `json:"build"`
	}
	if err := json.Unmarshal(b, &old); err != nil {
		return nil, corruptf("manifest: %v", err)
	}
	// The set's parameters and each group's in the order the pipeline writes them (the
	// group's as its file's metadata holds them).
	params, err := json.Marshal(struct {
		Rows     int    `json:"rows"`
		Cols     int    `json:"cols"`
		Goal     string `json:"goal"`
		Encoding string `json:"encoding"`
	}{old.Rows, old.Cols, old.Goal, old.Encoding})
	if err != nil {
		return nil, corruptf("manifest: %v", err)
	}
	m := &Manifest{Format: ManifestFormat, Version: old.Version, Kind: SetPDB, Game: old.Game, Params: params, Build: old.Build}
	for _, g := range old.Groups {
		names := make([]string, len(g.Tiles))
		for i, t := range g.Tiles {
			names[i] = fmt.Sprint(t)
		}
		gp, err := json.Marshal(struct {
			Rows  int    `json:"rows"`
			Cols  int    `json:"cols"`
			Goal  string `json:"goal"`
			Tiles []int  `json:"tiles"`
		}{old.Rows, old.Cols, old.Goal, g.Tiles})
		if err != nil {
			return nil, corruptf("manifest: %v", err)
		}
		m.Members = append(m.Members, Member{Name: strings.Join(names, ","), File: g.File, Bytes: g.Bytes, SHA256: g.SHA256,
			Params: gp, Build: &Build{Seconds: g.Seconds}})
	}
	return m, nil
}
