package builder

import (
	"math/rand/v2"
	"testing"
)

// TestMapBytes: the byte path gives what Get does for every value, and wider arrays are
// left to Get.
func TestMapBytes(t *testing.T) {
	v, err := NewValues(300, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(300) {
		v.Set(i, i%256)
	}
	var tr [256]uint32
	for x := range tr {
		tr[x] = uint32(1000 + x)
	}
	dst := make([]uint32, 290)
	if !v.MapBytes(dst, 7, &tr) {
		t.Fatal("one-byte values not mapped")
	}
	for i, c := range dst {
		if want := uint32(1000 + v.Get(uint64(i)+7)); c != want {
			t.Fatalf("slot %d: %d, want %d", i+7, c, want)
		}
	}
	if err := v.Widen(); err != nil {
		t.Fatal(err)
	}
	if v.MapBytes(dst, 0, &tr) {
		t.Fatal("two-byte values mapped through a byte table")
	}
}

// TestNewValuesUnset: a new array reads Unset at every slot, at every width, on the Go
// heap and mapped outside it, and keeps what is set, markers included, after widening.
func TestNewValuesUnset(t *testing.T) {
	t.Parallel()
	for w := 1; w <= 4; w++ {
		for _, n := range []uint64{1, 1000, 1 << 20} { // 1<<20 slots: a memory map
			v, err := NewValues(n, w)
			if err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if v.Get(i) != v.Unset() {
					t.Fatalf("width %d, %d slots: slot %d reads %d, want Unset %d", w, n, i, v.Get(i), v.Unset())
				}
			}
			marks := []uint64{0, 1, v.Max(), v.Unset(), v.Hole()}
			for i, x := range marks {
				v.Set(uint64(i)%n, x)
				if got := v.Get(uint64(i) % n); got != x {
					t.Fatalf("width %d: set %d, read %d", w, x, got)
				}
			}
			if w < 4 && n == 1000 {
				for i, x := range marks {
					v.Set(uint64(i), x)
				}
				if err := v.Widen(); err != nil {
					t.Fatal(err)
				}
				want := []uint64{0, 1, maxValue(w), v.Unset(), v.Hole()}
				for i, x := range want {
					if got := v.Get(uint64(i)); got != x {
						t.Fatalf("width %d widened: slot %d reads %d, want %d", w, i, got, x)
					}
				}
				if v.Get(999) != v.Unset() {
					t.Fatalf("width %d widened: an unset slot reads %d", w, v.Get(999))
				}
			}
		}
	}
}

// TestSetEntriesOfSlots: SetEntries with shift 0 (a BFS's settled word) sets exactly the
// slots of its mask, at every width, in a word in the middle and in the last, partial
// word of the array.
func TestSetEntriesOfSlots(t *testing.T) {
	t.Parallel()
	const n = 64*3 + 21
	for width := 1; width <= 4; width++ {
		for _, c := range []struct{ base, mask uint64 }{
			{64, 0x8000_0000_0000_0001}, {64, ^uint64(0)}, {128, 0}, {192, 1<<21 - 1}, {192, 0b1010_0101},
		} {
			v, err := NewValues(n, width)
			if err != nil {
				t.Fatal(err)
			}
			x := uint64(7 + width)
			v.SetEntries(c.base, c.mask, 0, x)
			for i := range uint64(n) {
				want := v.Unset()
				if i >= c.base && i < c.base+64 && c.mask>>(i-c.base)&1 != 0 {
					want = x
				}
				if got := v.Get(i); got != want {
					t.Fatalf("width %d, base %d, mask %#x: slot %d holds %d, want %d", width, c.base, c.mask, i, got, want)
				}
			}
		}
	}
}

// TestSetEntries: SetEntries sets exactly the entries whose first bits its mask marks,
// at every width and entry size, against a loop over the mask's bits.
func TestSetEntries(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 8))
	for width := 1; width <= 4; width++ {
		for shift := uint(0); shift <= 6; shift++ {
			const words = 4
			n := uint64(words*64) >> shift
			v, err := NewValues(n, width)
			if err != nil {
				t.Fatal(err)
			}
			want := make(map[uint64]uint64)
			for wi := range uint64(words) {
				firsts := ^uint64(0)
				if shift > 0 {
					firsts = 0
					for b := uint(0); b < 64; b += 1 << shift {
						firsts |= 1 << b
					}
				}
				mask, x := rng.Uint64()&firsts, uint64(rng.IntN(int(v.Max())+1))
				v.SetEntries(wi<<6, mask, shift, x)
				for b := range uint64(64) {
					if mask>>b&1 != 0 {
						want[(wi<<6+b)>>shift] = x
					}
				}
			}
			for i := range n {
				w, ok := want[i]
				if !ok {
					w = v.Unset()
				}
				if got := v.Get(i); got != w {
					t.Fatalf("width %d, shift %d: entry %d holds %d, want %d", width, shift, i, got, w)
				}
			}
		}
	}
}

func TestValuesWidths(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		bound uint64
		width int
	}{{0, 1}, {253, 1}, {254, 2}, {65533, 2}, {65534, 3}, {1<<20 - 1, 3}, {1<<32 - 3, 4}} {
		w, err := WidthFor(tc.bound)
		if err != nil || w != tc.width {
			t.Fatalf("WidthFor(%d) = %d, %v; want %d", tc.bound, w, err, tc.width)
		}
		v, err := NewValues(130, w)
		if err != nil {
			t.Fatal(err)
		}
		for i := uint64(0); i < 130; i++ {
			if v.Get(i) != v.Unset() {
				t.Fatalf("width %d: slot %d starts at %d, want Unset", w, i, v.Get(i))
			}
		}
		v.Set(129, tc.bound)
		v.Set(0, v.Hole())
		if v.Get(129) != tc.bound || v.Get(0) != v.Hole() || v.Get(128) != v.Unset() {
			t.Fatalf("width %d: set/get mismatch", w)
		}
	}
	if _, err := WidthFor(1 << 33); err == nil {
		t.Fatal("a bound beyond 32 bits must be refused")
	}
}

func TestValuesWiden(t *testing.T) {
	t.Parallel()
	for w := 1; w < 4; w++ {
		v, err := NewValues(1000, w)
		if err != nil {
			t.Fatal(err)
		}
		for i := range uint64(1000) {
			switch i % 4 {
			case 0:
				v.Set(i, v.Hole())
			case 1:
				v.Set(i, i%(v.Max()+1))
			case 2:
				v.Set(i, v.Max())
			} // 3: Unset
		}
		old := v.Max()
		if err := v.Widen(); err != nil {
			t.Fatal(err)
		}
		if v.Width() != w+1 {
			t.Fatalf("width %d after widening %d", v.Width(), w)
		}
		for i := range uint64(1000) {
			want := [4]uint64{v.Hole(), i % (old + 1), old, v.Unset()}[i%4]
			if got := v.Get(i); got != want {
				t.Fatalf("width %d→%d: slot %d holds %d, want %d", w, w+1, i, got, want)
			}
		}
	}
	v, _ := NewValues(10, 4)
	if err := v.Widen(); err == nil {
		t.Fatal("4-byte values cannot be widened")
	}
}
