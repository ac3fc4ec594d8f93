package milloracle

import (
	"fmt"
	"math/bits"
	"runtime"
	"time"
)

// Whole games: the placement phase in front of the moving phase, for a game in
// which each side starts with n stones in hand (9 in the standard game).
//
// Ply k of the placement phase (0 ≤ k < 2n) is the (k+1)-th placement; White
// places at even plies, Black at odd ones. Before ply k White has placed
// (k+1)/2 stones and Black k/2, so the hands are
//
//	white hand = n - (k+1)/2,  black hand = n - k/2,
//
// equal when White is to move and Black's one more when Black is. After ply
// 2n-1 the hands are empty and the moving phase begins with White to move
// ("ply 2n" below). A placement position is therefore (white, black, k), and
// the positions of ply k with w white and b black stones on the board form
// the placement table (k, w, b), indexed by placeSlot:
//
//	index = rank(white)·C(24, b) + rank(black)
//
// with holes where the masks overlap, as the moving-phase tables (index.go)
// but without the side bit, which k fixes.

// placeSlot returns the index of a placement position inside its table.
func placeSlot(white, black uint32) int {
	return rank(white)*binom[NumPoints][bits.OnesCount32(black)] + rank(black)
}

// hands returns the stones in hand of White and Black before ply k.
func hands(n, k int) (white, black int) { return n - (k+1)/2, n - k/2 }

// plyOf returns the ply of a placement position from its hands, and false
// when the hands do not describe one (see Game.Lookup).
func plyOf(n, whiteHand, blackHand int, whiteToMove bool) (int, bool) {
	switch {
	case whiteHand < 0 || blackHand < 0 || whiteHand > n || blackHand > n:
		return 0, false
	case whiteHand == blackHand && whiteHand > 0 && whiteToMove:
		return 2 * (n - whiteHand), true
	case blackHand == whiteHand+1 && !whiteToMove:
		return 2*(n-blackHand) + 1, true
	}
	return 0, false
}

// placements appends to buf[:0] every position reached by one placement of the
// side with stones mover against the stones opp, and returns it: a stone on
// any empty point; when it closes a mill (one or two at once), one successor
// per removable opponent stone (see removable). When the opponent has no
// stone on the board, a placement that closes a mill removes nothing (a case
// that only positions unreachable from the empty board can show).
func placements(mover, opp uint32, buf []succ) []succ {
	buf = buf[:0]
	take := removable(opp)
	for to := allPoints &^ (mover | opp); to != 0; to &= to - 1 {
		t := bits.TrailingZeros32(to) + 1
		placed := mover | bit(t)
		if !closesMill(placed, t) || take == 0 {
			buf = append(buf, succ{placed, opp})
			continue
		}
		for c := take; c != 0; c &= c - 1 {
			buf = append(buf, succ{placed, opp &^ (c & -c)})
		}
	}
	return buf
}

// Game holds the value of every position of an n-stone game (SolveGame).
type Game struct {
	n      int
	moving *Result
	// place[k][w][b] is the placement table (k, w, b); nil where the side to
	// move has fewer than 3 stones on the board and in hand (a loss in 0,
	// answered without storage) or the opponent has (not covered).
	place [][maxMen + 1][maxMen + 1][]byte
	// reached[k][w][b] is the set of positions reached from the empty board in
	// k plies, a bit per index (placeSlot for k < 2n; for k = 2n the moving
	// phase with White to move, indexed by slot/2). nil when none is.
	reached [][maxMen + 1][maxMen + 1][]uint64
	levels  []LevelInfo
	stats   [][]PlyStats
	// movingElapsed and placeElapsed time the two parts of the solve, bfsElapsed
	// the forward search and its statistics.
	movingElapsed, placeElapsed, bfsElapsed time.Duration
}

// LevelInfo describes ply k of an n-stone game: the hands before it, the
// positions solved (Covered: stored in tables, that is with at least 3 stones
// in all for both sides; for ply 2n the moving-phase positions with White to
// move and 3..n stones a side), the positions reached from the empty board in
// exactly k plies (terminal ones included), and the time the solve of the
// ply took (0 for ply 2n).
type LevelInfo struct {
	Ply                  int
	WhiteHand, BlackHand int
	Covered              int
	Reachable            int
	Elapsed              time.Duration
}

// PlyStats counts the values of the positions reached from the empty board in
// exactly Ply plies that have Mover and Opp stones on the board (Stats.Mover
// and Stats.Opp) and MoverHand and OppHand stones in hand, for the side to
// move. Stats.Positions counts raw positions.
type PlyStats struct {
	Ply                int
	MoverHand, OppHand int
	Stats
}

