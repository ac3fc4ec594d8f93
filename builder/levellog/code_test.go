package levellog

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/racetest"
)

// randomLevel draws count distinct slots out of u, shuffled into three lists, and the
// same set as a bitset.
func randomLevel(rng *rand.Rand, u, count uint64) (lists [][]uint64, words []uint64, set []uint64) {
	seen := map[uint64]bool{}
	for uint64(len(set)) < count {
		s := rng.Uint64N(u)
		if count > u/2 {
			s = uint64(len(seen)) * u / count // dense: spread evenly, no rejection loop
		}
		if !seen[s] {
			seen[s] = true
			set = append(set, s)
		}
	}
	rng.Shuffle(len(set), func(i, j int) { set[i], set[j] = set[j], set[i] })
	a, b := len(set)/3, 2*len(set)/3
	lists = [][]uint64{set[:a], set[a:b], nil, set[b:]}
	if u <= 1<<24 {
		words = make([]uint64, (u+63)/64)
		for _, s := range set {
			words[s>>6] |= 1 << (s & 63)
		}
	}
	return lists, words, slices.Sorted(slices.Values(set))
}

func TestLevelEncodingsRoundTrip(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 14 s")
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	e := levelEncoder{chunk: 16 << 10} // several zstd frames from 128 KiB bitsets on
	defer e.release()
	kinds := map[byte]int{}
	zstdLists := 0
	for _, u := range []uint64{1, 2, 63, 64, 65, 1000, 1 << 14, 1 << 20, 3<<20 + 5, 1 << 30, 1 << 40} {
		for _, count := range []uint64{0, 1, 5, 1000, 2000, 5000, u / 1000, u / 160, u / 10, u / 3, u} {
			if count > u || count > 1<<20 {
				continue
			}
			lists, words, set := randomLevel(rng, u, count)
			type input struct {
				lv   bfs.Level
				want []uint64
			}
			inputs := []input{{bfs.Level{Count: count, Lists: lists}, set}}
			if words != nil {
				inputs = append(inputs, input{bfs.Level{Count: count, Words: words}, set})
				// A level with structure, as a search's are, which zstd takes.
				pw, pset := periodicLevel(u, count)
				inputs = append(inputs, input{bfs.Level{Count: uint64(len(pset)), Words: pw}, pset},
					input{bfs.Level{Count: uint64(len(pset)), Lists: [][]uint64{pset[len(pset)/2:], nil, pset[:len(pset)/2]}}, pset})
			}
			for _, in := range inputs {
				lv, want := in.lv, in.want
				e.zstdFails, e.zstdSkip = 0, 0 // every level tried
				kind, param, payload := e.encode(lv, u)
				kinds[kind]++
				if kind == recordZstd && lv.Lists != nil {
					zstdLists++
				}
				if !payloadFits(kind, param, lv.Count, u, uint64(len(payload)), true) {
					t.Fatalf("u=%d count=%d kind %d param %d: payload of %d bytes does not fit its form",
						u, lv.Count, kind, param, len(payload))
				}
				got, err := decodeForTest(kind, param, lv.Count, u, payload)
				if err != nil || !slices.Equal(got, want) {
					t.Fatalf("u=%d count=%d kind %d: decoded %d slots (%v), want %d", u, lv.Count, kind, len(got), err, len(want))
				}
			}
		}
	}
	for k := range byte(4) {
		if kinds[k] == 0 {
			t.Fatalf("no level was encoded in form %d: %v", k, kinds)
		}
	}
	if zstdLists == 0 {
		t.Fatal("no level given as lists was encoded in zstd")
	}
}

// periodicLevel is a level with a simple structure: about count slots out of u, in runs
// of a period, as a bitset and sorted.
func periodicLevel(u, count uint64) (words []uint64, set []uint64) {
	words = make([]uint64, (u+63)/64)
	period := max(u/max(count, 1), 1)
	for s := uint64(0); s < u && uint64(len(set)) < count; s += period {
		for k := s; k < min(s+3, u) && uint64(len(set)) < count && (k == s || period > 3); k++ {
			words[k>>6] |= 1 << (k & 63)
			set = append(set, k)
		}
	}
	return words, set
}

// decodeForTest decodes a payload of any form, sorted, as the replay does.
func decodeForTest(kind byte, param uint, count, u uint64, payload []byte) ([]uint64, error) {
	var scratch *bigmem.Buf
	defer func() { scratch.Release() }()
	if kind == recordZstd {
		var err error
		if payload, err = inflateZstd(payload, u, &scratch); err != nil {
			return nil, err
		}
		kind, param = recordBitset, 0
	}
	var got []uint64
	err := decodeRecord(kind, param, count, u, payload, func(s uint64) error {
		got = append(got, s)
		return nil
	})
	slices.Sort(got)
	return got, err
}

