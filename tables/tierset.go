package tables

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/internal/parallel"
	"github.com/tablesmith/tablesmith/values"
)

// A tiered game's set holds one table per tier (Mühle: per sector, the stones of the side
// to move and of the opponent), and a manifest naming the game and the rules they were
// built under. The game routes a position to its tier (games.TieredGame.TierOf); nothing
// here knows which game it is.

// ErrOtherRules marks a set built under rules other than this tablesmith's
// (games.ErrOtherRules).
var ErrOtherRules = games.ErrOtherRules

// ErrNoRemoteness is the answer to a question only remoteness answers (a principal line)
// asked of a win/draw/loss-only set.
var ErrNoRemoteness = errors.New("a win/draw/loss-only set has no remoteness to follow a line; use a full set")

// ErrIncompleteSet marks a position the set cannot answer in full because a tier one of
// its moves leads into is not in the set: the set is incomplete (a server-side
// condition), not the question wrong.
var ErrIncompleteSet = errors.New("incomplete set")

// errTierMissing marks a position whose tier the set does not hold (lookupTier).
var errTierMissing = errors.New("tier not in the set")

// noText wraps an error for errors.Is without adding to the message.
type noText struct{ err error }

func (n noText) Error() string { return "" }
func (n noText) Unwrap() error { return n.err }

// tierSet is what a Set holds of a tiered game's set.
type tierSet struct {
	g      games.TieredGame
	byTier map[games.Tier]*Table
	names  []string // the members' names, in the manifest's order
	// outcomeOnly marks a win/draw/loss-only set (format.ValuesWDL): every answer is
	// without remoteness.
	outcomeOnly bool
}

// openTierSet checks a tiered game's set against its manifest and the game, and each
// member's file only as far as one stat goes: its name, that it is a regular file, and
// its size. A member is opened (its header, footer and metadata read and checked: the
// tier the manifest says, the game, the tier's parameters and index scheme, the encoding
// — the manifest's values: a full set's members values.EncodingWDL, a win/draw/loss-only
// set's values.EncodingWDLOnly — and the size) on its first use, once (Table.opened); its
// block index read and checked, and the game's index for the tier built (its instance, a
// few milliseconds, its ranking marked class by class as lookups need), when a lookup or
// a verification first needs that tier (Table.ready). Opening every member costs a fresh
// process 15 to 60 ms for a whole game's 318 (a few reads and a small JSON document
// each, however parallel), where a probe reads one: so a set of hundreds of tiers
// answers its first probe at once. What needs every member (Set.Tables, Info,
// Verify) opens them all first (Set.OpenMembers).
func (s *Set) openTierSet(m *format.Manifest) error {
	g0, err := registry.Lookup(m.Game)
	if err != nil {
		return fmt.Errorf("tables: %s: %w: %w", s.manifestPath(), err, format.ErrCorrupt)
	}
	g, ok := g0.(games.TieredGame)
	if !ok {
		return fmt.Errorf("tables: %s: %s is not a two-player game solved by tiers: %w", s.manifestPath(), m.Game, format.ErrCorrupt)
	}
	// A game of a family of rule sets reads the set under the rules it names.
	g = games.ForRules(g, m.Rules)
	ts := &tierSet{g: g, byTier: map[games.Tier]*Table{}, outcomeOnly: m.ValueKind() == format.ValuesWDL}
	encoding := games.Layout(g).Encoding()
	if ts.outcomeOnly {
		encoding = values.EncodingWDLOnly
	}
	s.tiers = ts
	names := make([]string, len(m.Members))
	for i, x := range m.Members {
		names[i] = x.Name
	}
	tiers, err := games.TierMembers(g, m.Rules, names)
	switch {
	case errors.Is(err, games.ErrOtherRules):
		return fmt.Errorf("tables: %s: %w", s.manifestPath(), err)
	case err != nil:
		return fmt.Errorf("tables: %s: %w: %w", s.manifestPath(), err, format.ErrCorrupt)
	}
	// A member missing or of another size fails here, as it did when every member was
	// opened here: one stat each (a few microseconds), in the manifest's order.
	for _, x := range m.Members {
		if err := s.statTierMember(x); err != nil {
			return fmt.Errorf("tables: %s %s: %w", g.TierNoun(), x.Name, err)
		}
	}
	for i, x := range m.Members {
		t := tiers[i]
		tab := &Table{path: filepath.Join(s.dir, x.File), kind: games.KindOf(g), outcomeOnly: ts.outcomeOnly}
		tab.lazy = &lazyMember{
			open: func(tab *Table) error {
				if err := s.openTierMember(tab, g, t, x, encoding); err != nil {
					return fmt.Errorf("tables: %s %s: %w", g.TierNoun(), x.Name, s.fdHint(err))
				}
				return nil
			},
			build: func(tab *Table) (*games.Instance, error) { return buildTierInstance(g, tab.meta) },
		}
		s.members = append(s.members, tab)
		ts.byTier[t] = tab
		ts.names = append(ts.names, x.Name)
	}
	return nil
}

