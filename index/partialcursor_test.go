package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/tablesmith/tablesmith/internal/cacheline"
)

// checkCursorAt compares a cursor with Unrank and with its own masks, and checks
// that the values before from are the previous tuple's and the one at from is not.
func checkCursorAt(t *testing.T, what string, p *PartialPerm, c *PartialCursor, slot uint64, from int, prev []uint8) {
	t.Helper()
	want := make([]uint8, p.K())
	p.Unrank(slot, want)
	got := c.Cells()
	if c.Slot() != slot || !slices.Equal(got, want) {
		t.Fatalf("n=%d k=%d %s: cursor at %d holds %v, want slot %d = %v", p.N(), p.K(), what, c.Slot(), got, slot, want)
	}
	if from < 0 || from > p.K() || !slices.Equal(prev[:from], got[:from]) || (from < p.K() && prev[from] == got[from]) {
		t.Fatalf("n=%d k=%d %s: slot %d: first changed %d, but %v -> %v", p.N(), p.K(), what, slot, from, prev, got)
	}
	if from == p.K() && !slices.Equal(prev, got) {
		t.Fatalf("n=%d k=%d %s: slot %d: nothing changed reported, but %v -> %v", p.N(), p.K(), what, slot, prev, got)
	}
	var used uint32
	for i, x := range got {
		if c.Used(i) != used {
			t.Fatalf("n=%d k=%d %s: slot %d: Used(%d) %b, want %b", p.N(), p.K(), what, slot, i, c.Used(i), used)
		}
		used |= 1 << x
	}
	if c.Used(p.K()) != used {
		t.Fatalf("n=%d k=%d %s: slot %d: Used(k) %b, want %b", p.N(), p.K(), what, slot, c.Used(p.K()), used)
	}
	if c.hi != slot/p.lowSize {
		t.Fatalf("n=%d k=%d %s: slot %d: hi %d, want %d", p.N(), p.K(), what, slot, c.hi, slot/p.lowSize)
	}
}

// TestPartialCursorAdvance moves cursors forward by Seek with steps of 1, of the
// last radices and their products, around the lowDigits boundary (lowSize ± 1), up to
// 2^31-1 (the largest step advance takes) and 2^31 (the smallest it leaves to the
// divisions), interleaved with Next, backward Seeks and Seeks to the same slot, for
// n = 1..32 and k = 0, 1, 2, k/2 boundaries, n-1 and n. Every position is checked
// against Unrank, the masks, the reported first change and the cached leading part.
func TestPartialCursorAdvance(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(41, 42))
	var nks [][2]int
	for n := 1; n <= maxPartialN; n++ {
		if testing.Short() && !slices.Contains([]int{1, 2, 3, 5, 8, 16, 17, 25, 32}, n) {
			continue
		}
		for _, k := range []int{0, 1, 2, 3, n / 2, n - 2, n - 1, n} {
			if k < 0 || k > n {
				continue
			}
			if _, ok := PartialPermSize(n, k); !ok {
				continue
			}
			if !slices.Contains(nks, [2]int{n, k}) {
				nks = append(nks, [2]int{n, k})
			}
		}
	}
	// The largest supported k for n = 32 and a few more.
	for _, n := range []int{20, 25, 32} {
		k := n
		for ; k > 0; k-- {
			if _, ok := PartialPermSize(n, k); ok {
				break
			}
		}
		nks = append(nks, [2]int{n, k})
	}
	for _, nk := range nks {
		n, k := nk[0], nk[1]
		p := NewPartialPerm(n, k)
		size := p.Size()
		// The steps: 1, 2, the last radix and its neighbours, the products of the
		// trailing radices (a carry into each digit), lowSize and around it, and the
		// limits of advance.
		steps := []uint64{1, 2, 3, 1<<31 - 1, 1 << 31, 1<<31 + 1, 1<<32 + 7}
		prod := uint64(1)
		for i := k - 1; i >= 0; i-- {
			if prod > size {
				break
			}
			steps = append(steps, prod-1, prod, prod+1)
			prod *= p.radix[i]
		}
		steps = append(steps, p.lowSize-1, p.lowSize, p.lowSize+1, 2*p.lowSize-1)
		steps = slices.DeleteFunc(steps, func(s uint64) bool { return s == 0 || s >= size })
		slices.Sort(steps)
		steps = slices.Compact(steps)
		t.Run(fmt.Sprintf("n%d/k%d", n, k), func(t *testing.T) {
			c := p.NewCursor()
			checkCursorAt(t, "new", p, c, 0, k, slices.Clone(c.Cells()))
			if size == 1 {
				prev := slices.Clone(c.Cells())
				checkCursorAt(t, "seek 0", p, c, 0, c.Seek(0), prev)
				return
			}
			// Every step from several starting points: 0, just below a boundary of the
			// leading part, random, and near the end.
			starts := []uint64{0, size - 1 - steps[len(steps)-1]%size, rng.Uint64N(size)}
			if p.lowSize < size {
				starts = append(starts, p.lowSize-1, 3*p.lowSize-2)
			}
			for _, start := range starts {
				start %= size
				for _, step := range steps {
					prev := slices.Clone(c.Cells())
					checkCursorAt(t, fmt.Sprintf("seek back/forward to %d", start), p, c, start, c.Seek(start), prev)
					for slot := start; size-slot > step; {
						slot += step
						prev = slices.Clone(c.Cells())
						from := c.Seek(slot)
						checkCursorAt(t, fmt.Sprintf("+%d from %d", step, start), p, c, slot, from, prev)
						// Same slot again: nothing changes.
						prev = slices.Clone(c.Cells())
						checkCursorAt(t, "same slot", p, c, slot, c.Seek(slot), prev)
						// A Next now and then, then a Seek back to the slot before it.
						if slot%3 == 0 && slot+1 < size {
							prev = slices.Clone(c.Cells())
							from, ok := c.Next()
							if !ok {
								t.Fatalf("n=%d k=%d: Next stopped at %d of %d", n, k, slot, size)
							}
							checkCursorAt(t, "next", p, c, slot+1, from, prev)
							if slot%2 == 0 {
								prev = slices.Clone(c.Cells())
								checkCursorAt(t, "back after next", p, c, slot, c.Seek(slot), prev)
							}
						}
						if step < size/64 && slot-start > 64*step {
							break // small steps: a stretch is enough
						}
					}
				}
			}
			// Random forward deltas below 2^31, mixed with Next and random backward Seeks.
			slot := c.Slot()
			rounds := 3000
			if testing.Short() {
				rounds = 300
			}
			for range rounds {
				var next uint64
				switch r := rng.IntN(10); {
				case r < 5:
					next = slot + 1 + rng.Uint64N(min(uint64(1)<<31-1, size-1-min(slot, size-1)+1))
				case r < 7:
					next = slot + 1 + rng.Uint64N(2*p.lowSize)
				case r < 8:
					next = rng.Uint64N(size)
				default:
					next = slot + 1
				}
				if next >= size {
					next = rng.Uint64N(size)
				}
				prev := slices.Clone(c.Cells())
				checkCursorAt(t, fmt.Sprintf("random %d -> %d", slot, next), p, c, next, c.Seek(next), prev)
				slot = next
			}
		})
	}
}

