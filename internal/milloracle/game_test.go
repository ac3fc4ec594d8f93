package milloracle

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// game3 is the solved 3-stone game, computed once for the tests that need it.
var game3 = sync.OnceValues(func() (*Game, error) { return SolveGame(3, nil) })

func solvedGame3(t *testing.T) *Game {
	t.Helper()
	g, err := game3()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestPlacements(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		mover     []int
		opp       []int
		want      string // sorted placements with a capture, space separated
		wantCount int    // the number of successors in all
	}{
		{
			name:  "no mill: one successor per empty point",
			mover: []int{1, 9}, opp: []int{2, 10},
			want: "", wantCount: 20,
		},
		{
			name:  "3 closes 1-2-3 and may take only the stone outside the mill 17-18-19",
			mover: []int{1, 2}, opp: []int{17, 18, 19, 5},
			want: "3x5", wantCount: 18,
		},
		{
			name:  "every opponent stone in a mill: any may be taken",
			mover: []int{1, 2}, opp: []int{17, 18, 19},
			want: "3x17 3x18 3x19", wantCount: 19 + 2,
		},
		{
			// 3 closes 1-2-3 and 3-4-5 at once: still one stone is taken.
			name:  "double mill takes one stone",
			mover: []int{1, 2, 4, 5}, opp: []int{9, 17},
			want: "3x17 3x9", wantCount: 18 + 1,
		},
		{
			// Only an unreachable position can show this: nothing to take.
			name:  "a mill against an empty board takes nothing",
			mover: []int{1, 2}, opp: nil,
			want: "", wantCount: 22,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mover, opp := maskOf(tc.mover...), maskOf(tc.opp...)
			got := placements(mover, opp, nil)
			var captures []string
			for _, s := range got {
				placed := s.moved &^ mover
				if s.moved&s.toMove != 0 || s.moved&^placed != mover || bitsCount(placed) != 1 {
					t.Errorf("successor %#x/%#x is not one placement", s.moved, s.toMove)
				}
				switch taken := opp &^ s.toMove; {
				case taken != 0:
					captures = append(captures, fmt.Sprintf("%dx%d", pointOf(placed), pointOf(taken)))
				case s.toMove != opp:
					t.Errorf("successor %#x/%#x adds opponent stones", s.moved, s.toMove)
				}
			}
			slices.Sort(captures)
			if g := strings.Join(captures, " "); g != tc.want || len(got) != tc.wantCount {
				t.Errorf("captures %q and %d successors, want %q and %d", g, len(got), tc.want, tc.wantCount)
			}
		})
	}
}

func bitsCount(m uint32) int {
	c := 0
	for ; m != 0; m &= m - 1 {
		c++
	}
	return c
}

// coveredPositions calls fn for every stored position of ply k of the game.
func coveredPositions(g *Game, k int, fn func(white, black uint32)) {
	for w := range g.place[k] {
		for b := range g.place[k][w] {
			if g.place[k][w][b] != nil {
				forEachPosition(w, b, fn)
			}
		}
	}
}

// childHands returns the hands and the side to move at ply k (k = 2n: the
// moving phase, White to move).
func childHands(n, k int) (whiteHand, blackHand int, whiteToMove bool) {
	if k == 2*n {
		return 0, 0, true
	}
	wh, bh := hands(n, k)
	return wh, bh, k%2 == 0
}

// gameDefinition returns the value of the placement position (white, black)
// of ply k from the values of its successors, read through Game.Lookup.
func gameDefinition(t *testing.T, g *Game, white, black uint32, k int) (Value, int) {
	t.Helper()
	wh, bh, wtm := childHands(g.n, k)
	mover, opp := white, black
	if !wtm {
		mover, opp = black, white
	}
	if m, _ := moverTotals(bitsCount(white), bitsCount(black), wh, bh, wtm); m < 3 {
		return Loss, 0
	}
	succs := placements(mover, opp, nil)
	cwh, cbh, cwtm := childHands(g.n, k+1)
	var by byDefinition
	for _, s := range succs {
		nw, nb := colours(s, wtm)
		v, rem, err := g.Lookup(nw, nb, cwh, cbh, cwtm)
		if err != nil {
			t.Fatalf("successor of white %#x black %#x at ply %d: %v", white, black, k, err)
		}
		by.add(v, rem)
	}
	return by.value(len(succs))
}

