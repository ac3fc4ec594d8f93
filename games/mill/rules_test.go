package mill

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/values"
)

// TestNineSymmetriesAreTheAutomorphisms checks that the 16 symmetries listed for Nine
// Men's Morris's board are exactly the permutations of its points that keep its lines
// and map mills to mills, as Automorphisms computes them.
func TestNineSymmetriesAreTheAutomorphisms(t *testing.T) {
	t.Parallel()
	b := Nine.Board
	computed := Automorphisms(b)
	if len(computed) != 16 || len(b.Syms) != 16 {
		t.Fatalf("%d automorphisms, %d listed, want 16", len(computed), len(b.Syms))
	}
	listed := slices.Clone(b.Syms)
	slices.SortFunc(listed, slices.Compare)
	for i := range listed {
		if !slices.Equal(listed[i], computed[i]) {
			t.Fatalf("listed symmetry %v is not automorphism %v", listed[i], computed[i])
		}
	}
}

// TestRuleSetBoards checks every rule set's board: the size of its symmetry group, that
// each symmetry keeps the lines and the mills, that the group is closed and its inverses
// right, and that the byte tables map masks as the permutations do.
func TestRuleSetBoards(t *testing.T) {
	t.Parallel()
	want := map[string]struct{ points, lines, mills, syms int }{
		"nine":         {24, 32, 16, 16},
		"three":        {9, 16, 8, 8},
		"five":         {16, 20, 8, 16},
		"six":          {16, 20, 8, 16},
		"seven":        {17, 24, 10, 8},
		"ten":          {24, 32, 16, 16},
		"eleven":       {24, 40, 20, 16},
		"twelve":       {24, 40, 20, 16},
		"lasker":       {24, 32, 16, 16},
		"lasker-six":   {16, 20, 8, 16},
		"lasker-seven": {17, 24, 10, 8},
	}
	for _, r := range RuleSets() {
		t.Run(r.Name, func(t *testing.T) {
			v := r.compiled()
			w, ok := want[r.Name]
			if !ok {
				t.Fatalf("no expected figures for %s", r.Name)
			}
			if v.points != w.points || len(r.Board.Lines) != w.lines || len(v.millList) != w.mills || v.nsyms != w.syms {
				t.Fatalf("%d points, %d lines, %d mills, %d symmetries; want %v", v.points, len(r.Board.Lines), len(v.millList), v.nsyms, w)
			}
			if n := len(Automorphisms(r.Board)); n != v.nsyms {
				t.Fatalf("%d automorphisms, %d symmetries", n, v.nsyms)
			}
			lines := map[uint32]bool{}
			for _, l := range r.Board.Lines {
				lines[1<<l[0]|1<<l[1]] = true
			}
			mills := map[uint32]bool{}
			for _, m := range v.millList {
				mills[m] = true
			}
			for g := range Sym(v.nsyms) {
				for l := range lines {
					if !lines[v.apply(g, l)] {
						t.Errorf("symmetry %d maps line %b off the lines", g, l)
					}
				}
				for m := range mills {
					if !mills[v.apply(g, m)] {
						t.Errorf("symmetry %d maps mill %b off the mills", g, m)
					}
				}
				if v.symCompose[g][v.symInverse[g]] != Identity {
					t.Errorf("symmetry %d: inverse %d wrong", g, v.symInverse[g])
				}
				for p := range v.points {
					if v.apply(g, 1<<p) != 1<<v.symPerm[g][p] {
						t.Errorf("symmetry %d: the byte tables move point %d elsewhere than the permutation", g, p+1)
					}
				}
			}
			// Every point has its neighbours and mills; masks stay on the board.
			for p := range v.points {
				if v.adjacent[p] == 0 || v.adjacent[p]&^v.full != 0 || v.adjacent[p]>>p&1 != 0 {
					t.Errorf("point %d: neighbours %b", p+1, v.adjacent[p])
				}
				n := 0
				for _, m := range v.millsAt[p] {
					if m != noMill {
						n++
						if m>>p&1 == 0 || bits.OnesCount32(m) != 3 {
							t.Errorf("point %d: mill %b", p+1, m)
						}
					}
				}
				if n == 0 {
					t.Errorf("point %d lies on no mill", p+1)
				}
			}
		})
	}
}

