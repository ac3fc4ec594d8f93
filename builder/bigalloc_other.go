//go:build !linux

package builder

// allocBytes returns n zeroed bytes from the Go heap (see bigalloc_linux.go).
func allocBytes[T any](n uint64, owner *T) (b []byte, free func()) { return make([]byte, n), nil }
