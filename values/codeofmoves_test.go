package values

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCodeOfMovesMatchesSummary compares CodeOfMoves with a MoveSummary of the same codes
// on random lists: empty, holes only, draws, wins and losses of every parity and size,
// up to the largest 16-bit code; and SummaryOf of what CodeOfMoves gives with the
// MoveSummary, where no code is a hole.
func TestCodeOfMovesMatchesSummary(t *testing.T) {
	for _, e := range []WDLCodes{{}, {Split: true}} {
		t.Run(string(e.Encoding()), func(t *testing.T) { testCodeOfMoves(t, e) })
	}
}

func testCodeOfMoves(t *testing.T, e WDLCodes) {
	r := rand.New(rand.NewPCG(1, 2))
	pick := []func() uint16{
		func() uint16 { return WDLHole },
		func() uint16 { return WDLDraw },
		func() uint16 { return uint16(2 + 2*r.IntN(40)) },   // a loss
		func() uint16 { return uint16(3 + 2*r.IntN(40)) },   // a win
		func() uint16 { return uint16(2 + r.IntN(0xFFFE)) }, // any remoteness
		func() uint16 { return 0xFFFF - uint16(r.IntN(4)) }, // the largest codes
	}
	for i := range 200_000 {
		codes := make([]uint16, r.IntN(12))
		kinds := 1 + r.IntN(len(pick))
		for j := range codes {
			codes[j] = pick[r.IntN(kinds)]()
		}
		var s MoveSummary
		for _, c := range codes {
			s.AddCodeOf(e, uint32(c))
		}
		if got, want := e.OfMoves(codes), s.CodeOf(e); got != want {
			t.Fatalf("case %d: CodeOfMoves(%v) = %d, a MoveSummary says %d", i, codes, got, want)
		}
		if !e.Split && CodeOfMoves(codes) != e.OfMoves(codes) {
			t.Fatalf("case %d: CodeOfMoves and the parity layout's OfMoves differ", i)
		}
		if slices.Contains(codes, WDLHole) {
			continue // SummaryOf is for codes without holes
		}
		sum := e.SummaryOf(e.OfMoves(codes), len(codes))
		gotO, gotR := sum.Value()
		wo, wr := s.Value()
		if sum.Moves != s.Moves || gotO != wo || gotR != wr {
			t.Fatalf("case %d: SummaryOf(CodeOfMoves(%v)) = %+v (%v in %d), the MoveSummary %+v (%v in %d)", i, codes, sum, gotO, gotR, s, wo, wr)
		}
	}
}

// TestWDLSplitRoundTrip: in the split layout every outcome at every remoteness has a code
// that decodes back, losses even and wins odd as in the parity layout, and OutcomeCode
// reads its outcome; the parity layout holds only wins at odd and losses at even
// remoteness.
func TestWDLSplitRoundTrip(t *testing.T) {
	t.Parallel()
	e, err := WDLCodes{Split: true}.Narrowest(26)
	if err != nil || e.Bits != 6 || !e.Split || e.Encoding() != EncodingWDLSplit {
		t.Fatalf("Narrowest(26) of the split layout = %+v, %v", e, err)
	}
	for r := 0; r <= 26; r++ {
		for _, o := range []Outcome{Win, Loss} {
			c := e.Code(o, r)
			got, gr, ok := e.Decode(c)
			if !ok || got != o || gr != r || c >= 1<<e.Bits || !e.Holds(o, r) {
				t.Errorf("%v in %d: code %d decodes as %v in %d (%v)", o, r, c, got, gr, ok)
			}
			if want := map[Outcome]uint32{Win: WDLOnlyWin, Loss: WDLOnlyLoss}[o]; OutcomeCode(c) != want {
				t.Errorf("%v in %d: outcome code %d", o, r, OutcomeCode(c))
			}
			if (WDLCodes{}).Holds(o, r) != ((o == Win) == (r%2 == 1)) {
				t.Errorf("the parity layout says %v in %d holds: %v", o, r, (WDLCodes{}).Holds(o, r))
			}
		}
	}
	for _, enc := range []Encoding{EncodingWDL, EncodingWDLSplit} {
		if l, ok := WDLLayout(enc); !ok || l.Encoding() != enc {
			t.Errorf("WDLLayout(%s) = %+v, %v", enc, l, ok)
		}
	}
	if _, ok := WDLLayout(EncodingWDLOnly); ok {
		t.Error("the win/draw/loss-only encoding read as a layout with remoteness")
	}
}
