package format

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
)

// checkCache checks the cache's bookkeeping against its contents.
func checkCache(t *testing.T, c *blockCache) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var used int64
	for _, e := range c.ring {
		if c.table[e.block].Load() != e.b {
			t.Fatalf("block %d in the ring but not in the table", e.block)
		}
		used += int64(cap(e.b.data)) + cacheOverhead
	}
	resident := 0
	for i := range c.table {
		if c.table[i].Load() != nil {
			resident++
		}
	}
	if resident != len(c.ring) || used != c.used || used > max(c.limit, 0) {
		t.Fatalf("%d blocks in the table, %d in the ring; %d bytes used, %d counted, limit %d", resident, len(c.ring), used, c.used, c.limit)
	}
}

func TestCacheClock(t *testing.T) {
	t.Parallel()
	const size = 100 - cacheOverhead + 100 // each block costs 200 bytes
	c := newBlockCache(10, 3*200, 1<<40)
	block := func() []byte { return make([]byte, size) }
	for i := range 3 {
		c.put(i, block())
	}
	checkCache(t, c)
	c.get(0) // referenced: survives the next eviction
	c.put(3, block())
	checkCache(t, c)
	if c.get(0) == nil || c.get(1) != nil || c.get(3) == nil {
		t.Fatalf("after evicting once: 0 %v, 1 %v, 3 %v", c.get(0) != nil, c.get(1) != nil, c.get(3) != nil)
	}
	// A block cached twice keeps the first copy.
	first := c.get(3)
	if got := c.put(3, block()); &got[0] != &first[0] {
		t.Fatal("put replaced a cached block")
	}
	// A block larger than the budget is returned uncached.
	big := make([]byte, 1000)
	if got := c.put(9, big); &got[0] != &big[0] || c.get(9) != nil {
		t.Fatal("oversized block cached")
	}
	c.setLimit(200)
	checkCache(t, c)
	if len(c.ring) != 1 {
		t.Fatalf("%d blocks after shrinking to one", len(c.ring))
	}
	c.setLimit(0)
	checkCache(t, c)
	if len(c.ring) != 0 || c.put(5, block()) == nil || c.get(5) != nil {
		t.Fatal("cache of 0 bytes holds blocks")
	}
}

