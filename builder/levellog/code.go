package levellog

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/zstd"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/internal/bigmem"
)

// The encodings of one level's slots in a level-log record (see doc.go). A level is
// a set of count slots out of u; the encoder picks one of four forms by size and by the
// cost of making it (encode has the rules):
//
//   - packed (kind 0, param b = packedBits(u)): the slots in any order, b bits each,
//     bit-packed LSB first. No sort, so it is the form for levels too sparse for the
//     others to save much (3-peg Hanoi: thousands of slots out of 10^9 per level).
//   - bitset (kind 1, param 0): ⌈u/64⌉ little-endian words. For list levels where it is
//     smallest (denser than about one slot in four), and for levels handed over as a
//     bitset unless Elias–Fano is under a sixth of it (down to about one slot in 40):
//     it costs a copy at most, Elias–Fano 6 to 19 ns a slot.
//   - Elias–Fano (kind 2, param l, Elias 1974, Fano 1971): the slots ordered by their
//     high part s>>l, l ≥ ⌊log2(u/count)⌋; the low parts (l bits each, packed LSB first)
//     in that order, then the high parts in unary: the i-th slot sets bit (s>>l)+i of a
//     bitstream of ((u-1)>>l)+count bits. About log2(u/count)+2 bits per slot however
//     the slots are spaced: 3×4's dense levels take ~5 bits a slot, 4-peg Hanoi's ~9,
//     where a bitset would take u bits a level and a list 64 bits a slot. Slots sharing
//     a high part may come in any order, so a radix sort over the high part suffices,
//     and its last pass writes the code directly.
//
//   - zstd (kind 3, param 0; logs of version 3): the level's bitset, its little-endian
//     bytes compressed as consecutive zstd frames of zstdChunk bytes each. Where the
//     levels have structure, as the table does, this is several times smaller than
//     Elias–Fano at about the same cost: 4-peg Hanoi's dense levels take 1.6 bits a
//     slot against 9. It is tried on levels handed over as a bitset and on lists of
//     at least one slot in 1024 (a sparser level's bitset costs more to clear and
//     compress than Elias–Fano saves), judged on the first frame and kept only if it
//     promises at most half the best other form (3×4's levels, nearly random, do not).
//
// Every fixed form's payload size follows from (kind, param, count, u), which the replay
// checks before it reads a record; a zstd payload must be smaller than the bitset.

const (
	recordPacked = 0
	recordBitset = 1
	recordEF     = 2
	recordZstd   = 3
)

// zstdChunk is the bitset bytes per zstd frame: the first frame is the sample that
// decides whether the form is worth it, and each later one a point to give up at.
// Bitsets under zstdMinBytes are not tried.
// A level handed over as lists is tried when its bitset has at most zstdListBytes bytes
// a slot (one slot in 1024). bitsetOverEF: see encode.
const (
	bitsetOverEF  = 6
	zstdChunk     = 4 << 20
	zstdMinBytes  = 64 << 10
	zstdListBytes = 128
)

// packedBits is the width of a slot in the packed form.
func packedBits(u uint64) uint { return uint(max(bits.Len64(u-1), 1)) }

// efLowBits is the least number of low bits of the Elias–Fano form of count slots out
// of u (the form is smallest there).
func efLowBits(count, u uint64) uint {
	if count == 0 || u/count < 2 {
		return 0
	}
	return uint(bits.Len64(u/count) - 1)
}

// efSizes are the byte sizes of the low parts and the unary high parts.
func efSizes(count, u uint64, l uint) (lows, highs uint64) {
	return (count*uint64(l) + 7) / 8, (((u - 1) >> l) + count + 7) / 8
}

// payloadFits reports whether a record of the given form may have a payload of size
// bytes: the size of a fixed form, or for zstd, in a log that may hold it, at least a
// frame header and less than the bitset.
func payloadFits(kind byte, param uint, count, u, size uint64, zstdOK bool) bool {
	if kind == recordZstd {
		return zstdOK && param == 0 && count <= u && size >= 6 && size < 8*((u+63)/64)
	}
	want, ok := payloadSize(kind, param, count, u)
	return ok && size == want
}

