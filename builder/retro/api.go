// Package retro is the retrograde-analysis engine: it solves one unit of a two-player game
// (a set of tiers that reach each other, e.g. a Mühle sector pair) whose moves out of the
// unit lead into positions already solved.
package retro

import "github.com/tablesmith/tablesmith/values"

// Space is a unit of retrograde analysis as the engine sees it: positions are slots
// 0..Slots()-1.
type Space interface {
	// Slots is the number of positions of the unit.
	Slots() uint64
	// NewWorker returns the move generator of one goroutine.
	NewWorker() Worker
}

// Worker generates the moves of a batch of positions; one goroutine uses it. The engine
// calls it once per batch, never once per position.
type Worker interface {
	// Expand fills b for the slots lo..hi-1: for the i-th, b.Count[i] is the number of
	// distinct slots of the unit its moves lead to (the engine needs no more of them: it
	// counts them down as they are decided, and the slots themselves come from Preds),
	// and b.Exits[i] summarises its moves that leave the unit (values of solved
	// positions, or the end of the game). A position with no successor in the unit and
	// b.Exits[i].Moves == 0 has no move: it is lost at 0, unless b.Over lists it (over by
	// the rules with the outcome given there). b.Off and b.Succ are not used.
	Expand(lo, hi uint64, b *Batch)
	// Preds fills b for slots: b.Succ[b.Off[i]:b.Off[i+1]] are the distinct slots of
	// the unit that move to slots[i]. b.Exits is not used.
	Preds(slots []uint64, b *Batch)
}

// Batch is a worker's answer for a batch of positions, reused from call to call: Reset it
// and append.
type Batch struct {
	Off   []int    // Preds: len(positions)+1 offsets into Succ
	Succ  []uint64 // Preds: the slots, position after position
	Count []uint32 // Expand: the distinct successors in the unit, one per position
	Exits []values.MoveSummary
	// Over lists (Expand) the positions of the batch that are over by the rules, in
	// order: each is decided at remoteness 0 with its outcome (a draw stays a draw), and
	// must count no successor and no exit.
	Over []Over
}

// Over is a position of an Expand batch that is over by the rules.
type Over struct {
	At      int // the position's index in the batch
	Outcome values.Outcome
}

// Reset empties b for a new batch (Off starts as [0]).
func (b *Batch) Reset() {
	b.Off = append(b.Off[:0], 0)
	b.Succ = b.Succ[:0]
	b.Count = b.Count[:0]
	b.Exits = b.Exits[:0]
	b.Over = b.Over[:0]
}

// Close ends the current position: the slots appended to Succ since the last Close are
// its own.
func (b *Batch) Close() { b.Off = append(b.Off, len(b.Succ)) }
