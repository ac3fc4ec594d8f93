package tables

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/values"
)

// ManifestName is a set's manifest file in its directory.
const ManifestName = format.ManifestName

// Set is an open directory of tables with a manifest (format.Manifest) — a
// pattern-database set (one file per group of tiles) or a tiered two-player game's set
// (one file per tier) — that routes each state to the files that answer it. It is safe
// for concurrent use.
type Set struct {
	dir     string
	m       *format.Manifest
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
// file (a tiered game's set: on its first use, below) and checks it is the table the
// manifest names. A damaged file or manifest is an
// error wrapping format.ErrCorrupt; a missing one wraps os.ErrNotExist and names it. A
// tiered game's set checks here only that each member's file is there, a regular file of
// the manifest's size; a member is opened (its header, footer and metadata checked) on
// its first use, its block index read and checked, and the game's index for the tier
// built, on the first lookup in it (see openTierSet): damage there is an error of that
// lookup (and of Verify and OpenMembers), naming the tier and the file.
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

// openPDBSet opens every group of a pattern-database set and checks it is the table the
// manifest names, through the game alone: the file's game is the manifest's (a
// pattern-database family), its parameters are the member's, its encoding a
// pattern-database encoding, the same for every group (and the set's, where the set's
// parameters state one), and its size the member's. Counts (entries, values, code bits)
// are the files' own, in their checksummed metadata: the manifest states none.
func (s *Set) openPDBSet() error {
	g0, err := registry.Lookup(s.m.Game)
	if err != nil {
		return fmt.Errorf("tables: %s: %w: %w", s.manifestPath(), err, format.ErrCorrupt)
	}
	g, ok := g0.(games.PDBFamily)
	if !ok {
		return fmt.Errorf("tables: %s: %s is no pattern-database family: %w", s.manifestPath(), s.m.Game, format.ErrCorrupt)
	}
	var set struct {
		Encoding string `json:"encoding"`
	}
	if len(s.m.Params) > 0 {
		if err := json.Unmarshal(s.m.Params, &set); err != nil {
			return fmt.Errorf("tables: %s: set parameters %s: %v: %w", s.manifestPath(), s.m.Params, err, format.ErrCorrupt)
		}
	}
	encoding := set.Encoding
	var groups []any
	for _, x := range s.m.Members {
		t, err := s.openMember(x)
		if err == nil {
			if err = checkPDBMember(g, x, t.Meta(), &encoding); err != nil {
				t.Close()
			}
		}
		if err != nil {
			return fmt.Errorf("tables: pattern database group %s: %w", x.Name, err)
		}
		s.members = append(s.members, t)
		p := g.NewParams()
		if err := json.Unmarshal(x.Params, p); err != nil {
			return fmt.Errorf("tables: pattern database group %s: %v: %w", x.Name, err, format.ErrCorrupt)
		}
		groups = append(groups, p)
	}
	// The groups must form one set: overlapping groups would add up to more than the
	// moves a state needs (an inadmissible bound), though each file is whole.
	spec, err := g.SetOfGroups(groups)
	if err != nil {
		return fmt.Errorf("tables: %s: the groups do not form one set: %v: %w", s.manifestPath(), err, format.ErrCorrupt)
	}
	for i, x := range s.m.Members {
		if want := games.GroupName(spec.Groups[i].Tiles); x.Name != want {
			return fmt.Errorf("tables: %s: member %q holds the group %s: %w", s.manifestPath(), x.Name, want, format.ErrCorrupt)
		}
	}
	return nil
}

// checkPDBMember checks that a group's file is the table its member names (see
// openPDBSet); *encoding is the set's encoding so far ("" before the first group of a
// set whose parameters state none).
func checkPDBMember(g games.PDBFamily, x format.Member, meta format.Metadata, encoding *string) error {
	want, err := canonicalParams(g, x.Params)
	if err != nil {
		return fmt.Errorf("the manifest's parameters %s: %v: %w", x.Params, err, format.ErrCorrupt)
	}
	got, err := canonicalParams(g, meta.Params)
	if err != nil {
		return fmt.Errorf("parameters %s: %v: %w", meta.Params, err, format.ErrCorrupt)
	}
	switch {
	case meta.Game != g.Name():
		return fmt.Errorf("a %s/%s table, the manifest says %s: %w", meta.Game, meta.Index, g.Name(), format.ErrCorrupt)
	case !values.IsPDB(values.Encoding(meta.Encoding)):
		return fmt.Errorf("encoding %q is no pattern-database encoding: %w", meta.Encoding, format.ErrCorrupt)
	case *encoding != "" && meta.Encoding != *encoding:
		return fmt.Errorf("encoding %q, the set's is %q: %w", meta.Encoding, *encoding, format.ErrCorrupt)
	case string(got) != string(want):
		return fmt.Errorf("made for %s, the manifest says %s: %w", got, want, format.ErrCorrupt)
	}
	*encoding = meta.Encoding
	return nil
}

// canonicalParams decodes raw into the game's typed parameters and encodes them again,
// so that two spellings of the same parameters compare equal.
func canonicalParams(g games.Game, raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("none")
	}
	p := g.NewParams()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return nil, err
	}
	return json.Marshal(p)
}

// manifestPath is the set's manifest file, for messages.
func (s *Set) manifestPath() string { return filepath.Join(s.dir, ManifestName) }

// openMember opens a member file, checking its size against the manifest.
func (s *Set) openMember(x format.Member) (*Table, error) {
	if err := format.CheckMemberFile(x.File); err != nil {
		return nil, fmt.Errorf("%v: %w", err, format.ErrCorrupt)
	}
	t, err := Open(filepath.Join(s.dir, x.File))
	if err != nil {
		return nil, err
	}
	if t.r.FileSize() != x.Bytes {
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

// Tables returns the member tables in the manifest's order, every one opened (see
// OpenMembers: a member of a tiered game's set that cannot be opened is there too, and
// its lookups say why).
func (s *Set) Tables() []*Table {
	_ = s.OpenMembers() // each member that fails keeps its error for its own uses
	return append([]*Table(nil), s.members...)
}

// Close closes every member that was opened; a member of a tiered game's set that was
// not is never opened after it.
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
	// Tiered games' sets: what they store (format.ValuesFull, or format.ValuesWDL: win,
	// draw or loss without remoteness, and then every max_win and max_loss is null), one
	// summary per tier, read from its file, and their totals.
	Values   format.ValueKind `json:"values,omitempty"`
	TierNoun string           `json:"tier_noun,omitempty"`
	Tiers    []TierSummary    `json:"tiers,omitempty"`
	Totals   *TierSummary     `json:"totals,omitempty"`
}

// Info summarises the set, every member opened (a member of a tiered game's set that
// cannot be opened is summarised by its file alone: OpenMembers says why).
func (s *Set) Info() SetInfo {
	_ = s.OpenMembers()
	info := SetInfo{Dir: s.dir, Kind: s.m.Kind}
	info.Manifest, _ = json.Marshal(s.m)
	for _, t := range s.members {
		mi := t.Info()
		info.Members = append(info.Members, mi)
		info.Bytes += mi.Bytes
		info.Slots += mi.Slots
	}
	if s.tiers != nil {
		info.Values = s.m.ValueKind()
		info.TierNoun = s.tiers.g.TierNoun()
		info.Tiers, info.Totals = s.tierSummaries()
	}
	return info
}

// marshalParams is a game's typed parameters as table metadata stores them.
func marshalParams(p any) ([]byte, error) { return json.Marshal(p) }

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