// payloadSize is the payload of a record of a fixed form, or ok = false for a form
// that does not exist.
func payloadSize(kind byte, param uint, count, u uint64) (uint64, bool) {
	switch {
	case count > u:
		return 0, false
	case kind == recordPacked && param == packedBits(u):
		return (count*uint64(param) + 7) / 8, true
	case kind == recordBitset && param == 0:
		return 8 * ((u + 63) / 64), true
	case kind == recordEF && param >= efLowBits(count, u) && param <= packedBits(u):
		lo, hi := efSizes(count, u, param)
		return lo + hi, true
	}
	return 0, false
}

const (
	// efWorthSorting is how much smaller than the packed form an Elias–Fano record must
	// be for a list level to be sorted for it (in fifths): sorting costs a few ns a slot,
	// in the background, and is not worth it for a saving of a third.
	efWorthSorting = 3
	// radixDigit is the widest digit of the radix sort (4096 buckets), and a list level
	// is sorted in at most two passes: a level with a wider high part takes more low bits.
	radixDigit = 12
	// sortSmall is the list level size below which a comparison sort is used.
	sortSmall = 1 << 10
)

// levelEncoder turns levels into record payloads. Its buffers (outside the Go heap) are
// reused from level to level, and grow with them.
type levelEncoder struct {
	out    []byte      // the payload, in outBuf
	outBuf *bigmem.Buf // the payload
	tmpBuf *bigmem.Buf // the radix sort's intermediate order; a list level's bitset
	frame  *bigmem.Buf // the first zstd frame of a list level's bitset
	leBuf  *bigmem.Buf // a bitset's little-endian bytes on a big-endian machine
	zstd   *zstd.Encoder
	chunk  int // the zstd frames' size, if not zstdChunk (the tests make it small)
	// A search whose levels do not compress (3×4's) stops paying for the tries: after
	// the f-th failure in a row the next 2^f−1 levels that could be tried are not (f ≤ 4).
	zstdFails, zstdSkip int
	noZstd              bool // a version 2 log, whose readers do not take zstd records
}

// release frees the buffers.
func (e *levelEncoder) release() {
	e.outBuf.Release()
	e.tmpBuf.Release()
	e.frame.Release()
	e.leBuf.Release()
	if e.zstd != nil {
		e.zstd.Close()
	}
	*e = levelEncoder{chunk: e.chunk, zstdFails: e.zstdFails, zstdSkip: e.zstdSkip, noZstd: e.noZstd}
}

// setOut makes e.out n bytes long (contents undefined).
func (e *levelEncoder) setOut(n uint64) { e.out = bigmem.Grow(&e.outBuf, n) }

