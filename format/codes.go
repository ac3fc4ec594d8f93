package format

import (
	"encoding/binary"
	"math/bits"
)

// Codes are packed LSB-first: code i of a block occupies bits
// [i*bits, (i+1)*bits) of the block read as one little-endian number, i.e.
// stream bit k is bit k%8 of byte k/8. Unused high bits of the last byte are
// zero.

// pack appends the bit-packed codes to dst. Every code must fit in bits.
func pack(dst []byte, codes []uint32, bits int) []byte {
	var acc uint64 // pending bits, LSB first
	var n uint     // number of pending bits, < 32 between codes
	b := uint(bits)
	for _, c := range codes {
		acc |= uint64(c) << n
		n += b
		if n >= 32 {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(acc))
			acc >>= 32
			n -= 32
		}
	}
	for ; n > 0; n -= min(n, 8) {
		dst = append(dst, byte(acc))
		acc >>= 8
	}
	return dst
}

// unpack fills dst with codes first, first+1, ... of a packed block. src must
// extend at least blockPad bytes past the last packed byte (decoded blocks
// are padded), so every code is read with one unaligned 8-byte load.
func unpack(dst []uint32, src []byte, first uint64, bits int) {
	mask := uint64(1)<<uint(bits) - 1
	bit := first * uint64(bits)
	step := uint64(bits)
	for i := range dst {
		w := binary.LittleEndian.Uint64(src[bit>>3:])
		dst[i] = uint32(w >> (bit & 7) & mask)
		bit += step
	}
}

// counter counts codes densely, up to MaxCodeCounts distinct values.
type counter struct {
	n    []uint64
	over bool // some code >= MaxCodeCounts was seen
}

func (c *counter) add(codes []uint32) {
	n := c.n
	for _, v := range codes {
		if uint64(v) < uint64(len(n)) {
			n[v]++
			continue
		}
		if v >= MaxCodeCounts {
			c.over = true
			continue
		}
		grown := make([]uint64, min(max(int(v)+1, 2*len(n), 16), MaxCodeCounts))
		copy(grown, n)
		n = grown
		n[v]++
	}
	c.n = n
}

// addPacked2 counts the n 2-bit codes packed in b (LSB first), a word of 32 at a time.
func (c *counter) addPacked2(b []byte, n uint64) {
	var k [4]uint64
	full := n / 32 * 8
	for i := uint64(0); i < full; i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		hi, lo := w>>1&evens2, w&evens2
		k[3] += uint64(bits.OnesCount64(hi & lo))
		k[2] += uint64(bits.OnesCount64(hi &^ lo))
		k[1] += uint64(bits.OnesCount64(lo &^ hi))
	}
	k[0] = n/32*32 - k[1] - k[2] - k[3]
	for s := n / 32 * 32; s < n; s++ {
		k[b[s/4]>>(s%4*2)&3]++
	}
	top := 0
	for v := range k {
		if k[v] != 0 {
			top = v + 1
		}
	}
	if len(c.n) < top {
		grown := make([]uint64, max(top, 16))
		copy(grown, c.n)
		c.n = grown
	}
	for v := range top {
		c.n[v] += k[v]
	}
}

// evens2 has the low bit of every 2-bit code of a word set.
const evens2 = 0x5555555555555555

func (c *counter) merge(o *counter) {
	if len(o.n) > len(c.n) {
		c.n, o.n = o.n, c.n
	}
	for v, k := range o.n {
		c.n[v] += k
	}
	c.over = c.over || o.over
}

// result returns the counts as stored in Metadata.CodeCounts: trimmed after
// the largest code present, empty (not nil) for no slots, nil on overflow.
func (c *counter) result() []uint64 {
	if c.over {
		return nil
	}
	n := c.n
	for len(n) > 0 && n[len(n)-1] == 0 {
		n = n[:len(n)-1]
	}
	return append([]uint64{}, n...)
}