// TestConcurrentReads: many goroutines read random slots and ranges through
// a cache of a few blocks while the budget changes; every value must be right.
func TestConcurrentReads(t *testing.T) {
	t.Parallel()
	const slots, bits, spb = 64*200 + 9, 6, 64
	path, _ := writeTest(t, 12, slots, bits, spb)
	want := make([]uint32, slots)
	testSource(12, bits)(want, 0)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	blockCost := int64(spb*bits/8 + blockPad + cacheOverhead)
	r.SetCacheBytes(3 * blockCost)

	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			dst := make([]uint32, 300)
			for i := range 2000 {
				if g < 2 && i%10 == 0 {
					n := rng.IntN(len(dst) + 1)
					start := rng.Uint64N(slots - uint64(n) + 1)
					if err := r.Codes(dst[:n], start); err != nil {
						t.Error(err)
						return
					}
					if !slicesEqual(dst[:n], want[start:start+uint64(n)]) {
						t.Errorf("Codes(%d, +%d) differ", start, n)
						return
					}
					continue
				}
				slot := rng.Uint64N(slots)
				if slot > 64 && i%2 == 0 {
					slot = rng.Uint64N(64) // some hot slots
				}
				got, err := r.Code(slot)
				if err != nil || got != want[slot] {
					t.Errorf("Code(%d) = %d, %v; want %d", slot, got, err, want[slot])
					return
				}
			}
		})
	}
	wg.Go(func() {
		for i := range 200 {
			r.SetCacheBytes(int64(i%5) * blockCost)
		}
		r.SetCacheBytes(3 * blockCost)
	})
	wg.Go(func() {
		if err := r.Verify(context.Background(), nil); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
	checkCache(t, r.blocks.Load().cache)
}

func TestClosedReader(t *testing.T) {
	t.Parallel()
	path, _ := writeTest(t, 13, 1000, 4, 64)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Code(5); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := r.Code(5); err == nil {
		t.Fatal("Code after Close: no error")
	}
	if err := r.Verify(context.Background(), nil); err == nil {
		t.Fatal("Verify after Close: no error")
	}
}

// TestCacheWholeTable: a budget that holds every block keeps them apart until they pass
// wholeAfter, then in the whole-table array (those cached apart moved in; each copied in
// once, never overwritten), a smaller one goes back to the bounded
// cache, and a large one again finds the array's blocks; many goroutines putting and
// getting the same blocks agree (run under -race by make test).
func TestCacheWholeTable(t *testing.T) {
	t.Parallel()
	const blocks, stride = 70, 24
	c := newBlockCache(blocks, blocks*stride, stride)
	block := func(i, fill int) []byte {
		b := make([]byte, stride)
		for j := range b {
			b[j] = byte(i + fill)
		}
		return b
	}
	// Below wholeAfter the blocks stay apart; past it they move to the array.
	c.wholeAfter = 3 * (stride + cacheOverhead)
	for i := range 2 {
		c.put(i, block(i, 0))
	}
	if c.whole.Load() != nil || len(c.ring) != 2 {
		t.Fatal("the array before wholeAfter")
	}
	c.put(2, block(2, 0))
	if c.whole.Load() == nil || len(c.ring) != 0 || c.get(1) == nil || c.get(1)[0] != 1 {
		t.Fatal("past wholeAfter: no array, or the blocks cached apart not moved into it")
	}
	c = newBlockCache(blocks, blocks*stride, stride)
	c.wholeAfter = 0
	c.setLimit(blocks * stride)
	block = func(i, fill int) []byte {
		b := make([]byte, stride)
		for j := range b {
			b[j] = byte(i + fill)
		}
		return b
	}
	if c.whole.Load() == nil || c.get(3) != nil {
		t.Fatal("a budget of every block: no whole-table array, or a block before any put")
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range blocks {
				i := (i + 17*g) % blocks
				got := c.put(i, block(i, 0))
				if got[0] != byte(i) {
					t.Errorf("put(%d) returned block %d", i, got[0])
				}
				if b := c.get(i); b == nil || b[stride-1] != byte(i) || len(b) != stride {
					t.Errorf("get(%d) after put: %v", i, b)
				}
			}
		})
	}
	wg.Wait()
	if got := c.put(5, block(5, 100)); got[0] != 105 || c.get(5)[0] != 5 {
		t.Fatal("a second put of a block in the array wrote over it")
	}
	c.setLimit(2 * (stride + cacheOverhead))
	if c.whole.Load() != nil || c.get(5) != nil {
		t.Fatal("a budget of two blocks kept the whole-table array")
	}
	c.put(6, block(6, 0))
	if c.get(6) == nil {
		t.Fatal("the bounded cache after the array took no block")
	}
	checkCache(t, c)
	c.setLimit(blocks * stride)
	if c.get(5) == nil || c.get(5)[0] != 5 || len(c.ring) != 0 {
		t.Fatal("the array's blocks were not found again, or blocks cached apart stayed")
	}
}

