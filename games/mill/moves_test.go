package mill_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
)

// board writes a position with the given 1-based white and black points, White to move.
func board(white, black []int) string {
	var p mill.Position
	for _, q := range white {
		p.White |= bit(q)
	}
	for _, q := range black {
		p.Black |= bit(q)
	}
	return p.String()
}

func moveStrings(succ []mill.Succ) []string {
	var out []string
	for _, s := range succ {
		out = append(out, s.Move.String())
	}
	slices.Sort(out)
	return out
}

func TestSuccessorsExamples(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		white, black []int
		want         []string // sorted moves; nil: check count only
		count        int
	}{
		{"blocked", []int{1, 2, 3, 9}, []int{4, 8, 10, 16}, []string{}, 0},
		{"capture outside mills only", []int{1, 2, 4, 13}, []int{9, 10, 11, 24},
			[]string{"1-8", "13-12", "13-14", "2-3", "4-12", "4-3x24", "4-5"}, 7},
		{"all in mills: any, down to 2", []int{1, 2, 4, 13}, []int{9, 10, 11},
			[]string{"1-8", "13-12", "13-14", "2-3", "4-12", "4-3x10", "4-3x11", "4-3x9", "4-5"}, 9},
		{"flying", []int{1, 2, 4}, []int{9, 10, 11, 24}, nil, 3 * 17},
		{"a mill standing elsewhere captures nothing", []int{2, 9, 10, 11}, []int{5, 6, 7},
			[]string{"10-18", "11-12", "2-1", "2-3", "9-16"}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := mill.Parse(board(tt.white, tt.black))
			if err != nil {
				t.Fatal(err)
			}
			own, opp := p.OwnOpp()
			succ := mill.Successors(nil, own, opp)
			if len(succ) != tt.count || tt.want != nil && !slices.Equal(moveStrings(succ), tt.want) {
				t.Fatalf("%s: moves %v, want %v (%d)", p, moveStrings(succ), tt.want, tt.count)
			}
			if mill.CanMove(own, opp) != (tt.count > 0) {
				t.Errorf("CanMove = %v with %d moves", !(tt.count > 0), tt.count)
			}
			for _, s := range succ {
				if s.Opp != own&^s.Move.From.Bit()|s.Move.To.Bit() {
					t.Errorf("%v: mover's stones %x", s.Move, s.Opp)
				}
				if wantOwn := opp &^ (bit(int(s.Move.Remove)+1) * b2u(s.Move.Capture())); s.Own != wantOwn {
					t.Errorf("%v: new side to move has %x, want %x", s.Move, s.Own, wantOwn)
				}
			}
		})
	}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// oracleAdjacent is the hand list as a matrix (0-based points).
var oracleAdjacent = func() (m [24][24]bool) {
	for _, e := range handEdges {
		m[e[0]-1][e[1]-1], m[e[1]-1][e[0]-1] = true, true
	}
	return m
}()

// oracleInMill reports whether 0-based point p is in a complete mill of mask (hand list).
func oracleInMill(mask uint32, p int) bool {
	for _, m := range handMills {
		if (m[0]-1 == p || m[1]-1 == p || m[2]-1 == p) && mask&(bit(m[0])|bit(m[1])|bit(m[2])) == bit(m[0])|bit(m[1])|bit(m[2]) {
			return true
		}
	}
	return false
}

// oracleLegal applies the rules as written to the move f→t (removing c, or nothing for
// c < 0) of the side with the stones mover against victim and returns the resulting
// position for the next side to move (victim's stones, mover's stones).
func oracleLegal(mover, victim uint32, f, t, c int) (own, opp uint32, ok bool) {
	if mover>>f&1 == 0 || (mover|victim)>>t&1 != 0 {
		return 0, 0, false
	}
	if bits.OnesCount32(mover) != 3 && !oracleAdjacent[f][t] {
		return 0, 0, false
	}
	after := mover&^(1<<f) | 1<<t
	if !oracleInMill(after, t) {
		return victim, after, c < 0
	}
	if c < 0 || victim>>c&1 == 0 {
		return 0, 0, false
	}
	if oracleInMill(victim, c) {
		for q := range 24 {
			if victim>>q&1 != 0 && !oracleInMill(victim, q) {
				return 0, 0, false // a stone outside mills could have been taken
			}
		}
	}
	return victim &^ (1 << c), after, true
}

// step is a successor or predecessor as a comparable value.
type step struct {
	own, opp uint32
	move     string
}

func (s step) String() string { return pos(s.own, s.opp) + " " + s.move }

func oracleSuccessors(own, opp uint32) []step {
	var out []step
	for f := range 24 {
		for t := range 24 {
			for c := -1; c < 24; c++ {
				if o, p, ok := oracleLegal(own, opp, f, t, c); ok {
					out = append(out, step{o, p, moveString(f, t, c)})
				}
			}
		}
	}
	return sortSteps(out)
}

// oraclePredecessors tries every (f, t, c) back from the position and keeps those that
// oracleLegal accepts forward, with at most 9 stones for the captured side.
func oraclePredecessors(own, opp uint32) []step {
	var out []step
	empty := ^(own | opp) & mill.Full
	for t := range 24 {
		for f := range 24 {
			if opp>>t&1 == 0 || empty>>f&1 == 0 {
				continue
			}
			mover := opp&^(1<<t) | 1<<f
			for c := -1; c < 24; c++ {
				victim := own
				if c >= 0 {
					if empty>>c&1 == 0 || c == f || bits.OnesCount32(own) == 9 {
						continue
					}
					victim |= 1 << c
				}
				if o, p, ok := oracleLegal(mover, victim, f, t, c); ok && o == own && p == opp {
					out = append(out, step{mover, victim, moveString(f, t, c)})
				}
			}
		}
	}
	return sortSteps(out)
}