// TestLevelEncodingChoice: the forms the builds at hand get.
func TestLevelEncodingChoice(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	var e levelEncoder
	for _, c := range []struct {
		name     string
		u, count uint64
		want     byte
	}{
		{"4-peg Hanoi level (1 in 160)", 1 << 24, 1 << 24 / 160, recordEF},
		{"3×4 dense level (1 in 10)", 1 << 20, 1 << 20 / 10, recordEF},
		{"3-peg Hanoi level (a few thousand of 2^30)", 1 << 30, 3000, recordPacked},
		{"4×18 sparse level (slots beyond 2^32)", 11_453_377_195, 200_000, recordEF},
		{"half the slots", 1 << 16, 1 << 15, recordBitset},
	} {
		lists, _, _ := randomLevel(rng, c.u, c.count)
		if kind, _, _ := e.encode(bfs.Level{Count: c.count, Lists: lists}, c.u); kind != c.want {
			t.Errorf("%s: form %d, want %d", c.name, kind, c.want)
		}
	}
	// Levels handed over as bitsets: zstd only where it saves at least half.
	// Random ones (3×4's are close to it) as they are down to one slot in about 40, then
	// in Elias–Fano.
	for _, c := range []struct {
		per  uint64
		want byte
	}{{12, recordBitset}, {40, recordBitset}, {100, recordEF}} {
		_, random, _ := randomLevel(rng, 1<<24, 1<<24/c.per)
		if kind, _, _ := e.encode(bfs.Level{Count: 1 << 24 / c.per, Words: random}, 1<<24); kind != c.want {
			t.Errorf("a random bitset level of one slot in %d: form %d, want %d", c.per, kind, c.want)
		}
	}
	periodic, set := periodicLevel(1<<24, 1<<24/12)
	e.zstdFails, e.zstdSkip = 0, 0
	if kind, _, p := e.encode(bfs.Level{Count: uint64(len(set)), Words: periodic}, 1<<24); kind != recordZstd {
		t.Errorf("a periodic bitset level: form %d, want zstd", kind)
	} else if ef, _ := payloadSize(recordEF, efLowBits(uint64(len(set)), 1<<24), uint64(len(set)), 1<<24); uint64(len(p)) > ef/2 {
		t.Errorf("a periodic bitset level: zstd %d bytes, Elias–Fano %d", len(p), ef)
	}
	e.release()
}

// TestDecodeRecordGarbage: checksummed garbage of the right size is an error or a valid
// set, never a panic.
func TestDecodeRecordGarbage(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		u := 1 + rng.Uint64N(5000)
		count := rng.Uint64N(u + 1)
		kind := byte(rng.IntN(3))
		param := []uint{packedBits(u), 0, efLowBits(count, u)}[kind]
		size, ok := payloadSize(kind, param, count, u)
		if !ok {
			t.Fatalf("form %d param %d refused", kind, param)
		}
		p := make([]byte, size)
		for i := range p {
			p[i] = byte(rng.Uint32())
		}
		decodeRecord(kind, param, count, u, p, func(s uint64) error {
			if s >= u {
				t.Fatalf("slot %d out of range %d", s, u)
			}
			return nil
		})
	}
}

// TestZstdBackoff: levels that do not compress are tried less and less often (after the
// f-th failure in a row, 2^f−1 levels are skipped, f ≤ 4), and one that compresses
// starts the count again.
func TestZstdBackoff(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	const u = 1 << 20
	_, random, _ := randomLevel(rng, u, u/12)
	randomLv := bfs.Level{Count: u / 12, Words: random}
	periodic, set := periodicLevel(u, u/12)
	var e levelEncoder
	defer e.release()
	var tried []int
	for i := range 40 {
		before := e.zstdSkip
		e.encode(randomLv, u)
		if before == 0 {
			tried = append(tried, i)
		}
	}
	if want := []int{0, 2, 6, 14, 30}; !slices.Equal(tried, want) {
		t.Fatalf("random levels tried at %v, want %v", tried, want)
	}
	for e.zstdSkip > 0 {
		e.encode(randomLv, u)
	}
	if kind, _, _ := e.encode(bfs.Level{Count: uint64(len(set)), Words: periodic}, u); kind != recordZstd || e.zstdFails != 0 {
		t.Fatalf("a compressible level after the skips: form %d, %d failures", kind, e.zstdFails)
	}
}

