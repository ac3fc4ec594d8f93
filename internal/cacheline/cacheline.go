// Package cacheline keeps the per-worker scratch state of the parallel engines off each
// other's cache lines.
//
// Two goroutines that write to different variables on the same cache line slow each other
// down as if they shared the variable (false sharing): every write invalidates the other
// core's copy of the line. Go's allocator puts small objects of one size class side by side,
// so the scratch buffers of two workers created one after the other (a 12-byte board and
// position vector of a sliding-tile expander, a worker's slice headers and counters) very
// often share a line — and sometimes not, which made the 3×4 build take either ~16 s or
// ~31 s. Every expander and worker allocates its written-per-state state through this
// package, so that whether two workers collide no longer depends on where the allocator
// happened to put them.
//
// The unit is 128 bytes, not 64: Intel's adjacent-line prefetcher fetches lines in pairs
// (so neighbouring 64-byte lines still ping-pong), and some ARM cores have 128-byte lines.
package cacheline

import "unsafe"

// Size is the padding unit in bytes.
const Size = 128

// Pad is padding of one unit, to put between fields written by different goroutines.
type Pad [Size]byte

// padded places v between two pads: no other allocation comes within Size bytes of it.
type padded[T any] struct {
	_ Pad
	v T
	_ Pad
}

// New returns a pointer to a zero T that shares no cache line with any other allocation.
func New[T any]() *T {
	return &new(padded[T]).v
}

// Make returns a slice of n zero Ts (length and capacity n) that shares no cache line with
// any other allocation. Appending beyond n reallocates without padding.
func Make[T any](n int) []T {
	var zero T
	pad := (Size + int(unsafe.Sizeof(zero)) - 1) / max(int(unsafe.Sizeof(zero)), 1)
	s := make([]T, pad+n+pad)
	return s[pad : pad+n : pad+n]
}
