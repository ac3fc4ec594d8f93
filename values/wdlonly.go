package values

// EncodingWDLOnly is the code layout of a win/draw/loss-only table of a two-player game:
// the value for the side to move without its remoteness. Its codes are those of
// EncodingWDL at remoteness 0 (a loss) and 1 (a win), so that every rule that reads WDL
// codes (MoveSummary, the retrograde engine) reads them as the right outcome; but the
// remoteness they decode to means nothing, and a reader must not show it. Two bits a
// position, and far fewer distinct codes to compress than with remoteness.
//
//	code 0   a slot that is no position (a hole of the index scheme)
//	code 1   a draw
//	code 2   a loss
//	code 3   a win
const EncodingWDLOnly Encoding = "wdl"

// The codes of EncodingWDLOnly that are no draw or hole.
const (
	WDLOnlyLoss = 2
	WDLOnlyWin  = 3
)

// WDLOnlyBits is the width of EncodingWDLOnly codes.
const WDLOnlyBits = 2

// OutcomeCode maps a WDL code, with remoteness or without, to its EncodingWDLOnly code:
// the hole and a draw stay, a loss (even remoteness) becomes 2 and a win (odd) 3.
func OutcomeCode(c uint32) uint32 {
	switch {
	case c <= WDLDraw:
		return c
	case c&1 == 0:
		return WDLOnlyLoss
	}
	return WDLOnlyWin
}

// WDLOnlySummary reads the per-code counts of an EncodingWDLOnly table: the outcomes,
// with no longest win or loss (MaxWin and MaxLoss -1), for there is no remoteness.
func WDLOnlySummary(codeCounts []uint64) WDLSummary {
	s := WDLCodes{Bits: WDLOnlyBits}.Summary(codeCounts)
	s.MaxWin, s.MaxLoss = -1, -1
	return s
}
