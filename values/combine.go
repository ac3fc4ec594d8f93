package values

// The one rule that gives a two-player position its value from the values of its moves.
// Every move leads to a position where the opponent is to move; its value is the
// opponent's. The mover wins if some move leaves the opponent lost, in 1 + the least such
// remoteness (the winner hurries); else draws if some move draws; else loses in 1 + the
// largest remoteness of the opponent's wins (the loser delays), or in 0 with no move at all.
// The retrograde engine, the pipelines' exits into solved tiers, the one-pass solver of
// tiers without inner moves and the forward check of `verify` all use this rule.

// MoveSummary accumulates the values of some of a position's moves. The zero value holds
// no move: with none added, it values a position without a legal move (lost at 0). A
// position over by the rules is summarised without moves as well: the zero value for a
// loss, Draw set for a draw.
type MoveSummary struct {
	Moves int  // the moves added
	Draw  bool // some move leads to a draw
	// WinIn is 1 + the least remoteness of a move that leaves the opponent lost (0: none):
	// the mover wins in WinIn plies at the latest.
	WinIn int
	// LoseIn is 1 + the largest remoteness of a move that leaves the opponent winning
	// (0: none).
	LoseIn int
}

// Add records a move to a position whose value for the opponent is (o, r): o is Win, Loss
// or Draw.
func (s *MoveSummary) Add(o Outcome, r int) {
	s.Moves++
	switch o {
	case Loss:
		if s.WinIn == 0 || r+1 < s.WinIn {
			s.WinIn = r + 1
		}
	case Draw:
		s.Draw = true
	default:
		s.LoseIn = max(s.LoseIn, r+1)
	}
}

// AddCode records a move to a position whose WDL code (see EncodingWDL) is c; it reports
// false, adding nothing, for the hole code.
func (s *MoveSummary) AddCode(c uint32) bool { return s.AddCodeOf(WDLCodes{}, c) }

// AddCodeOf records a move to a position whose code in e's layout is c; it reports false,
// adding nothing, for the hole code.
func (s *MoveSummary) AddCodeOf(e WDLCodes, c uint32) bool {
	o, r, ok := e.Decode(c)
	if ok {
		s.Add(o, r)
	}
	return ok
}

// Merge adds every move of t to s.
func (s *MoveSummary) Merge(t MoveSummary) {
	s.Moves += t.Moves
	s.Draw = s.Draw || t.Draw
	if t.WinIn > 0 && (s.WinIn == 0 || t.WinIn < s.WinIn) {
		s.WinIn = t.WinIn
	}
	s.LoseIn = max(s.LoseIn, t.LoseIn)
}

// Value is the mover's value when the moves added are all the position's moves.
func (s MoveSummary) Value() (Outcome, int) {
	switch {
	case s.WinIn > 0:
		return Win, s.WinIn
	case s.Draw:
		return Draw, 0
	}
	return Loss, s.LoseIn
}

// SummaryOf is a summary of moves moves whose WDL codes, none of them the hole code,
// combine to code (CodeOfMoves): the same Moves and Value as the MoveSummary of the codes
// added one by one, for a solver that reads the codes of many positions' moves at once
// (games.CodeGather) rather than one move at a time.
func SummaryOf(code uint32, moves int) MoveSummary { return WDLCodes{}.SummaryOf(code, moves) }

// SummaryOf is the package's SummaryOf for codes in e's layout.
func (e WDLCodes) SummaryOf(code uint32, moves int) MoveSummary {
	s := MoveSummary{Moves: moves}
	if moves == 0 {
		return s
	}
	switch o, r, _ := e.Decode(code); o {
	case Win:
		s.WinIn = r
	case Draw:
		s.Draw = true
	default:
		s.LoseIn = r
	}
	return s
}

// Code is Value as a WDL code (EncodingWDL).
func (s MoveSummary) Code() uint32 { return s.CodeOf(WDLCodes{}) }

// CodeOf is Value as a code of e's layout.
func (s MoveSummary) CodeOf(e WDLCodes) uint32 {
	o, r := s.Value()
	return e.Code(o, r)
}

// CodeOfMoves is the WDL code of a position whose moves lead to positions with the
// (opponent's) WDL codes given: a MoveSummary of them all, as its Code, holes left out.
// It keeps the least loss and the largest win among the codes without branching on them
// (a one-pass solver's codes come from all over memory and their kinds alternate at
// random, so a branch on each would be mispredicted often).
func CodeOfMoves(codes []uint16) uint32 { return codeOfMoves(codes, 1) }

// OfMoves is CodeOfMoves for codes in e's layout.
func (e WDLCodes) OfMoves(codes []uint16) uint32 { return codeOfMoves(codes, e.WinStep()) }

// codeOfMoves is CodeOfMoves in a layout whose loss codes give the mover a win winStep
// codes up (WDLCodes.WinStep); in both layouts a win's code gives a loss one code up, no
// move a loss in 0 (code 2) and a draw code 1.
func codeOfMoves(codes []uint16, winStep uint32) uint32 {
	minLoss, maxWin, draw := uint32(1)<<16, uint32(0), uint32(0)
	for _, c := range codes {
		x := uint32(c)
		small := (x - 2) >> 31 // 1 for a hole (0) or a draw (1)
		odd := x & 1           // 1 for a win or a draw
		draw |= small & odd    // a draw
		minLoss = min(minLoss, x|(odd|small)<<16)
		maxWin = max(maxWin, x&-(odd&^small))
	}
	switch {
	case minLoss < 1<<16: // the opponent loses: the mover wins a ply later
		return minLoss + winStep
	case draw != 0:
		return WDLDraw
	case maxWin > 0: // the opponent wins at best: the mover loses a ply later
		return maxWin + 1
	}
	return 2 // no move: lost at 0, in both layouts
}
