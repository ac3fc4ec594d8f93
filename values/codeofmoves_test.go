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
			s.AddCode(uint32(c))
		}
		if got, want := CodeOfMoves(codes), s.Code(); got != want {
			t.Fatalf("case %d: CodeOfMoves(%v) = %d, a MoveSummary says %d", i, codes, got, want)
		}
		if slices.Contains(codes, WDLHole) {
			continue // SummaryOf is for codes without holes
		}
		sum := SummaryOf(CodeOfMoves(codes), len(codes))
		gotO, gotR := sum.Value()
		wo, wr := s.Value()
		if sum.Moves != s.Moves || gotO != wo || gotR != wr {
			t.Fatalf("case %d: SummaryOf(CodeOfMoves(%v)) = %+v (%v in %d), the MoveSummary %+v (%v in %d)", i, codes, sum, gotO, gotR, s, wo, wr)
		}
	}
}