// TestCodesAt reads scattered slots (repeats and neighbours included) with CodesAt, from
// the bounded cache, from a whole-table array with some blocks not yet in it (those read
// as Code reads them) and from a whole one: the codes Code gives. A slot out of range
// and a dst too short are errors.
func TestCodesAt(t *testing.T) {
	t.Parallel()
	const slots, bits, spb = 5000, 2, 192
	path, _ := writeTest(t, 7, slots, bits, spb)
	want := make([]uint32, slots)
	testSource(7, bits)(want, 0)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(stage string) {
		t.Helper()
		for _, n := range []int{0, 1, 5, 31, 32, 33, 100} {
			at := make([]uint64, n)
			for i := range at {
				at[i] = rng.Uint64N(slots)
				if i > 0 && i%7 == 0 {
					at[i] = at[i-1] // a repeat
				}
			}
			got := make([]uint32, n+1)
			got[n] = 99
			if err := r.CodesAt(got, at); err != nil {
				t.Fatalf("%s: CodesAt of %d slots: %v", stage, n, err)
			}
			for i, s := range at {
				if got[i] != want[s] {
					t.Fatalf("%s: CodesAt slot %d = %d, want %d", stage, s, got[i], want[s])
				}
			}
			if got[n] != 99 {
				t.Fatalf("%s: CodesAt wrote past its slots", stage)
			}
		}
	}
	check("bounded cache")
	bi, err := r.index()
	if err != nil {
		t.Fatal(err)
	}
	bi.cache.mu.Lock()
	bi.cache.wholeAfter = 0
	bi.cache.mu.Unlock()
	r.SetCacheBytes(1 << 30)
	if bi.cache.whole.Load() == nil {
		t.Fatal("no whole-table array under a budget of every block")
	}
	for b := 0; b < r.Blocks(); b += 3 { // a third of the blocks in the array
		if _, err := r.Code(uint64(b * spb)); err != nil {
			t.Fatal(err)
		}
	}
	check("whole-table array, a third in")
	for b := range r.Blocks() {
		if _, err := r.Code(uint64(b * spb)); err != nil {
			t.Fatal(err)
		}
	}
	check("whole-table array")
	if err := r.CodesAt(make([]uint32, 2), []uint64{1, slots}); err == nil {
		t.Error("CodesAt of a slot out of range: no error")
	}
	if err := r.CodesAt(make([]uint32, 1), []uint64{1, 2}); err == nil {
		t.Error("CodesAt into a dst too short: no error")
	}
}

// TestPreload decodes every block under a budget of exactly DecodedBytes, each block
// then cached (in the whole-table array at once: the heap cache's bookkeeping would not
// fit that budget), with its progress reaching every block and the codes right; a
// smaller budget is refused before any block is read, and a cancelled context stops it.
func TestPreload(t *testing.T) {
	t.Parallel()
	const blocks, spb, bits = 200, 4096, 2
	path, _ := writeTest(t, 11, blocks*spb-5, bits, spb)
	want := make([]uint32, blocks*spb-5)
	testSource(11, bits)(want, 0)
	open := func() (*Reader, *blockIndex) {
		r, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		bi, err := r.index()
		if err != nil {
			t.Fatal(err)
		}
		return r, bi
	}
	r, bi := open()
	r.SetCacheBytes(r.DecodedBytes() - 1)
	if err := r.Preload(context.Background(), 2, nil); err == nil {
		t.Fatal("Preload under a budget one byte short: no error")
	}
	r.SetCacheBytes(r.DecodedBytes())
	var mu sync.Mutex
	var last, calls uint64
	err := r.Preload(context.Background(), 2, func(done, total uint64) {
		mu.Lock()
		defer mu.Unlock()
		if total != blocks || done > total {
			t.Errorf("progress %d of %d", done, total)
		}
		last, calls = max(last, done), calls+1
	})
	if err != nil || last != blocks || calls == 0 {
		t.Fatalf("Preload: %v; progress reached %d of %d blocks", err, last, blocks)
	}
	for b := range blocks {
		if bi.cache.get(b) == nil {
			t.Fatalf("block %d not cached after Preload", b)
		}
	}
	for i := 0; i < len(want); i += 997 {
		if c, err := r.Code(uint64(i)); err != nil || c != want[i] {
			t.Fatalf("Code(%d) = %d, %v after Preload; want %d", i, c, err, want[i])
		}
	}
	r2, _ := open()
	r2.SetCacheBytes(r2.DecodedBytes())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r2.Preload(ctx, 2, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("Preload with a cancelled context: %v", err)
	}
}
