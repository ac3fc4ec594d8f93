package tables

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/values"
)

// A sector set is a two-player game's tables, one file per sector (Mühle: w stones for
// the side to move, b for the opponent), with a manifest naming the rules they were
// built under. A lookup routes a position to its sector's file.
const (
	SectorManifestFormat  = "tablesmith-sector-set"
	SectorManifestVersion = 1
)

// SectorManifest is the content of a sector set's manifest.json.
type SectorManifest struct {
	Format  string       `json:"format"`
	Version int          `json:"version"`
	Game    string       `json:"game"`
	Rules   string       `json:"rules"` // the rules' fingerprint (mill.RulesID)
	Sectors []SectorInfo `json:"sectors"`
}

// SectorCounts are what a sector holds: its classes and their values.
type SectorCounts struct {
	Sector  string `json:"sector"` // "w-b"
	Classes uint64 `json:"classes"`
	Slots   uint64 `json:"slots"`
	Wins    uint64 `json:"wins"`
	Losses  uint64 `json:"losses"`
	Draws   uint64 `json:"draws"`
	MaxWin  int    `json:"max_win"`
	MaxLoss int    `json:"max_loss"`
	Bytes   int64  `json:"bytes"`
}

// SectorInfo describes one sector of a set in its manifest. Build information that
// changes from run to run lives here, not in the (reproducible) table file.
type SectorInfo struct {
	SectorCounts
	File   string       `json:"file"`
	SHA256 string       `json:"sha256"`
	Build  format.Build `json:"build"`
}

// Sector returns the manifest's entry for sector name.
func (m *SectorManifest) Sector(name string) (SectorInfo, bool) {
	for _, s := range m.Sectors {
		if s.Sector == name {
			return s, true
		}
	}
	return SectorInfo{}, false
}

// ReadSectorManifest reads and checks the manifest of the sector set in dir: its format,
// version, game, rules (a set built under other rules is refused) and member names.
func ReadSectorManifest(dir string) (*SectorManifest, error) {
	b, path, err := readManifestFile(dir)
	if err != nil {
		return nil, err
	}
	bad := func(what string, args ...any) error {
		return fmt.Errorf("tables: %s: %s: %w", path, fmt.Sprintf(what, args...), format.ErrCorrupt)
	}
	var m SectorManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, bad("%v", err)
	}
	switch {
	case m.Format != SectorManifestFormat:
		return nil, bad("format %q, want %q", m.Format, SectorManifestFormat)
	case m.Version > SectorManifestVersion:
		return nil, fmt.Errorf("tables: %s: manifest version %d, this tablesmith reads up to %d: %w", path, m.Version, SectorManifestVersion, format.ErrVersion)
	case m.Version < 1:
		return nil, bad("version %d", m.Version)
	case m.Game != (mill.Game{}).Name():
		return nil, bad("game %q", m.Game)
	case m.Rules != mill.RulesID():
		return nil, fmt.Errorf("tables: %s: built under other rules (%q; this tablesmith plays %q): %w", path, m.Rules, mill.RulesID(), ErrOtherRules)
	}
	seen := map[string]bool{}
	for _, s := range m.Sectors {
		if err := checkMemberName(s.File); err != nil {
			return nil, bad("sector %s: %v", s.Sector, err)
		}
		if seen[s.Sector] {
			return nil, bad("sector %s listed twice", s.Sector)
		}
		seen[s.Sector] = true
	}
	return &m, nil
}

// ErrOtherRules marks a set built under rules other than this tablesmith's.
var ErrOtherRules = fmt.Errorf("built under other rules")

// sectorRouter is what routing a position to its sector needs of a game's domain.
type sectorRouter interface {
	SectorOf(state string) (string, error)
	Moves(state string) (moves, next []string, err error)
}

// openSectorSet opens every member of a sector set and checks it is the sector the
// manifest says.
func (s *Set) openSectorSet() error {
	m, err := ReadSectorManifest(s.dir)
	if err != nil {
		return err
	}
	s.sectors, s.bySector = m, map[string]*Table{}
	for _, info := range m.Sectors {
		t, err := s.openMember(info.File)
		if err != nil {
			return fmt.Errorf("tables: sector %s: %w", info.Sector, err)
		}
		s.members = append(s.members, t)
		meta := t.Meta()
		var p mill.Params
		if json.Unmarshal(meta.Params, &p) != nil || meta.Game != m.Game || mill.SectorName(p.W, p.B) != info.Sector ||
			meta.Encoding != values.EncodingWDL {
			return fmt.Errorf("tables: %s is %s %s (%s), the manifest says sector %s: %w", t.File(), meta.Game, meta.Params, meta.Encoding, info.Sector, format.ErrCorrupt)
		}
		if t.r.FileSize() != info.Bytes {
			return fmt.Errorf("tables: %s has %d bytes, the manifest says %d: %w", t.File(), t.r.FileSize(), info.Bytes, format.ErrCorrupt)
		}
		s.bySector[info.Sector] = t
		if s.router == nil {
			s.router, _ = t.dom.(sectorRouter)
		}
	}
	if s.router == nil {
		r, err := mill.NewSpace(3, 3)
		if err != nil {
			return err
		}
		s.router = r
	}
	return nil
}

