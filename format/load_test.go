package format

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

// TestReadAllAndLoadCodes: ReadAll visits every slot once, in whole-block chunks, each
// from a worker numbered below the count asked; LoadCodes stores what Codes reads, reports
// progress up to the whole, and refuses a code too wide for its type or a zero with
// NoZero, naming the slot.
func TestReadAllAndLoadCodes(t *testing.T) {
	t.Parallel()
	const slots, bits, spb = 3_000_017, 9, 4096
	path, _ := writeTest(t, 5, slots, bits, spb)
	r := openVerified(t, path)
	defer r.Close()
	want := make([]uint32, slots)
	if err := r.Codes(want, 0); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 3} {
		seen := make([]uint8, slots)
		var mu sync.Mutex
		err := r.ReadAll(context.Background(), workers, func(w int, first uint64, codes []uint32) error {
			if w < 0 || w >= workers {
				t.Errorf("worker %d of %d", w, workers)
			}
			if first%spb != 0 {
				t.Errorf("a chunk starts at slot %d, inside a block", first)
			}
			mu.Lock()
			defer mu.Unlock()
			for i, c := range codes {
				seen[first+uint64(i)]++
				if c != want[first+uint64(i)] {
					t.Fatalf("slot %d: %d, Codes says %d", first+uint64(i), c, want[first+uint64(i)])
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for s, k := range seen {
			if k != 1 {
				t.Fatalf("%d workers: slot %d visited %d times", workers, s, k)
			}
		}
	}
	got := make([]uint16, slots)
	var (
		mu   sync.Mutex
		last uint64
	)
	err := LoadCodes(context.Background(), r, got, LoadOptions{Workers: 2, Progress: func(done, total uint64) {
		mu.Lock()
		defer mu.Unlock()
		if total != slots {
			t.Errorf("progress total %d", total)
		}
		last = max(last, done)
	}})
	if err != nil {
		t.Fatal(err)
	}
	for s := range got {
		if uint32(got[s]) != want[s] {
			t.Fatalf("slot %d: loaded %d, want %d", s, got[s], want[s])
		}
	}
	if last != slots {
		t.Errorf("progress ended at %d of %d", last, slots)
	}
	small := make([]uint8, slots)
	if err := LoadCodes(context.Background(), r, small, LoadOptions{}); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "slot ") {
		t.Errorf("9-bit codes into bytes: %v, want a corrupt slot named", err)
	}
	if err := LoadCodes(context.Background(), r, got, LoadOptions{NoZero: true}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("zeros with NoZero: %v, want ErrCorrupt", err) // testCode gives many zeros
	}
	if err := LoadCodes(context.Background(), r, got[:10], LoadOptions{}); err == nil {
		t.Error("10 codes for 3,000,017 slots accepted")
	}
}
