package values

import (
	"slices"
	"testing"
)

func TestRemotenessBits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		max  uint64
		bits int
	}{{0, 2}, {1, 2}, {2, 3}, {5, 3}, {6, 4}, {31, 6}, {253, 8}, {254, 9}} {
		e, err := RemotenessBits(tc.max)
		if err != nil || e.Bits != tc.bits {
			t.Errorf("RemotenessBits(%d) = %v, %v; want %d bits", tc.max, e, err, tc.bits)
		}
		if uint64(e.Unreachable()) <= tc.max || e.Hole() != e.Unreachable()+1 {
			t.Errorf("%d bits: unreachable %d, hole %d overlap remoteness %d", e.Bits, e.Unreachable(), e.Hole(), tc.max)
		}
	}
	if _, err := RemotenessBits(1 << 40); err == nil {
		t.Error("2^40 fits 32 bits?")
	}
}

func TestRemotenessSummary(t *testing.T) {
	t.Parallel()
	e := RemotenessCodes{Bits: 3} // codes 0..5 remoteness, 6 unreachable, 7 hole
	counts, un, holes := e.Summary([]uint64{1, 2, 0, 0, 0, 0, 5, 9})
	if !slices.Equal(counts, []uint64{1, 2}) || un != 5 || holes != 9 {
		t.Errorf("Summary = %v %d %d", counts, un, holes)
	}
}

func TestPDBExcess(t *testing.T) {
	t.Parallel()
	for md := uint64(0); md < 10; md++ {
		for x := uint64(0); x < 10; x++ {
			v := FromExcess(x, md)
			if got, err := ToExcess(v, md); err != nil || got != x {
				t.Fatalf("ToExcess(FromExcess(%d, %d)) = %d, %v", x, md, got, err)
			}
			if PDBValue(EncodingPDBExcess, x, md) != v || PDBValue(EncodingPDBValue, v, md) != v {
				t.Fatalf("PDBValue disagrees at md %d, x %d", md, x)
			}
		}
		if _, err := ToExcess(md+1, md); err == nil {
			t.Errorf("value %d at md %d has the wrong parity", md+1, md)
		}
		if md > 0 {
			if _, err := ToExcess(md-1, md); err == nil {
				t.Errorf("value %d below md %d accepted", md-1, md)
			}
		}
	}
}

func TestWDLRoundTrip(t *testing.T) {
	t.Parallel()
	e, err := WDLBits(26)
	if err != nil || e.Bits != 5 {
		t.Fatalf("WDLBits(26) = %v, %v", e, err)
	}
	for r := 0; r <= 26; r++ {
		o := Loss
		if r%2 == 1 {
			o = Win
		}
		got, gr, ok := e.Decode(e.Code(o, r))
		if !ok || got != o || gr != r {
			t.Errorf("remoteness %d: decoded %v %d %v", r, got, gr, ok)
		}
	}
	if o, _, ok := e.Decode(e.Code(Draw, 0)); !ok || o != Draw {
		t.Errorf("draw decodes as %v %v", o, ok)
	}
	if _, _, ok := e.Decode(WDLHole); ok {
		t.Error("hole decodes as a value")
	}
	s := e.Summary([]uint64{3, 4, 5, 6, 0, 7})
	want := WDLSummary{Holes: 3, Draws: 4, Losses: 5, Wins: 6 + 7, MaxWin: 3, MaxLoss: 0}
	if s != want {
		t.Errorf("Summary = %+v, want %+v", s, want)
	}
}

func TestOutcomeText(t *testing.T) {
	t.Parallel()
	for o := Remoteness; o <= Draw; o++ {
		b, _ := o.MarshalText()
		var back Outcome
		if err := back.UnmarshalText(b); err != nil || back != o {
			t.Errorf("%v: round trip gives %v, %v", o, back, err)
		}
	}
	var o Outcome
	if err := o.UnmarshalText([]byte("maybe")); err == nil {
		t.Error("unknown outcome accepted")
	}
}

func TestOutcomeCode(t *testing.T) {
	t.Parallel()
	e := WDLCodes{Bits: 8}
	for r := 0; r <= 200; r++ {
		o := Loss
		want := uint32(WDLOnlyLoss)
		if r%2 == 1 {
			o, want = Win, WDLOnlyWin
		}
		c := OutcomeCode(e.Code(o, r))
		if c != want {
			t.Errorf("%v in %d: outcome code %d, want %d", o, r, c, want)
		}
		// An outcome code decodes as the same outcome, and is its own outcome code.
		if got, _, ok := e.Decode(c); !ok || got != o || OutcomeCode(c) != c {
			t.Errorf("%v in %d: code %d decodes as %v", o, r, c, got)
		}
	}
	if OutcomeCode(WDLDraw) != WDLDraw || OutcomeCode(WDLHole) != WDLHole {
		t.Error("a draw or the hole changed")
	}
	// A position with a move to a loss (in any number of plies) is won; with only wins
	// for the opponent, lost; else drawn if a move draws: from outcome codes as from the
	// full ones.
	for _, kids := range [][]uint32{{2 + 4}, {2 + 3, 2 + 7}, {WDLDraw, 2 + 9}, {2 + 1, 2 + 10, WDLDraw}} {
		var full, only MoveSummary
		for _, c := range kids {
			full.AddCode(c)
			only.AddCode(OutcomeCode(c))
		}
		if OutcomeCode(full.Code()) != OutcomeCode(only.Code()) {
			t.Errorf("children %v: %d from the full codes, %d from the outcomes", kids, full.Code(), only.Code())
		}
	}
	s := WDLOnlySummary([]uint64{0, 4, 5, 6})
	if want := (WDLSummary{Draws: 4, Losses: 5, Wins: 6, MaxWin: -1, MaxLoss: -1}); s != want {
		t.Errorf("WDLOnlySummary = %+v, want %+v", s, want)
	}
}
