package tables

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/values"
)

// Set is an open directory of tables with a manifest (format.Manifest) — a
// pattern-database set (one file per group of tiles) or a tiered two-player game's set
// (one file per tier) — that routes each state to the files that answer it. It is safe
// for concurrent use.
type Set struct {
	dir     string
	m       *format.Manifest
	pdb     *PDBManifest
	tiers   *tierSet
	members []*Table
}

// IsSet reports whether path is a directory holding a set's manifest.
func IsSet(path string) bool {
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
		return false
	}
	_, err = os.Stat(filepath.Join(path, ManifestName))
	return err == nil
}

// OpenSet opens the set in dir: it reads and checks the manifest, then opens every member
// file and checks it is the table the manifest names. A damaged file or manifest is an
// error wrapping format.ErrCorrupt; a missing one wraps os.ErrNotExist and names it.
func OpenSet(dir string) (*Set, error) {
	m, err := format.ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	s := &Set{dir: dir, m: m}
	switch m.Kind {
	case format.SetPDB:
		err = s.openPDBSet()
	case format.SetTiers:
		err = s.openTierSet(m)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// openPDBSet opens every group of a pattern-database set.
func (s *Set) openPDBSet() error {
	var err error
	if s.pdb, err = ReadPDBManifest(s.dir); err != nil {
		return err
	}
	for gi, g := range s.pdb.Groups {
		if gi >= len(s.m.Members) || s.m.Members[gi].File != g.File {
			return fmt.Errorf("tables: %s: group %d is not member %d: %w", s.manifestPath(), gi+1, gi+1, format.ErrCorrupt)
		}
		t, err := s.openMember(s.m.Members[gi])
		if err == nil {
			if err = checkMember(s.pdb, g, t.Meta()); err != nil {
				t.Close()
			}
		}
		if err != nil {
			return fmt.Errorf("tables: pattern database group %d %v: %w", gi+1, g.Tiles, err)
		}
		s.members = append(s.members, t)
	}
	return nil
}

// manifestPath is the set's manifest file, for messages.
func (s *Set) manifestPath() string { return filepath.Join(s.dir, ManifestName) }

// openMember opens a member file, checking its size against the manifest (a negative
// size: not recorded).
func (s *Set) openMember(x format.Member) (*Table, error) {
	if err := format.CheckMemberFile(x.File); err != nil {
		return nil, fmt.Errorf("%v: %w", err, format.ErrCorrupt)
	}
	t, err := Open(filepath.Join(s.dir, x.File))
	if err != nil {
		return nil, err
	}
	if x.Bytes >= 0 && t.r.FileSize() != x.Bytes {
		t.Close()
		return nil, fmt.Errorf("tables: %s has %d bytes, the manifest says %d: %w", t.File(), t.r.FileSize(), x.Bytes, format.ErrCorrupt)
	}
	return t, nil
}

// CheckMembers checks every member file's size and SHA-256 against the manifest (the
// members' own checksums are Verify's).
func (s *Set) CheckMembers() error {
	for i, t := range s.members {
		if err := s.checkMemberSum(s.m.Members[i].Name, t); err != nil {
			return err
		}
	}
	return nil
}

// checkMemberSum checks a member's SHA-256 against the manifest.
func (s *Set) checkMemberSum(name string, t *Table) error {
	x, ok := s.m.Member(name)
	if !ok || x.SHA256 == "" {
		return nil // a set from before sums were recorded
	}
	sum, err := format.FileSHA256(t.File())
	if err != nil {
		return err
	}
	if sum != x.SHA256 {
		return fmt.Errorf("%s: SHA-256 %s, the manifest says %s: %w", t.File(), sum, x.SHA256, format.ErrCorrupt)
	}
	return nil
}

// Dir is the set's directory.
func (s *Set) Dir() string { return s.dir }

// Kind is the set's kind: format.SetPDB or format.SetTiers.
func (s *Set) Kind() string { return s.m.Kind }

// Manifest returns the set's manifest.
func (s *Set) Manifest() *format.Manifest { return s.m }

// Tables returns the member tables in the manifest's order.
func (s *Set) Tables() []*Table { return append([]*Table(nil), s.members...) }

// PDBManifest returns the manifest of a pattern-database set (nil for other sets).
func (s *Set) PDBManifest() *PDBManifest { return s.pdb }

// Close closes every member.
func (s *Set) Close() error {
	var first error
	for _, t := range s.members {
		if err := t.Close(); err != nil && first == nil {
			first = err
		}
	}
	s.members = nil
	return first
}

// Lookup answers one state. For a pattern-database set the answer is the additive
// heuristic: the sum of every group's lower bound (Outcome Bound); for a sector set, the
// value from the position's sector.
func (s *Set) Lookup(state string) (Answer, error) {
	if s.tiers != nil {
		a, _, err := s.lookupTier(state)
		return a, err
	}
	sum := Answer{Outcome: values.Bound}
	for i, t := range s.members {
		a, err := t.Lookup(state)
		if err != nil {
			return Answer{}, err
		}
		if i == 0 {
			sum.State = a.State
		}
		sum.Remoteness += a.Remoteness
	}
	return sum, nil
}

// Verify verifies every member (see Table.Verify), naming the first that fails; for a
// sector set, also every member's SHA-256 against the manifest and the forward
// consistency of every value across sectors.
func (s *Set) Verify(ctx context.Context, opt VerifyOptions) error {
	if s.tiers != nil {
		return s.verifyTiers(ctx, opt)
	}
	for i, t := range s.members {
		if err := t.Verify(ctx, opt); err != nil {
			return fmt.Errorf("%s: %w", t.File(), err)
		}
		if err := s.checkMemberSum(s.m.Members[i].Name, t); err != nil {
			return err
		}
	}
	return nil
}

// SetInfo summarises a set: its manifest and every member's Info.
type SetInfo struct {
	Dir      string          `json:"dir"`
	Kind     string          `json:"kind"`
	Manifest json.RawMessage `json:"manifest"`
	Members  []Info          `json:"members"`
	Bytes    int64           `json:"bytes"`
	Slots    uint64          `json:"slots"`
	// Tiered games' sets: one summary per tier, read from its file, and their totals.
	TierNoun string        `json:"tier_noun,omitempty"`
	Tiers    []TierSummary `json:"tiers,omitempty"`
	Totals   *TierSummary  `json:"totals,omitempty"`
}

// Info summarises the set.
func (s *Set) Info() SetInfo {
	info := SetInfo{Dir: s.dir, Kind: s.m.Kind}
	info.Manifest, _ = json.Marshal(s.m)
	for _, t := range s.members {
		mi := t.Info()
		info.Members = append(info.Members, mi)
		info.Bytes += mi.Bytes
		info.Slots += mi.Slots
	}
	if s.tiers != nil {
		info.TierNoun = s.tiers.g.TierNoun()
		info.Tiers, info.Totals = s.tierSummaries()
	}
	return info
}

// marshalParams is a game's typed parameters as table metadata stores them.
func marshalParams(p any) ([]byte, error) { return json.Marshal(p) }

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
