package builder

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
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
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var e levelEncoder
	kinds := map[byte]int{}
	for _, u := range []uint64{1, 2, 63, 64, 65, 1000, 1 << 14, 1 << 20, 3<<20 + 5, 1 << 30, 1 << 40} {
		for _, count := range []uint64{0, 1, 5, 1000, 2000, 5000, u / 1000, u / 160, u / 10, u / 3, u} {
			if count > u || count > 1<<20 {
				continue
			}
			lists, words, want := randomLevel(rng, u, count)
			inputs := []Level{{Count: count, Lists: lists}}
			if words != nil {
				inputs = append(inputs, Level{Count: count, Words: words})
			}
			for _, lv := range inputs {
				kind, param, payload := e.encode(lv, u)
				kinds[kind]++
				size, ok := payloadSize(kind, param, count, u)
				if !ok || size != uint64(len(payload)) {
					t.Fatalf("u=%d count=%d kind %d param %d: payload %d bytes, payloadSize %d %v",
						u, count, kind, param, len(payload), size, ok)
				}
				var got []uint64
				err := decodeRecord(kind, param, count, u, payload, func(s uint64) error {
					got = append(got, s)
					return nil
				})
				slices.Sort(got)
				if err != nil || !slices.Equal(got, want) {
					t.Fatalf("u=%d count=%d kind %d: decoded %d slots (%v), want %d", u, count, kind, len(got), err, len(want))
				}
			}
		}
	}
	for k := range byte(3) {
		if kinds[k] == 0 {
			t.Fatalf("no level was encoded in form %d: %v", k, kinds)
		}
	}
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
		{"half the slots", 1 << 16, 1 << 15, recordBitset},
	} {
		lists, _, _ := randomLevel(rng, c.u, c.count)
		if kind, _, _ := e.encode(Level{Count: c.count, Lists: lists}, c.u); kind != c.want {
			t.Errorf("%s: form %d, want %d", c.name, kind, c.want)
		}
	}
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
		{1<<32 - 1, 100000, 0}, {5, 3, 0}, {1 << 10, 500, 1}} {
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