// checkGamePosition compares one placement position's stored value with the
// definition and with its 16 board images.
func checkGamePosition(t *testing.T, g *Game, white, black uint32, k int) bool {
	t.Helper()
	wh, bh, wtm := childHands(g.n, k)
	v, rem := g.Value(white, black, wh, bh, wtm)
	if dv, drem := gameDefinition(t, g, white, black, k); dv != v || drem != rem {
		t.Errorf("ply %d white %#x black %#x: stored %v %d, definition %v %d", k, white, black, v, rem, dv, drem)
		return false
	}
	for s := 1; s < NumSymmetries; s++ {
		if sv, srem := g.Value(mapMask(s, white), mapMask(s, black), wh, bh, wtm); sv != v || srem != rem {
			t.Errorf("ply %d white %#x black %#x: %v %d, image under %d: %v %d", k, white, black, v, rem, s, sv, srem)
			return false
		}
	}
	return true
}

// TestGame3Consistency checks every stored placement value of the 3-stone game
// against the definition from its successors and against the 16 board
// symmetries.
func TestGame3Consistency(t *testing.T) {
	t.Parallel()
	g := solvedGame3(t)
	bad := 0
	for k := range 2 * g.n {
		coveredPositions(g, k, func(white, black uint32) {
			if bad < 10 && !checkGamePosition(t, g, white, black, k) {
				bad++
			}
		})
	}
}

// TestGame3Moving checks the moving phase of the 3-stone game, solved by
// solveBounded(6, 3), against the tables of Solve(6), and the terminal rules
// of Lookup with empty hands.
func TestGame3Moving(t *testing.T) {
	t.Parallel()
	g, r := solvedGame3(t), result6(t)
	if !bytes.Equal(g.moving.tables[3][3], r.tables[3][3]) {
		t.Errorf("table 3-3 of the game differs from Solve(6)'s")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 10000 {
		white, black, wtm := randomPosition(rng, 3, 3)
		v, rem := g.Value(white, black, 0, 0, wtm)
		if rv, rrem := r.Value(white, black, wtm); rv != v || rrem != rem {
			t.Errorf("white %#x black %#x White to move %v: game %v %d, Solve(6) %v %d", white, black, wtm, v, rem, rv, rrem)
		}
	}
}

func TestGame3Values(t *testing.T) {
	t.Parallel()
	g := solvedGame3(t)
	tests := []struct {
		name         string
		white, black []int
		wh, bh       int
		whiteToMove  bool
		want         Value
		remoteness   int
	}{
		// White places 3, closes 1-2-3 and takes a stone: Black has 2 in all.
		{"mill in one", []int{1, 2}, []int{9, 17}, 1, 1, true, Win, 1},
		{"Black with 2 in all", []int{1, 2, 3}, []int{9}, 0, 1, false, Loss, 0},
		{"White with 2 on the board to move", []int{1, 2}, []int{9, 10, 17}, 0, 0, true, Loss, 0},
		// White flies 9-3, closes 1-2-3 and takes a stone: Black has 2.
		{"moving phase, flying", []int{1, 2, 9}, []int{17, 18, 20}, 0, 0, true, Win, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, rem, err := g.Lookup(maskOf(tc.white...), maskOf(tc.black...), tc.wh, tc.bh, tc.whiteToMove)
			if err != nil || v != tc.want || rem != tc.remoteness {
				t.Errorf("got %v %d (%v), want %v %d", v, rem, err, tc.want, tc.remoteness)
			}
		})
	}
}

