package format

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tablesmith/tablesmith/internal/safefile/safefiletest"
)

// TestWriteFailureLeavesNothing: a failed write leaves no file at path, no
// temporary file, and an existing file at path untouched.
func TestWriteFailureLeavesNothing(t *testing.T) {
	t.Parallel()
	const slots = 64 * 50
	failAt := func(fail func(ctx context.Context, cancel func())) func(context.Context, func()) CodeSource {
		return func(ctx context.Context, cancel func()) CodeSource {
			return func(dst []uint32, start uint64) {
				if start == 64*20 {
					fail(ctx, cancel)
				}
				testSource(1, 4)(dst, start)
			}
		}
	}
	for _, tc := range []struct {
		name   string
		meta   Metadata
		opt    WriteOptions
		src    func(ctx context.Context, cancel func()) CodeSource
		msg    string
		panics bool
	}{
		{"cancelled mid-write", testMeta(slots, 4), WriteOptions{SlotsPerBlock: 64},
			failAt(func(_ context.Context, cancel func()) { cancel() }), "context canceled", false},
		{"cancelled before", testMeta(slots, 4), WriteOptions{SlotsPerBlock: 64},
			func(ctx context.Context, cancel func()) CodeSource { cancel(); return testSource(1, 4) }, "context canceled", false},
		{"code too big", testMeta(slots, 4), WriteOptions{SlotsPerBlock: 64, Workers: 3},
			func(context.Context, func()) CodeSource {
				return func(dst []uint32, start uint64) {
					testSource(1, 4)(dst, start)
					if start == 64*30 {
						dst[5] = 16
					}
				}
			}, "slot 1925: code 16 does not fit in 4 bits", false},
		{"source panics", testMeta(slots, 4), WriteOptions{SlotsPerBlock: 64, Workers: 2},
			failAt(func(context.Context, func()) { panic("boom") }), "CodeSource panicked for slots [1280, 1344): boom", true},
		{"source exits", testMeta(slots, 4), WriteOptions{SlotsPerBlock: 64, Workers: 2},
			failAt(func(context.Context, func()) { runtime.Goexit() }), "runtime.Goexit", false},
		{"code bits 0", testMeta(slots, 0), WriteOptions{}, nil, "code bits 0 outside 1..32", false},
		{"code bits 33", testMeta(slots, 33), WriteOptions{}, nil, "code bits 33", false},
		{"level 5", testMeta(slots, 4), WriteOptions{Level: 5}, nil, "zstd level 5", false},
		{"negative block", testMeta(slots, 4), WriteOptions{SlotsPerBlock: -1}, nil, "negative slots per block", false},
		{"huge block", testMeta(slots, 4), WriteOptions{SlotsPerBlock: 1 << 30}, nil, "exceeds", false},
		{"too many slots", testMeta(1<<60, 4), WriteOptions{}, nil, "exceed the maximum", false},
		{"bad raw JSON", func() Metadata { m := testMeta(slots, 4); m.Extra = []byte("{oops"); return m }(),
			WriteOptions{}, nil, "encoding metadata", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "t.tsm")
			old := []byte("previous contents")
			if err := os.WriteFile(path, old, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			src := testSource(1, 4)
			if tc.src != nil {
				src = tc.src(ctx, cancel)
			}
			var err error
			var panicked any
			func() {
				defer func() { panicked = recover() }()
				_, err = WriteFile(ctx, path, tc.meta, src, tc.opt)
			}()
			switch {
			case tc.panics:
				if !strings.Contains(fmt.Sprint(panicked), tc.msg) {
					t.Errorf("panic %v, want one mentioning %q", panicked, tc.msg)
				}
			case panicked != nil:
				t.Fatalf("unexpected panic: %v", panicked)
			case err == nil || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), path):
				t.Errorf("error %v, want one naming %s and mentioning %q", err, path, tc.msg)
			}
			if strings.Contains(tc.msg, "canceled") && !errors.Is(err, context.Canceled) {
				t.Errorf("error %v does not wrap context.Canceled", err)
			}
			if names := safefiletest.DirNames(t, dir); !slices.Equal(names, []string{"t.tsm"}) {
				t.Errorf("directory holds %q after a failed write", names)
			}
			if b, _ := os.ReadFile(path); string(b) != string(old) {
				t.Errorf("existing file changed to %q", b)
			}
		})
	}
}

