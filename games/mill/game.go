package mill

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"math/bits"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/notation"
)

// Game describes Nine Men's Morris to the game registry (package games): one table per
// sector (w stones for the side to move, b for the opponent), win/loss/draw with
// remoteness, built by retrograde analysis sector pair by sector pair.
type Game struct{}

// Name is the game's name in table metadata.
func (Game) Name() string { return "mill" }

// Summary describes the game.
func (Game) Summary() string { return "Nine Men's Morris (Mühle), moving phase, one table per sector" }

// SchemeClassRank is the index scheme of sector tables: Sector's compact class rank.
const SchemeClassRank = "class-rank"

// Schemes lists the one index scheme.
func (Game) Schemes() []string { return []string{SchemeClassRank} }

// NewParams returns fresh parameters.
func (Game) NewParams() any { return &Params{} }

// Open returns the sector's Space.
func (Game) Open(params any, index string) (games.Space, error) {
	p, ok := params.(*Params)
	if !ok {
		return nil, fmt.Errorf("mill: parameters of type %T", params)
	}
	sp, err := NewSpace(p.W, p.B)
	if err != nil {
		return nil, err
	}
	return sp, nil
}

var _ games.TierSpace = (*Space)(nil)

// Params name one sector: W stones for the side to move, B for the opponent.
type Params struct {
	W int `json:"w"`
	B int `json:"b"`
}

// BindFlags declares flags that set p (a single sector; sets are built by pairs).
func (p *Params) BindFlags(fs *flag.FlagSet) {
	fs.IntVar(&p.W, "w", p.W, "stones of the side to move (3..9)")
	fs.IntVar(&p.B, "b", p.B, "stones of the opponent (3..9)")
}

// Space is one sector as the lookup reads it: positions in the notation, their slots,
// their moves. It is immutable and safe for concurrent use.
type Space struct {
	w, b int
	sec  *Sector
}

// NewSpace returns the space of sector (w, b).
func NewSpace(w, b int) (*Space, error) {
	sec, err := NewSector(w, b)
	if err != nil {
		return nil, err
	}
	return &Space{w: w, b: b, sec: sec}, nil
}

// Sector returns the sector's index scheme.
func (s *Space) Sector() *Sector { return s.sec }

// Slots is the number of classes of the sector.
func (s *Space) Slots() uint64 { return s.sec.Slots() }

// SectorName writes a sector as "w-b".
func SectorName(w, b int) string { return fmt.Sprintf("%d-%d", w, b) }

// parseIn parses state and checks it belongs to this sector.
func (s *Space) parseIn(state string) (own, opp uint32, err error) {
	p, err := Parse(state)
	if err != nil {
		return 0, 0, err
	}
	own, opp = p.OwnOpp()
	if w, b := bits.OnesCount32(own), bits.OnesCount32(opp); w != s.w || b != s.b {
		return 0, 0, fmt.Errorf("%w %s: sector %s, this table holds sector %s", ErrPosition, notation.Quote(state), SectorName(w, b), SectorName(s.w, s.b))
	}
	return own, opp, nil
}

// Slot parses a position of this sector and returns its class's slot.
func (s *Space) Slot(state string) (uint64, bool, error) {
	own, opp, err := s.parseIn(state)
	if err != nil {
		return 0, false, err
	}
	return s.sec.Rank(own, opp), true, nil
}

// Normalize returns the position in the notation's canonical spelling.
func (s *Space) Normalize(state string) (string, error) {
	p, err := Parse(state)
	if err != nil {
		return "", err
	}
	return p.String(), nil
}

// StateOf returns the canonical position of slot, White to move.
func (s *Space) StateOf(slot uint64) (string, bool) {
	if slot >= s.sec.Slots() {
		return "", false
	}
	own, opp := s.sec.Unrank(slot)
	return FromOwnOpp(own, opp, White).String(), true
}

// SectorOf returns the sector "w-b" of a position (w: stones of the side to move).
func (s *Space) SectorOf(state string) (string, error) {
	p, err := Parse(state)
	if err != nil {
		return "", err
	}
	own, opp := p.OwnOpp()
	return SectorName(bits.OnesCount32(own), bits.OnesCount32(opp)), nil
}

// Moves lists the legal moves of a position in the notation, and for each the position
// it leads to, or "" when the move ends the game (the opponent is left with 2 stones).
// No moves means the side to move is blocked and has lost.
func (s *Space) Moves(state string) (moves, next []string, err error) {
	p, err := Parse(state)
	if err != nil {
		return nil, nil, err
	}
	own, opp := p.OwnOpp()
	for _, sc := range Successors(nil, own, opp) {
		moves = append(moves, sc.Move.String())
		if bits.OnesCount32(sc.Own) < MinStones {
			next = append(next, "")
			continue
		}
		next = append(next, FromOwnOpp(sc.Own, sc.Opp, p.ToMove.Other()).String())
	}
	return moves, next, nil
}

// Successor codes of NewForward: the sector in the top byte (w·16 + b), the slot below;
// Won marks a move that ends the game at once.
const (
	SectorShift        = 56
	Won         uint64 = 1<<64 - 1
)

// NextSectors lists the sectors the moves of sector (w, b) lead into, with the opponent
// to move: (b, w) by a move without capture, and (b−1, w) by a capture (none when the
// opponent is left with 2 stones: the game ends).
func NextSectors(w, b int) (move, capture [2]int, captureOK bool) {
	return [2]int{b, w}, [2]int{b - 1, w}, b-1 >= MinStones
}

// SectorCode is the code of sector (w, b) in NewForward's successor entries.
func SectorCode(w, b int) uint64 { return uint64(w*16 + b) }

// NewForward returns, for one goroutine, a function appending every move's successor of
// slot: SectorCode(w', b')<<SectorShift | slot' in the successor's sector, or Won. It
// lets a checker recompute every stored value from the successors' (package tables).
func (s *Space) NewForward() func(slot uint64, dst []uint64) []uint64 {
	succ := make([]Succ, 0, 256)
	var secs [MaxStones + 1][MaxStones + 1]*Sector
	return func(slot uint64, dst []uint64) []uint64 {
		own, opp := s.sec.Unrank(slot)
		succ = Successors(succ[:0], own, opp)
		for _, sc := range succ {
			w, b := bits.OnesCount32(sc.Own), bits.OnesCount32(sc.Opp)
			if w < MinStones {
				dst = append(dst, Won)
				continue
			}
			sec := secs[w][b]
			if sec == nil {
				sec, _ = NewSector(w, b)
				secs[w][b] = sec
			}
			dst = append(dst, SectorCode(w, b)<<SectorShift|sec.Rank(sc.Own, sc.Opp))
		}
		return dst
	}
}

// Rules states the rules the tables are built under; RulesID fingerprints it, and a
// sector set built under other rules is refused.
const Rules = "Nine Men's Morris, moving phase (Gasser 1996): a stone slides to an adjacent empty point, " +
	"or flies to any empty point when its side has exactly 3 stones; a move closing one or two mills removes " +
	"exactly one opponent stone, from outside the opponent's mills unless all its stones stand in mills; " +
	"a side left with 2 stones or without a legal move loses; repetition is a draw"

// RulesID is a short fingerprint of Rules.
func RulesID() string {
	sum := sha256.Sum256([]byte(Rules))
	return "mill-v1-" + hex.EncodeToString(sum[:8])
}
