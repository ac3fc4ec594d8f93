package games

import (
	"errors"
	"flag"
	"fmt"

	"github.com/tablesmith/tablesmith/values"
)

// A two-player game is a graph of tiers (GamesmanOne's word): each tier is a set of
// positions with a size and a name, numbered 0..Size−1 by the game's own index scheme; a
// move leads into the same tier, a tier that reaches this one back (the two are solved
// together), or a tier solved before. The game describes the graph and generates moves;
// one orchestrator (package pipeline) solves any such game, one reader (package tables)
// routes a position to its tier's table, and one checker (the forward check of
// tables.Set.Verify) recomputes every value from its children's, all through this
// interface.

// Tier is a game's own number for one of its tiers (Mühle: the stones on the board and in
// hand of the side to move and of the opponent).
type Tier uint64

// GameOver is the tier of a move that ends the game at once, where the game gives the
// position it leads to no slot of its own (Mühle: a capture that leaves the opponent two
// stones). Its slot says what the end is worth to the side then to move: EndLoss, EndDraw
// or EndWin. A game that does index such positions lists them in their tier instead and
// reports them over (ChildBatch.End).
const GameOver Tier = 1<<64 - 1

// The slots of GameOver: the value, for the side then to move, of the position a move
// that ends the game leads to, at remoteness 0.
const (
	EndLoss uint64 = 0 // the side then to move has lost (the mover has won)
	EndDraw uint64 = 1 // the game ends drawn (e.g. the move fills the board)
	EndWin  uint64 = 2 // the side then to move has won (a game with OverWins)
)

// endOutcomes are the outcomes of the slots of GameOver, in slot order.
var endOutcomes = [...]values.Outcome{EndLoss: values.Loss, EndDraw: values.Draw, EndWin: values.Win}

// EndSlot is the slot of GameOver that stands for outcome o (Loss, Draw or Win) of the
// side then to move; ok is false for any other outcome.
func EndSlot(o values.Outcome) (slot uint64, ok bool) {
	for s, e := range endOutcomes {
		if e == o {
			return uint64(s), true
		}
	}
	return 0, false
}

// EndOutcome is the outcome, for the side then to move, that slot s of GameOver stands
// for; ok is false for a slot that is no end.
func EndOutcome(s uint64) (o values.Outcome, ok bool) {
	if s >= uint64(len(endOutcomes)) {
		return 0, false
	}
	return endOutcomes[s], true
}

// OverWins (optional) is implemented by a tiered game some of whose positions are over
// as a win for the side to move, or some of whose moves end the game so (GameOver at
// EndWin); HasOverWins reports it. Its sets store outcome and remoteness apart
// (values.EncodingWDLSplit): a win at remoteness 0 breaks the parity by which
// values.EncodingWDL tells wins from losses. The engines refuse such a position in a game
// that does not declare it.
type OverWins interface {
	HasOverWins() bool
}

// Layout is the WDL code layout of a full set of g: values.EncodingWDLSplit for a game
// with OverWins, else values.EncodingWDL.
func Layout(g TieredGame) values.WDLCodes {
	if w, ok := g.(OverWins); ok && w.HasOverWins() {
		return values.WDLCodes{Split: true}
	}
	return values.WDLCodes{}
}

// TierPosition is one position of a tiered game: its tier and its slot in the tier.
type TierPosition struct {
	Tier Tier
	Slot uint64
}

