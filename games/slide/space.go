package slide

import (
	"fmt"

	"github.com/tablesmith/tablesmith/index"
	"github.com/tablesmith/tablesmith/internal/cacheline"
)

// Params name a sliding-tile table: the board, the goal layout and the index scheme.
type Params struct {
	Rows  int    `json:"rows"`
	Cols  int    `json:"cols"`
	Goal  string `json:"goal"`
	Index string `json:"-"` // stored as the table's index, not among its parameters
}

// schemeKind selects the rank/unrank code path without an interface call per state.
type schemeKind uint8

const (
	kindLex schemeKind = iota
	kindLexHalf
	kindMR
	kindBranch
)

// maxSpaceCells bounds the boards a Space can rank: 20! is the largest factorial below 2^63.
const maxSpaceCells = 20

// Space is a sliding-tile puzzle under one index scheme: the slot space the builder
// searches and the domain the lookup reads. The lex, lex-half and mr schemes rank the
// position vector (pos[tile] = cell, blank = tile 0 first): then the two permutations
// that a parity-halved rank pairs up differ by swapping the cells of the two highest
// tiles, never the blank, so exactly one of them is solvable. branch767359 ranks the board
// itself (board[cell] = tile), as the seed's hash of the 9-digit string did.
type Space struct {
	p         Params
	geo       *Geometry
	goal      Goal
	goalBoard []uint8
	goalBlank int
	goalClass int // the solvability invariant of the goal, see class
	kind      schemeKind
	lex       *index.Lex
	half      *index.LexHalf
	mr        *index.MyrvoldRuskey
	branch    *index.Branch767359
	slots     uint64
	n         int
	fact      [32]int64 // fact[i] = (n-1-i)!, the place value of Lehmer digit i (32: index &31)
	blankPar  [32]int   // blankPar[c]: the parity of the blank's distance on cell c from its goal cell
}

// SchemeNames lists the index schemes a board of n cells supports.
func SchemeNames(cells int) []string {
	names := []string{"lex", "lex-half", "mr"}
	if cells == 9 {
		names = append(names, "branch767359")
	}
	return names
}

// NewSpace validates p and prepares the scheme's tables.
func NewSpace(p Params) (*Space, error) {
	geo, err := NewGeometry(p.Rows, p.Cols)
	if err != nil {
		return nil, err
	}
	if p.Goal == "" {
		p.Goal = BlankLast.String()
	}
	goal, err := ParseGoal(p.Goal)
	if err != nil {
		return nil, err
	}
	n := geo.Cells()
	if n > maxSpaceCells {
		return nil, fmt.Errorf("slide: a %d×%d board has %d cells; index schemes rank at most %d", p.Rows, p.Cols, n, maxSpaceCells)
	}
	s := &Space{p: p, geo: geo, goal: goal, goalBoard: geo.GoalBoard(goal), n: n}
	for i := range n {
		s.fact[i] = int64(index.Factorial(n - 1 - i))
	}
	s.goalBlank = Blank(s.goalBoard)
	for c := range n {
		s.blankPar[c] = (abs(c/p.Cols-s.goalBlank/p.Cols) + abs(c%p.Cols-s.goalBlank%p.Cols)) & 1
	}
	s.goalClass = s.class(s.goalBoard)
	switch p.Index {
	case "lex":
		s.kind, s.lex, s.slots = kindLex, index.NewLex(n), index.Factorial(n)
	case "lex-half":
		s.kind, s.half, s.slots = kindLexHalf, index.NewLexHalf(n), index.Factorial(n)/2
	case "mr":
		s.kind, s.mr, s.slots = kindMR, index.NewMyrvoldRuskey(n), index.Factorial(n)
	case "branch767359":
		if n != 9 {
			return nil, fmt.Errorf("slide: the branch767359 scheme is for the 8-puzzle (9 cells), not %d cells", n)
		}
		s.kind, s.branch = kindBranch, index.NewBranch767359()
		s.slots = s.branch.Size()
	default:
		return nil, fmt.Errorf("slide: unknown index scheme %q (want one of %v)", p.Index, SchemeNames(n))
	}
	return s, nil
}

