package milloracle

import (
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Value is the game-theoretic value of a position for the side to move.
type Value uint8

// The three values.
const (
	Draw Value = iota // neither side can force a win: play goes on forever (repetition)
	Win               // the side to move can force a win
	Loss              // the opponent can force a win
)

func (v Value) String() string {
	switch v {
	case Draw:
		return "draw"
	case Win:
		return "win"
	case Loss:
		return "loss"
	}
	return fmt.Sprintf("Value(%d)", uint8(v))
}

// A position is stored in one byte: 0 while undecided (after the solve: a
// draw), else 1 + its remoteness r. The value follows from the parity of r:
// losses have even remoteness and wins odd (see solveTable), so a separate
// value field would only repeat it; winCode and lossCode check the parity.
const (
	undecided     byte = 0
	maxRemoteness      = 254
)

func lossCode(r int) byte {
	if r%2 != 0 || r < 0 || r > maxRemoteness {
		panic(fmt.Sprintf("milloracle: a loss with remoteness %d", r))
	}
	return byte(1 + r)
}

func winCode(r int) byte {
	if r%2 != 1 || r > maxRemoteness {
		panic(fmt.Sprintf("milloracle: a win with remoteness %d", r))
	}
	return byte(1 + r)
}

// decode turns a stored byte into a value and a remoteness.
func decode(c byte) (Value, int) {
	if c == undecided {
		return Draw, 0
	}
	r := int(c) - 1
	if r%2 == 1 {
		return Win, r
	}
	return Loss, r
}

// ErrPosition reports a position outside the solved set.
var ErrPosition = errors.New("milloracle: position not in the solved set")

// Result holds the value of every raw moving-phase position with 3..MaxSide
// stones a side and at most MaxStones stones in all.
type Result struct {
	maxStones int
	maxSide   int // 9 (maxMen) for Solve; n for the moving phase of SolveGame(n)
	// tables[w][b] holds the positions with w white and b black stones, both
	// sides to move, indexed by slot. nil when not solved.
	tables [maxMen + 1][maxMen + 1][]byte
	// solved lists the tables in the order they were solved, with timings.
	solved []TableInfo
}

// TableInfo describes the solve of one table: the positions with White white
// and Black black stones, both sides to move.
type TableInfo struct {
	White, Black int
	Rounds       int           // rounds run, round 0 (no legal move) included
	Elapsed      time.Duration // wall time of the solve of this table
}

// MaxStones returns the bound on white+black that the result covers.
func (r *Result) MaxStones() int { return r.maxStones }

// MaxSide returns the bound on the stones of each side that the result
// covers: 9 for Solve, n for the moving phase of an n-stone game (SolveGame).
func (r *Result) MaxSide() int { return r.maxSide }

// Tables returns the solved tables in solving order.
func (r *Result) Tables() []TableInfo { return append([]TableInfo(nil), r.solved...) }

// Solve computes the value of every moving-phase position with 3..9 stones
// per side and white+black ≤ maxStones (6 ≤ maxStones ≤ 18). Positions in
// which the side to move has 2 stones are terminal losses and are answered
// without being stored.
//
// Memory: one byte per slot, C(24,w)·C(24,b)·2 slots for each table (w, b);
// about 8 MB for maxStones 6, 94 MB for 7, 664 MB for 8.
func Solve(maxStones int) (*Result, error) { return SolveLog(maxStones, nil) }

// SolveLog is Solve with progress lines (one per table and round) sent to logf
// when logf is not nil.
func SolveLog(maxStones int, logf func(format string, args ...any)) (*Result, error) {
	if maxStones < 6 || maxStones > 2*maxMen {
		return nil, fmt.Errorf("milloracle: maxStones %d: want 6..%d", maxStones, 2*maxMen)
	}
	return solveBounded(maxStones, maxMen, logf)
}

// solveBounded solves every table (w, b) with 3 ≤ w, b ≤ maxSide and
// w+b ≤ maxStones. A capture leads from (w, b) to (w-1, b) or (w, b-1), which
// keep both bounds, so the set is closed under moves.
func solveBounded(maxStones, maxSide int, logf func(format string, args ...any)) (*Result, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	r := &Result{maxStones: maxStones, maxSide: maxSide}
	// A table (w, b) reaches itself (moves without capture) and the tables
	// (w-1, b) and (w, b-1) (captures), which have fewer stones: solving the
	// tables by increasing w+b finds every successor table complete.
	//
	// lower[k] tells whether a finished table, or a 2-stone terminal (k = 0),
	// holds a position with remoteness k.
	var lower [maxRemoteness + 1]bool
	lower[0] = true
	for total := 6; total <= maxStones; total++ {
		for w := 3; w <= maxSide; w++ {
			b := total - w
			if b < 3 || b > maxSide {
				continue
			}
			if err := r.solveTable(w, b, &lower, logf); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}

// code returns the stored byte of a position whose stone counts are within
// the solved set, or of a terminal where the side to move has 2 stones.
func (r *Result) code(white, black uint32, whiteToMove bool) byte {
	w, b := bits.OnesCount32(white), bits.OnesCount32(black)
	if (whiteToMove && w == 2) || (!whiteToMove && b == 2) {
		return lossCode(0)
	}
	return r.tables[w][b][slot(white, black, whiteToMove)]
}

// Lookup returns the value and remoteness of a position for the side to move.
// Bit p-1 of a mask stands for point p. A side to move with 2 stones (and an
// opponent with 3..MaxSide) has lost: Loss, 0.
func (r *Result) Lookup(white, black uint32, whiteToMove bool) (Value, int, error) {
	w, b := bits.OnesCount32(white), bits.OnesCount32(black)
	mover, opp := w, b
	if !whiteToMove {
		mover, opp = b, w
	}
	switch {
	case white&black != 0, (white|black)&^allPoints != 0:
		return 0, 0, fmt.Errorf("%w: white %#x black %#x: not a board", ErrPosition, white, black)
	case opp < 3 || opp > r.maxSide || mover < 2 || mover > r.maxSide:
		return 0, 0, fmt.Errorf("%w: %d stones to move against %d", ErrPosition, mover, opp)
	case mover == 2:
		return Loss, 0, nil
	case w+b > r.maxStones:
		return 0, 0, fmt.Errorf("%w: %d stones, solved up to %d", ErrPosition, w+b, r.maxStones)
	}
	v, rem := decode(r.code(white, black, whiteToMove))
	return v, rem, nil
}

// Value is Lookup for positions known to be in the solved set; it panics
// otherwise.
func (r *Result) Value(white, black uint32, whiteToMove bool) (value Value, remoteness int) {
	v, rem, err := r.Lookup(white, black, whiteToMove)
	if err != nil {
		panic(err)
	}
	return v, rem
}

// decidePass calls decide for every undecided position of the table t (w
// white and b black stones, both sides to move) with a successor buffer of
// its own to use and return, and stores the codes it returns once the whole
// pass is over; it returns the number of positions decided. The pass is split
// by white mask among GOMAXPROCS goroutines, which only read the tables:
// what a round decides never counts in the same round (see solveTable), so
// storing at the end gives what storing in place would.
func decidePass(w, b int, t []byte, decide func(white, black uint32, wtm bool, buf []succ) ([]succ, byte)) int {
	type decision struct {
		slot int
		code byte
	}
	found := make([][]decision, runtime.GOMAXPROCS(0))
	bufs := make([][]succ, len(found))
	forEachPositionParallel(w, b, len(found), func(i int, white, black uint32) {
		for _, wtm := range [2]bool{true, false} {
			s := slot(white, black, wtm)
			if t[s] != undecided {
				continue
			}
			var code byte
			if bufs[i], code = decide(white, black, wtm, bufs[i]); code != undecided {
				found[i] = append(found[i], decision{s, code})
			}
		}
	})
	n := 0
	for _, ds := range found {
		for _, d := range ds {
			t[d.slot] = d.code
		}
		n += len(ds)
	}
	return n
}

// forEachPositionParallel calls fn for every position with w white and b
// black stones (white and black disjoint) on workers goroutines, which take
// the white masks a few at a time; fn's first argument numbers the goroutine
// (0..workers-1). It returns when every call has returned.
func forEachPositionParallel(w, b, workers int, fn func(worker int, white, black uint32)) {
	const chunk = 16 // white masks taken at a time
	var next atomic.Int64
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= len(masksOf[w]) {
					return
				}
				for _, white := range masksOf[w][lo:min(lo+chunk, len(masksOf[w]))] {
					for _, black := range masksOf[b] {
						if white&black == 0 {
							fn(i, white, black)
						}
					}
				}
			}
		})
	}
	wg.Wait()
}