func (s PlyStats) String() string {
	return fmt.Sprintf("ply %d, hands %d-%d, board %v", s.Ply, s.MoverHand, s.OppHand, s.Stats)
}

// SolveGame computes the value of every position of an n-stone game (each side
// starts with n stones in hand; 3 ≤ n ≤ 9) in the set described at
// Game.Lookup: the moving phase with 3..n stones a side (solveBounded), then
// the placement phase ply by ply from the last placement back to the first.
// It then searches forward from the empty board for the positions reached at
// each ply and counts their values (Levels, PlyStats). Progress lines go to
// logf when it is not nil.
//
// Cost: the moving-phase tables (C(24,w)·C(24,b)·2 bytes each, 3 ≤ w, b ≤ n)
// and the placement tables (C(24,w)·C(24,b) bytes each) stay in memory; about
// 9 MB for n = 3, 370 MB for n = 4, 7 GB for n = 5 (see doc.go for times).
func SolveGame(n int, logf func(format string, args ...any)) (*Game, error) {
	if n < 3 || n > maxMen {
		return nil, fmt.Errorf("milloracle: %d stones a side: want 3..%d", n, maxMen)
	}
	if logf == nil {
		logf = func(string, ...any) {}
	}
	start := time.Now()
	moving, err := solveBounded(2*n, n, logf)
	if err != nil {
		return nil, err
	}
	g := &Game{
		n:       n,
		moving:  moving,
		place:   make([][maxMen + 1][maxMen + 1][]byte, 2*n),
		reached: make([][maxMen + 1][maxMen + 1][]uint64, 2*n+1),
		levels:  make([]LevelInfo, 2*n+1),
		stats:   make([][]PlyStats, 2*n+1),
	}
	g.movingElapsed = time.Since(start)
	logf("game %d: moving phase solved in %v", n, g.movingElapsed.Round(time.Millisecond))
	start = time.Now()
	for k := 2*n - 1; k >= 0; k-- {
		g.solvePly(k, logf)
	}
	g.placeElapsed = time.Since(start)
	logf("game %d: placement phase solved in %v", n, g.placeElapsed.Round(time.Millisecond))
	start = time.Now()
	g.search()
	g.bfsElapsed = time.Since(start)
	v, rem := g.Start()
	logf("game %d: forward search in %v; the empty board is a %v in %d", n, g.bfsElapsed.Round(time.Millisecond), v, rem)
	return g, nil
}

// N returns the stones a side of the game.
func (g *Game) N() int { return g.n }

// Moving returns the moving-phase tables of the game: 3..N stones a side.
func (g *Game) Moving() *Result { return g.moving }

// Elapsed returns the wall time of the moving-phase solve, of the
// placement-phase solve, and of the forward search with its statistics.
func (g *Game) Elapsed() (moving, placement, search time.Duration) {
	return g.movingElapsed, g.placeElapsed, g.bfsElapsed
}

// Levels describes plies 0..2N (ply 2N: the start of the moving phase).
func (g *Game) Levels() []LevelInfo { return append([]LevelInfo(nil), g.levels...) }

// PlyStats returns the value counts of the positions reached in exactly k plies
// from the empty board (0 ≤ k ≤ 2N), one entry per sector, ordered by the
// mover's and then the opponent's stones on the board; nil for other k.
func (g *Game) PlyStats(k int) []PlyStats {
	if k < 0 || k > 2*g.n {
		return nil
	}
	return append([]PlyStats(nil), g.stats[k]...)
}

// Start returns the value of the empty board, White to move with n stones in
// each hand.
func (g *Game) Start() (Value, int) { return g.Value(0, 0, g.n, g.n, true) }

// moverTotals returns the stones on the board and in hand of the side to move
// and of its opponent.
func moverTotals(w, b, whiteHand, blackHand int, whiteToMove bool) (mover, opp int) {
	if whiteToMove {
		return w + whiteHand, b + blackHand
	}
	return b + blackHand, w + whiteHand
}

// code returns the stored byte of a position of ply k (k = 2n: the moving
// phase, either side to move) in the covered set.
func (g *Game) code(white, black uint32, k int, whiteToMove bool) byte {
	w, b := bits.OnesCount32(white), bits.OnesCount32(black)
	if k == 2*g.n {
		if (whiteToMove && w < 3) || (!whiteToMove && b < 3) {
			return lossCode(0)
		}
		return g.moving.code(white, black, whiteToMove)
	}
	wh, bh := hands(g.n, k)
	if mover, _ := moverTotals(w, b, wh, bh, whiteToMove); mover < 3 {
		return lossCode(0)
	}
	return g.place[k][w][b][placeSlot(white, black)]
}