// Params returns the parameters with defaults filled in.
func (s *Space) Params() Params { return s.p }

// Geometry returns the board geometry.
func (s *Space) Geometry() *Geometry { return s.geo }

// class is the invariant that decides solvability: every move is one transposition of
// the board and moves the blank one cell, so permutation parity XOR the parity of the
// blank's distance to its goal cell never changes.
func (s *Space) class(board []uint8) int {
	return index.Parity(board) ^ s.blankPar[Blank(board)&31]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Slots is the number of slots of the scheme.
func (s *Space) Slots() uint64 { return s.slots }

// ExpectedStates is the number of solvable states, n!/2.
func (s *Space) ExpectedStates() uint64 { return index.Factorial(s.n) / 2 }

// DepthBound bounds the remoteness: the 15-puzzle's diameter is 80, smaller boards less.
func (s *Space) DepthBound() uint64 {
	if s.n <= 16 {
		return 253
	}
	return 65533
}

// Goals is the goal's slot.
func (s *Space) Goals() []uint64 {
	pos := make([]uint8, s.n)
	return []uint64{s.rank(s.goalBoard, pos)}
}

// HasHoles reports whether the scheme leaves slots that are no board: only the branch
// hash does.
func (s *Space) HasHoles() bool { return s.kind == kindBranch }

// MovesReversible reports that a slide can be slid back: the expander of a board lists
// every board whose expansion lists it.
func (s *Space) MovesReversible() bool { return true }

// RunSide reports the side of the slots lo..hi-1 where they all have the blank on cells
// of one colour (side 0: the goal's blank cell's colour); every slide changes the
// blank's colour. The lex schemes rank the blank's cell first, so each cell's boards are
// one run of (n-1)! slots ((n-1)!/2 under lex-half); the other schemes answer for single
// slots only.
func (s *Space) RunSide(lo, hi uint64) (side uint8, ok bool) {
	if lo >= hi || hi > s.slots {
		return 0, false
	}
	switch s.kind {
	case kindLex, kindLexHalf:
		run := uint64(s.fact[0])
		if s.kind == kindLexHalf {
			run /= 2
		}
		first, last := lo/run, (hi-1)/run
		for c := first + 1; c <= last; c++ {
			if s.blankPar[c] != s.blankPar[first] {
				return 0, false
			}
		}
		return uint8(s.blankPar[first]), true
	case kindBranch:
		if hi-lo != 1 {
			return 0, false
		}
		var board [9]uint8
		if !s.branch.Unrank(lo, board[:]) {
			return 0, true // a hole: no state to be on the wrong side
		}
		return uint8(s.blankPar[Blank(board[:])&31]), true
	default:
		if hi-lo != 1 {
			return 0, false
		}
		pos := make([]uint8, s.n)
		s.unrankPos(lo, pos)
		return uint8(s.blankPar[pos[0]&31]), true
	}
}

// run is the slots of one blank cell under the lex schemes: (n-1)!, halved under
// lex-half.
func (s *Space) run() uint64 {
	run := uint64(s.fact[0])
	if s.kind == kindLexHalf {
		run /= 2
	}
	return run
}

// MoveShifts lists the horizontal moves as shifts of whole runs (games.Shifted): under
// the lex schemes a board's rank is its blank's cell, then the order of its tiles'
// cells, which a horizontal move keeps (the tile passes no other), so the board with the
// blank one cell left or right is exactly one run of slots away (lex-half halves a rank
// whose run is even). The other schemes, and boards whose runs are not whole words of
// codes (under 10 cells), have none.
func (s *Space) MoveShifts() (lo, hi []uint64, delta []int64) {
	if s.kind != kindLex && s.kind != kindLexHalf || s.run()%32 != 0 {
		return nil, nil, nil
	}
	run := s.run()
	for c := range s.n {
		for _, from := range s.geo.Neighbors(c) {
			if int(from)/s.geo.Cols != c/s.geo.Cols {
				continue // vertical
			}
			lo = append(lo, uint64(c)*run)
			hi = append(hi, uint64(c+1)*run)
			delta = append(delta, (int64(from)-int64(c))*int64(run))
		}
	}
	return lo, hi, delta
}

// NewRestExpander is NewExpander less the moves MoveShifts lists: the vertical ones.
func (s *Space) NewRestExpander() func(dst, src []uint64) []uint64 {
	if lo, _, _ := s.MoveShifts(); lo == nil {
		return s.NewExpander()
	}
	return s.newLexExpander(true)
}

// IsHole reports slots that are no board: only the branch hash has them.
func (s *Space) IsHole(slot uint64) bool {
	if s.kind != kindBranch {
		return false
	}
	var p [9]uint8
	return !s.branch.Unrank(slot, p[:])
}

// rank returns the slot of board; pos is scratch of length n.
func (s *Space) rank(board, pos []uint8) uint64 {
	if s.kind == kindBranch {
		return s.branch.Rank(board)
	}
	positions(pos, board)
	return s.rankPos(pos)
}

// rankPos ranks a position vector (all schemes but the branch hash).
func (s *Space) rankPos(pos []uint8) uint64 {
	switch s.kind {
	case kindLex:
		return s.lex.Rank(pos)
	case kindLexHalf:
		return s.half.Rank(pos)
	default:
		return s.mr.Rank(pos)
	}
}

// unrankPos fills pos with the position vector at slot (all schemes but the branch hash).
func (s *Space) unrankPos(slot uint64, pos []uint8) {
	if s.kind == kindMR {
		s.mr.Unrank(slot, pos)
		return
	}
	s.unrankLex(slot, pos)
}

// unrankLex fills pos with the position vector at slot under lex or lex-half and returns
// its lexicographic rank.
func (s *Space) unrankLex(slot uint64, pos []uint8) uint64 {
	if s.kind == kindLex {
		s.lex.Unrank(slot, pos)
		return slot
	}
	return s.solvableMember(slot, s.half.UnrankPair(slot, pos), pos)
}

// solvableMember turns pos, the permutation at lexicographic rank 2·slot with the given
// parity, into the solvable member of lex-half's pair at slot, and returns its rank.
func (s *Space) solvableMember(slot uint64, parity int, pos []uint8) uint64 {
	// The pair differs in the cells of the two highest tiles; keep the solvable one.
	if parity^s.blankPar[pos[0]&31] != s.goalClass {
		pos[s.n-2], pos[s.n-1] = pos[s.n-1], pos[s.n-2]
		return 2*slot + 1
	}
	return 2 * slot
}

// positions writes pos[tile] = cell for board.
func positions(pos, board []uint8) {
	for cell, tile := range board {
		pos[tile] = uint8(cell)
	}
}

// NewExpander returns a worker's expander: unrank each slot, slide each tile next to the
// blank into it, rank the result. The lexicographic schemes do neither per state: a
// block of ranks sharing a prefix is unranked once and each move is a table read and an
// add (lexmoves.go). Myrvold–Ruskey updates the two entries of the position vector a move
// changes (the blank's and the tile's) instead of rebuilding it per move.
//
// The board and position vector, written for every state, are allocated on cache lines of
// their own (internal/cacheline): two workers' 12-byte buffers side by side in one line
// doubled the time of a 3×4 build.
func (s *Space) NewExpander() func(dst, src []uint64) []uint64 {
	board := cacheline.Make[uint8](s.n)
	pos := cacheline.Make[uint8](s.n)
	if s.kind == kindBranch {
		return func(dst, src []uint64) []uint64 {
			for _, slot := range src {
				if !s.branch.Unrank(slot, board) {
					continue
				}
				blank := Blank(board)
				for _, from := range s.geo.Neighbors(blank) {
					Slide(board, blank, int(from))
					dst = append(dst, s.branch.Rank(board))
					Slide(board, int(from), blank)
				}
			}
			return dst
		}
	}
	if s.kind == kindLex || s.kind == kindLexHalf {
		return s.newLexExpander(false)
	}
	return func(dst, src []uint64) []uint64 {
		for _, slot := range src {
			s.unrankPos(slot, pos)
			for tile, cell := range pos {
				board[cell] = uint8(tile)
			}
			blank := pos[0]
			for _, from := range s.geo.Neighbors(int(blank)) {
				tile := board[from]
				pos[0], pos[tile] = from, blank
				dst = append(dst, s.rankPos(pos))
				pos[0], pos[tile] = blank, from
			}
		}
		return dst
	}
}

// Slot parses a state and returns its slot; ok is false for an unsolvable state under
// the parity-halved scheme, which has slots for the solvable class only.
func (s *Space) Slot(state string) (uint64, bool, error) {
	slot, ok, _, err := s.SlotSpelling(state)
	return slot, ok, err
}

// SlotSpelling is Slot and Normalize with one parse: the lookup of a state needs both.
// The compact digit form, the usual input on boards up to 10 cells, is read without
// allocating and is its own canonical spelling.
func (s *Space) SlotSpelling(state string) (slot uint64, ok bool, canon string, err error) {
	var buf, pos [MaxCells]uint8
	board := buf[:s.n]
	canon = state
	if !s.geo.parseCompact(state, board) {
		if board, err = s.geo.Parse(state); err != nil {
			return 0, false, "", err
		}
		canon = s.geo.Format(board)
	}
	slot, ok = s.SlotOf(board, pos[:s.n])
	return slot, ok, canon, nil
}

// SlotOf returns the slot of a valid board (see Geometry.Check); ok is false for an
// unsolvable board under the parity-halved scheme. pos is scratch of length Cells().
func (s *Space) SlotOf(board, pos []uint8) (slot uint64, ok bool) {
	if s.kind == kindLexHalf {
		// The class from the rank's own parity: the position vector is the inverse
		// permutation of the board, so it has the board's parity, and pos[0] is the
		// blank's cell.
		positions(pos, board)
		slot, parity := s.half.RankParity(pos)
		return slot, parity^s.blankPar[pos[0]&31] == s.goalClass
	}
	return s.rank(board, pos), true
}

// Neighbors returns the states one move away, in the order of Geometry.Neighbors of the
// blank (up, left, right, down).
func (s *Space) Neighbors(state string) ([]string, error) { return s.geo.NeighborStates(state) }

// SlotsSpellStates reports that StateOf spells every state as Neighbors and Normalize do
// (no symmetry is folded away): a path found by slots is spelled from them.
func (s *Space) SlotsSpellStates() bool { return true }

// Normalize returns state in canonical notation.
func (s *Space) Normalize(state string) (string, error) {
	board, err := s.geo.Parse(state)
	if err != nil {
		return "", err
	}
	return s.geo.Format(board), nil
}

// IsGoal reports whether state is the goal.
func (s *Space) IsGoal(state string) (bool, error) {
	board, err := s.geo.Parse(state)
	if err != nil {
		return false, err
	}
	for i := range board {
		if board[i] != s.goalBoard[i] {
			return false, nil
		}
	}
	return true, nil
}

// Solvable reports whether board is in the goal's class (O(n) with popcount parity).
func (s *Space) Solvable(board []uint8) bool { return s.class(board) == s.goalClass }

// EightPuzzleCounts is the published distance distribution of the 8-puzzle from a goal
// with the blank in a corner: EightPuzzleCounts[d] states at d moves, 181,440 in all,
// at most 31 moves. Tests of every scheme and builder check against it.
var EightPuzzleCounts = []uint64{1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512,
	4485, 5638, 9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2}