// TestPartialCursorEveryPair seeks from every slot to every later slot (and back)
// of small schemes, so that every carry pattern of advance is taken.
func TestPartialCursorEveryPair(t *testing.T) {
	t.Parallel()
	nks := [][2]int{{1, 0}, {1, 1}, {2, 1}, {2, 2}, {3, 2}, {3, 3}, {4, 2}, {4, 3}, {4, 4}, {5, 2}, {5, 3}, {5, 4}, {5, 5}, {6, 3}, {6, 5}}
	if testing.Short() {
		nks = nks[:len(nks)-1]
	}
	for _, nk := range nks {
		p := NewPartialPerm(nk[0], nk[1])
		c := p.NewCursor()
		for a := range p.Size() {
			for b := a; b < p.Size(); b++ {
				prev := slices.Clone(c.Cells())
				checkCursorAt(t, fmt.Sprintf("to %d", a), p, c, a, c.Seek(a), prev)
				prev = slices.Clone(c.Cells())
				checkCursorAt(t, fmt.Sprintf("%d -> %d", a, b), p, c, b, c.Seek(b), prev)
			}
		}
	}
}

// TestPartialCursorTail seeks cursors back and forth by jumps of up to two tails
// (the slots sharing the leading k-2 values, which seekTail serves by lookups), so
// that most Seeks stay in the tail, some cross into the next or the one before, and
// some follow a change of the leading values (the free list listed again), for the
// sizes with a tail step and one without (k = n). Every position is checked against
// Unrank, the masks, the first change and the cached leading part.
func TestPartialCursorTail(t *testing.T) {
	t.Parallel()
	for _, nk := range [][2]int{{16, 8}, {16, 7}, {9, 4}, {12, 11}, {25, 6}, {32, 5}, {6, 6}, {5, 4}} {
		n, k := nk[0], nk[1]
		p := NewPartialPerm(n, k)
		if (p.tailSize != 0) != (k >= 4 && k < n) {
			t.Fatalf("n=%d k=%d: tail size %d", n, k, p.tailSize)
		}
		span := max(p.tailSize, 8)
		rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
		c := p.NewCursor()
		slot := uint64(0)
		for range 20000 {
			switch rng.IntN(8) {
			case 0: // anywhere: the leading values change
				slot = rng.Uint64N(p.Size())
			default: // within two tails either way
				jump := rng.Uint64N(2*span + 1)
				if rng.IntN(2) == 0 && slot >= jump {
					slot -= jump
				} else if slot+jump < p.Size() {
					slot += jump
				}
			}
			prev := slices.Clone(c.Cells())
			checkCursorAt(t, "tail jump", p, c, slot, c.Seek(slot), prev)
		}
	}
}

// TestCursorsKeepApart checks that cursors made one after the other share no cache
// line: each worker of a search writes its own at every step (see NewCursor).
func TestCursorsKeepApart(t *testing.T) {
	p := NewPartialPerm(16, 8)
	type span struct{ lo, hi uintptr }
	var spans []span
	for range 32 {
		c := p.NewCursor()
		lo := uintptr(unsafe.Pointer(c))
		spans = append(spans, span{lo, lo + unsafe.Sizeof(*c)})
	}
	for i, a := range spans {
		for _, b := range spans[i+1:] {
			if a.hi+cacheline.Size > b.lo && b.hi+cacheline.Size > a.lo {
				t.Fatalf("cursors at %#x and %#x are within %d bytes", a.lo, b.lo, cacheline.Size)
			}
		}
	}
}
