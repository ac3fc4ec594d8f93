// Package scorch is a small two-player game defined outside tablesmith and solved by it:
// the example of games/registry.Register. Importing it registers the game as "scorch".
//
// The rules. The board is a 3×3 grid of cells, numbered 1..9 row by row from the
// top-left; two cells are adjacent when they share a side. Each player has one token on
// the board. A turn steps the mover's token to an adjacent cell that is neither scorched
// nor held by the other token, and may scorch the cell it left: a scorched cell stays
// scorched for the rest of the game. A player who cannot move has lost. Nothing else ends
// the game: endless stepping is a draw.
//
// A position is written from the side to move's view: 9 characters for the cells, 'X' the
// token of the side to move, 'O' the other, '#' a scorched cell, '.' a free one
// ("X...#...O"). After a move the roles swap: the token that moved is then 'O'. A move is
// written "a-b" (a step from cell a to cell b), "a-b#" when it scorches a.
//
// The tiers are the number of scorched cells, 0 to 7 (two cells hold the tokens): a step
// stays in its tier, so that a tier's positions reach each other (retrograde analysis
// meets cycles and draws there), and a step that scorches leads to the next tier, which is
// solved first. Tier k holds C(9,k)·(9−k)·(8−k) positions, numbered in the order of their
// scorched cells (as a 9-bit mask), then the X cell, then the O cell; 9,216 in all. In
// tier 7 no cell is free: every position is lost.
package scorch

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"sync"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/values"
)

// Name is the game's name on the command line and in table metadata.
const Name = "scorch"

// Cells is the number of cells; MaxScorched the most scorched cells a position has.
const (
	Cells       = 9
	MaxScorched = Cells - 2
)

// Rules states the rules; RulesID fingerprints them, and a set built under other rules is
// refused.
const Rules = "scorch v1: a 3×3 grid, cells adjacent by sides; each side one token; a turn steps the mover's " +
	"token to an adjacent cell neither scorched nor held by the other token, and may scorch the cell left; " +
	"a side that cannot move loses; endless play is a draw"

// adj lists each cell's neighbours (cells 0..8 row by row).
var adj = func() [Cells][]int {
	var a [Cells][]int
	for c := range Cells {
		r, k := c/3, c%3
		for _, d := range [][2]int{{-1, 0}, {0, -1}, {0, 1}, {1, 0}} {
			if rr, kk := r+d[0], k+d[1]; rr >= 0 && rr < 3 && kk >= 0 && kk < 3 {
				a[c] = append(a[c], rr*3+kk)
			}
		}
	}
	return a
}()

// Pos is a position: the scorched cells (bit c for cell c), the cell of the side to move's
// token and of the other's.
type Pos struct {
	Scorched uint16
	X, O     int8
}

// Tier is the position's tier: its number of scorched cells.
func (p Pos) Tier() games.Tier { return games.Tier(bits.OnesCount16(p.Scorched)) }

// String writes the position in the notation.
func (p Pos) String() string {
	b := []byte(strings.Repeat(".", Cells))
	for c := range Cells {
		if p.Scorched&(1<<c) != 0 {
			b[c] = '#'
		}
	}
	b[p.X], b[p.O] = 'X', 'O'
	return string(b)
}

// Parse reads a position in the notation.
func Parse(s string) (Pos, error) {
	if len(s) != Cells {
		return Pos{}, fmt.Errorf("scorch: position %q: want %d cells (X, O, # or .), got %d characters", s, Cells, len(s))
	}
	p, x, o := Pos{}, 0, 0
	for c := range Cells {
		switch s[c] {
		case 'X':
			p.X = int8(c)
			x++
		case 'O':
			p.O = int8(c)
			o++
		case '#':
			p.Scorched |= 1 << c
		case '.':
		default:
			return Pos{}, fmt.Errorf("scorch: position %q: cell %d is %q, want X, O, # or .", s, c+1, s[c])
		}
	}
	if x != 1 || o != 1 {
		return Pos{}, fmt.Errorf("scorch: position %q: want one X and one O, got %d and %d", s, x, o)
	}
	return p, nil
}

// Move is a move: from cell, to cell, and whether it scorches the cell left.
type Move struct {
	From, To int8
	Scorch   bool
}

