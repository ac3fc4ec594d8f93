package slide

import (
	"errors"
	"flag"
	"fmt"
	"slices"

	"github.com/tablesmith/tablesmith/games"
)

// Game describes the sliding-tile puzzles to the game registry (package games): full
// tables of remoteness, built by breadth-first search.
type Game struct{}

// Name is the game's name in table metadata.
func (Game) Name() string { return "slide" }

// Summary describes the game.
func (Game) Summary() string { return "M×N sliding-tile puzzles (the 8-puzzle is 3×3)" }

// Schemes lists the index schemes, the default first (branch767359 only for 3×3).
func (Game) Schemes() []string { return []string{"lex-half", "lex", "mr", "branch767359"} }

// NewParams returns fresh parameters with the default goal.
func (Game) NewParams() any { return &Params{Goal: BlankLast.String()} }

// Open returns the Space of params (a *Params) under the index scheme.
func (g Game) Open(params any, index string) (games.Space, error) { return g.OpenPuzzle(params, index) }

// OpenPuzzle returns the Space of params (a *Params) under the index scheme.
func (Game) OpenPuzzle(params any, index string) (games.PuzzleSpace, error) {
	p, ok := params.(*Params)
	if !ok {
		return nil, fmt.Errorf("slide: parameters of type %T", params)
	}
	q := *p
	q.Index = index
	sp, err := NewSpace(q)
	if err != nil {
		return nil, err
	}
	return sp, nil
}

// The capabilities the registry hands out, checked here at compile time.
var (
	_ games.PuzzleGame = Game{}
	_ games.PDBFamily  = PDBGame{}
)

// BindFlags declares the build flags that set p.
func (p *Params) BindFlags(fs *flag.FlagSet) {
	fs.IntVar(&p.Rows, "rows", p.Rows, "board rows")
	fs.IntVar(&p.Cols, "cols", p.Cols, "board columns")
	fs.StringVar(&p.Goal, "goal", p.Goal, "goal layout: blank-last or blank-first")
}

// Validate says what is wrong with p before anything is built.
func (p *Params) Validate() error {
	if p.Rows == 0 || p.Cols == 0 {
		return errors.New("slide: --rows and --cols are required")
	}
	return nil
}

// PDBGame describes one group file of an additive pattern-database set to the registry.
// Sets are built as a whole (package build); the registry lets every command open, show
// and verify a single group file.
type PDBGame struct{}

// Name is the game's name in table metadata.
func (PDBGame) Name() string { return "slide-pdb" }

// Summary describes the game.
func (PDBGame) Summary() string {
	return "one group of an additive pattern-database set of a sliding-tile puzzle"
}

// Schemes lists the one index scheme: partial permutations of the group's tiles.
func (PDBGame) Schemes() []string { return []string{"partial-perm"} }

// NewParams returns fresh parameters with the default goal.
func (PDBGame) NewParams() any { return &PDBParams{Goal: BlankLast.String()} }

// Open returns the group's PDBGroup.
func (g PDBGame) Open(params any, index string) (games.Space, error) { return g.OpenPDB(params, index) }

// OpenPDB returns the group's PDBGroup.
func (PDBGame) OpenPDB(params any, index string) (games.PDBSpace, error) {
	p, ok := params.(*PDBParams)
	if !ok {
		return nil, fmt.Errorf("slide: parameters of type %T", params)
	}
	grp, err := NewPDBGroup(*p)
	if err != nil {
		return nil, err
	}
	return grp, nil
}

// PDBParams name one pattern-database group: the board, the goal and the group's tiles
// (in increasing order).
type PDBParams struct {
	Rows  int    `json:"rows"`
	Cols  int    `json:"cols"`
	Goal  string `json:"goal"`
	Tiles []int  `json:"tiles"`
}

// BindFlags declares the flags that set p (the board and goal; groups are set by the
// set's build).
func (p *PDBParams) BindFlags(fs *flag.FlagSet) {
	fs.IntVar(&p.Rows, "rows", p.Rows, "board rows")
	fs.IntVar(&p.Cols, "cols", p.Cols, "board columns")
	fs.StringVar(&p.Goal, "goal", p.Goal, "goal layout: blank-last or blank-first")
}

// TilesUint8 returns the group's tiles as bytes, checking their range.
func (p *PDBParams) TilesUint8() ([]uint8, error) {
	out := make([]uint8, len(p.Tiles))
	for i, t := range p.Tiles {
		if t < 0 || t > 255 {
			return nil, fmt.Errorf("slide: tile %d", t)
		}
		out[i] = uint8(t)
	}
	if !slices.IsSorted(out) {
		return nil, fmt.Errorf("slide: group tiles %v not in increasing order", p.Tiles)
	}
	return out, nil
}

// Board is a state as a typed probe: Board[c] is the tile on cell c (0 the blank).
type Board []uint8

// SlotOfState returns the slot of a typed state; ok is false as for Slot.
func (s *Space) SlotOfState(b Board) (uint64, bool, error) {
	if err := s.geo.Check(b); err != nil {
		return 0, false, err
	}
	var pos [MaxCells]uint8
	slot, ok := s.SlotOf(b, pos[:s.n])
	return slot, ok, nil
}

// FormatState writes a typed state in the notation.
func (s *Space) FormatState(b Board) string { return s.geo.Format(b) }

// StateOf returns the board at slot in the notation; ok is false for a hole.
func (s *Space) StateOf(slot uint64) (string, bool) {
	var boardBuf, posBuf [MaxCells]uint8 // a path spells a state a move: no allocation but the string
	board := boardBuf[:s.n]
	if s.kind == kindBranch {
		if !s.branch.Unrank(slot, board) {
			return "", false
		}
		return s.geo.Format(board), true
	}
	pos := posBuf[:s.n]
	s.unrankPos(slot, pos)
	for tile, cell := range pos {
		board[cell] = uint8(tile)
	}
	return s.geo.Format(board), true
}
