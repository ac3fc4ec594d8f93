package bigmem

import (
	"runtime"
	"syscall"
)

// madvHugePage is MADV_HUGEPAGE (the syscall package lacks the name).
const madvHugePage = 14

// bigAllocMin is the size from which arrays are mapped outside the Go heap.
const bigAllocMin = 512 << 10

// Alloc returns n zeroed bytes and a func that releases them at once (nil for bytes
// from the Go heap, which the collector releases). Large arrays are anonymous memory maps
// rather than Go heap: the collector paces itself by heap size, and gigabytes of values
// or bitsets that never hold pointers would otherwise let the heap grow to twice their
// size before a cycle runs (or, under a memory limit, make it run without pause). A map
// not released by free is released when owner becomes unreachable; free must not be
// called while the bytes are in use, nor twice.
func Alloc[T any](n uint64, owner *T) (b []byte, free func()) {
	if n < bigAllocMin {
		return make([]byte, n), nil
	}
	b, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, n), nil // let the Go allocator report what is wrong
	}
	// Searches claim bits and values at random across arrays of gigabytes: with 4 KiB
	// pages nearly every access misses the TLB as well as the cache. Where transparent
	// huge pages are enabled only on request (the common "madvise" setting), ask for
	// them; the advice is only advice, so an error is ignored.
	_ = syscall.Madvise(b, madvHugePage)
	c := runtime.AddCleanup(owner, func(b []byte) { syscall.Munmap(b) }, b)
	return b, func() {
		c.Stop()
		syscall.Munmap(b)
	}
}