// solvePly fills the placement tables of ply k, those of ply k+1 (or the
// moving phase) being complete. Each position's value follows from its
// successors' by the definition: a win in 1 + the least remoteness of the
// successors that are losses, else a loss in 1 + the largest remoteness of
// the successors when all are wins, else a draw. (A placement position always
// has a legal move: at most 2n-1 ≤ 17 points are taken.)
func (g *Game) solvePly(k int, logf func(string, ...any)) {
	start := time.Now()
	n := g.n
	wtm := k%2 == 0
	wh, bh := hands(n, k)
	workers := runtime.GOMAXPROCS(0)
	bufs := make([][]succ, workers)
	sts := make([]Stats, workers) // per goroutine; Positions counts the positions solved
	for w := 0; w <= n-wh; w++ {
		for b := 0; b <= n-bh; b++ {
			if mover, opp := moverTotals(w, b, wh, bh, wtm); mover < 3 || opp < 3 {
				continue
			}
			t := make([]byte, binom[NumPoints][w]*binom[NumPoints][b])
			g.place[k][w][b] = t
			// Each position writes its own byte and reads only ply k+1.
			forEachPositionParallel(w, b, workers, func(i int, white, black uint32) {
				buf := bufs[i]
				if wtm {
					buf = placements(white, black, buf)
				} else {
					buf = placements(black, white, buf)
				}
				bufs[i] = buf
				minLoss, maxWin, wins := -1, -1, 0
				for _, s := range buf {
					nw, nb := colours(s, wtm)
					switch v, rem := decode(g.code(nw, nb, k+1, !wtm)); v {
					case Loss:
						if minLoss < 0 || rem < minLoss {
							minLoss = rem
						}
					case Win:
						wins++
						maxWin = max(maxWin, rem)
					}
				}
				c := undecided
				switch {
				case minLoss >= 0:
					c = winCode(1 + minLoss)
				case wins == len(buf):
					c = lossCode(1 + maxWin)
				}
				t[placeSlot(white, black)] = c
				sts[i].add(decode(c))
			})
		}
	}
	var st Stats
	for _, s := range sts {
		st.Positions += s.Positions
		st.Wins += s.Wins
		st.Losses += s.Losses
		st.Draws += s.Draws
		st.MaxWin = max(st.MaxWin, s.MaxWin)
		st.MaxLoss = max(st.MaxLoss, s.MaxLoss)
	}
	covered := st.Positions
	g.levels[k] = LevelInfo{Ply: k, WhiteHand: wh, BlackHand: bh, Covered: covered, Elapsed: time.Since(start)}
	logf("game %d ply %d (hands %d-%d): %d positions, %d wins, %d losses, %d draws, max win %d, max loss %d, in %v",
		n, k, wh, bh, covered, st.Wins, st.Losses, st.Draws, st.MaxWin, st.MaxLoss, time.Since(start).Round(time.Millisecond))
}

// mark adds a position of ply k to the reached set and reports whether it was
// new.
func (g *Game) mark(white, black uint32, k int) bool {
	w, b := bits.OnesCount32(white), bits.OnesCount32(black)
	set := g.reached[k][w][b]
	if set == nil {
		set = make([]uint64, (binom[NumPoints][w]*binom[NumPoints][b]+63)/64)
		g.reached[k][w][b] = set
	}
	i := placeSlot(white, black) // for k = 2n: slot(white, black, true)/2
	if set[i/64]&(1<<(i%64)) != 0 {
		return false
	}
	set[i/64] |= 1 << (i % 64)
	return true
}

// reachedPositions calls fn for every position in the reached set of ply k
// with w white and b black stones.
func (g *Game) reachedPositions(k, w, b int, fn func(white, black uint32)) {
	set := g.reached[k][w][b]
	nb := binom[NumPoints][b]
	for j, word := range set {
		for ; word != 0; word &= word - 1 {
			i := j*64 + bits.TrailingZeros64(word)
			fn(masksOf[w][i/nb], masksOf[b][i%nb])
		}
	}
}

