package tables

import (
	"encoding/json"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/values"
)

// Info is the summary of a table that `tablesmith info` prints. Fields that do not apply
// to the table's kind are left out of the JSON.
type Info struct {
	File     string          `json:"file,omitempty"`
	Game     string          `json:"game"`
	Kind     string          `json:"kind"`
	Params   json.RawMessage `json:"params"`
	Index    string          `json:"index"`
	Encoding string          `json:"encoding"`
	Slots    uint64          `json:"slots"`
	// Puzzles: states that reach a goal, per remoteness; unreachable states; holes.
	States        uint64   `json:"states"`
	Unreachable   uint64   `json:"unreachable"`
	Holes         uint64   `json:"holes"`
	MaxRemoteness int      `json:"max_remoteness"`
	Counts        []uint64 `json:"counts"` // puzzles: per remoteness; PDB groups: per value
	// Two-player games: per outcome, and the longest win and loss.
	Wins    uint64 `json:"wins,omitempty"`
	Losses  uint64 `json:"losses,omitempty"`
	Draws   uint64 `json:"draws,omitempty"`
	MaxWin  *int   `json:"max_win,omitempty"`  // absent: no win (or not a game)
	MaxLoss *int   `json:"max_loss,omitempty"` // absent: no loss (or not a game)
	// Two-player games: positions won (lost) per remoteness in plies, index r; a game ends
	// with the loser to move, so wins are at odd r and losses at even r.
	WinCounts  []uint64 `json:"win_counts,omitempty"`
	LossCounts []uint64 `json:"loss_counts,omitempty"`

	Bytes         int64        `json:"bytes"`
	BitsPerState  float64      `json:"bits_per_state"`
	CodeBits      int          `json:"code_bits"`
	Blocks        int          `json:"blocks"`
	SlotsPerBlock int          `json:"slots_per_block"`
	FormatVersion int          `json:"format_version"`
	Build         format.Build `json:"build"`
}

// Info summarises the table from its metadata. A member of a tiered game's set that
// cannot be opened has none: its Info is its file and kind alone (its lookups, and
// Set.OpenMembers, say why).
func (t *Table) Info() Info {
	if t.opened() != nil {
		return Info{File: t.path, Kind: t.kind, Counts: []uint64{}}
	}
	info := Info{
		File: t.path, Game: t.meta.Game, Kind: t.kind, Params: orEmpty(t.meta.Params),
		Index: t.meta.Index, Encoding: t.meta.Encoding, Slots: t.meta.Slots,
		Bytes: t.r.FileSize(), CodeBits: t.meta.CodeBits, Blocks: t.r.Blocks(),
		SlotsPerBlock: t.r.SlotsPerBlock(), FormatVersion: t.r.Version(), Build: t.meta.Build,
		Counts: []uint64{},
	}
	switch {
	case t.pdb != nil:
		var extra struct {
			Counts []uint64 `json:"value_counts"`
			Max    int      `json:"max_value"`
		}
		if json.Unmarshal(t.meta.Extra, &extra) == nil && extra.Counts != nil {
			info.Counts, info.MaxRemoteness = extra.Counts, extra.Max
		}
		info.States = t.meta.Slots
	case t.mod3 != nil:
		x := t.mod3.extra
		info.Counts = x.Counts
		for _, c := range x.Counts {
			info.States += c
		}
		info.Unreachable, info.Holes, info.MaxRemoteness = x.Unreachable, x.Holes, len(x.Counts)-1
	case t.outcomeOnly:
		// No remoteness: no longest win or loss, no counts per remoteness.
		s := values.WDLOnlySummary(t.meta.CodeCounts)
		info.Wins, info.Losses, info.Draws, info.Holes = s.Wins, s.Losses, s.Draws, s.Holes
		info.States = s.Wins + s.Losses + s.Draws
		info.MaxRemoteness = -1
	case t.isWDL():
		s := t.wdl.Summary(t.meta.CodeCounts)
		info.Wins, info.Losses, info.Draws, info.Holes = s.Wins, s.Losses, s.Draws, s.Holes
		info.States = s.Wins + s.Losses + s.Draws
		info.MaxWin, info.MaxLoss = remotenessOrNil(s.MaxWin), remotenessOrNil(s.MaxLoss)
		info.MaxRemoteness = max(s.MaxWin, s.MaxLoss)
		info.WinCounts, info.LossCounts = wdlCounts(t.wdl, t.meta.CodeCounts)
	default:
		counts, unreachable, holes := t.rem.Summary(t.meta.CodeCounts)
		for _, c := range counts {
			info.States += c
		}
		if counts != nil {
			info.Counts = counts
		}
		info.Unreachable, info.Holes, info.MaxRemoteness = unreachable, holes, len(counts)-1
	}
	if info.States > 0 {
		info.BitsPerState = float64(info.Bytes) * 8 / float64(info.States)
	}
	return info
}

// wdlCounts reads the per-code counts of a WDL table as wins and losses per remoteness.
func wdlCounts(e values.WDLCodes, codeCounts []uint64) (wins, losses []uint64) {
	for c, k := range codeCounts {
		o, r, ok := e.Decode(uint32(c))
		if k == 0 || !ok || o == values.Draw {
			continue
		}
		dst := &wins
		if o == values.Loss {
			dst = &losses
		}
		addCounts(dst, r, k)
	}
	return wins, losses
}

// addCounts adds k to (*dst)[r], growing *dst as needed.
func addCounts(dst *[]uint64, r int, k uint64) {
	for len(*dst) <= r {
		*dst = append(*dst, 0)
	}
	(*dst)[r] += k
}

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// remotenessOrNil is a longest win or loss, nil when there is none (-1): JSON null.
func remotenessOrNil(r int) *int {
	if r < 0 {
		return nil
	}
	return &r
}
