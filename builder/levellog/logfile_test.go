package levellog

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/tablesmith/tablesmith/internal/racetest"
)

// TestLogFileWholeAfterEveryWrite appends parts of every size around the block and the
// stage to files that already hold 0 to 5000 bytes (a new log's header, a resumed log),
// directly where the file system allows and through the page cache, and reads the file
// back after every write: it must hold exactly everything written so far.
func TestLogFileWholeAfterEveryWrite(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 27 s")
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	pool := make([]byte, 3*directStage)
	rand.NewChaCha8([32]byte{5}).Read(pool)
	sizes := []int{0, 1, 7, directBlock - 1, directBlock, directBlock + 1, 3*directBlock + 5,
		directStage - 1, directStage, directStage + directBlock + 3, 2*directStage + 17}
	for _, start := range []int{0, 1, 37, directBlock - 1, directBlock, 5000} {
		for _, mode := range []string{"direct", "buffered"} {
			path := filepath.Join(t.TempDir(), "log")
			want := append([]byte(nil), pool[len(pool)-start:]...)
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Seek(int64(start), 0); err != nil {
				t.Fatal(err)
			}
			lf, err := newLogFile(f, int64(start))
			if err != nil {
				t.Fatal(err)
			}
			if mode == "buffered" {
				lf.close()
			}
			for round := range 8 {
				var parts [][]byte
				for range 1 + rng.IntN(3) {
					n := sizes[rng.IntN(len(sizes))]
					off := rng.IntN(len(pool) - n + 1)
					p := pool[off : off+n]
					parts = append(parts, p)
					want = append(want, p...)
				}
				if err := lf.write(parts...); err != nil {
					t.Fatalf("start %d %s round %d: %v", start, mode, round, err)
				}
				got, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("start %d %s round %d: the file has %d bytes, want %d (or other bytes)",
						start, mode, round, len(got), len(want))
				}
			}
			if err := lf.close(); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
	}
}

// TestLogFileFallsBackWhenDirectFails: a direct write the system refuses (EINVAL, here
// from a stage moved off its alignment) turns the log over to the page cache with
// nothing lost.
func TestLogFileFallsBackWhenDirectFails(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lf, err := newLogFile(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	if lf.direct == nil {
		t.Skip("no O_DIRECT on this file system")
	}
	var want []byte
	part := func(n int) []byte {
		p := bytes.Repeat([]byte{byte(n)}, n)
		want = append(want, p...)
		return p
	}
	if err := lf.write(part(100)); err != nil {
		t.Fatal(err)
	}
	lf.stage = lf.stage[1 : 1+len(lf.stage)] // misaligned from here on
	copy(lf.stage, want)
	if err := lf.write(part(3*directBlock), part(5)); err != nil {
		t.Fatalf("the fallback failed: %v", err)
	}
	if lf.direct != nil {
		t.Fatal("still writing directly after EINVAL")
	}
	if err := lf.write(part(directStage + 9)); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the file has %d bytes, want %d (or other bytes)", len(got), len(want))
	}
}

// TestOpenDirectReopensTheDescriptor: the direct descriptor is the log's own file even
// when its path now names another, and a pipe gets none.
func TestOpenDirectReopensTheDescriptor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(filepath.Join(dir, "other"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "other"), path); err != nil {
		t.Fatal(err)
	}
	d, err := openDirect(f)
	if err != nil {
		t.Skipf("no direct writes here: %v", err)
	}
	defer d.Close()
	st, _ := f.Stat()
	dst, _ := d.Stat()
	if !os.SameFile(st, dst) {
		t.Fatal("the direct descriptor writes another file than the log's")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if d, err := openDirect(pw); err == nil {
		d.Close()
		t.Fatal("a pipe got a direct descriptor")
	}
}
