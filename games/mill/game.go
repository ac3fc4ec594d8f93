package mill

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"math/bits"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/notation"
	"github.com/tablesmith/tablesmith/values"
)

// Game describes a game of the Morris family to the game registry (package games): one
// table per sector (w stones for the side to move, b for the opponent), win/loss/draw
// with remoteness, built by retrograde analysis sector pair by sector pair. The zero Game
// plays Nine Men's Morris, the registered game; ForRules gives the others (`--rules` on
// the command line), and a set names its rules by their fingerprint (RulesID), which
// ForRulesID reads back.
type Game struct{ r *Rules }

// ForRules returns the game playing the rule set r (the zero Game for Nine Men's Morris).
func ForRules(r *Rules) Game {
	if r == Nine {
		return Game{}
	}
	return Game{r: r}
}

// Rules returns the rule set the game plays.
func (g Game) Rules() *Rules { return g.rules() }

func (g Game) rules() *Rules {
	if g.r == nil {
		return Nine
	}
	return g.r
}

// v is the game's compiled rule set.
func (g Game) v() *variant { return g.rules().compiled() }

// paramsName is the rule set's name in the tables' parameters: "" (left out) for Nine Men's
// Morris, whose sets predate the family.
func (g Game) paramsName() string {
	if g.rules() == Nine {
		return ""
	}
	return g.rules().Name
}

var _ games.RuleSets = Game{}

// RuleSetNames lists the rule sets, the default (Nine Men's Morris) first.
func (Game) RuleSetNames() []string {
	var out []string
	for _, r := range RuleSets() {
		out = append(out, r.Name)
	}
	return out
}

// RuleSetName is the name of the rule set the game plays.
func (g Game) RuleSetName() string { return g.rules().Name }

// WithRules returns the game playing the rule set called name.
func (Game) WithRules(name string) (games.TieredGame, error) {
	r, err := RulesNamed(name)
	if err != nil {
		return nil, err
	}
	return ForRules(r), nil
}

// ForRulesID returns the game whose rules fingerprint is id (Nine Men's Morris's earlier
// moving-phase fingerprint included).
func (Game) ForRulesID(id string) (games.TieredGame, bool) {
	for _, r := range RuleSets() {
		if r.RulesID() == id {
			return ForRules(r), true
		}
	}
	if id == movingRulesID() {
		return Game{}, true
	}
	return nil, false
}

// Name is the game's name in table metadata.
func (Game) Name() string { return "mill" }

// Summary describes the game.
func (g Game) Summary() string {
	if g.rules() != Nine {
		return g.rules().Title + ", both phases, one table per sector (stones on the board and in hand)"
	}
	return "Nine Men's Morris (Mühle) and its family (--rules), both phases, one table per sector (stones on the board and in hand)"
}

// SchemeClassRank is the index scheme of sector tables: Sector's compact class rank.
const SchemeClassRank = "class-rank"

// Schemes lists the one index scheme.
func (Game) Schemes() []string { return []string{SchemeClassRank} }

// NewParams returns fresh parameters.
func (Game) NewParams() any { return &Params{} }

// Open returns the sector's Space, under the rule set the parameters name (Nine Men's
// Morris when they name none).
func (Game) Open(params any, index string) (games.Space, error) {
	p, ok := params.(*Params)
	if !ok {
		return nil, fmt.Errorf("mill: parameters of type %T", params)
	}
	r := Nine
	if p.Rules != "" {
		var err error
		if r, err = RulesNamed(p.Rules); err != nil || r == Nine {
			return nil, fmt.Errorf("mill: parameters name the rules %q, not one of %v (Nine Men's Morris names none)", p.Rules, Game{}.RuleSetNames()[1:])
		}
	}
	sp, err := r.NewSectorSpace(p.W, p.B, p.WH, p.BH)
	if err != nil {
		return nil, err
	}
	return sp, nil
}

var _ games.TierSpace = (*Space)(nil)