// TieredGame is the capability of a two-player game whose tables are solved tier by tier:
// win, loss or draw for the side to move, with remoteness in plies.
type TieredGame interface {
	Game
	// TierNoun is what the game calls a tier in messages and file names ("sector").
	TierNoun() string
	// RulesID fingerprints the rules the tables are built under; a set built under other
	// rules is refused.
	RulesID() string
	// Tiers lists every tier of the whole game, in the order a plan lists them when their
	// dependencies allow (smaller and simpler first).
	Tiers() []Tier
	// BindTierFlags declares on fs the flags that choose a part of the game (e.g. the tiers
	// with at most N stones); after fs is parsed, the returned function gives the tiers
	// chosen (the orchestrator adds what they depend on), or every tier when no flag was
	// given, or an error naming the bad flag value.
	BindTierFlags(fs *flag.FlagSet) func() ([]Tier, error)
	// TierName writes a tier; ParseTier reads it back, refusing a name that is no tier.
	TierName(t Tier) string
	ParseTier(name string) (Tier, error)
	// TierChildren lists the tiers the moves of tier t lead into, t itself included when a
	// move can stay in it (GameOver is not listed).
	TierChildren(t Tier) []Tier
	// TierSize is the number of slots of tier t.
	TierSize(t Tier) uint64
	// TierParams is the typed parameters (as NewParams returns them, filled in) of the
	// table that holds tier t under the game's default index scheme.
	TierParams(t Tier) any
	// TierOf returns the tier of a position in the game's notation (an error names a
	// malformed position).
	TierOf(state string) (Tier, error)
	// NewTierWorker returns a move generator for one goroutine.
	NewTierWorker() TierWorker
}

// TierWorker generates moves a batch of positions at a time (never one interface call
// per position on a solver's hot path); one goroutine uses it.
type TierWorker interface {
	// Children (required) fills b for slots lo..hi−1 of tier t: for the i-th,
	// b.Pos[b.Off[i]:b.Off[i+1]] are the positions its moves lead to, one per move
	// (GameOver, with the end's value as its slot, for a move that ends the game at once).
	// A position that is over by the rules (a line of three, a full board) lists no move
	// and is marked with b.End; one that is not over and lists no move has no legal move,
	// and has lost.
	Children(t Tier, lo, hi uint64, b *ChildBatch)
	// Parents (required) fills b for slots of tier t: b.Slots[b.Off[i]:b.Off[i+1]] are
	// the slots of tier from whose moves lead to slots[i], each once. The retrograde
	// solver asks for them only within a unit (from a tier to one that reaches it back, or
	// itself); a game whose tiers all lead only into tiers solved before may answer none.
	Parents(t Tier, slots []uint64, from Tier, b *ParentBatch)
}

// OrderedTierWorker (optional) is a TierWorker that also visits a tier's positions in an order of its
// own, in which the children of consecutive positions lie close together in their tiers.
// A pass that reads every child's value from tiers of gigabytes (the one-pass solve of a
// tier whose moves all leave it) then finds them in the cache instead of waiting for
// memory at nearly every read.
type OrderedTierWorker interface {
	TierWorker
	// ChildrenInOrder fills b for positions lo..hi−1 of the order of tier t, as Children
	// does for slots, and appends their slots to slots: over 0..TierSize(t)−1 the order
	// is a permutation of the tier's slots.
	ChildrenInOrder(t Tier, lo, hi uint64, slots []uint64, b *ChildBatch) []uint64
}

// CountingTierWorker (optional) is a TierWorker that can count a position's children in
// one tier apart (games/mill's): ChildrenOnce is Children, except that the children of
// each position in tier once are only counted, each distinct slot once, one count per
// position appended to counts, rather than listed in b once per move. When a tier has one
// child tier in its unit, the retrograde solver asks for its children so: it needs only
// their number, which the game often knows without ranking them (Mühle: distinct moves
// give distinct children when their class has no symmetry), and they need no sorting.
// Positions over by the rules are marked in b as Children marks them, with a count of 0.
type CountingTierWorker interface {
	TierWorker
	ChildrenOnce(t Tier, lo, hi uint64, once Tier, b *ChildBatch, counts []uint32) []uint32
}