// forEachPosition calls fn for every position with w white and b black stones
// (white and black disjoint), in slot order.
func forEachPosition(w, b int, fn func(white, black uint32)) {
	for _, white := range masksOf[w] {
		for _, black := range masksOf[b] {
			if white&black == 0 {
				fn(white, black)
			}
		}
	}
}

// successorsOf returns the successors of a position, each given from the
// point of view of the side that moved (see succ); colours turns one back
// into white and black masks.
func successorsOf(white, black uint32, whiteToMove bool, buf []succ) []succ {
	if whiteToMove {
		return successors(white, black, buf)
	}
	return successors(black, white, buf)
}

// colours returns the white and black masks of successor s of a position in
// which whiteToMove was the side to move; in the successor the other side
// moves.
func colours(s succ, whiteToMove bool) (white, black uint32) {
	if whiteToMove {
		return s.moved, s.toMove
	}
	return s.toMove, s.moved
}

// solveTable decides the table (w, b) by forward value iteration, all its
// successor tables with fewer stones being complete; lower[k] tells whether
// those hold a position with remoteness k. It adds the remoteness values it
// stores to lower.
//
// Round 0 marks the positions without a legal move as losses in 0. Round
// r ≥ 1 visits every undecided position and generates its successors:
//   - some successor is a loss with remoteness r-1: a win in r;
//   - every successor is a win with remoteness ≤ r-1: a loss in r.
//
// A position is undecided at round r only if no successor was a loss in less
// than r-1 (else it would be a win already) and not every successor was a
// win in less than r-1 (else it would be a loss already), so these are the
// fastest win and the slowest loss. Decisions made during round r carry
// remoteness r and so never count in the same round: storing them when the
// round is over (decidePass, which splits a round among goroutines) gives the
// same result as writing them in place.
//
// Parity: losses have even remoteness and wins odd (a terminal loss has 0, a
// win is one more than a loss, a loss one more than the largest of wins). So
// an odd round can only find wins and an even round only losses, and each
// round checks just its own rule; that lets both checks stop at the first
// successor that settles them.
//
// Where to look: either rule needs a successor with remoteness exactly r-1
// (for a loss: the largest, since with all successors below r-1 the position
// would have been decided before). In this table those are the positions
// decided in round r-1; in the lower tables, lower[r-1] says whether there
// are any. With neither, round r is skipped: it would decide nothing. When
// only the lower tables have them, the win check looks only at captures (the
// successors in lower tables), and when only this table has them, only at
// moves without capture.
//
// Stop after a round r that decided nothing, once no lower table holds a
// remoteness of r or more: a later round r' > r needs a successor with
// remoteness r'-1 ≥ r, which neither this table (nothing at r, so nothing
// after) nor a lower table has. What is left undecided is a draw.
func (r *Result) solveTable(w, b int, lower *[maxRemoteness + 1]bool, logf func(string, ...any)) error {
	start := time.Now()
	t := make([]byte, tableSize(w, b))
	r.tables[w][b] = t
	maxLower := 0
	for k, ok := range lower {
		if ok {
			maxLower = k
		}
	}
	// here[k] counts the positions of this table decided with remoteness k.
	var here [maxRemoteness + 1]int
	// Round 0.
	here[0] = decidePass(w, b, t, func(white, black uint32, wtm bool, buf []succ) ([]succ, byte) {
		if buf = successorsOf(white, black, wtm, buf); len(buf) == 0 {
			return buf, lossCode(0)
		}
		return buf, undecided
	})
	logf("table %d-%d round 0: %d losses", w, b, here[0])
	round := 1
	for ; ; round++ {
		if round > maxRemoteness {
			return fmt.Errorf("milloracle: table %d-%d: remoteness above %d", w, b, maxRemoteness)
		}
		inTable, inLower := here[round-1] > 0, lower[round-1]
		if inTable || inLower {
			here[round] = decidePass(w, b, t, func(white, black uint32, wtm bool, buf []succ) ([]succ, byte) {
				buf = successorsOf(white, black, wtm, buf)
				oppStones := w // the opponent's stones before the move
				if wtm {
					oppStones = b
				}
				if round%2 == 1 && r.someLossIn(buf, wtm, oppStones, round-1, inTable, inLower) {
					return buf, winCode(round)
				}
				if round%2 == 0 && r.allWinsWithin(buf, wtm, round-1) {
					return buf, lossCode(round)
				}
				return buf, undecided
			})
		}
		kind := "wins"
		if round%2 == 0 {
			kind = "losses"
		}
		logf("table %d-%d round %d: %d %s", w, b, round, here[round], kind)
		if here[round] == 0 && round > maxLower {
			break
		}
	}
	for k, n := range here {
		if n > 0 {
			lower[k] = true
		}
	}
	r.solved = append(r.solved, TableInfo{White: w, Black: b, Rounds: round + 1, Elapsed: time.Since(start)})
	logf("table %d-%d solved in %v", w, b, time.Since(start).Round(time.Millisecond))
	return nil
}

// someLossIn reports whether one of the successors succs of a position with
// whiteToMove to move is a loss (for its side to move) with remoteness rem.
// It looks at the successors without capture (in the same table) only when
// inTable, and at the captures (in lower tables) only when inLower; oppStones
// is the number of stones of the opponent before the move.
func (r *Result) someLossIn(succs []succ, whiteToMove bool, oppStones, rem int, inTable, inLower bool) bool {
	for _, n := range succs {
		capture := bits.OnesCount32(n.toMove) < oppStones
		if (capture && !inLower) || (!capture && !inTable) {
			continue
		}
		nw, nb := colours(n, whiteToMove)
		if v, nr := decode(r.code(nw, nb, !whiteToMove)); v == Loss && nr == rem {
			return true
		}
	}
	return false
}

// allWinsWithin reports whether every one of the successors succs of a
// position with whiteToMove to move is a decided win (for its side to move)
// with remoteness at most rem.
func (r *Result) allWinsWithin(succs []succ, whiteToMove bool, rem int) bool {
	for _, n := range succs {
		nw, nb := colours(n, whiteToMove)
		if v, nr := decode(r.code(nw, nb, !whiteToMove)); v != Win || nr > rem {
			return false
		}
	}
	return true
}