// Params name one sector: the rule set (left out for Nine Men's Morris), W stones on the
// board for the side to move, B for the opponent, and in the placement phase WH and BH
// stones in hand (left out of the JSON when zero, so that a moving-phase sector's
// parameters of Nine Men's Morris are {"w":W,"b":B}).
type Params struct {
	Rules string `json:"rules,omitempty"`
	W     int    `json:"w"`
	B     int    `json:"b"`
	WH    int    `json:"wh,omitempty"`
	BH    int    `json:"bh,omitempty"`
}

// BindFlags declares flags that set p (a single sector; sets are built by units of
// sectors).
func (p *Params) BindFlags(fs *flag.FlagSet) {
	fs.StringVar(&p.Rules, "rules", p.Rules, "the rule set (empty: Nine Men's Morris)")
	fs.IntVar(&p.W, "w", p.W, "stones on the board of the side to move")
	fs.IntVar(&p.B, "b", p.B, "stones on the board of the opponent")
	fs.IntVar(&p.WH, "wh", p.WH, "stones in hand of the side to move (placement phase)")
	fs.IntVar(&p.BH, "bh", p.BH, "stones in hand of the opponent (placement phase)")
}

// Space is one sector as the lookup reads it: positions in the notation, their slots,
// their moves. It is immutable and safe for concurrent use.
type Space struct {
	r            *Rules
	w, b, wh, bh int
	// sec builds the sector's ranking tables on first use: opening a set opens a space per
	// sector, and the tables of the large ones take a few hundred milliseconds each.
	sec func() *Sector
}

// NewSpace returns the space of moving-phase sector (w, b) of Nine Men's Morris.
func NewSpace(w, b int) (*Space, error) { return NewSectorSpace(w, b, 0, 0) }

// NewSectorSpace returns the space of the sector of Nine Men's Morris with w and b stones
// on the board and wh and bh in hand (the side to move's first).
func NewSectorSpace(w, b, wh, bh int) (*Space, error) { return Nine.NewSectorSpace(w, b, wh, bh) }

// NewSectorSpace returns the space of the rule set's sector with w and b stones on the
// board and wh and bh in hand (the side to move's first).
func (r *Rules) NewSectorSpace(w, b, wh, bh int) (*Space, error) {
	v := r.compiled()
	if _, _, _, _, ok := v.tierStones(tierOf(w, b, wh, bh)); !ok || w < 0 || b < 0 || wh < 0 || bh < 0 {
		hands := ", and the hands are equal or the mover's one more"
		if r.Merged {
			hands = ""
		}
		return nil, fmt.Errorf("mill: no sector %d-%d with %d and %d in hand: a side has 3 to %d stones on the board and in hand, "+
			"at most as many on the board as it has placed%s", w, b, wh, bh, r.Stones, hands)
	}
	return &Space{r: r, w: w, b: b, wh: wh, bh: bh, sec: func() *Sector { return v.probeSector(w, b) }}, nil
}

// Sector returns the sector's index scheme.
func (s *Space) Sector() *Sector { return s.sec() }

// Slots is the number of classes of the sector.
func (s *Space) Slots() uint64 { return s.r.ClassCount(s.w, s.b) } // without the sector's tables

// toMove is the colour to move in the sector: White when the hands are equal (and by
// convention in the moving phase), else Black.
func (s *Space) toMove() Color {
	if s.wh == s.bh || s.r.Merged { // merged phases: the hands do not tell; White by convention
		return White
	}
	if s.wh == s.bh {
		return White
	}
	return Black
}

// SectorName writes a sector as "w-b".
func SectorName(w, b int) string { return fmt.Sprintf("%d-%d", w, b) }

// parseIn parses state and checks it belongs to this sector.
func (s *Space) parseIn(state string) (own, opp uint32, err error) {
	p, err := s.r.Parse(state)
	if err != nil {
		return 0, 0, err
	}
	own, opp = p.OwnOpp()
	oh, ph := p.Hands()
	if t := tierOf(bits.OnesCount32(own), bits.OnesCount32(opp), oh, ph); t != tierOf(s.w, s.b, s.wh, s.bh) {
		g := ForRules(s.r)
		return 0, 0, fmt.Errorf("%w %s: sector %s, this table holds sector %s", ErrPosition, notation.Quote(state),
			g.TierName(t), g.TierName(tierOf(s.w, s.b, s.wh, s.bh)))
	}
	return own, opp, nil
}