// TestZstdRecordGarbage: checksummed zstd payloads that are not a level's bitset
// (frames of a bitset too short or too long, cut short, doubled; random bytes; flipped
// bits) are errBadRecord or a level of the right count, never a panic; and a version 2
// log may not hold them.
func TestZstdRecordGarbage(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	const u = 1 << 20
	var scratch *bigmem.Buf
	defer func() { scratch.Release() }()
	enc, _ := zstd.NewWriter(nil)
	defer enc.Close()
	words, set := periodicLevel(u, u/50)
	good := enc.EncodeAll(littleEndianBytes(words, new(*bigmem.Buf)), nil)
	if got, err := decodeForTest(recordZstd, 0, uint64(len(set)), u, good); err != nil || !slices.Equal(got, set) {
		t.Fatalf("a valid frame: %v", err)
	}
	payloads := [][]byte{
		enc.EncodeAll(make([]byte, u/8-8), nil), // a word short
		enc.EncodeAll(make([]byte, u/8+8), nil), // a word long
		good[:len(good)/2],
		append(slices.Clone(good), good...), // the bitset twice
	}
	for range 200 {
		p := make([]byte, 6+rng.IntN(200))
		for i := range p {
			p[i] = byte(rng.Uint32())
		}
		payloads = append(payloads, p)
		flipped := slices.Clone(good)
		flipped[rng.IntN(len(flipped))] ^= 1 << rng.IntN(8)
		payloads = append(payloads, flipped)
	}
	for i, p := range payloads {
		// Garbage that decodes to a bitset of the right size and count is a valid level
		// (the record's CRC-32C is what catches a flip); anything else is an error.
		got, err := decodeForTest(recordZstd, 0, uint64(len(set)), u, p)
		if i < 4 && !errors.Is(err, errBadRecord) {
			t.Fatalf("payload %d: %v, want errBadRecord", i, err)
		}
		if err == nil && len(got) != len(set) {
			t.Fatalf("payload %d decoded to %d slots without an error", i, len(got))
		}
	}
	if payloadFits(recordZstd, 0, 5, u, uint64(len(good)), false) {
		t.Fatal("a version 2 log must not hold zstd records")
	}
	if payloadFits(recordZstd, 0, 5, u, u/8, true) || payloadFits(recordZstd, 1, 5, u, 100, true) {
		t.Fatal("a zstd payload as large as the bitset, or with a parameter, must not fit")
	}
}

// TestEFFromLists: the radix sort's code decodes to its input in one pass, two passes or
// a comparison sort, with the least number of low bits or more.
func TestEFFromLists(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	var e levelEncoder
	for _, c := range []struct {
		u, count uint64
		extra    uint // low bits beyond the least
	}{{1 << 14, 2000, 0}, {1 << 20, 5000, 0}, {1 << 20, 5000, 4}, {1 << 32, 3000, 0}, {1 << 32, 3000, 9},
		{1<<32 - 1, 100000, 0}, {5, 3, 0}, {1 << 10, 500, 1},
		// Beyond 2^32 (4-peg Hanoi from 18 disks): two passes, one, and a comparison sort.
		{11_453_377_195, 100000, 0}, {1 << 40, 5000, 0}, {1 << 40, 5000, 8}, {1<<40 + 3, 500, 0}} {
		lists, _, want := randomLevel(rng, c.u, c.count)
		l := efLowBits(c.count, c.u) + c.extra
		e.efFromLists(lists, c.count, c.u, l)
		if size, ok := payloadSize(recordEF, l, c.count, c.u); !ok || size != uint64(len(e.out)) {
			t.Fatalf("u=%d count=%d l=%d: %d bytes, payloadSize %d %v", c.u, c.count, l, len(e.out), size, ok)
		}
		var got []uint64
		if err := decodeRecord(recordEF, l, c.count, c.u, e.out, func(s uint64) error {
			got = append(got, s)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("u=%d count=%d l=%d: decoded slots differ", c.u, c.count, l)
		}
	}
}

// TestEFFromWordsMatchesPut: the accumulating writer of bitset levels gives the bytes of
// the slot-by-slot writer, at every low-bit width a level can get.
func TestEFFromWordsMatchesPut(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	var e levelEncoder
	for _, u := range []uint64{1, 63, 64, 65, 1000, 1 << 14, 3<<16 + 7} {
		for _, count := range []uint64{0, 1, 2, 7, 100, u / 100, u / 17, u / 5, u / 2, u} {
			if count > u {
				continue
			}
			_, words, _ := randomLevel(rng, u, count)
			for l := efLowBits(count, u); l <= packedBits(u); l++ {
				e.efFromWords(words, count, u, l)
				got := slices.Clone(e.out)
				w := e.newEF(count, u, l)
				var i uint64
				for wi, x := range words {
					for ; x != 0; x &= x - 1 {
						w.put(i, uint64(wi)<<6|uint64(bits.TrailingZeros64(x)))
						i++
					}
				}
				if !slices.Equal(got, e.out) {
					t.Fatalf("u=%d count=%d l=%d: the accumulating writer differs", u, count, l)
				}
			}
		}
	}
}

// BenchmarkEFFromWords: encoding a dense level given as a bitset, as 3×4's peak levels
// are (one slot in 12 to one in 200), per slot.
func BenchmarkEFFromWords(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const u = 1 << 24
	for _, per := range []uint64{12, 40, 200} {
		count := uint64(u / per)
		_, words, _ := randomLevel(rng, u, count)
		var c uint64
		for _, w := range words {
			c += uint64(bits.OnesCount64(w))
		}
		l := efLowBits(c, u)
		b.Run(fmt.Sprintf("1in%d", per), func(b *testing.B) {
			var e levelEncoder
			defer e.release()
			for b.Loop() {
				e.efFromWords(words, c, u, l)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c), "ns/slot")
		})
	}
}

