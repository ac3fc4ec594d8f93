package values

import "fmt"

// EncodingRemoteness is the code layout of puzzle tables: with b bits per slot, a code
// c ≤ 2^b − 3 is a remoteness (moves to the nearest goal), 2^b − 2 marks a state that
// cannot reach a goal, 2^b − 1 a slot that is no state (a hole of the index scheme).
const EncodingRemoteness Encoding = "remoteness"

// RemotenessCodes is the remoteness encoding at a given width.
type RemotenessCodes struct{ Bits int }

// RemotenessBits is the narrowest remoteness encoding that holds remoteness up to max.
func RemotenessBits(max uint64) (RemotenessCodes, error) {
	for b := 2; b <= 32; b++ {
		if max <= (uint64(1)<<b)-3 {
			return RemotenessCodes{Bits: b}, nil
		}
	}
	return RemotenessCodes{}, fmt.Errorf("values: remoteness %d does not fit 32-bit codes", max)
}

// Valid reports whether the width is one a remoteness table can have.
func (e RemotenessCodes) Valid() bool { return e.Bits >= 2 && e.Bits <= 32 }

// Unreachable is the code of a state that cannot reach a goal.
func (e RemotenessCodes) Unreachable() uint32 { return uint32((uint64(1) << e.Bits) - 2) }

// Hole is the code of a slot that is no state.
func (e RemotenessCodes) Hole() uint32 { return uint32((uint64(1) << e.Bits) - 1) }

// Summary reads the per-code counts of a remoteness table: the states per remoteness
// (without trailing zeros), the unreachable states and the holes.
func (e RemotenessCodes) Summary(codeCounts []uint64) (counts []uint64, unreachable, holes uint64) {
	for c, k := range codeCounts {
		switch uint32(c) {
		case e.Unreachable():
			unreachable = k
		case e.Hole():
			holes = k
		default:
			if uint64(c) < uint64(e.Unreachable()) {
				counts = append(counts, k)
			}
		}
	}
	for len(counts) > 0 && counts[len(counts)-1] == 0 {
		counts = counts[:len(counts)-1]
	}
	return counts, unreachable, holes
}