func moveString(f, t, c int) string {
	s := fmt.Sprintf("%d-%d", f+1, t+1)
	if c >= 0 {
		s += fmt.Sprintf("x%d", c+1)
	}
	return s
}

func sortSteps(s []step) []step {
	slices.SortFunc(s, func(a, b step) int { return strings.Compare(a.String(), b.String()) })
	return s
}

func succSteps(succ []mill.Succ) []step {
	var out []step
	for _, s := range succ {
		out = append(out, step{s.Own, s.Opp, s.Move.String()})
	}
	return sortSteps(out)
}

func predSteps(pred []mill.Pred) []step {
	var out []step
	for _, p := range pred {
		out = append(out, step{p.Own, p.Opp, p.Move.String()})
	}
	return sortSteps(out)
}

// TestMovesAgainstOracle compares Successors and Predecessors with the rules applied
// literally (oracleLegal) on random positions of every sector, and with positions whose
// sides are crowded into mills so that the removal rule matters.
func TestMovesAgainstOracle(t *testing.T) {
	t.Parallel()
	perSector := pick(3, 12, 100)
	r := rand.New(rand.NewPCG(4, 4))
	for _, sc := range sectors(18) {
		for i := range perSector {
			own, opp := randomPosition(r, sc.w, sc.b)
			if i%3 == 0 {
				own, opp = millRichPosition(r, sc.w, sc.b)
			}
			if got, want := succSteps(mill.Successors(nil, own, opp)), oracleSuccessors(own, opp); !slices.Equal(got, want) {
				t.Fatalf("%v %s: Successors\n%v\nwant\n%v", sc, pos(own, opp), got, want)
			}
			if got, want := predSteps(mill.Predecessors(nil, own, opp)), oraclePredecessors(own, opp); !slices.Equal(got, want) {
				t.Fatalf("%v %s: Predecessors\n%v\nwant\n%v", sc, pos(own, opp), got, want)
			}
		}
	}
}

// millRichPosition returns a random position of sector (w, b) in which both sides fill
// as many random mills as their stones allow.
func millRichPosition(r *rand.Rand, w, b int) (own, opp uint32) {
	mills := handMillMasks()
	fill := func(k int, taken uint32) uint32 {
		var out uint32
		for _, i := range r.Perm(len(mills)) {
			if m := mills[i]; m&taken == 0 && bits.OnesCount32(out|m) <= k {
				out |= m
			}
		}
		return out | randomSubset(r, k-bits.OnesCount32(out), taken|out)
	}
	own = fill(w, 0)
	return own, fill(b, own)
}

// TestDuality checks on random positions of every sector that every predecessor lists the
// position among its successors and every non-terminal successor lists it among its
// predecessors, with the same move.
func TestDuality(t *testing.T) {
	t.Parallel()
	perSector := pick(40, 200, 20000)
	eachSector(t, 18, func(t *testing.T, sc sector, r *rand.Rand) {
		var succ []mill.Succ
		var pred []mill.Pred
		for i := range perSector {
			own, opp := randomPosition(r, sc.w, sc.b)
			if i%4 == 0 {
				own, opp = millRichPosition(r, sc.w, sc.b)
			}
			checkDuality(t, own, opp, &succ, &pred)
		}
	})
}

func checkDuality(t *testing.T, own, opp uint32, succBuf *[]mill.Succ, predBuf *[]mill.Pred) {
	t.Helper()
	preds := mill.Predecessors(nil, own, opp)
	for _, q := range preds {
		*succBuf = mill.Successors((*succBuf)[:0], q.Own, q.Opp)
		if !slices.Contains(*succBuf, mill.Succ{Own: own, Opp: opp, Move: q.Move}) {
			t.Fatalf("%s: predecessor %s (%v) does not lead back", pos(own, opp), pos(q.Own, q.Opp), q.Move)
		}
	}
	for _, s := range mill.Successors(nil, own, opp) {
		if bits.OnesCount32(s.Own) < mill.MinStones {
			continue // terminal: the side to move is down to 2 stones
		}
		*predBuf = mill.Predecessors((*predBuf)[:0], s.Own, s.Opp)
		if !slices.Contains(*predBuf, mill.Pred{Own: own, Opp: opp, Move: s.Move}) {
			t.Fatalf("%s: successor %s (%v) does not lead back", pos(own, opp), pos(s.Own, s.Opp), s.Move)
		}
	}
}

// TestMovesDoNotAllocate checks that move and un-move generation into a buffer with room
// does not allocate.
func TestMovesDoNotAllocate(t *testing.T) {
	own, opp := millRichPosition(rand.New(rand.NewPCG(5, 5)), 5, 4)
	succ := make([]mill.Succ, 0, 1024)
	pred := make([]mill.Pred, 0, 4096)
	if n := testing.AllocsPerRun(100, func() {
		succ = mill.Successors(succ[:0], own, opp)
		pred = mill.Predecessors(pred[:0], own, opp)
	}); n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}