// TestListFrame: the first zstd frame of a level given as lists, made from the lists,
// is the start of the level's bitset.
func TestListFrame(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 25 s")
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 14))
	e := levelEncoder{chunk: 16 << 10}
	defer e.release()
	for _, u := range []uint64{1, 64, 1000, 16 << 13, 1<<24 - 77} {
		words := (u + 63) / 64
		for _, count := range []uint64{0, 1, u / 300, u / 7} {
			lists, bitset, _ := randomLevel(rng, u, count)
			n := e.frameWords(words)
			if want := min(words, 2<<10); n != want {
				t.Fatalf("u=%d: a first frame of %d words, want %d", u, n, want)
			}
			if got := listBitset(lists, n, &e.frame); !slices.Equal(got, bitset[:n]) {
				t.Fatalf("u=%d count=%d: the lists' first frame differs from the bitset's", u, count)
			}
		}
	}
}

// TestZstdClusteredLevel: a level whose slots all lie in the last tenth of the space, in a
// pattern that compresses, is written as zstd, given as a bitset or as lists, although
// its first frame is empty.
func TestZstdClusteredLevel(t *testing.T) {
	t.Parallel()
	const u = 1 << 24
	part, set := periodicLevel(u/10, u/10/12)
	words := make([]uint64, u/64)
	copy(words[len(words)-len(part):], part)
	offset := u - uint64(len(part))*64
	shifted := make([]uint64, len(set))
	for i, s := range set {
		shifted[i] = s + offset
	}
	var e levelEncoder
	defer e.release()
	for _, lv := range []bfs.Level{{Count: uint64(len(set)), Words: words}, {Count: uint64(len(set)), Lists: [][]uint64{shifted}}} {
		e.zstdFails, e.zstdSkip = 0, 0
		kind, param, p := e.encode(lv, u)
		if kind != recordZstd {
			t.Fatalf("a clustered periodic level (bitset %v): form %d, want zstd", lv.Words != nil, kind)
		}
		if got, err := decodeForTest(kind, param, lv.Count, u, p); err != nil || !slices.Equal(got, shifted) {
			t.Fatalf("a clustered periodic level: decoded %d slots, %v", len(got), err)
		}
	}
}

// TestZstdTrialSparesTheBitset: a list level tried in zstd that does not compress (as
// 3×4's do not) is judged on its first frame alone: the level's whole bitset is never
// made, and the failure counts towards the backoff.
func TestZstdTrialSparesTheBitset(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 16))
	const u = 1 << 24
	count := uint64(u / 100) // eligible: a bitset of at most zstdListBytes a slot
	lists, _, want := randomLevel(rng, u, count)
	var e levelEncoder
	defer e.release()
	kind, param, p := e.encode(bfs.Level{Count: count, Lists: lists}, u)
	if kind == recordZstd || e.zstdFails != 1 || e.frame == nil {
		t.Fatalf("form %d, %d failures, first frame made %v: want a failed zstd trial", kind, e.zstdFails, e.frame != nil)
	}
	if bitset := uint64(u / 8); e.tmpBuf != nil && uint64(len(e.tmpBuf.Bytes())) >= bitset {
		t.Fatalf("a scratch of %d bytes: the level's whole bitset (%d bytes) was made", len(e.tmpBuf.Bytes()), bitset)
	}
	if got, err := decodeForTest(kind, param, count, u, p); err != nil || !slices.Equal(got, want) {
		t.Fatalf("decoded %d slots, %v", len(got), err)
	}
}
