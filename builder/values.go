package builder

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/tablesmith/tablesmith/internal/bigmem"
)

// Values holds one unsigned value per slot in Width() bytes, little-endian. Each slot owns
// its own bytes, so workers may set different slots concurrently without atomics; the
// byte-aligned widths (1–4 bytes) are what makes that safe. The two largest values are
// reserved: Hole marks slots that are no state, Unset marks states the search has not
// reached (after a finished search: unreachable states).
//
// A value is stored XORed with Unset, so that zeroed memory reads as Unset: a new array,
// fresh from the kernel, needs no pass to fill it (single-threaded, that pass cost 3×4
// half a second and 4-peg Hanoi with 18 disks a pass over 11 GB before the search began;
// the pages are now first touched by the search's workers, in parallel).
type Values struct {
	data  []byte
	width int
	unset uint64 // Unset(), the stored form's XOR mask
	n     uint64
	free  func() // releases data now, if it is mapped outside the Go heap (see bigmem.Alloc)
}

// WidthFor returns the number of bytes per slot needed to store remoteness values up to
// bound plus the two reserved markers.
func WidthFor(bound uint64) (int, error) {
	for w := 1; w <= 4; w++ {
		if bound <= maxValue(w) {
			return w, nil
		}
	}
	return 0, fmt.Errorf("builder: remoteness bound %d does not fit 32-bit values", bound)
}

// maxValue is the largest storable value at width w: two codes are reserved.
func maxValue(w int) uint64 { return (uint64(1) << (8 * w)) - 3 }

// NewValues returns n slots of width bytes, all Unset.
func NewValues(n uint64, width int) (*Values, error) {
	if width < 1 || width > 4 {
		return nil, fmt.Errorf("builder: value width %d bytes (want 1..4)", width)
	}
	if n > math.MaxInt/uint64(width) {
		return nil, fmt.Errorf("builder: %d slots of %d bytes do not fit in memory", n, width)
	}
	v := &Values{width: width, unset: maxValue(width) + 1, n: n}
	v.data, v.free = bigmem.Alloc(n*uint64(width), v) // zeroed: every slot Unset
	return v, nil
}

// Widen adds a byte to every value, keeping every value and marker (Unset and Hole move
// to the new width's codes). The old array is released once copied, so for a moment both
// are held. It must not run concurrently with any other use of v.
func (v *Values) Widen() error {
	if v.width >= 4 {
		return fmt.Errorf("builder: values of %d bytes cannot be widened", v.width)
	}
	if v.n > math.MaxInt/uint64(v.width+1) {
		return fmt.Errorf("builder: %d slots of %d bytes do not fit in memory", v.n, v.width+1)
	}
	old := *v
	v.width++
	v.unset = maxValue(v.width) + 1
	v.data, v.free = bigmem.Alloc(v.n*uint64(v.width), v)
	unset, hole := old.Unset(), old.Hole()
	for i := range v.n {
		switch x := old.Get(i); x {
		case unset:
			v.Set(i, v.Unset())
		case hole:
			v.Set(i, v.Hole())
		default:
			v.Set(i, x)
		}
	}
	if old.free != nil {
		old.free()
	}
	return nil
}

// Len is the number of slots.
func (v *Values) Len() uint64 { return v.n }

// Width is the number of bytes per slot.
func (v *Values) Width() int { return v.width }

// Max is the largest remoteness the array can hold.
func (v *Values) Max() uint64 { return maxValue(v.width) }

// Unset is the marker of a slot the search has not reached.
func (v *Values) Unset() uint64 { return maxValue(v.width) + 1 }

// Hole is the marker of a slot that is no state.
func (v *Values) Hole() uint64 { return maxValue(v.width) + 2 }

// MapBytes writes into dst the values of slots [start, start+len(dst)) translated by tr,
// when the values are one byte wide (the usual case), and reports whether it did; for
// wider values it leaves dst alone and returns false. A table writer converts a whole
// array this way at a table look-up per slot instead of a Get and a comparison or two.
func (v *Values) MapBytes(dst []uint32, start uint64, tr *[256]uint32) bool {
	if v.width != 1 {
		return false
	}
	src := v.data[start : start+uint64(len(dst))]
	u := byte(v.unset)
	for i, x := range src {
		dst[i] = tr[x^u]
	}
	return true
}

// Get returns the value of slot i.
func (v *Values) Get(i uint64) uint64 {
	var x uint64
	switch v.width {
	case 1:
		x = uint64(v.data[i])
	case 2:
		b := v.data[2*i : 2*i+2]
		x = uint64(b[0]) | uint64(b[1])<<8
	case 3:
		b := v.data[3*i : 3*i+3]
		x = uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16
	default:
		b := v.data[4*i : 4*i+4]
		x = uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24
	}
	return x ^ v.unset
}

// SetEntries stores x at slot (base+b)>>shift for every bit b set in mask: a settled
// word's new slots (shift 0, BFS) or the entries of 1<<shift slots whose first bits mask
// marks (the 0-1 search), in one call whose one-byte case (most builds) is a plain loop.
func (v *Values) SetEntries(base, mask uint64, shift uint, x uint64) {
	if v.width != 1 {
		for ; mask != 0; mask &= mask - 1 {
			v.Set((base+uint64(bits.TrailingZeros64(mask)))>>shift, x)
		}
		return
	}
	b := byte(x ^ v.unset)
	for ; mask != 0; mask &= mask - 1 {
		v.data[(base+uint64(bits.TrailingZeros64(mask)))>>shift] = b
	}
}

// Set stores x at slot i.
func (v *Values) Set(i, x uint64) {
	x ^= v.unset
	switch v.width {
	case 1:
		v.data[i] = byte(x)
	case 2:
		b := v.data[2*i : 2*i+2]
		b[0], b[1] = byte(x), byte(x>>8)
	case 3:
		b := v.data[3*i : 3*i+3]
		b[0], b[1], b[2] = byte(x), byte(x>>8), byte(x>>16)
	default:
		b := v.data[4*i : 4*i+4]
		b[0], b[1], b[2], b[3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
	}
}