// encode returns the kind, param and payload of lv's slots out of u. The payload is valid
// until the next call, and only as long as lv's words, which it may be (a bitset on a
// little-endian machine). A level given as lists is sorted only for the Elias–Fano form.
func (e *levelEncoder) encode(lv bfs.Level, u uint64) (kind byte, param uint, payload []byte) {
	c := lv.Count
	words := (u + 63) / 64
	bitsetSize := 8 * words
	l := efLowBits(c, u)
	efLo, efHi := efSizes(c, u, l)
	ef := efLo + efHi
	if lv.Words != nil {
		if e.shouldTryZstd(bitsetSize >= zstdMinBytes) {
			whole := func() []uint64 { return lv.Words }
			if p, ok := e.tryZstd(lv.Words[:e.frameWords(words)], words, min(bitsetSize, ef), whole); ok {
				return recordZstd, 0, p
			}
		}
		// A level handed over as a bitset is written as it is unless Elias–Fano is
		// less than a sixth of it (down to about one slot in 40): the bitset costs a
		// copy at most, written past the page cache (logFile), the code 6 to 19 ns a
		// slot (BenchmarkEFFromWords). On 3×4 a sixth against a third took the log's
		// cost from 5.8% to 4.4% of the build and the log from 316 to 472 MB (3.6× the
		// table); a tenth, 524 MB, saved no more.
		if bitsetSize <= bitsetOverEF*ef {
			return recordBitset, 0, littleEndianBytes(lv.Words, &e.leBuf)
		}
		e.efFromWords(lv.Words, c, u, l)
		return recordEF, l, e.out
	}
	b := packedBits(u)
	packed := (c*uint64(b) + 7) / 8
	// Elias–Fano from lists needs a sort, worth it only for a clear saving.
	useEF := ef*5 <= packed*efWorthSorting
	alt := packed
	if useEF {
		alt = ef
	}
	// A list level is tried in zstd only when its bitset costs at most zstdListBytes a
	// slot to clear and compress: a sparser one costs more than the other forms save.
	tryZstd := e.shouldTryZstd(bitsetSize >= zstdMinBytes && bitsetSize <= zstdListBytes*c)
	var bs []uint64
	if tryZstd {
		// The level's whole bitset is made only once its first frame, made from the
		// lists, promises the saving. 3×4's levels do not compress: its one list
		// level tried (323,206 slots) took 98 ms beside the search with the whole
		// bitset, 23 ms without, and the build's peak fell from 428 to 402 MB.
		whole := func() []uint64 { bs = listBitset(lv.Lists, words, &e.tmpBuf); return bs }
		if p, ok := e.tryZstd(listBitset(lv.Lists, e.frameWords(words), &e.frame), words, min(bitsetSize, alt), whole); ok {
			return recordZstd, 0, p
		}
	}
	if bitsetSize <= alt {
		if bs == nil {
			bs = listBitset(lv.Lists, words, &e.tmpBuf)
		}
		return recordBitset, 0, littleEndianBytes(bs, &e.leBuf)
	}
	if useEF {
		l = max(l, b-min(b, 2*radixDigit))
		e.efFromLists(lv.Lists, c, u, l)
		return recordEF, l, e.out
	}
	e.setOut(packed)
	e.out = e.out[:0]
	var acc uint64
	var n uint
	for _, list := range lv.Lists {
		for _, s := range list {
			acc |= s << n
			n += b
			if n >= 64 {
				e.out = binary.LittleEndian.AppendUint64(e.out, acc)
				n -= 64
				acc = 0
				if n > 0 {
					acc = s >> (b - n)
				}
			}
		}
	}
	for ; n > 0; n -= min(n, 8) {
		e.out = append(e.out, byte(acc))
		acc >>= 8
	}
	return recordPacked, b, e.out
}

// listBitset sets the slots of lists below 64·words in a zeroed bitset of words words,
// in *buf: the level's bitset, or its first zstd frame.
func listBitset(lists [][]uint64, words uint64, buf **bigmem.Buf) []uint64 {
	bigmem.Grow(buf, 8*words)
	bs := (*buf).Words()[:words]
	clear(bs)
	for _, list := range lists {
		for _, s := range list {
			if s>>6 < words {
				bs[s>>6] |= 1 << (s & 63)
			}
		}
	}
	return bs
}

// frameWords is the words of a bitset of words words in its first zstd frame.
func (e *levelEncoder) frameWords(words uint64) uint64 {
	step := uint64(zstdChunk)
	if e.chunk > 0 {
		step = uint64(e.chunk)
	}
	return min(words, step/8)
}

