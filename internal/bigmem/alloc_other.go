//go:build !linux

package bigmem

// Alloc returns n zeroed bytes from the Go heap (see alloc_linux.go).
func Alloc[T any](n uint64, owner *T) (b []byte, free func()) { return make([]byte, n), nil }
