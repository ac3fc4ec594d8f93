package values

import "fmt"

// Pattern-database group files store, per placement of the group's tiles, a lower bound
// on the moves of those tiles to their goal cells. Every such move changes the group's
// Manhattan distance md by exactly one, so a value v has md's parity and v ≥ md.
const (
	// EncodingPDBValue stores the value itself.
	EncodingPDBValue Encoding = "pdb-value"
	// EncodingPDBExcess stores (v − md) / 2, which is small: 4 bits hold it for the 7-8
	// split of the 15-puzzle, where the values need 6.
	EncodingPDBExcess Encoding = "pdb-md-excess"
)

// IsPDB reports whether encoding is one of the pattern-database encodings.
func IsPDB(encoding Encoding) bool {
	return encoding == EncodingPDBValue || encoding == EncodingPDBExcess
}

// ToExcess returns the excess code of value v at Manhattan distance md. A value below md
// or of the other parity is no pattern-database value.
func ToExcess(v, md uint64) (uint64, error) {
	if v < md || (v-md)&1 != 0 {
		return 0, fmt.Errorf("values: %d is no pattern-database value at Manhattan distance %d", v, md)
	}
	return (v - md) / 2, nil
}

// FromExcess returns the value of excess code c at Manhattan distance md.
func FromExcess(c, md uint64) uint64 { return md + 2*c }

// PDBValue returns the value that code c of a file in encoding enc stands for.
func PDBValue(enc Encoding, c, md uint64) uint64 {
	if enc == EncodingPDBExcess {
		return FromExcess(c, md)
	}
	return c
}
