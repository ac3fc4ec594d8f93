package values

import (
	"encoding/json"
	"fmt"
)

// EncodingDepthMod3 is the code layout of two-bit puzzle tables (builder/twobit): 2-bit
// codes, 0..2 the remoteness modulo 3, 3 a slot no level reached (an unreachable state
// or a hole). The exact remoteness of a state is recovered by descent: from the state,
// move to a neighbour whose code is one less modulo 3 until a goal; the number of moves
// is the remoteness. The per-remoteness counts, which the codes cannot give, are in the
// metadata's extra (DepthMod3Extra).
const EncodingDepthMod3 Encoding = "depth-mod-3"

// EncodingHalfDepth is the code layout of two-bit tables of a space of two sides that
// every move crosses, the goals on side 0 (games.Sided: the sliding puzzles), as the
// half-depth search (builder/twobit Options.Half) leaves them: codes 0 and 1 are
// ⌊d/2⌋ mod 2 of remoteness d, 3 a slot no level reached; 2 never appears. A state's
// neighbours are at d−1 or d+1, which differ in ⌊d/2⌋ mod 2, and the side of a state's
// slot is d mod 2: code b on side σ says d mod 4 = 2b+σ, which is enough for the descent
// (TwoBitNearer). The extra is DepthMod3Extra, as for depth-mod-3 tables.
const EncodingHalfDepth Encoding = "half-depth"

// DepthMod3Bits is the width of a two-bit table's codes (both encodings).
const DepthMod3Bits = 2

// DepthMod3NotReached is the code of a slot no level reached (both encodings).
const DepthMod3NotReached = 3

// IsTwoBit reports whether enc is an encoding of two-bit puzzle tables: depth-mod-3 or
// half-depth.
func IsTwoBit(enc Encoding) bool { return enc == EncodingDepthMod3 || enc == EncodingHalfDepth }

// TwoBitCode is the code of remoteness d in a two-bit table of encoding enc: d mod 3, or
// ⌊d/2⌋ mod 2 for half-depth.
func TwoBitCode(enc Encoding, d uint64) uint32 {
	if enc == EncodingHalfDepth {
		return uint32(d / 2 % 2)
	}
	return uint32(d % 3)
}

// TwoBitNearer is the code that the neighbours one move nearer a goal hold, of a reached
// state of code c (not DepthMod3NotReached) whose slot is on side (half-depth only; a
// depth-mod-3 code does not depend on it): c−1 mod 3; or, for half-depth, ⌊(d−1)/2⌋ mod
// 2 where d mod 4 = 2c+side. The neighbours one move farther hold another code.
func TwoBitNearer(enc Encoding, c uint32, side uint8) uint32 {
	if enc == EncodingHalfDepth {
		return (2*c + uint32(side&1) + 3) % 4 / 2
	}
	return (c + 2) % 3
}

// DepthMod3Extra is the metadata extra of a two-bit table (both encodings).
type DepthMod3Extra struct {
	Counts      []uint64 `json:"depth_counts"` // states per remoteness
	Unreachable uint64   `json:"unreachable"`
	Holes       uint64   `json:"holes"`
	Engine      string   `json:"engine,omitempty"`
}

// ParseDepthMod3Extra is ParseTwoBitExtra of a depth-mod-3 table.
func ParseDepthMod3Extra(extra json.RawMessage, codeCounts []uint64) (DepthMod3Extra, error) {
	return ParseTwoBitExtra(EncodingDepthMod3, extra, codeCounts)
}

// ParseTwoBitExtra reads the extra of a two-bit table of encoding enc and checks it
// against the per-code counts: the states at remoteness d are slots of code
// TwoBitCode(enc, d), the unreachable states and holes those of code 3, and no other
// code is held (half-depth: no code 2).
func ParseTwoBitExtra(enc Encoding, extra json.RawMessage, codeCounts []uint64) (DepthMod3Extra, error) {
	var x DepthMod3Extra
	if !IsTwoBit(enc) {
		return x, fmt.Errorf("values: %q is no two-bit encoding", enc)
	}
	if err := json.Unmarshal(extra, &x); err != nil {
		return x, fmt.Errorf("values: %s extra: %v", enc, err)
	}
	if len(x.Counts) == 0 {
		return x, fmt.Errorf("values: %s extra: no depth_counts", enc)
	}
	var want [4]uint64
	for d, k := range x.Counts {
		want[TwoBitCode(enc, uint64(d))] += k
	}
	want[DepthMod3NotReached] = x.Unreachable + x.Holes
	for c := range 4 {
		var got uint64
		if c < len(codeCounts) {
			got = codeCounts[c]
		}
		if got != want[c] {
			return x, fmt.Errorf("values: %d slots hold code %d, the depth counts of a %s table say %d", got, c, enc, want[c])
		}
	}
	if len(codeCounts) > 4 {
		return x, fmt.Errorf("values: a %s table with %d codes", enc, len(codeCounts))
	}
	return x, nil
}
