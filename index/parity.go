package index

import "math/bits"

// Inversions returns the inversion count of p, the number of pairs i < j with
// p[i] > p[j], in O(n): a bitmask of the values seen so far, and for each p[j] the
// popcount of the seen values above it. p must hold distinct values below 64 (so
// len(p) <= 64); it panics when len(p) > 64.
func Inversions(p []uint8) int {
	if len(p) > 64 {
		panic("index.Inversions: more than 64 entries")
	}
	var seen uint64
	inv := 0
	for _, v := range p {
		// Shifts of 64 or more give 0 in Go, so a bad value cannot fault here.
		inv += bits.OnesCount64(seen >> v)
		seen |= 1 << v
	}
	return inv
}

// Parity returns the parity of the inversion count of p: 0 for an even
// permutation, 1 for an odd one. Same method and contract as Inversions.
func Parity(p []uint8) int {
	return Inversions(p) & 1
}