func (m Move) String() string {
	s := fmt.Sprintf("%d-%d", m.From+1, m.To+1)
	if m.Scorch {
		s += "#"
	}
	return s
}

// Moves appends the legal moves of p to dst, in cell order, each step before the same step
// scorching.
func (p Pos) Moves(dst []Move) []Move {
	for _, to := range adj[p.X] {
		if p.Scorched&(1<<to) == 0 && to != int(p.O) {
			dst = append(dst, Move{p.X, int8(to), false}, Move{p.X, int8(to), true})
		}
	}
	return dst
}

// Play returns the position after move m, seen from the new side to move.
func (p Pos) Play(m Move) Pos {
	q := Pos{Scorched: p.Scorched, X: p.O, O: m.To}
	if m.Scorch {
		q.Scorched |= 1 << m.From
	}
	return q
}

// numbering is every tier's positions in slot order, and their slots.
type numbering struct {
	pos  [MaxScorched + 1][]Pos
	slot map[Pos]uint64
}

// index is the numbering, made once (9,216 positions).
var index = sync.OnceValue(func() *numbering {
	ix := &numbering{slot: map[Pos]uint64{}}
	for mask := range uint16(1 << Cells) {
		k := bits.OnesCount16(mask)
		if k > MaxScorched {
			continue
		}
		for x := range int8(Cells) {
			for o := range int8(Cells) {
				if x != o && mask&(1<<x) == 0 && mask&(1<<o) == 0 {
					p := Pos{mask, x, o}
					ix.slot[p] = uint64(len(ix.pos[k]))
					ix.pos[k] = append(ix.pos[k], p)
				}
			}
		}
	}
	return ix
})

// Game is the game as the registry and the orchestrator see it.
type Game struct{}

var _ games.TieredGame = Game{}

func init() { registry.MustRegister(Game{}) }

func (Game) Name() string { return Name }
func (Game) Summary() string {
	return "scorch: step your token on a 3×3 grid, maybe scorching the cell you leave; who cannot move loses (an example from another module)"
}

// SchemeList is the one index scheme: the positions of a tier in the order of the package
// comment.
const SchemeList = "list"

func (Game) Schemes() []string { return []string{SchemeList} }
func (Game) NewParams() any    { return &Params{} }
func (Game) TierNoun() string  { return "tier" }

// RulesID is a short fingerprint of Rules.
func (Game) RulesID() string {
	sum := sha256.Sum256([]byte(Rules))
	return "scorch-v1-" + hex.EncodeToString(sum[:8])
}

// Tiers lists the tiers, those solved first (more scorched cells) first.
func (Game) Tiers() []games.Tier {
	var out []games.Tier
	for k := MaxScorched; k >= 0; k-- {
		out = append(out, games.Tier(k))
	}
	return out
}

// BindTierFlags declares --min-scorched: the tiers of at least N scorched cells (an
// endgame, which depends on nothing else).
func (g Game) BindTierFlags(fs *flag.FlagSet) func() ([]games.Tier, error) {
	least := fs.Int("min-scorched", 0, "only the tiers with at least N scorched cells")
	return func() ([]games.Tier, error) {
		if *least < 0 || *least > MaxScorched {
			return nil, fmt.Errorf("--min-scorched %d: want 0 to %d", *least, MaxScorched)
		}
		return g.Tiers()[:MaxScorched-*least+1], nil
	}
}

func (Game) TierName(t games.Tier) string { return strconv.FormatUint(uint64(t), 10) }

func (Game) ParseTier(name string) (games.Tier, error) {
	k, err := strconv.Atoi(name)
	if err != nil || k < 0 || k > MaxScorched || strconv.Itoa(k) != name {
		return 0, fmt.Errorf("scorch: no tier %q: want the number of scorched cells, 0 to %d", name, MaxScorched)
	}
	return games.Tier(k), nil
}

// TierChildren: a step stays in the tier, a step that scorches leads to the next one; in
// the last tier nobody can move.
func (Game) TierChildren(t games.Tier) []games.Tier {
	if t >= MaxScorched {
		return nil
	}
	return []games.Tier{t, t + 1}
}

func (Game) TierSize(t games.Tier) uint64 {
	if t > MaxScorched {
		return 0
	}
	return uint64(len(index().pos[t]))
}