// SiblingTiers (optional) is implemented by a tiered game whose tiers come in families of siblings:
// tiers of the same size whose positions are the same slot for slot, and whose moves are
// the same, the children of a sibling differing from those of another only in the tiers
// they lie in (Mühle: the placement sectors of one board, which differ only in the stones
// left in hand). A pass over the positions of several siblings (the forward check of
// verify) then lists the children once, for the family's first, and reads each
// sibling's children where SiblingChild says they lie.
type SiblingTiers interface {
	// TierSiblings returns the family of t, t among them (alone in it where it has no
	// sibling), its first the sibling whose children a TierWorker lists for them all.
	TierSiblings(t Tier) []Tier
	// SiblingChild returns the tier in which the child of sibling u lies that lies in
	// tier c for the family's first, at the same slot; GameOver where that move ends the
	// game for u. For the first itself it returns c.
	SiblingChild(u, c Tier) Tier
}

// ChildBatch is a TierWorker's answer to Children, reused from call to call.
type ChildBatch struct {
	Off []int // one more than the positions asked for
	Pos []TierPosition
	// Over lists the positions of the batch that are over by the rules, in the order of
	// the batch (empty for a game without such positions, as Mühle: no engine looks
	// further then).
	Over []Over
}

// Over is a position of a batch that is over by the rules, with its value for the side
// to move at remoteness 0 (GamesmanOne's primitive value).
type Over struct {
	At      int            // the position's index in the batch
	Outcome values.Outcome // values.Loss, values.Draw, or values.Win (a game with OverWins)
}

// Reset empties b for a new batch.
func (b *ChildBatch) Reset() { b.Off = append(b.Off[:0], 0); b.Pos = b.Pos[:0]; b.Over = b.Over[:0] }

// Close ends the current position.
func (b *ChildBatch) Close() { b.Off = append(b.Off, len(b.Pos)) }

// End closes the current position, which must list no move, as over by the rules with
// outcome o for the side to move (values.Loss, values.Draw, or values.Win in a game with
// OverWins).
func (b *ChildBatch) End(o values.Outcome) {
	b.Over = append(b.Over, Over{At: len(b.Off) - 1, Outcome: o})
	b.Close()
}

// CheckOver reports what is wrong with b.Over, or nil: each entry a position of the
// batch, in order, listing no move, with an outcome codes of layout e can store at
// remoteness 0 (a win only in the split layout: see OverWins). Engines call it once a
// batch, where Over is not empty.
func (b *ChildBatch) CheckOver(e values.WDLCodes) error {
	last := -1
	for _, o := range b.Over {
		switch {
		case o.At <= last || o.At >= len(b.Off)-1:
			return fmt.Errorf("a position over by the rules is listed out of order or outside the batch (index %d of %d)", o.At, len(b.Off)-1)
		case b.Off[o.At+1] != b.Off[o.At]:
			return fmt.Errorf("position %d of the batch is over by the rules but lists %d moves", o.At, b.Off[o.At+1]-b.Off[o.At])
		case o.Outcome != values.Loss && o.Outcome != values.Draw && o.Outcome != values.Win:
			return fmt.Errorf("position %d of the batch is over as a %v: a position over by the rules is a win, a loss or a draw", o.At, o.Outcome)
		case !e.Holds(o.Outcome, 0):
			return fmt.Errorf("position %d of the batch is over as a win for the side to move, but the game does not declare such positions (games.OverWins): the parity layout of its codes cannot hold a win at remoteness 0", o.At)
		}
		last = o.At
	}
	return nil
}

// ParentBatch is a TierWorker's answer to Parents, reused from call to call.
type ParentBatch struct {
	Off   []int
	Slots []uint64
}

// Reset empties b for a new batch.
func (b *ParentBatch) Reset() { b.Off = append(b.Off[:0], 0); b.Slots = b.Slots[:0] }

// Close ends the current position.
func (b *ParentBatch) Close() { b.Off = append(b.Off, len(b.Slots)) }

// TierDescriber (optional) is implemented by a tiered game whose tiers have numbers worth listing
// beside their name (Mühle: the stones on the board and in hand of the side to move and of
// the opponent); `info --json` adds them to each tier's summary.
type TierDescriber interface {
	DescribeTier(t Tier) map[string]any
}