// Slot parses a position of this sector and returns its class's slot.
func (s *Space) Slot(state string) (uint64, bool, error) {
	own, opp, err := s.parseIn(state)
	if err != nil {
		return 0, false, err
	}
	return s.sec().Rank(own, opp), true, nil
}

// Normalize returns the position in the notation's canonical spelling.
func (s *Space) Normalize(state string) (string, error) {
	p, err := s.r.Parse(state)
	if err != nil {
		return "", err
	}
	return s.r.Format(p), nil
}

// StateOf returns the canonical position of slot: White to move in the moving phase, the
// colour the hands say in the placement phase.
func (s *Space) StateOf(slot uint64) (string, bool) {
	if slot >= s.Slots() {
		return "", false
	}
	own, opp := s.sec().Unrank(slot)
	return s.r.Format(FromOwnOpp(own, opp, s.toMove()).withHands(s.wh, s.bh)), true
}

// Moves lists the legal moves of a position in the notation — placements while the side
// to move holds stones, then slides and flights — and for each the position it leads to,
// or "" when the move ends the game (the opponent is left with fewer than 3 stones on the
// board and in hand, or the move closed a mill where a mill wins: lost). No moves means
// the side to move is blocked and has lost; no position of the family's games is over by
// the rules otherwise (over is always 0).
func (s *Space) Moves(state string) (moves []games.Move, over values.Outcome, err error) {
	p, err := s.r.Parse(state)
	if err != nil {
		return nil, 0, err
	}
	own, opp := p.OwnOpp()
	oh, ph := p.Hands()
	var succ []Succ
	switch {
	case s.r.Merged:
		succ = s.r.compiled().mergedSuccessors(nil, own, opp, oh)
	case oh > 0:
		succ = s.r.Placements(nil, own, opp)
	default:
		succ = s.r.Successors(nil, own, opp)
	}
	for _, sc := range succ {
		m := games.Move{Name: sc.Move.String()}
		left := oh // the mover's hand after the move
		if sc.Move.Placement() {
			left--
		}
		switch {
		case bits.OnesCount32(sc.Own)+ph < MinStones || sc.End == MillWon:
			m.End = values.Loss
		case sc.End == BoardFilled:
			m.End = values.Draw
		default:
			m.Next = s.r.Format(FromOwnOpp(sc.Own, sc.Opp, p.ToMove.Other()).withHands(ph, left))
		}
		moves = append(moves, m)
	}
	return moves, 0, nil
}

// RulesText states the rules of Nine Men's Morris the tables are built under, both phases;
// RulesID fingerprints it, and a set built under other rules is refused.
const RulesText = "Nine Men's Morris (Gasser 1996): each side starts with 9 stones in hand, White first; " +
	"while a side holds stones, its turn places one on an empty point; then a stone slides to an adjacent " +
	"empty point, or flies to any empty point when its side has exactly 3 stones on the board and none in hand; " +
	"a placement or a move closing one or two mills removes exactly one opponent stone, from outside the " +
	"opponent's mills unless all its stones stand in mills (none when the opponent has no stone on the board); " +
	"a side with fewer than 3 stones on the board and in hand, or without a legal move, loses; repetition is a draw"

// MovingRules are the rules of the moving phase alone, as sets built before the placement
// phase was modelled state them: their sectors are the same under Rules.
const MovingRules = "Nine Men's Morris, moving phase (Gasser 1996): a stone slides to an adjacent empty point, " +
	"or flies to any empty point when its side has exactly 3 stones; a move closing one or two mills removes " +
	"exactly one opponent stone, from outside the opponent's mills unless all its stones stand in mills; " +
	"a side left with 2 stones or without a legal move loses; repetition is a draw"

// RulesID is a short fingerprint of RulesText, Nine Men's Morris's rules.
func RulesID() string { return fingerprint("mill-v2-", RulesText) }

// movingRulesID is the fingerprint of MovingRules, which sets of moving-phase sectors
// built before the placement phase carry.
func movingRulesID() string { return fingerprint("mill-v1-", MovingRules) }

func fingerprint(prefix, rules string) string {
	sum := sha256.Sum256([]byte(rules))
	return prefix + hex.EncodeToString(sum[:8])
}
