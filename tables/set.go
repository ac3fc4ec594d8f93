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

// Set is an open directory of tables with a manifest — a pattern-database set (one file
// per group of tiles) today, a two-player game's sector set next — that routes each state
// to the files that answer it. It is safe for concurrent use.
type Set struct {
	dir      string
	format   string
	pdb      *PDBManifest
	sectors  *SectorManifest
	bySector map[string]*Table
	router   sectorRouter
	members  []*Table
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
	b, path, err := readManifestFile(dir)
	if err != nil {
		return nil, err
	}
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("tables: %s: %v: %w", path, err, format.ErrCorrupt)
	}
	s := &Set{dir: dir, format: head.Format}
	switch head.Format {
	case PDBManifestFormat:
		if s.pdb, err = ReadPDBManifest(dir); err != nil {
			return nil, err
		}
		for gi, g := range s.pdb.Groups {
			t, err := s.openMember(g.File)
			if err == nil {
				if err = checkMember(s.pdb, g, t.Meta()); err != nil {
					t.Close()
				}
			}
			if err != nil {
				s.Close()
				return nil, fmt.Errorf("tables: pattern database group %d %v: %w", gi+1, g.Tiles, err)
			}
			s.members = append(s.members, t)
		}
	case SectorManifestFormat:
		if err := s.openSectorSet(); err != nil {
			s.Close()
			return nil, err
		}
	default:
		return nil, fmt.Errorf("tables: %s: unknown set format %q (this tablesmith reads %s, %s): %w",
			path, head.Format, PDBManifestFormat, SectorManifestFormat, format.ErrCorrupt)
	}
	return s, nil
}

func (s *Set) openMember(name string) (*Table, error) {
	if err := checkMemberName(name); err != nil {
		return nil, fmt.Errorf("%v: %w", err, format.ErrCorrupt)
	}
	return Open(filepath.Join(s.dir, name))
}

// Dir is the set's directory.
func (s *Set) Dir() string { return s.dir }

// Format is the manifest's format name (e.g. PDBManifestFormat).
func (s *Set) Format() string { return s.format }

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
	if s.sectors != nil {
		return s.lookupSector(state)
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
	if s.sectors != nil {
		return s.verifySectors(ctx, opt)
	}
	for _, t := range s.members {
		if err := t.Verify(ctx, opt); err != nil {
			return fmt.Errorf("%s: %w", t.File(), err)
		}
	}
	return nil
}

// SetInfo summarises a set: its manifest and every member's Info.
type SetInfo struct {
	Dir      string          `json:"dir"`
	Format   string          `json:"format"`
	Manifest json.RawMessage `json:"manifest"`
	Members  []Info          `json:"members"`
	Bytes    int64           `json:"bytes"`
	Slots    uint64          `json:"slots"`
	// Sector sets: one summary per sector, and their totals.
	Sectors []SectorSummary `json:"sectors,omitempty"`
	Totals  *SectorSummary  `json:"totals,omitempty"`
}

// SectorSummary is one sector of a sector set as `info` shows it.
type SectorSummary struct {
	SectorCounts
	// Positions won (lost) per remoteness in plies, as in Info.
	WinCounts  []uint64 `json:"win_counts,omitempty"`
	LossCounts []uint64 `json:"loss_counts,omitempty"`
}

// Info summarises the set.
func (s *Set) Info() SetInfo {
	info := SetInfo{Dir: s.dir, Format: s.format}
	byTable := map[*Table]Info{}
	for _, t := range s.members {
		mi := t.Info()
		byTable[t] = mi
		info.Members = append(info.Members, mi)
		info.Bytes += mi.Bytes
		info.Slots += mi.Slots
	}
	switch {
	case s.pdb != nil:
		info.Manifest, _ = json.Marshal(s.pdb)
	case s.sectors != nil:
		info.Manifest, _ = json.Marshal(s.sectors)
		tot := SectorSummary{SectorCounts: SectorCounts{Sector: "all", MaxWin: -1, MaxLoss: -1}}
		for _, si := range s.sectors.Sectors {
			mi := byTable[s.bySector[si.Sector]]
			ss := SectorSummary{SectorCounts: si.SectorCounts, WinCounts: mi.WinCounts, LossCounts: mi.LossCounts}
			info.Sectors = append(info.Sectors, ss)
			tot.Classes += ss.Classes
			tot.Slots += ss.Slots
			tot.Wins += ss.Wins
			tot.Losses += ss.Losses
			tot.Draws += ss.Draws
			tot.Bytes += ss.Bytes
			tot.MaxWin, tot.MaxLoss = max(tot.MaxWin, ss.MaxWin), max(tot.MaxLoss, ss.MaxLoss)
			for r, k := range ss.WinCounts {
				addCounts(&tot.WinCounts, r, k)
			}
			for r, k := range ss.LossCounts {
				addCounts(&tot.LossCounts, r, k)
			}
		}
		info.Totals = &tot
	}
	return info
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
