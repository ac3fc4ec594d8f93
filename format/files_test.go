//go:build linux || darwin

package format

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/tablesmith/tablesmith/internal/safefile/safefiletest"
)

// TestWriteRefusesNonRegular: a table is never written over a device, FIFO,
// symbolic link or directory, and the refusal comes before any code is
// computed.
func TestWriteRefusesNonRegular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nodes := safefiletest.Nodes(t, dir)
	before := safefiletest.DirNames(t, dir)
	for _, n := range nodes {
		var called atomic.Bool
		src := func(dst []uint32, start uint64) { called.Store(true); clear(dst) }
		_, err := WriteFile(context.Background(), n.Path, testMeta(1000, 4), src, WriteOptions{})
		if err == nil || !strings.Contains(err.Error(), n.Path) || !strings.Contains(err.Error(), n.Kind) {
			t.Errorf("%s: error %v, want one naming the path and %q", n.Path, err, n.Kind)
		}
		if called.Load() {
			t.Errorf("%s: codes were computed before the refusal", n.Path)
		}
		safefiletest.Unchanged(t, n)
	}
	if after := safefiletest.DirNames(t, dir); !slices.Equal(after, before) {
		t.Errorf("directory held %q, now %q", before, after)
	}
}

// TestOpenFIFO: opening a FIFO fails at once instead of waiting for a writer.
func TestOpenFIFO(t *testing.T) {
	t.Parallel()
	fifo, err := safefiletest.OpenFIFO(t, func(path string) error {
		r, err := Open(path)
		if err == nil {
			r.Close()
		}
		return err
	})
	if err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("error %v, want one naming %s as a named pipe", err, fifo)
	}
}

// TestWriteLongName: a legal 250-byte file name works (the temporary name
// does not grow with it).
func TestWriteLongName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, strings.Repeat("x", 246)+".tsm")
	if _, err := WriteFile(context.Background(), path, testMeta(100, 3), testSource(1, 3), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	openVerified(t, path)
}

// TestWriteRemovesStaleTemp: writing a table removes the temporary files a
// killed build left in the directory, but not those of a live writer.
func TestWriteRemovesStaleTemp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const stale, live = ".ts-4194305-00000000dead.tmp", ".ts-1-00000000a11e.tmp"
	for _, name := range []string{stale, live} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(filepath.Join(dir, live))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFile(context.Background(), filepath.Join(dir, "t.tsm"), testMeta(100, 3), testSource(1, 3), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if names := safefiletest.DirNames(t, dir); !slices.Equal(names, []string{live, "t.tsm"}) {
		t.Errorf("directory holds %q, want the live temporary file and the table", names)
	}
}

// TestWriteDevFull: writing a table onto a device that is always full
// fails with ENOSPC.
func TestWriteDevFull(t *testing.T) {
	t.Parallel()
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if err := writeTable(f, testMeta(1000, 5), WriteOptions{}); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("error %v, want ENOSPC", err)
	}
}
