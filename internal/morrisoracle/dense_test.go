package morrisoracle

import "testing"

// agree solves the sectors of roots both ways, densely and by the map of Solve over every
// raw position of the dense set's sectors, and checks that every value is the same.
func agree(t *testing.T, r Rules, roots ...Sector) {
	t.Helper()
	d := SolveDense(r, roots)
	var ps []Pos
	for _, s := range d.Sectors() {
		ps = append(ps, Positions(r, s.W, s.B, s.OwnHand, s.OppHand)...)
	}
	if len(ps) != d.Len() {
		t.Fatalf("%s: %d positions in the sectors, %d in the dense set", r.Name, len(ps), d.Len())
	}
	m := Solve(r, ps)
	if len(m) != len(ps) {
		t.Fatalf("%s: the map solved %d positions, the sectors hold %d: not closed", r.Name, len(m), len(ps))
	}
	wrong, decided := 0, 0
	for _, p := range ps {
		v, ok := d.Value(p)
		if v.Outcome != Draw {
			decided++
		}
		if !ok || v != m[p] {
			if wrong < 5 {
				t.Errorf("%s: %s: dense %v in %d, map %v in %d", r.Name, r.String(p), v.Outcome, v.Remoteness, m[p].Outcome, m[p].Remoteness)
			}
			wrong++
		}
	}
	if wrong > 0 {
		t.Fatalf("%s: %d of %d positions differ", r.Name, wrong, len(ps))
	}
	if decided == 0 {
		t.Fatalf("%s: no position decided", r.Name)
	}
	t.Logf("%s: %d positions of %d sectors agree (%d won or lost)", r.Name, len(ps), len(d.Sectors()), decided)
}

// TestDenseAgreesWithMap checks the dense mode against the map on small games whole: every
// rule the oracle knows (a mill that wins, captures, flying, merged phases, flying at 3
// in total).
func TestDenseAgreesWithMap(t *testing.T) {
	t.Parallel()
	fork := small("fork", 7, [][2]int{{0, 1}, {1, 2}, {1, 3}, {2, 4}, {4, 5}, {5, 6}}, [][3]int{{0, 1, 2}, {4, 5, 6}}, true)
	path := small("path", 8, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}}, [][3]int{{1, 2, 3}, {4, 5, 6}}, false)
	for _, c := range []struct {
		r     Rules
		roots []Sector
	}{
		{Three, []Sector{{0, 0, 3, 3}}},
		{Five, []Sector{{0, 0, 3, 3}}},
		{fork, []Sector{{0, 0, 4, 4}}},
		{path, []Sector{{0, 0, 4, 4}}},
	} {
		t.Run(c.r.Name, func(t *testing.T) {
			t.Parallel()
			agree(t, c.r, c.roots...)
		})
	}
}