// search finds, ply by ply, the positions reached from the empty board by
// legal play (a position where the side to move has lost is reached but not
// left), and counts the values of each ply's positions by sector.
func (g *Game) search() {
	n := g.n
	g.mark(0, 0, 0)
	var buf []succ
	for k := 0; k <= 2*n; k++ {
		wtm := k%2 == 0
		wh, bh := 0, 0
		if k < 2*n {
			wh, bh = hands(n, k)
		}
		reachable := 0
		for w := 0; w <= n; w++ {
			for b := 0; b <= n; b++ {
				if g.reached[k][w][b] == nil {
					continue
				}
				mover, opp, moverHand, oppHand := w, b, wh, bh
				if !wtm {
					mover, opp, moverHand, oppHand = b, w, bh, wh
				}
				ps := PlyStats{Ply: k, MoverHand: moverHand, OppHand: oppHand, Stats: Stats{Mover: mover, Opp: opp}}
				g.reachedPositions(k, w, b, func(white, black uint32) {
					reachable++
					ps.add(decode(g.code(white, black, k, wtm)))
					if k == 2*n || mover+moverHand < 3 {
						return
					}
					if wtm {
						buf = placements(white, black, buf)
					} else {
						buf = placements(black, white, buf)
					}
					for _, s := range buf {
						nw, nb := colours(s, wtm)
						g.mark(nw, nb, k+1)
					}
				})
				g.stats[k] = append(g.stats[k], ps)
			}
		}
		if k < 2*n {
			g.levels[k].Reachable = reachable
		} else {
			covered := 0
			for w := 3; w <= n; w++ {
				for b := 3; b <= n; b++ {
					covered += binom[NumPoints][w] * binom[NumPoints-w][b]
				}
			}
			g.levels[k] = LevelInfo{Ply: k, Covered: covered, Reachable: reachable}
		}
		// The sets of ply k are no longer needed once ply k+1 is marked.
		if k > 0 {
			clear(g.reached[k-1][:])
		}
	}
	g.reached = nil
	for k := range g.stats {
		sortPlyStats(g.stats[k])
	}
}

// sortPlyStats orders the sectors of a ply by the mover's and then the
// opponent's stones on the board.
func sortPlyStats(s []PlyStats) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && (s[j].Mover < s[j-1].Mover || s[j].Mover == s[j-1].Mover && s[j].Opp < s[j-1].Opp); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Lookup returns the value and remoteness, for the side to move, of the
// position with the stones white and black on the board (bit p-1 for point
// p), whiteHand and blackHand stones in hand and whiteToMove to move. The
// covered set, for the game's n:
//   - the hands: both 0 (the moving phase, either side to move), or equal
//     and positive with White to move, or Black's one more with Black to move
//     (the placement phase);
//   - the board: white and black disjoint, at most n - whiteHand white stones
//     and n - blackHand black ones (no more than have been placed);
//   - the side not to move has at least 3 stones on the board and in hand
//     (with fewer it would have lost before its move: a covered position that
//     is not terminal leads only to covered ones).
//
// A side to move with fewer than 3 stones on the board and in hand has lost:
// Loss, 0. Anything else is an ErrPosition.
func (g *Game) Lookup(white, black uint32, whiteHand, blackHand int, whiteToMove bool) (Value, int, error) {
	n := g.n
	w, b := bits.OnesCount32(white), bits.OnesCount32(black)
	k := 2 * n
	if whiteHand != 0 || blackHand != 0 {
		var ok bool
		if k, ok = plyOf(n, whiteHand, blackHand, whiteToMove); !ok {
			return 0, 0, fmt.Errorf("%w: hands %d and %d with White to move %v in a %d-stone game",
				ErrPosition, whiteHand, blackHand, whiteToMove, n)
		}
	}
	mover, opp := moverTotals(w, b, whiteHand, blackHand, whiteToMove)
	switch {
	case white&black != 0, (white|black)&^allPoints != 0:
		return 0, 0, fmt.Errorf("%w: white %#x black %#x: not a board", ErrPosition, white, black)
	case w > n-whiteHand || b > n-blackHand:
		return 0, 0, fmt.Errorf("%w: %d white and %d black stones with hands %d and %d in a %d-stone game",
			ErrPosition, w, b, whiteHand, blackHand, n)
	case opp < 3:
		return 0, 0, fmt.Errorf("%w: the side not to move has %d stones in all", ErrPosition, opp)
	case mover < 3:
		return Loss, 0, nil
	}
	v, rem := decode(g.code(white, black, k, whiteToMove))
	return v, rem, nil
}

// Value is Lookup for positions known to be covered; it panics otherwise.
func (g *Game) Value(white, black uint32, whiteHand, blackHand int, whiteToMove bool) (Value, int) {
	v, rem, err := g.Lookup(white, black, whiteHand, blackHand, whiteToMove)
	if err != nil {
		panic(err)
	}
	return v, rem
}