// SectorManifest returns the manifest of a sector set (nil for other sets).
func (s *Set) SectorManifest() *SectorManifest { return s.sectors }

// Sector returns the table of a sector ("w-b") of a sector set.
func (s *Set) Sector(name string) (*Table, bool) {
	t, ok := s.bySector[name]
	return t, ok
}

// lookupSector answers a position of a sector set from its sector's table.
func (s *Set) lookupSector(state string) (Answer, error) {
	sector, err := s.router.SectorOf(state)
	if err != nil {
		return Answer{}, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	t, ok := s.bySector[sector]
	if !ok {
		have := make([]string, 0, len(s.sectors.Sectors))
		for _, si := range s.sectors.Sectors {
			have = append(have, si.Sector)
		}
		return Answer{}, fmt.Errorf("%w: sector %s is not in this set (it holds %s)", ErrBadState, sector, strings.Join(have, ", "))
	}
	return t.Lookup(state)
}

// MoveAnswer is a legal move with the value of the position it leads to, for the
// opponent, who is then to move (Answer.State empty when the move ends the game).
type MoveAnswer struct {
	Move string
	Answer
}

// Moves answers a position of a sector set and every legal move from it with the value
// of the position it leads to, best move first for the side to move: the quickest win
// (a loss for the opponent), then draws, then the slowest loss.
func (s *Set) Moves(state string) (Answer, []MoveAnswer, error) {
	if s.sectors == nil {
		return Answer{}, nil, fmt.Errorf("tables: %s is not a two-player game's set", s.dir)
	}
	a, err := s.lookupSector(state)
	if err != nil {
		return Answer{}, nil, err
	}
	moves, next, err := s.router.Moves(a.State)
	if err != nil {
		return Answer{}, nil, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	out := make([]MoveAnswer, len(moves))
	for i, m := range moves {
		out[i].Move = m
		if next[i] == "" {
			out[i].Answer = Answer{Outcome: values.Loss} // the opponent is left with 2 stones
			continue
		}
		b, err := s.lookupSector(next[i])
		if err != nil {
			return Answer{}, nil, fmt.Errorf("move %s: %w", m, err)
		}
		out[i].Answer = b
	}
	slices.SortStableFunc(out, func(x, y MoveAnswer) int { return cmp.Compare(moveRank(x.Answer), moveRank(y.Answer)) })
	return a, out, nil
}

// moveRank orders moves by the value they leave the opponent, best for the mover first.
func moveRank(a Answer) int {
	switch a.Outcome {
	case values.Loss:
		return a.Remoteness - 1<<20
	case values.Win:
		return 1<<20 - a.Remoteness
	}
	return 0
}

// Line returns the principal line of a won or lost position: the positions from it to the
// end of the game along best moves (the winner hurrying, the loser delaying), with the
// moves between them; nil for a draw. Values that do not form such a line are corrupt.
func (s *Set) Line(state string) (positions, moves []string, err error) {
	a, ms, err := s.Moves(state)
	if err != nil || a.Outcome == values.Draw {
		return nil, nil, err
	}
	positions = []string{a.State}
	for {
		if a.Remoteness == 0 {
			return positions, moves, nil
		}
		if len(ms) == 0 {
			return nil, nil, fmt.Errorf("%s: remoteness %d but no move: %w", a.State, a.Remoteness, format.ErrCorrupt)
		}
		best := ms[0]
		wantOutcome := values.Win
		if a.Outcome == values.Win {
			wantOutcome = values.Loss
		}
		if best.Outcome != wantOutcome || best.Remoteness != a.Remoteness-1 {
			return nil, nil, fmt.Errorf("%s: %v in %d, but the best move %s leads to %v in %d: %w",
				a.State, a.Outcome, a.Remoteness, best.Move, best.Outcome, best.Remoteness, format.ErrCorrupt)
		}
		moves = append(moves, best.Move)
		if best.State == "" {
			return append(positions, "(the opponent has 2 stones left)"), moves, nil
		}
		positions = append(positions, best.State)
		if a, ms, err = s.Moves(best.State); err != nil {
			return nil, nil, err
		}
	}
}