func TestGameLookupErrors(t *testing.T) {
	t.Parallel()
	g := solvedGame3(t)
	tests := []struct {
		name         string
		white, black uint32
		wh, bh       int
		whiteToMove  bool
	}{
		{"overlap", maskOf(1, 2), maskOf(2, 3), 1, 1, true},
		{"point 25", maskOf(1) | 1<<24, maskOf(4), 2, 2, true},
		{"Black to move with equal hands", maskOf(1), maskOf(4), 2, 2, false},
		{"White to move with unequal hands", maskOf(1, 2), maskOf(4), 1, 2, true},
		{"hand above n", 0, 0, 4, 4, true},
		{"negative hand", maskOf(1, 2, 3), maskOf(4, 5, 6), -1, 0, false},
		{"more stones than placed", maskOf(1, 2, 3), maskOf(4), 1, 1, true},
		{"the side not to move below 3", maskOf(1, 2), maskOf(4, 5, 6), 0, 0, false},
		{"moving phase above n", maskOf(1, 2, 3, 9), maskOf(4, 5, 6), 0, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, _, err := g.Lookup(tc.white, tc.black, tc.wh, tc.bh, tc.whiteToMove); !errors.Is(err, ErrPosition) {
				t.Errorf("Lookup: err %v, want ErrPosition", err)
			}
		})
	}
	for _, n := range []int{2, 10} {
		if _, err := SolveGame(n, nil); err == nil {
			t.Errorf("SolveGame(%d): no error", n)
		}
	}
}

// naiveGame is a second, plainer solver of whole games: a memoised recursive
// minimax from the empty board over a board of 24 cells, with its own
// placement rules, that takes the values of the moving phase from a Result.
// The placement phase cannot repeat a position (the hands only shrink), so
// the recursion ends.
type naiveGame struct {
	moving *Result
	memo   map[uint64]naiveValue // by key()
}

// naiveKey is a position: cell p-1 holds 0 (empty), 1 (white) or 2 (black);
// hand[0] is White's, hand[1] Black's; toMove is 0 for White, 1 for Black.
type naiveKey struct {
	cell   [NumPoints]int8
	hand   [2]int8
	toMove int8
}

// key packs a position into 57 bits for the memo: the white and black masks,
// the hands and the side to move.
func (p *naiveKey) key() uint64 {
	white, black := p.masks()
	return uint64(white) | uint64(black)<<24 | uint64(p.hand[0])<<48 | uint64(p.hand[1])<<52 | uint64(p.toMove)<<56
}

type naiveValue struct {
	v   Value
	rem int
}

func (p *naiveKey) count(side int8) int {
	c := int(p.hand[side])
	for _, x := range p.cell {
		if x == side+1 {
			c++
		}
	}
	return c
}

func (p *naiveKey) masks() (white, black uint32) {
	for i, x := range p.cell {
		switch x {
		case 1:
			white |= 1 << i
		case 2:
			black |= 1 << i
		}
	}
	return white, black
}

// inMill reports whether the stone of side on cell i stands in a mill of side.
func (p *naiveKey) inMill(i int, side int8) bool {
	for _, m := range mills {
		if (m[0]-1 == i || m[1]-1 == i || m[2]-1 == i) &&
			p.cell[m[0]-1] == side+1 && p.cell[m[1]-1] == side+1 && p.cell[m[2]-1] == side+1 {
			return true
		}
	}
	return false
}

func (ng *naiveGame) value(p naiveKey) (Value, int) {
	key := p.key()
	if nv, ok := ng.memo[key]; ok {
		return nv.v, nv.rem
	}
	me, you := p.toMove, 1-p.toMove
	var nv naiveValue
	switch {
	case p.count(me) < 3:
		nv = naiveValue{Loss, 0}
	case p.hand[0] == 0 && p.hand[1] == 0:
		white, black := p.masks()
		nv.v, nv.rem = ng.moving.Value(white, black, me == 0)
	default:
		var children []naiveValue
		for i := range p.cell {
			if p.cell[i] != 0 {
				continue
			}
			c := p
			c.cell[i] = me + 1
			c.hand[me]--
			c.toMove = you
			var free, all []int
			for j := range c.cell {
				if c.cell[j] == you+1 {
					all = append(all, j)
					if !c.inMill(j, you) {
						free = append(free, j)
					}
				}
			}
			if len(free) == 0 {
				free = all
			}
			if !c.inMill(i, me) || len(free) == 0 {
				v, rem := ng.value(c)
				children = append(children, naiveValue{v, rem})
				continue
			}
			for _, j := range free {
				d := c
				d.cell[j] = 0
				v, rem := ng.value(d)
				children = append(children, naiveValue{v, rem})
			}
		}
		minLoss, maxWin, wins := -1, -1, 0
		for _, c := range children {
			switch c.v {
			case Loss:
				if minLoss < 0 || c.rem < minLoss {
					minLoss = c.rem
				}
			case Win:
				wins++
				maxWin = max(maxWin, c.rem)
			}
		}
		switch {
		case minLoss >= 0:
			nv = naiveValue{Win, minLoss + 1}
		case wins == len(children):
			nv = naiveValue{Loss, maxWin + 1}
		default:
			nv = naiveValue{Draw, 0}
		}
	}
	ng.memo[key] = nv
	return nv.v, nv.rem
}

