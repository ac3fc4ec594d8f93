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

// DepthMod3Bits is the width of a two-bit table's codes.
const DepthMod3Bits = 2

// DepthMod3NotReached is the code of a slot no level reached.
const DepthMod3NotReached = 3

// DepthMod3Extra is the metadata extra of a two-bit table.
type DepthMod3Extra struct {
	Counts      []uint64 `json:"depth_counts"` // states per remoteness
	Unreachable uint64   `json:"unreachable"`
	Holes       uint64   `json:"holes"`
	Engine      string   `json:"engine,omitempty"`
}

// ParseDepthMod3Extra reads the extra of a two-bit table and checks it against the
// per-code counts: the states at remoteness d ≡ c (mod 3) are the slots of code c, the
// unreachable states and holes those of code 3.
func ParseDepthMod3Extra(extra json.RawMessage, codeCounts []uint64) (DepthMod3Extra, error) {
	var x DepthMod3Extra
	if err := json.Unmarshal(extra, &x); err != nil {
		return x, fmt.Errorf("values: depth-mod-3 extra: %v", err)
	}
	if len(x.Counts) == 0 {
		return x, fmt.Errorf("values: depth-mod-3 extra: no depth_counts")
	}
	var want [4]uint64
	for d, k := range x.Counts {
		want[d%3] += k
	}
	want[3] = x.Unreachable + x.Holes
	for c := range 4 {
		var got uint64
		if c < len(codeCounts) {
			got = codeCounts[c]
		}
		if got != want[c] {
			return x, fmt.Errorf("values: %d slots hold code %d, the depth counts say %d", got, c, want[c])
		}
	}
	if len(codeCounts) > 4 {
		return x, fmt.Errorf("values: a depth-mod-3 table with %d codes", len(codeCounts))
	}
	return x, nil
}