// RulesCompat (optional) is implemented by a tiered game whose earlier rules fingerprints still hold
// for some of its tiers (Mühle: sets of moving-phase sectors built before the placement
// phase was modelled). A set naming such a fingerprint is read, and built on, when every
// tier it holds is accepted.
type RulesCompat interface {
	AcceptsRules(id string, t Tier) bool
}

// ErrOtherRules marks a set built under rules other than the game's as this tablesmith
// plays it.
var ErrOtherRules = errors.New("built under other rules")

// ErrBadMember marks a set's member that names no tier of its game, or one listed twice.
var ErrBadMember = errors.New("not a tier of the game")

// TierMembers checks the tiers a set of g lists, by its rules fingerprint and its members'
// names in order, as every reader and writer of such sets checks them (the lookup, the
// builds, plan verify): each name a tier of g spelled as g spells it, listed once, held
// under rules g accepts for it (AcceptsRules); a set without members must name g's own
// rules. It returns the tiers, in the order of names; the error wraps ErrOtherRules or
// ErrBadMember.
func TierMembers(g TieredGame, rules string, names []string) ([]Tier, error) {
	otherRules := fmt.Errorf("%w (%q; this tablesmith plays %s as %q)", ErrOtherRules, rules, g.Name(), g.RulesID())
	if len(names) == 0 && rules != g.RulesID() {
		return nil, otherRules
	}
	tiers := make([]Tier, len(names))
	seen := make(map[Tier]bool, len(names))
	for i, name := range names {
		t, err := g.ParseTier(name)
		if err != nil {
			return nil, fmt.Errorf("member %q: %w: %w", name, ErrBadMember, err)
		}
		if g.TierName(t) != name || seen[t] {
			return nil, fmt.Errorf("member %q is %s %s, listed already or not by its name: %w", name, g.TierNoun(), g.TierName(t), ErrBadMember)
		}
		if !AcceptsRules(g, rules, t) {
			return nil, otherRules
		}
		tiers[i], seen[t] = t, true
	}
	return tiers, nil
}

// AcceptsRules reports whether a set that names the rules fingerprint id may hold tier t
// of game g: id is g's own, or g accepts it for t.
func AcceptsRules(g TieredGame, id string, t Tier) bool {
	if id == g.RulesID() {
		return true
	}
	c, ok := g.(RulesCompat)
	return ok && c.AcceptsRules(id, t)
}

// RuleSets (optional) is implemented by a tiered game that plays a family of rule sets,
// each a data entry (Mühle: Three, Five, Six, Nine Men's Morris…), under one name. The
// registered game plays the default rule set; a build chooses another with --rules NAME,
// and a set names its rules by their fingerprint (RulesID), from which a reader finds
// the game again (ForRules).
type RuleSets interface {
	// RuleSetNames lists the rule sets by name, the default first.
	RuleSetNames() []string
	// RuleSetName is the name of the rule set this game plays.
	RuleSetName() string
	// WithRules returns the game playing the rule set called name.
	WithRules(name string) (TieredGame, error)
	// ForRulesID returns the game whose rules fingerprint is id, if it is one of the
	// family's.
	ForRulesID(id string) (TieredGame, bool)
}

// ForRules returns the game of g's family that plays the rules a set names by their
// fingerprint id: g itself when g plays no family of rule sets, or none has that
// fingerprint (the set is then refused as built under other rules, or read under an
// earlier fingerprint g accepts).
func ForRules(g TieredGame, id string) TieredGame {
	if rs, ok := g.(RuleSets); ok && id != g.RulesID() {
		if v, ok := rs.ForRulesID(id); ok {
			return v
		}
	}
	return g
}

// RulesArgs are the command-line arguments that choose g's rule set: none for a game that
// plays its family's default (or no family), else --rules NAME.
func RulesArgs(g TieredGame) []string {
	if rs, ok := g.(RuleSets); ok && rs.RuleSetName() != rs.RuleSetNames()[0] {
		return []string{"--rules", rs.RuleSetName()}
	}
	return nil
}