// tryZstd compresses a level's bitset of words words into e.out as zstd frames of
// zstdChunk bytes and returns them, or ok = false when they promise more than half of
// limit (judged on the first frame, which first holds) or come to limit or more. The
// whole bitset is made by whole, called only once the first frame promises. The outcome
// counts towards the backoff (shouldTryZstd).
func (e *levelEncoder) tryZstd(first []uint64, words, limit uint64, whole func() []uint64) (payload []byte, ok bool) {
	payload, ok = e.zstdWords(first, words, limit, whole)
	if !ok {
		e.zstdFails = min(e.zstdFails+1, 4)
		e.zstdSkip = 1<<e.zstdFails - 1
		return nil, false
	}
	e.zstdFails = 0
	return payload, true
}

// zstdWords is tryZstd without the backoff.
func (e *levelEncoder) zstdWords(first []uint64, words, limit uint64, whole func() []uint64) (payload []byte, ok bool) {
	if e.zstd == nil {
		// The fastest level: the bitsets of structured levels are mostly runs and
		// repeats. The record carries its own CRC-32C.
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
		if err != nil {
			return nil, false
		}
		e.zstd = enc
	}
	step := 8 * uint64(len(first))
	if step == 0 {
		return nil, false
	}
	// Room for limit plus a frame's worst case, so that EncodeAll never reallocates.
	e.setOut(limit + step + step/64 + 1<<10)
	out := e.zstd.EncodeAll(littleEndianBytes(first, &e.leBuf), e.out[:0])
	if uint64(len(out))*words/uint64(len(first)) > limit/2 || uint64(len(out)) >= limit {
		return nil, false
	}
	src := littleEndianBytes(whole(), &e.leBuf)
	for lo := step; lo < uint64(len(src)); lo += step {
		out = e.zstd.EncodeAll(src[lo:min(lo+step, uint64(len(src)))], out)
		if uint64(len(out)) >= limit {
			return nil, false
		}
	}
	e.out = out
	return out, true
}

// shouldTryZstd reports whether a level that could be tried in zstd (eligible) is.
func (e *levelEncoder) shouldTryZstd(eligible bool) bool {
	if !eligible || e.noZstd {
		return false
	}
	if e.zstdSkip > 0 {
		e.zstdSkip--
		return false
	}
	return true
}

// littleEndianBytes is the bitset as little-endian bytes: the words themselves on a
// little-endian machine, else a copy in *tmp.
func littleEndianBytes(words []uint64, tmp **bigmem.Buf) []byte {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), 8*len(words))
	if binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
		return b
	}
	out := bigmem.Grow(tmp, uint64(len(b)))
	for i, w := range words {
		binary.LittleEndian.PutUint64(out[8*i:], w)
	}
	return out
}

// inflateZstd turns a zstd payload back into the bitset form, in *scratch: the frames
// must decode to exactly the bitset of u slots.
func inflateZstd(p []byte, u uint64, scratch **bigmem.Buf) ([]byte, error) {
	dec, err := levelDecoder()
	if err != nil {
		return nil, err
	}
	size := 8 * ((u + 63) / 64)
	buf := bigmem.Grow(scratch, size)
	out, err := dec.DecodeAll(p, buf[:0:size])
	if err != nil || uint64(len(out)) != size || (size > 0 && &out[0] != &buf[0]) {
		return nil, errBadRecord
	}
	return out, nil
}

// levelDecoder decodes zstd records; with the capacity limit a frame cannot decode past
// the bitset's size.
var levelDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true),
		zstd.WithDecoderMaxMemory(1<<46))
})

// efWriter writes slots into a zeroed Elias–Fano payload by their rank.
type efWriter struct {
	lows, highs []byte
	l           uint
}

// newEF makes e.out a zeroed Elias–Fano payload (plus 8 bytes of slack for put's
// unaligned writes) and returns its writer.
func (e *levelEncoder) newEF(c, u uint64, l uint) efWriter {
	lo, hi := efSizes(c, u, l)
	e.setOut(lo + hi + 8)
	clear(e.out)
	w := efWriter{lows: e.out[:lo+8], highs: e.out[lo : lo+hi], l: l}
	e.out = e.out[:lo+hi]
	return w
}