// TestGame3Naive solves the 3-stone game a second way (naiveGame, with the
// moving phase from Solve(6)) and compares every position it reaches from the
// empty board, and the number of them at each ply, with the game.
func TestGame3Naive(t *testing.T) {
	t.Parallel()
	g := solvedGame3(t)
	ng := &naiveGame{moving: result6(t), memo: map[uint64]naiveValue{}}
	start := naiveKey{hand: [2]int8{3, 3}}
	v, rem := ng.value(start)
	if gv, grem := g.Start(); gv != v || grem != rem {
		t.Errorf("empty board: game %v %d, naive %v %d", gv, grem, v, rem)
	}
	t.Logf("3 stones: the empty board is a %v in %d; %d positions reached", v, rem, len(ng.memo))
	perPly := make([]int, 2*g.n+1)
	bad := 0
	for key, nv := range ng.memo {
		white, black := uint32(key)&allPoints, uint32(key>>24)&allPoints
		wh, bh, wtm := int(key>>48&15), int(key>>52&15), key>>56 == 0
		perPly[2*g.n-wh-bh]++
		v, rem := g.Value(white, black, wh, bh, wtm)
		if (v != nv.v || rem != nv.rem) && bad < 10 {
			bad++
			t.Errorf("white %#x black %#x hands %d-%d White to move %v: game %v %d, naive %v %d",
				white, black, wh, bh, wtm, v, rem, nv.v, nv.rem)
		}
	}
	for _, l := range g.Levels() {
		if l.Reachable != perPly[l.Ply] {
			t.Errorf("ply %d: %d positions reached, naive %d", l.Ply, l.Reachable, perPly[l.Ply])
		}
	}
}

// TestGame3Stats checks the bookkeeping of the forward search: the ply
// statistics add up to the reached counts, ply 0 is the empty board alone,
// and the value of the empty board is the one measured (see doc.go).
func TestGame3Stats(t *testing.T) {
	t.Parallel()
	g := solvedGame3(t)
	for _, l := range g.Levels() {
		sum := 0
		for _, s := range g.PlyStats(l.Ply) {
			if s.Wins+s.Losses+s.Draws != s.Positions {
				t.Errorf("%v: counts do not add up", s)
			}
			sum += s.Positions
			t.Logf("%v", s)
		}
		if sum != l.Reachable || l.Reachable == 0 || (l.Ply < 2*g.n && l.Covered == 0) {
			t.Errorf("ply %d: %+v, statistics over %d positions", l.Ply, l, sum)
		}
		t.Logf("ply %d: hands %d-%d, %d positions solved, %d reached", l.Ply, l.WhiteHand, l.BlackHand, l.Covered, l.Reachable)
	}
	s0 := g.PlyStats(0)
	v, rem := g.Start()
	if len(s0) != 1 || s0[0].Positions != 1 || s0[0].MoverHand != 3 || s0[0].OppHand != 3 {
		t.Errorf("ply 0: %v", s0)
	}
	if v != Win || rem != 23 {
		t.Errorf("empty board of the 3-stone game: %v %d, want a win in 23", v, rem)
	}
	if g.PlyStats(-1) != nil || g.PlyStats(2*g.n+1) != nil {
		t.Errorf("PlyStats out of range not nil")
	}
}
