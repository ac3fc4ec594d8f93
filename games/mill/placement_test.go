package mill_test

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
)

// TestPlacements: every placement of a random position, checked against the rules
// written out here: one successor per empty point, or, where the placed stone closes a
// mill and the opponent has stones, one per stone the rules let it remove.
func TestPlacements(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		var own, opp uint32
		w, b := rng.IntN(9), rng.IntN(9)
		for bits.OnesCount32(own) < w {
			own |= 1 << rng.IntN(mill.Points)
		}
		for bits.OnesCount32(opp) < b {
			if p := uint32(1) << rng.IntN(mill.Points); p&own == 0 {
				opp |= p
			}
		}
		var want []string
		for p := range mill.Points {
			if (own|opp)>>p&1 != 0 {
				continue
			}
			placed := own | 1<<p
			closes := false
			for _, m := range mill.Mills() {
				if m>>p&1 != 0 && placed&m == m {
					closes = true
				}
			}
			if !closes || opp == 0 {
				want = append(want, mill.Move{From: mill.NoPoint, To: mill.Point(p), Remove: mill.NoPoint}.String())
				continue
			}
			allInMills := mill.MillStones(opp) == opp
			for c := range mill.Points {
				if opp>>c&1 != 0 && (allInMills || !mill.InMill(opp, mill.Point(c))) {
					want = append(want, mill.Move{From: mill.NoPoint, To: mill.Point(p), Remove: mill.Point(c)}.String())
				}
			}
		}
		var got []string
		for _, sc := range mill.Placements(nil, own, opp) {
			got = append(got, sc.Move.String())
			placed := own | 1<<sc.Move.To
			removed := uint32(0)
			if sc.Move.Capture() {
				removed = 1 << sc.Move.Remove
			}
			if sc.Opp != placed || sc.Own != opp&^removed {
				t.Fatalf("%x/%x: %v gives %x/%x", own, opp, sc.Move, sc.Own, sc.Opp)
			}
			back, err := mill.ParseMove(sc.Move.String())
			if err != nil || back != sc.Move {
				t.Fatalf("%v reads back as %v (%v)", sc.Move, back, err)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%x/%x: placements %v, want %v", own, opp, got, want)
		}
	}
}

// TestPlacementSpace: a placement sector's positions read back through the notation, with
// the side to move the hands say, and their moves are placements into the next sector.
func TestPlacementSpace(t *testing.T) {
	t.Parallel()
	g := mill.Game{}
	for _, c := range []struct {
		w, b, wh, bh int
		toMove       string
	}{{0, 0, 9, 9, "W"}, {0, 1, 9, 8, "B"}, {2, 2, 7, 7, "W"}, {3, 1, 5, 5, "W"}, {4, 3, 1, 0, "B"}} {
		sp, err := mill.NewSectorSpace(c.w, c.b, c.wh, c.bh)
		if err != nil {
			t.Fatal(err)
		}
		if sp.Slots() != mill.ClassCount(c.w, c.b) {
			t.Errorf("%d-%d-%d-%d: %d slots, want %d", c.w, c.b, c.wh, c.bh, sp.Slots(), mill.ClassCount(c.w, c.b))
		}
		for _, slot := range []uint64{0, sp.Slots() / 2, sp.Slots() - 1} {
			state, ok := sp.StateOf(slot)
			if !ok || !strings.Contains(state, " "+c.toMove+" ") {
				t.Fatalf("slot %d: %q", slot, state)
			}
			back, ok, err := sp.Slot(state)
			if err != nil || !ok || back != slot {
				t.Fatalf("%q: slot %d, %v, %v; want %d", state, back, ok, err, slot)
			}
			tier, err := g.TierOf(state)
			if err != nil || g.TierName(tier) != strings.Join([]string{itoa(c.w), itoa(c.b), itoa(c.wh), itoa(c.bh)}, "-") {
				t.Fatalf("%q: tier %s, %v", state, g.TierName(tier), err)
			}
			moves, _, err := sp.Moves(state)
			if err != nil || len(moves) == 0 {
				t.Fatalf("%q: moves %v, %v", state, moves, err)
			}
			for _, m := range moves {
				if strings.Contains(m.Name, "-") {
					t.Fatalf("%q: move %s is no placement", state, m.Name)
				}
				if m.Next == "" {
					continue
				}
				nt, err := g.TierOf(m.Next)
				if err != nil || !slices.Contains(g.TierChildren(tier), nt) {
					t.Fatalf("%q: %s leads to %q, sector %s, not a child of %s (%v)", state, m.Name, m.Next, g.TierName(nt), g.TierName(tier), err)
				}
			}
		}
	}
	if _, err := mill.NewSectorSpace(0, 0, 8, 9); err == nil {
		t.Error("the mover holding fewer stones in hand than the opponent accepted")
	}
	if _, err := mill.NewSectorSpace(2, 0, 1, 1); err == nil {
		t.Error("an opponent with 1 stone in all accepted")
	}
}

func itoa(n int) string { return string(rune('0' + n)) }