func TestWriteReplaces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "t.tsm")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, level := range []int{1, 2, 3, 4} {
		if _, err := WriteFile(context.Background(), path, testMeta(1000, 6), testSource(2, 6), WriteOptions{Level: level, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		openVerified(t, path).Close()
	}
	if names := safefiletest.DirNames(t, dir); !slices.Equal(names, []string{"t.tsm"}) {
		t.Errorf("directory holds %q", names)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("stat: %v, mode %v", err, fi.Mode())
	}
}

// TestWriteSourceRanges: every slot is asked for exactly once, in ranges of
// at most one block, from concurrent goroutines.
func TestWriteSourceRanges(t *testing.T) {
	t.Parallel()
	const slots = 64*37 + 5
	var seen [slots]atomic.Int32
	src := func(dst []uint32, start uint64) {
		if len(dst) > 128 {
			t.Errorf("range of %d slots", len(dst))
		}
		for i := range dst {
			seen[start+uint64(i)].Add(1)
		}
		testSource(3, 9)(dst, start)
	}
	path := filepath.Join(t.TempDir(), "t.tsm")
	if _, err := WriteFile(context.Background(), path, testMeta(slots, 9), src, WriteOptions{SlotsPerBlock: 128, Workers: 4}); err != nil {
		t.Fatal(err)
	}
	for i := range seen {
		if n := seen[i].Load(); n != 1 {
			t.Fatalf("slot %d asked for %d times", i, n)
		}
	}
}

var errNoSpace = errors.New("injected: no space left on device")

// fullWriter takes limit bytes, then fails: with errNoSpace, or (short) by
// returning a short count without an error.
type fullWriter struct {
	limit int
	short bool
}

func (w *fullWriter) Write(p []byte) (int, error) {
	if len(p) <= w.limit {
		w.limit -= len(p)
		return len(p), nil
	}
	n := w.limit
	w.limit = 0
	if w.short {
		return n, nil
	}
	return n, errNoSpace
}

// TestWriteFull: whenever the output stops taking bytes (a full disk), in
// the middle of the blocks or at the final flush, writing the table fails;
// no short table is ever reported as written.
func TestWriteFull(t *testing.T) {
	t.Parallel()
	// Larger than the writer's 1 MiB buffer: the output is written to both
	// during the blocks and at the end.
	meta := testMeta(1<<21, 8)
	opt := WriteOptions{Workers: 2}
	var size countWriter
	if err := writeTable(&size, meta, opt); err != nil {
		t.Fatal(err)
	}
	if size < 3<<20/2 {
		t.Fatalf("table of %d bytes is too small for this test", size)
	}
	for _, limit := range []int{0, 1, headerSizeV2, 1<<20 - 1, 1 << 20, 1<<20 + 1, int(size) - footerSize, int(size) - 1} {
		for _, short := range []bool{false, true} {
			err := writeTable(&fullWriter{limit: limit, short: short}, meta, opt)
			want := errNoSpace
			if short {
				want = io.ErrShortWrite
			}
			if !errors.Is(err, want) {
				t.Errorf("output full after %d of %d bytes (short write %v): error %v, want %v", limit, size, short, err, want)
			}
		}
	}
}

// writeTable writes a test table of meta's shape to out.
func writeTable(out io.Writer, meta Metadata, opt WriteOptions) error {
	w, err := newTableWriter(context.Background(), &meta, testSource(1, meta.CodeBits), opt)
	if err != nil {
		return err
	}
	return w.write(out)
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}