// TestRulesNamed checks the names --rules takes, and that every rule set has its own
// fingerprint, Nine Men's Morris's the one sets have carried since the placement phase.
func TestRulesNamed(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, r := range RuleSets() {
		got, err := RulesNamed(r.Name)
		if err != nil || got != r {
			t.Errorf("RulesNamed(%q) = %v, %v", r.Name, got, err)
		}
		if seen[r.RulesID()] {
			t.Errorf("%s: fingerprint %s taken", r.Name, r.RulesID())
		}
		seen[r.RulesID()] = true
	}
	// The fingerprint of every Nine Men's Morris set built since the placement phase.
	if Nine.RulesID() != "mill-v2-ee432ebfeb5bbc1a" || RulesID() != Nine.RulesID() {
		t.Errorf("Nine's fingerprint %s (package %s), want mill-v2-ee432ebfeb5bbc1a", Nine.RulesID(), RulesID())
	}
	if _, err := RulesNamed("ninety"); err == nil {
		t.Error("RulesNamed(ninety) is no error")
	}
}

// TestTwelveFullBoardDraws checks that in Twelve Men's Morris the last placement, filling
// the board without closing a mill, ends the game in a draw, on both the build side and
// the lookup side.
func TestTwelveFullBoardDraws(t *testing.T) {
	t.Parallel()
	// Black to place its last stone on point 2, the only empty one. The rings alternate
	// colours, the middle ring shifted by one, so no side, cross line or diagonal is one
	// colour: the placement closes no mill.
	var white, black uint32
	for p := range 24 {
		if (p%2 == 0) != (p/8 == 1) {
			white |= 1 << p
		} else if p != 1 {
			black |= 1 << p
		}
	}
	pos := Position{White: white, Black: black, WhiteHand: 0, BlackHand: 1, ToMove: Black}
	state := Twelve.Format(pos)
	sp, err := Twelve.NewSectorSpace(11, 12, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	moves, over, err := sp.Moves(state)
	if err != nil || over != 0 || len(moves) == 0 {
		t.Fatalf("%s: %v, %v, %v", state, moves, over, err)
	}
	closes := Twelve.compiled().inMill(black|1<<1, 1)
	if closes || len(moves) != 1 {
		t.Fatalf("%s: the last placement closes a mill (%v) or is not alone (%v)", state, closes, moves)
	}
	for _, m := range moves {
		if closes != (m.End != values.Draw) || (!closes && m.Next != "") {
			t.Errorf("%s: move %+v (closes a mill: %v)", state, m, closes)
		}
	}
	// The build side: the position's child is GameOver/EndDraw.
	g := ForRules(Twelve)
	w := g.NewTierWorker()
	var b games.ChildBatch
	tier, err := g.TierOf(state)
	if err != nil {
		t.Fatal(err)
	}
	slot, _, err := sp.Slot(state)
	if err != nil {
		t.Fatal(err)
	}
	w.Children(tier, slot, slot+1, &b)
	if !closes && (len(b.Pos) != 1 || b.Pos[0] != (games.TierPosition{Tier: games.GameOver, Slot: games.EndDraw})) {
		t.Errorf("%s: children %v, want one GameOver/EndDraw", state, b.Pos)
	}
	// Nine Men's Morris's rules on the same count of stones would not draw: only Twelve's
	// rule set fills the board.
	if Nine.compiled().drawFull != noMill || Eleven.compiled().drawFull != noMill {
		t.Error("a rule set without full-board draws has a full-board mask")
	}
}

// TestRulesParse checks each rule set's notation: its empty board reads back, a board of
// another length and a side with more stones than the rules allow are refused, and the
// error says what the rules want.
func TestRulesParse(t *testing.T) {
	t.Parallel()
	for _, r := range RuleSets() {
		n := r.Board.Points
		empty := strings.Repeat(".", n) + " W W:" + strconv.Itoa(r.Stones) + " B:" + strconv.Itoa(r.Stones)
		p, err := r.Parse(empty)
		if err != nil || r.Format(p) != empty {
			t.Errorf("%s: %q reads as %q, %v", r.Name, empty, r.Format(p), err)
		}
		for _, bad := range []struct{ state, want string }{
			{strings.Repeat(".", n+1) + " W", fmt.Sprintf("want %d (W, B or . for points 1 to %d)", n, n)},
			{strings.Repeat(".", n-1) + " W", fmt.Sprintf("want %d", n)},
			{strings.Repeat("W", r.Stones+1) + strings.Repeat(".", n-r.Stones-1) + " B", fmt.Sprintf("at most %d in all", r.Stones)},
		} {
			if _, err := r.Parse(bad.state); err == nil || !errors.Is(err, ErrPosition) || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("%s: %q: %v, want an error saying %q", r.Name, bad.state, err, bad.want)
			}
		}
	}
}
