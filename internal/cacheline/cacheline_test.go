package cacheline

import (
	"testing"
	"unsafe"
)

// far reports whether [a, a+na) and [b, b+nb) are at least Size bytes apart.
func far(a uintptr, na int, b uintptr, nb int) bool {
	if a > b {
		a, na, b, nb = b, nb, a, na
	}
	return b >= a+uintptr(na)+Size
}

func TestNewKeepsApart(t *testing.T) {
	type worker struct {
		buf   []uint64
		found uint64
	}
	var ptrs []*worker
	for range 64 {
		ptrs = append(ptrs, New[worker]())
	}
	sz := int(unsafe.Sizeof(worker{}))
	for i, p := range ptrs {
		if p.buf != nil || p.found != 0 {
			t.Fatal("New returned a non-zero value")
		}
		for _, q := range ptrs[:i] {
			if !far(uintptr(unsafe.Pointer(p)), sz, uintptr(unsafe.Pointer(q)), sz) {
				t.Fatalf("two workers %p and %p are closer than %d bytes", p, q, Size)
			}
		}
	}
}

func TestMakeKeepsApart(t *testing.T) {
	for _, n := range []int{0, 1, 12, 16, 100} {
		var s [][]uint8
		for range 64 {
			b := Make[uint8](n)
			if len(b) != n || cap(b) != n {
				t.Fatalf("Make(%d): len %d cap %d", n, len(b), cap(b))
			}
			s = append(s, b)
		}
		for i, b := range s {
			for _, c := range s[:i] {
				if !far(uintptr(unsafe.Pointer(unsafe.SliceData(b))), n, uintptr(unsafe.Pointer(unsafe.SliceData(c))), n) {
					t.Fatalf("Make(%d): two slices closer than %d bytes", n, Size)
				}
			}
		}
	}
	if w := Make[uint64](3); len(w) != 3 || w[0]|w[1]|w[2] != 0 {
		t.Fatal("Make[uint64] not zero")
	}
}