// statTierMember checks member x's file without opening it: its name, that it is a
// regular file, and its size against the manifest's.
func (s *Set) statTierMember(x format.Member) error {
	if err := format.CheckMemberFile(x.File); err != nil {
		return fmt.Errorf("%v: %w", err, format.ErrCorrupt)
	}
	path := filepath.Join(s.dir, x.File)
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		// Rare: the error is the one opening the file gives (it names the path and what
		// is there instead, never waiting on a FIFO), as it was when members were opened
		// here.
		r, oerr := format.OpenDeferred(path)
		if oerr == nil {
			r.Close()
			if oerr = err; oerr == nil {
				oerr = fmt.Errorf("%s is not a regular file", path)
			}
		}
		return oerr
	}
	if st.Size() != x.Bytes {
		return fmt.Errorf("%s has %d bytes, the manifest says %d: %w", path, st.Size(), x.Bytes, format.ErrCorrupt)
	}
	return nil
}

// OpenMembers opens every member of a tiered game's set not opened yet, side by side, and
// returns the first member's error in the manifest's order (nil for other sets, whose
// members OpenSet opens). A member that cannot be opened leaves the others usable: its
// own lookups try again and say why. Members stay open, one file descriptor each: a set
// with more members than the limit on open files allows is refused before any is
// opened, with the limit it needs.
func (s *Set) OpenMembers() error {
	if s.tiers == nil {
		return nil
	}
	n := 0
	for _, t := range s.members {
		if t.stage.Load() < stageOpen {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if err := s.checkFDs(n); err != nil {
		return err
	}
	return openTables(s.members) // each member opened already returns at once
}

// openTables opens the members tabs side by side (a whole game's 318 in a third of the
// time of one after another) and returns the first error in their order.
func openTables(tabs []*Table) error {
	errs := make([]error, len(tabs))
	_ = parallel.For(context.Background(), 0, uint64(len(tabs)), 1, func(lo, hi uint64) error {
		for i := lo; i < hi; i++ {
			errs[i] = tabs[i].opened()
		}
		return nil // every member's error is kept, to report the first in order
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// openTierMember opens the file of member x, tier t, into tab and checks its metadata
// against the manifest and the game; tab is left unopened when it fails. The game's
// instance is built on first use (Table.ready, buildTierInstance), when its scheme's size
// and moves are checked too.
func (s *Set) openTierMember(tab *Table, g games.TieredGame, t games.Tier, x format.Member, encoding values.Encoding) error {
	path := tab.path
	// The block index too waits for the first read: a whole game's set has 318 members
	// and megabytes of indexes, of which a probe reads one member's.
	r, err := format.OpenDeferred(path)
	if err != nil {
		return err
	}
	meta := r.Meta()
	wdl, _ := values.WDLLayout(values.Encoding(meta.Encoding)) // the parity layout for outcomes alone
	wdl.Bits = meta.CodeBits
	want, _ := marshalParams(g.TierParams(t))
	switch {
	case r.FileSize() != x.Bytes:
		err = fmt.Errorf("%s has %d bytes, the manifest says %d: %w", path, r.FileSize(), x.Bytes, format.ErrCorrupt)
	case meta.Game != g.Name() || string(meta.Params) != string(want) || values.Encoding(meta.Encoding) != encoding || meta.Slots != g.TierSize(t):
		err = fmt.Errorf("%s is %s %s (%s, %d slots), the manifest says %s %s (%s): %w",
			path, meta.Game, meta.Params, meta.Encoding, meta.Slots, g.TierNoun(), x.Name, encoding, format.ErrCorrupt)
	case meta.Index == "" || !slices.Contains(g.Schemes(), meta.Index):
		err = fmt.Errorf("%s: index scheme %q, not one of %s's (%s): %w", path, meta.Index, g.Name(),
			strings.Join(g.Schemes(), ", "), format.ErrCorrupt)
	case !wdl.Valid():
		err = fmt.Errorf("%s: a win/loss/draw table with %d-bit codes: %w", path, meta.CodeBits, format.ErrCorrupt)
	}
	if err != nil {
		r.Close()
		return err
	}
	tab.r, tab.meta, tab.wdl = r, meta, wdl
	return nil
}

// buildTierInstance recreates the game instance of a tier's table from its metadata,
// checked already against the manifest (openTierMember).
func buildTierInstance(g games.TieredGame, meta format.Metadata) (*games.Instance, error) {
	in, err := registry.Open(meta.Game, meta.Params, meta.Index)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", err, format.ErrCorrupt)
	}
	if in.Space.Slots() != meta.Slots {
		return nil, fmt.Errorf("the %s/%s scheme has %d slots, the file %d: %w",
			meta.Game, meta.Index, in.Space.Slots(), meta.Slots, format.ErrCorrupt)
	}
	if _, ok := in.Space.(games.TierSpace); !ok {
		return nil, fmt.Errorf("the %s game lists no moves", g.Name())
	}
	return in, nil
}

// Tiered returns the game of a tiered game's set (nil for other sets).
func (s *Set) Tiered() games.TieredGame {
	if s.tiers == nil {
		return nil
	}
	return s.tiers.g
}

// Values is what a tiered game's set stores: format.ValuesFull (values with remoteness)
// or format.ValuesWDL (win/draw/loss only); "" for other sets.
func (s *Set) Values() format.ValueKind {
	if s.tiers == nil {
		return ""
	}
	return s.m.ValueKind()
}

// TierNames lists the tiers of a tiered game's set, in the manifest's order.
func (s *Set) TierNames() []string {
	if s.tiers == nil {
		return nil
	}
	return slices.Clone(s.tiers.names)
}

// Tier returns the table of the tier called name of a tiered game's set; its file is
// opened on its first use.
func (s *Set) Tier(name string) (*Table, bool) {
	if s.tiers == nil {
		return nil, false
	}
	t, err := s.tiers.g.ParseTier(name)
	if err != nil {
		return nil, false
	}
	tab, ok := s.tiers.byTier[t]
	return tab, ok
}

// lookupTier answers a position of a tiered game's set from its tier's table.
func (s *Set) lookupTier(state string) (Answer, *Table, error) {
	g := s.tiers.g
	t, err := g.TierOf(state)
	if err != nil {
		return Answer{}, nil, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	tab, ok := s.tiers.byTier[t]
	if !ok {
		return Answer{}, nil, fmt.Errorf("%w: %s %s is not in this set (it holds %s)%w", ErrBadState, g.TierNoun(), g.TierName(t),
			strings.Join(s.tiers.names, ", "), noText{errTierMissing})
	}
	a, err := tab.Lookup(state)
	return a, tab, err
}

// MoveAnswer is a legal move with the value of the position it leads to, for the
// opponent, who is then to move (Answer.State empty when the move ends the game at once:
// the end's value, a loss or a draw in 0, or in a win/draw/loss-only set without
// remoteness).
type MoveAnswer struct {
	Move string
	Answer
}

// Moves answers a position of a tiered game's set and every legal move from it with the
// value of the position it leads to, best move first for the side to move: the quickest
// win (a loss for the opponent), then draws, then the slowest loss. In a win/draw/loss-only
// set moves are ranked by value alone (wins, draws, losses), in the game's move order
// within each, except that the moves that end the game (at once, or into a position over
// by the rules) come first among the wins. A
// position over by the rules has no move and Answer.Over set; its stored value must be
// the one the rules give it, or the set is corrupt.
func (s *Set) Moves(state string) (Answer, []MoveAnswer, error) {
	if s.tiers == nil {
		return Answer{}, nil, fmt.Errorf("tables: %s is not a two-player game's set", s.dir)
	}
	a, tab, err := s.lookupTier(state)
	if err != nil {
		return Answer{}, nil, err
	}
	moves, over, err := tab.Domain().(games.TierSpace).Moves(a.State) // built by the lookup
	if err != nil {
		return Answer{}, nil, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	if over != 0 {
		if a.Outcome != over || a.Remoteness != 0 || len(moves) > 0 {
			return Answer{}, nil, fmt.Errorf("tables: %s: over by the rules as a %v, but stored as %v in %d: %w",
				a.State, over, a.Outcome, a.Remoteness, format.ErrCorrupt)
		}
		a.Over = true
		return a, nil, nil
	}
	out := make([]MoveAnswer, len(moves))
	for i, m := range moves {
		out[i].Move = m.Name
		if m.Next == "" {
			if _, ok := games.EndCode(mustEnd(m.End), games.Layout(s.tiers.g)); !ok {
				return Answer{}, nil, fmt.Errorf("tables: %s: move %s ends the game as a %v for the opponent, which is no end %s declares", a.State, m.Name, m.End, s.tiers.g.Name())
			}
			out[i].Answer = Answer{Outcome: m.End, NoRemoteness: s.tiers.outcomeOnly} // the move ends the game
			continue
		}
		b, tab, err := s.lookupTier(m.Next)
		if errors.Is(err, errTierMissing) {
			t, _ := s.tiers.g.TierOf(m.Next)
			return Answer{}, nil, fmt.Errorf("%w: the move %s from %s leads into %s %s, which this set lacks: build it into the set",
				ErrIncompleteSet, m.Name, a.State, s.tiers.g.TierNoun(), s.tiers.g.TierName(t))
		}
		if err != nil {
			return Answer{}, nil, fmt.Errorf("move %s: %w", m.Name, err)
		}
		// Without remoteness, a winning move that ends the game at once is known only by
		// asking whether the position it leads to is over by the rules: it ranks first, so
		// that playing the first move makes progress (a cyclic game could go round a won
		// position for ever otherwise).
		if s.tiers.outcomeOnly && b.Outcome == values.Loss {
			if _, over, err := tab.Domain().(games.TierSpace).Moves(b.State); err == nil && over != 0 {
				b.Over = true
			}
		}
		out[i].Answer = b
	}
	slices.SortStableFunc(out, func(x, y MoveAnswer) int { return cmp.Compare(moveRank(x.Answer), moveRank(y.Answer)) })
	return a, out, nil
}

// mustEnd is the slot of GameOver for outcome o, or a slot that is no end.
func mustEnd(o values.Outcome) uint64 {
	if s, ok := games.EndSlot(o); ok {
		return s
	}
	return ^uint64(0)
}

// moveRank orders moves by the value they leave the opponent, best for the mover first.
// Without remoteness, the wins that end the game come first, then the other wins.
func moveRank(a Answer) int {
	if a.NoRemoteness {
		switch {
		case a.Outcome == values.Loss && (a.State == "" || a.Over):
			return -2
		case a.Outcome == values.Loss:
			return -1
		case a.Outcome == values.Win:
			return 1
		}
		return 0
	}
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
// moves between them; nil for a draw. Values that do not form such a line are corrupt. A
// win/draw/loss-only set has no line: it answers ErrNoRemoteness (a winning move may
// lead round in a circle, so following one need not end).
func (s *Set) Line(state string) (positions, moves []string, err error) {
	if s.tiers != nil && s.tiers.outcomeOnly {
		return nil, nil, fmt.Errorf("tables: %w", ErrNoRemoteness)
	}
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
			return append(positions, "(the game is over)"), moves, nil
		}
		positions = append(positions, best.State)
		if a, ms, err = s.Moves(best.State); err != nil {
			return nil, nil, err
		}
	}
}

// TierSummary is one tier of a tiered game's set as `info` shows it, read from the tier's
// file (its checksummed metadata), never from the manifest.
type TierSummary struct {
	Name string `json:"name"`
	// Described holds what the game says of the tier (games.TierDescriber), written into
	// the summary's JSON object beside the other fields.
	Described map[string]any `json:"-"`
	Classes   uint64         `json:"classes"`
	Wins      uint64         `json:"wins"`
	Losses    uint64         `json:"losses"`
	Draws     uint64         `json:"draws"`
	MaxWin    *int           `json:"max_win"`  // null: no win
	MaxLoss   *int           `json:"max_loss"` // null: no loss
	Bytes     int64          `json:"bytes"`
	// Positions won (lost) per remoteness in plies, as in Info.
	WinCounts  []uint64 `json:"win_counts,omitempty"`
	LossCounts []uint64 `json:"loss_counts,omitempty"`
}

// MarshalJSON writes the summary with the game's description of the tier merged in.
func (ts TierSummary) MarshalJSON() ([]byte, error) {
	type plain TierSummary
	b, err := json.Marshal(plain(ts))
	if err != nil || len(ts.Described) == 0 {
		return b, err
	}
	extra, err := json.Marshal(ts.Described)
	if err != nil {
		return nil, err
	}
	// {"name":…,…} + {"board":…} → {"name":…,…,"board":…}
	return append(append(b[:len(b)-1], ','), extra[1:]...), nil
}

// tierSummaries summarises every tier and their totals (Name "all"), its members opened
// (Set.Info).
func (s *Set) tierSummaries() ([]TierSummary, *TierSummary) {
	var out []TierSummary
	tot := TierSummary{Name: "all"}
	for _, name := range s.tiers.names {
		t, _ := s.tiers.g.ParseTier(name)
		mi := s.tiers.byTier[t].Info()
		ts := TierSummary{Name: name, Described: describe(s.tiers.g, t), Classes: mi.Slots, Wins: mi.Wins, Losses: mi.Losses, Draws: mi.Draws,
			MaxWin: mi.MaxWin, MaxLoss: mi.MaxLoss, Bytes: mi.Bytes, WinCounts: mi.WinCounts, LossCounts: mi.LossCounts}
		out = append(out, ts)
		tot.Classes += ts.Classes
		tot.Wins += ts.Wins
		tot.Losses += ts.Losses
		tot.Draws += ts.Draws
		tot.Bytes += ts.Bytes
		tot.MaxWin, tot.MaxLoss = maxPtr(tot.MaxWin, ts.MaxWin), maxPtr(tot.MaxLoss, ts.MaxLoss)
		for r, k := range ts.WinCounts {
			addCounts(&tot.WinCounts, r, k)
		}
		for r, k := range ts.LossCounts {
			addCounts(&tot.LossCounts, r, k)
		}
	}
	return out, &tot
}

// describe is what the game says of tier t, if it says anything.
func describe(g games.TieredGame, t games.Tier) map[string]any {
	if d, ok := g.(games.TierDescriber); ok {
		return d.DescribeTier(t)
	}
	return nil
}

// maxPtr is the larger of two optional values.
func maxPtr(a, b *int) *int {
	switch {
	case a == nil:
		return b
	case b == nil || *a >= *b:
		return a
	}
	return b
}
