package format

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestOpenDeferredIndexFlips flips every bit of a table's block index: OpenDeferred,
// which reads no index, opens it, and the first read of a block, Verify and the codes all
// fail as corruption of the block index, naming the file; no read returns a code.
func TestOpenDeferredIndexFlips(t *testing.T) {
	t.Parallel()
	b := tableBytes(t, 5, 300, 4, 64)
	path := filepath.Join(t.TempDir(), "t.tsm")
	indexAt := len(b) - footerSize - 5*indexEntrySize // 300 slots in blocks of 64: 5 blocks
	if got := region(t, b, indexAt); got[0] != "block index" || region(t, b, indexAt-1)[0] != "metadata" {
		t.Fatalf("index at %d: region %v", indexAt, got)
	}
	for off := indexAt; off < len(b)-footerSize; off++ {
		for bit := range 8 {
			c := bytes.Clone(b)
			c[off] ^= 1 << bit
			if err := os.WriteFile(path, c, 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := OpenDeferred(path)
			if err != nil {
				t.Fatalf("byte %d bit %d: OpenDeferred: %v", off, bit, err)
			}
			if r.Blocks() != 5 {
				t.Fatalf("byte %d bit %d: %d blocks before the index is read", off, bit, r.Blocks())
			}
			where := fmt.Sprintf("byte %d bit %d", off, bit)
			_, err = r.Code(17)
			wantCorrupt(t, err, "block index")
			wantNamed(t, err, path, where)
			wantCorrupt(t, r.Verify(context.Background(), nil), "block index")
			wantCorrupt(t, r.Codes(make([]uint32, 300), 0), "block index")
			_, err = r.PackedBlock(1, nil)
			wantCorrupt(t, err, "block index")
			r.Close()
			if _, err := Open(path); err == nil {
				t.Fatalf("%s: Open accepted a damaged index", where)
			}
		}
	}
}

func wantNamed(t *testing.T, err error, path, where string) {
	t.Helper()
	if !bytes.Contains([]byte(err.Error()), []byte(path)) {
		t.Fatalf("%s: error %q does not name the file", where, err)
	}
}

// TestOpenDeferredConcurrentFirstReads reads a deferred table's codes from several
// goroutines at once, the first reads loading the index together (run with -race).
func TestOpenDeferredConcurrentFirstReads(t *testing.T) {
	t.Parallel()
	path, _ := writeTest(t, 6, 5000, 7, 128)
	want := make([]uint32, 5000)
	testSource(6, 7)(want, 0)
	for range 20 {
		r, err := OpenDeferred(path)
		if err != nil {
			t.Fatal(err)
		}
		r.SetCacheBytes(1 << 20) // before the index is loaded: kept for its cache
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for g := range 8 {
			wg.Go(func() {
				for slot := uint64(g); slot < 5000; slot += 97 {
					c, err := r.Code(slot)
					if err != nil || c != want[slot] {
						errs <- fmt.Errorf("slot %d: %d, %v; want %d", slot, c, err, want[slot])
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if got := r.blocks.Load().cache.limit; got != 1<<20 {
			t.Fatalf("cache budget %d after loading, set %d before", got, 1<<20)
		}
		r.Close()
	}
}

// TestOpenDeferredClosedBeforeRead: a deferred reader closed before its first read
// says so, as every read after Close does, rather than failing to read its index.
func TestOpenDeferredClosedBeforeRead(t *testing.T) {
	t.Parallel()
	path, _ := writeTest(t, 7, 300, 3, 64)
	r, err := OpenDeferred(path)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	_, err = r.Code(5)
	for _, err := range []error{err, r.Verify(context.Background(), nil), r.Codes(make([]uint32, 10), 0)} {
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte("read after Close")) {
			t.Fatalf("read after Close: %v", err)
		}
	}
}
