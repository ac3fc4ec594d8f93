package hanoi

import (
	"errors"
	"flag"
	"fmt"

	"github.com/tablesmith/tablesmith/games"
)

// Game describes the Towers of Hanoi to the game registry (package games): full tables of
// remoteness to the goal peg, built by breadth-first search over symmetry classes.
type Game struct{}

// Name is the game's name in table metadata.
func (Game) Name() string { return "hanoi" }

// Summary describes the game.
func (Game) Summary() string { return "Towers of Hanoi with 3..6 pegs" }

// Schemes lists the index schemes, the default first.
func (Game) Schemes() []string { return SchemeNames() }

// NewParams returns fresh parameters: 3 pegs.
func (Game) NewParams() any { return &Params{Pegs: 3} }

// Open returns the Space of params (a *Params) under the index scheme.
func (g Game) Open(params any, index string) (games.Space, error) { return g.OpenPuzzle(params, index) }

// OpenPuzzle returns the Space of params (a *Params) under the index scheme.
func (Game) OpenPuzzle(params any, index string) (games.PuzzleSpace, error) {
	p, ok := params.(*Params)
	if !ok {
		return nil, fmt.Errorf("hanoi: parameters of type %T", params)
	}
	q := *p
	q.Index = index
	sp, err := NewSpace(q)
	if err != nil {
		return nil, err
	}
	return sp, nil
}

// The capability the registry hands out, checked here at compile time.
var _ games.PuzzleGame = Game{}

// BindFlags declares the build flags that set p.
func (p *Params) BindFlags(fs *flag.FlagSet) {
	fs.IntVar(&p.Pegs, "pegs", p.Pegs, "number of pegs (3..6)")
	fs.IntVar(&p.Disks, "disks", p.Disks, "number of disks")
}

// Validate says what is wrong with p before anything is built.
func (p *Params) Validate() error {
	if p.Disks == 0 {
		return errors.New("hanoi: --disks is required")
	}
	return nil
}

// Pegs is a state as a typed probe: Pegs[i] is the peg of disk i+1 (disk 1 the smallest).
type Pegs []uint8

// SlotOfState returns the slot of a typed state (canonicalised as Slot does).
func (s *Space) SlotOfState(st Pegs) (uint64, bool, error) {
	if len(st) != s.n {
		return 0, false, fmt.Errorf("hanoi: %d disks, want %d", len(st), s.n)
	}
	for i, peg := range st {
		if int(peg) >= s.k {
			return 0, false, fmt.Errorf("hanoi: disk %d on peg %d; %d pegs are 0..%d", i+1, peg, s.k, s.k-1)
		}
	}
	return s.Rank(st), true, nil
}

// FormatState writes a typed state in the notation.
func (s *Space) FormatState(st Pegs) string { return Format(st) }

// StateOf returns the (canonical) state at slot in the notation; ok is false for a hole.
func (s *Space) StateOf(slot uint64) (string, bool) {
	st := make([]uint8, s.n)
	if !s.Unrank(slot, st) {
		return "", false
	}
	return Format(st), true
}
