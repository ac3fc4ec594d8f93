package builder

import "unsafe"

// bigBuf is a zeroed array of bytes kept outside the Go heap when large (allocBytes):
// the bitsets a search owns and the level log's scratch. It is released by release or,
// failing that, once the bigBuf is unreachable; its slices must not outlive it.
type bigBuf struct {
	b    []byte
	free func()
}

func newBigBuf(n uint64) *bigBuf {
	m := &bigBuf{}
	m.b, m.free = allocBytes(n, m)
	return m
}

// release frees the bytes now (m may be nil).
func (m *bigBuf) release() {
	if m == nil {
		return
	}
	if m.free != nil {
		m.free()
		m.free = nil
	}
	m.b = nil
}

// words is the buffer as uint64s (len(b)/8 of them).
func (m *bigBuf) words() []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(m.b))), len(m.b)/8)
}

// uint32s is the buffer as uint32s (len(b)/4 of them).
func (m *bigBuf) uint32s() []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(m.b))), len(m.b)/4)
}

// newWords returns a zeroed bitset of n bits outside the Go heap, and its buffer.
func newWords(n uint64) ([]uint64, *bigBuf) {
	m := newBigBuf((n + 63) / 64 * 8)
	return m.words(), m
}

// grow returns a buffer of at least n bytes in *m (contents undefined), replacing a
// smaller one by one a quarter larger than asked, so that a series of growing levels
// reallocates rarely.
func grow(m **bigBuf, n uint64) []byte {
	if *m == nil || uint64(len((*m).b)) < n {
		(*m).release()
		*m = newBigBuf(n + n/4)
	}
	return (*m).b[:n]
}
