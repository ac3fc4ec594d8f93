package values

import (
	"math/rand/v2"
	"testing"
)

// TestCodeOfMovesMatchesSummary compares CodeOfMoves with a MoveSummary of the same codes
// on random lists: empty, holes only, draws, wins and losses of every parity and size,
// up to the largest 16-bit code.
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
	}
}