func (Game) TierParams(t games.Tier) any { return &Params{Scorched: int(t)} }

func (Game) TierOf(state string) (games.Tier, error) {
	p, err := Parse(state)
	if err != nil {
		return 0, err
	}
	if p.Tier() > MaxScorched {
		return 0, fmt.Errorf("scorch: position %q: more than %d cells scorched", state, MaxScorched)
	}
	return p.Tier(), nil
}

func (Game) NewTierWorker() games.TierWorker { return worker{} }

// Open returns the space of the tier params name.
func (Game) Open(params any, index string) (games.Space, error) {
	p, ok := params.(*Params)
	if !ok || index != SchemeList {
		return nil, fmt.Errorf("scorch: parameters %T, index scheme %q", params, index)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return Space{games.Tier(p.Scorched)}, nil
}

// Params name one tier's table: its number of scorched cells.
type Params struct {
	Scorched int `json:"scorched"`
}

func (p *Params) BindFlags(fs *flag.FlagSet) {
	fs.IntVar(&p.Scorched, "scorched", p.Scorched, "the tier: scorched cells")
}

func (p *Params) Validate() error {
	if p.Scorched < 0 || p.Scorched > MaxScorched {
		return fmt.Errorf("scorch: %d scorched cells: want 0 to %d", p.Scorched, MaxScorched)
	}
	return nil
}

// Space is one tier's table as the lookup reads it.
type Space struct{ t games.Tier }

var _ games.TierSpace = Space{}

func (s Space) Slots() uint64 { return Game{}.TierSize(s.t) }

// ErrOtherTier marks a position of another tier than the table's.
var ErrOtherTier = errors.New("scorch: position of another tier")

func (s Space) Slot(state string) (uint64, bool, error) {
	p, err := Parse(state)
	if err != nil {
		return 0, false, err
	}
	if p.Tier() != s.t {
		return 0, false, fmt.Errorf("%w: %s has %d scorched cells, this table %d", ErrOtherTier, state, p.Tier(), s.t)
	}
	return index().slot[p], true, nil
}

func (s Space) Normalize(state string) (string, error) {
	p, err := Parse(state)
	if err != nil {
		return "", err
	}
	return p.String(), nil
}

func (s Space) StateOf(slot uint64) (string, bool) {
	if slot >= s.Slots() {
		return "", false
	}
	return index().pos[s.t][slot].String(), true
}

// Moves lists the legal moves of a position and the position each leads to.
func (s Space) Moves(state string) (moves []games.Move, over values.Outcome, err error) {
	p, err := Parse(state)
	if err != nil {
		return nil, 0, err
	}
	for _, m := range p.Moves(nil) {
		moves = append(moves, games.Move{Name: m.String(), Next: p.Play(m).String()})
	}
	return moves, 0, nil // no position is over by the rules: one without a move has lost
}

// worker generates moves and un-moves for the solver (it holds nothing: any goroutine).
type worker struct{}

func (worker) Children(t games.Tier, lo, hi uint64, b *games.ChildBatch) {
	b.Reset()
	ix := index()
	var buf [8]Move
	for s := lo; s < hi; s++ {
		p := ix.pos[t][s]
		for _, m := range p.Moves(buf[:0]) {
			q := p.Play(m)
			b.Pos = append(b.Pos, games.TierPosition{Tier: q.Tier(), Slot: ix.slot[q]})
		}
		b.Close()
	}
}

// Parents: the token that moved last is O, now on cell v; it came from a neighbour u of v
// that is free (a step, from the same tier) or scorched (a step that scorched u, from the
// tier below). The token now to move was then the other.
func (worker) Parents(t games.Tier, slots []uint64, from games.Tier, b *games.ParentBatch) {
	b.Reset()
	ix := index()
	for _, s := range slots {
		q := ix.pos[t][s]
		for _, u := range adj[q.O] {
			scorched := q.Scorched&(1<<u) != 0
			switch {
			case from == t && !scorched && u != int(q.X):
				b.Slots = append(b.Slots, ix.slot[Pos{q.Scorched, int8(u), q.X}])
			case from+1 == t && scorched:
				b.Slots = append(b.Slots, ix.slot[Pos{q.Scorched &^ (1 << u), int8(u), q.X}])
			}
		}
		b.Close()
	}
}
