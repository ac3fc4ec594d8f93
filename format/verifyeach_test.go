package format

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
)

// TestVerifyEach: every code reaches the callback once, at its slot, whatever the
// workers, codes per block or width; an error from the callback stops the check and is
// returned; a damaged block fails as Verify fails.
func TestVerifyEach(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		slots   uint64
		bits    int
		spb     int
		workers int
	}{{1, 3, 64, 1}, {10_000, 5, 4096, 2}, {100_003, 8, 8192, 3}, {70_000, 16, 5000, 0}} {
		path, _ := writeTest(t, 7, c.slots, c.bits, c.spb)
		r, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]uint32, c.slots)
		seen := make([]bool, c.slots)
		var mu sync.Mutex
		err = r.VerifyEach(context.Background(), c.workers, nil, func(first uint64, codes []uint32) error {
			mu.Lock()
			defer mu.Unlock()
			for i, v := range codes {
				if seen[first+uint64(i)] {
					t.Errorf("%+v: slot %d handed twice", c, first+uint64(i))
				}
				seen[first+uint64(i)], got[first+uint64(i)] = true, v
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		for s := range c.slots {
			if !seen[s] || got[s] != testCode(7, s, c.bits) {
				t.Fatalf("%+v: slot %d: handed %v, code %d, want %d", c, s, seen[s], got[s], testCode(7, s, c.bits))
			}
		}
		stop := errors.New("enough")
		if err := r.VerifyEach(context.Background(), c.workers, nil, func(uint64, []uint32) error { return stop }); !errors.Is(err, stop) {
			t.Fatalf("%+v: the callback's error: %v", c, err)
		}
		r.Close()
	}
	// A flipped byte in the middle of the file: the same error as Verify's.
	b := tableBytes(t, 9, 50_000, 6, 4096)
	b[len(b)/2] ^= 0x10
	r, err := OpenReaderAt(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Skipf("the flip broke the open itself: %v", err)
	}
	want := r.Verify(context.Background(), nil)
	err = r.VerifyEach(context.Background(), 2, nil, func(uint64, []uint32) error { return nil })
	if want == nil || err == nil || err.Error() != want.Error() || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a damaged block: VerifyEach %v, Verify %v", err, want)
	}
	r.Close()
}