// put writes slot s as the i-th of the code (its rank in the order by high part).
func (w *efWriter) put(i, s uint64) {
	h := s>>w.l + i
	w.highs[h>>3] |= 1 << (h & 7)
	if w.l == 0 {
		return
	}
	low := s & (1<<w.l - 1)
	bit := i * uint64(w.l)
	if w.l <= 56 {
		p := w.lows[bit>>3:]
		binary.LittleEndian.PutUint64(p, binary.LittleEndian.Uint64(p)|low<<(bit&7))
		return
	}
	for k := range uint64(w.l) {
		if low>>k&1 != 0 {
			w.lows[(bit+k)>>3] |= 1 << ((bit + k) & 7)
		}
	}
}

// efFromWords writes the Elias–Fano code of the c slots set in words (out of u) with l
// low bits into e.out. The slots come in increasing order, so both parts are written
// sequentially through a 64-bit accumulator each: the dense levels of a build (3×4's
// peak levels hold tens of millions of slots) cost a few operations a slot, in the
// background while the search goes on, instead of two read-modify-writes of memory.
func (e *levelEncoder) efFromWords(words []uint64, c, u uint64, l uint) {
	lo, _ := efSizes(c, u, l)
	e.newEF(c, u, l)
	// highs' last word may reach into the slack newEF leaves.
	lows, highs := e.out[:lo], e.out[lo:cap(e.out)]
	// lacc holds the ln low bits not yet written, which go to lows[lpos:].
	var lacc uint64
	var ln uint
	lpos := 0
	var hacc uint64 // the highs word hw, not yet written
	hw := uint64(0)
	lmask := uint64(1)<<l - 1
	var i uint64
	for wi, x := range words {
		for ; x != 0; x &= x - 1 {
			s := uint64(wi)<<6 | uint64(bits.TrailingZeros64(x))
			h := s>>l + i
			i++
			if h>>6 != hw {
				binary.LittleEndian.PutUint64(highs[8*hw:], hacc)
				hw, hacc = h>>6, 0
			}
			hacc |= 1 << (h & 63)
			if l == 0 {
				continue
			}
			low := s & lmask
			lacc |= low << ln
			ln += l
			if ln >= 64 {
				binary.LittleEndian.PutUint64(lows[lpos:], lacc)
				lpos += 8
				ln -= 64
				lacc = 0
				if ln > 0 {
					lacc = low >> (l - ln)
				}
			}
		}
	}
	if i > 0 {
		binary.LittleEndian.PutUint64(highs[8*hw:], hacc)
	}
	for ; ln > 0; ln -= min(ln, 8) {
		lows[lpos] = byte(lacc)
		lpos++
		lacc >>= 8
	}
}

// efFromLists writes the Elias–Fano code of the slots of lists (c in all, each below u)
// with l low bits into e.out: an LSD radix sort by the high part, of which a last pass
// puts each slot at its rank. The high part has at most 2·radixDigit bits. Slots are
// sorted as uint32s where they fit, else as uint64s (4-peg Hanoi from 18 disks).
func (e *levelEncoder) efFromLists(lists [][]uint64, c, u uint64, l uint) {
	w := e.newEF(c, u, l)
	span := packedBits(u) - l
	if u <= 1<<32 {
		bigmem.Grow(&e.tmpBuf, 4*c)
		efSort(&w, lists, e.tmpBuf.Uint32s()[:c], l, span)
		return
	}
	bigmem.Grow(&e.tmpBuf, 8*c)
	efSort(&w, lists, e.tmpBuf.Words()[:c], l, span)
}

