// Package bigmem holds the engines' large arrays outside the Go heap: value arrays,
// bitsets, frontier chunks and the level log's scratch. The collector paces itself by
// heap size, and gigabytes that never hold pointers would otherwise let the heap grow to
// twice their size before a cycle runs (see Alloc).
package bigmem

import "unsafe"

// Buf is a zeroed array of bytes kept outside the Go heap when large (Alloc):
// the bitsets a search owns and the level log's scratch. It is released by Release or,
// failing that, once the Buf is unreachable; its slices must not outlive it.
type Buf struct {
	b    []byte
	free func()
}

// New returns a Buf of n zeroed bytes.
func New(n uint64) *Buf {
	m := &Buf{}
	m.b, m.free = Alloc(n, m)
	return m
}

// Release frees the bytes now (m may be nil).
func (m *Buf) Release() {
	if m == nil {
		return
	}
	if m.free != nil {
		m.free()
		m.free = nil
	}
	m.b = nil
}

// Slice is the buffer as an array of unsigned integers of type T (as many as fit whole).
func Slice[T ~uint8 | ~uint16 | ~uint32 | ~uint64](m *Buf) []T {
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(m.b))), uintptr(len(m.b))/unsafe.Sizeof(T(0)))
}

// Words is the buffer as uint64s (len(b)/8 of them).
func (m *Buf) Words() []uint64 { return Slice[uint64](m) }

// Uint32s is the buffer as uint32s (len(b)/4 of them).
func (m *Buf) Uint32s() []uint32 { return Slice[uint32](m) }

// Uint16s is the buffer as uint16s (len(b)/2 of them).
func (m *Buf) Uint16s() []uint16 { return Slice[uint16](m) }

// NewWords returns a zeroed bitset of n bits outside the Go heap, and its buffer.
func NewWords(n uint64) ([]uint64, *Buf) {
	m := New((n + 63) / 64 * 8)
	return m.Words(), m
}

// Grow returns a buffer of at least n bytes in *m (contents undefined), replacing a
// smaller one by one a quarter larger than asked, so that a series of growing levels
// reallocates rarely.
func Grow(m **Buf, n uint64) []byte {
	if *m == nil || uint64(len((*m).b)) < n {
		(*m).Release()
		*m = New(n + n/4)
	}
	return (*m).b[:n]
}

// Bytes is the buffer (nil once released).
func (m *Buf) Bytes() []byte { return m.b }