// efSort puts the slots of lists (len(tmp) in all) into w in the order of their high
// parts (span bits above the l low ones), tmp holding the intermediate order.
func efSort[T uint32 | uint64](w *efWriter, lists [][]uint64, tmp []T, l, span uint) {
	if span == 0 || len(tmp) < sortSmall {
		i := 0
		for _, list := range lists {
			for _, s := range list {
				tmp[i] = T(s)
				i++
			}
		}
		slices.Sort(tmp)
		for i, s := range tmp {
			w.put(uint64(i), uint64(s))
		}
		return
	}
	// One or two digits of the high part: [l, l+w0) and [l+w0, l+span).
	w0 := span
	if span > radixDigit {
		w0 = span / 2
	}
	m0, m1 := uint64(1)<<w0-1, uint64(1)<<(span-w0)-1
	var h0, h1 [1 << radixDigit]uint64
	for _, list := range lists {
		for _, s := range list {
			k := s >> l
			h0[k&m0]++
			h1[k>>w0&m1]++
		}
	}
	prefix := func(h []uint64) {
		var sum uint64
		for d, n := range h {
			h[d] = sum
			sum += n
		}
	}
	if w0 == span {
		prefix(h0[:m0+1])
		for _, list := range lists {
			for _, s := range list {
				d := s >> l & m0
				w.put(h0[d], s)
				h0[d]++
			}
		}
		return
	}
	prefix(h0[:m0+1])
	prefix(h1[:m1+1])
	for _, list := range lists {
		for _, s := range list {
			d := s >> l & m0
			tmp[h0[d]] = T(s)
			h0[d]++
		}
	}
	sh := l + w0
	for _, s := range tmp {
		d := uint64(s) >> sh & m1
		w.put(h1[d], uint64(s))
		h1[d]++
	}
}

// errBadRecord is a record whose checksum holds but whose content does not (a forged
// log, or a bug): out-of-range or repeated slots, or a wrong count.
var errBadRecord = errors.New("bad record content")

// decodeRecord calls set for every slot of a payload of the given form (checked by
// payloadSize), and fails with errBadRecord on a slot out of range or a count that does
// not match. set may fail too (a slot seen before); decoding stops at the first error.
func decodeRecord(kind byte, param uint, count, u uint64, p []byte, set func(s uint64) error) error {
	var seen uint64
	emit := func(s uint64) error {
		if s >= u {
			return errBadRecord
		}
		seen++
		return set(s)
	}
	switch kind {
	case recordPacked:
		for i := range count {
			if err := emit(bitsAt(p, i*uint64(param), param)); err != nil {
				return err
			}
		}
	case recordBitset:
		for wi := uint64(0); wi < uint64(len(p))/8; wi++ {
			for x := binary.LittleEndian.Uint64(p[8*wi:]); x != 0; x &= x - 1 {
				if err := emit(wi<<6 | uint64(bits.TrailingZeros64(x))); err != nil {
					return err
				}
			}
		}
	case recordEF:
		l := param
		lo, _ := efSizes(count, u, l)
		lows, highs := p[:lo], p[lo:]
		var i uint64
		for bi, by := range highs {
			for x := uint(by); x != 0; x &= x - 1 {
				if i == count {
					return errBadRecord
				}
				h := uint64(bi)<<3 + uint64(bits.TrailingZeros(x)) - i
				if err := emit(h<<l | bitsAt(lows, i*uint64(l), l)); err != nil {
					return err
				}
				i++
			}
		}
	}
	if seen != count {
		return errBadRecord
	}
	return nil
}

// bitsAt returns the n ≤ 64 bits of p from bit position bit on, LSB first (bits past the
// end of p read as 0).
func bitsAt(p []byte, bit uint64, n uint) uint64 {
	if n > 56 {
		return bitsAt(p, bit, 32) | bitsAt(p, bit+32, n-32)<<32
	}
	i := bit >> 3
	var w uint64
	if i+8 <= uint64(len(p)) {
		w = binary.LittleEndian.Uint64(p[i:])
	} else {
		for j := i; j < uint64(len(p)); j++ {
			w |= uint64(p[j]) << (8 * (j - i))
		}
	}
	return w >> (bit & 7) & (1<<n - 1)
}
