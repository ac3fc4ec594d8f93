//go:build linux || darwin

package safefile

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/internal/safefile/safefiletest"
)

// noTempFiles fails t if dir holds names that look like temporary files.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	names := slices.DeleteFunc(safefiletest.DirNames(t, dir), func(name string) bool {
		return !strings.HasPrefix(name, tempPrefix)
	})
	if len(names) > 0 {
		t.Errorf("temporary files left: %q", names)
	}
}

// wantNotRegular fails unless err wraps ErrNotRegular and names path and kind.
func wantNotRegular(t *testing.T, err error, n safefiletest.Node) {
	t.Helper()
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), n.Path) || !strings.Contains(err.Error(), n.Kind) {
		t.Errorf("%s: error %v, want one wrapping ErrNotRegular naming the path and %q", n.Path, err, n.Kind)
	}
}

// TestRefuseNonRegularOutput: no way of writing replaces a node that is not
// a regular file.
func TestRefuseNonRegularOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range safefiletest.Nodes(t, dir) {
		wantNotRegular(t, CheckOutput(n.Path), n)
		f, err := Create(n.Path, 0o644)
		wantNotRegular(t, err, n)
		if f != nil {
			f.Abort()
		}
		wantNotRegular(t, WriteFile(n.Path, []byte("table"), 0o644), n)
		safefiletest.Unchanged(t, n)
	}
	noTempFiles(t, dir)
	for _, ok := range []string{filepath.Join(dir, "absent"), filepath.Join(dir, "target-regular")} {
		if err := CheckOutput(ok); err != nil {
			t.Errorf("CheckOutput(%s): %v", ok, err)
		}
	}
}

func TestWriteFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	for i, data := range []string{"first", "second, longer", ""} {
		perm := fs.FileMode(0o640 + i)
		if err := WriteFile(path, []byte(data), perm); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		fi, serr := os.Stat(path)
		if err != nil || serr != nil || string(got) != data || fi.Mode() != perm {
			t.Fatalf("read %q, %v, %v, mode %v; want %q, mode %v", got, err, serr, fi.Mode(), data, perm)
		}
	}
	noTempFiles(t, dir)
}

// TestLongName: a target name at or near the 255-byte limit must not make
// the temporary name too long.
func TestLongName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range []int{240, 250, 255} {
		path := filepath.Join(dir, strings.Repeat("n", n-4)+".tsm")
		if err := WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatalf("%d-byte name: %v", n, err)
		}
	}
	for range 100 {
		if name := tempName(); len(name) > MaxTempNameLen || !isTempName(name) {
			t.Fatalf("temporary name %q: %d bytes (max %d), matches %v", name, len(name), MaxTempNameLen, isTempName(name))
		}
	}
	if MaxTempNameLen > 31 {
		t.Errorf("MaxTempNameLen = %d", MaxTempNameLen)
	}
}

func TestTempNamePattern(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		".ts-1-0123456789ab.tmp":           true,
		".ts-4294967295-abcdefabcdef.tmp":  true,
		".ts-1-0123456789AB.tmp":           false, // upper case
		".ts-1-0123456789a.tmp":            false, // 11 digits
		".ts-1-0123456789abc.tmp":          false,
		".ts--0123456789ab.tmp":            false,
		".ts-12345678901-0123456789ab.tmp": false, // pid too long
		".ts-1x-0123456789ab.tmp":          false,
		"x.ts-1-0123456789ab.tmp":          false,
		".ts-1-0123456789ab.tmp.bak":       false,
		".ts-1-0123456789ab.tm":            false,
		".t.tsm.tmp-123456":                false, // the old pattern
		".ts-1-0123456789ab-.tmp":          false,
	} {
		if got := isTempName(name); got != want {
			t.Errorf("isTempName(%q) = %v", name, got)
		}
	}
}

// TestRemoveStale: Create removes unlocked temporary files of the exact
// pattern, and nothing else.
func TestRemoveStale(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	write := func(name string) {
		if err := os.WriteFile(in(name), []byte("partial table"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const stale, live = ".ts-4194305-0123456789ab.tmp", ".ts-1-aaaaaaaaaaaa.tmp"
	write(stale)
	write(live)
	lf, err := os.Open(in(live))
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	if err := tryLock(lf); err != nil {
		t.Fatal(err)
	}
	keep := []string{live, "t.tsm", ".ts-1-0123456789AB.tmp", ".ts-12345678901-0123456789ab.tmp",
		"x.ts-1-0123456789ab.tmp", ".ts-1-0123456789ab.tmp.bak", ".t.tsm.tmp-123456"}
	for _, name := range keep[1:] {
		write(name)
	}
	// A directory and a symbolic link of the pattern are not ours.
	if err := os.Mkdir(in(".ts-2-bbbbbbbbbbbb.tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("t.tsm", in(".ts-3-cccccccccccc.tmp")); err != nil {
		t.Fatal(err)
	}
	keep = append(keep, ".ts-2-bbbbbbbbbbbb.tmp", ".ts-3-cccccccccccc.tmp")

	pending, err := Create(in("a.tsm"), 0o644) // removes stale
	if err != nil {
		t.Fatal(err)
	}
	defer pending.Abort()
	keep = append(keep, filepath.Base(pending.TempName()))
	removed, err := RemoveStale(dir) // pending is locked by its File
	if err != nil || len(removed) > 0 {
		t.Errorf("second RemoveStale removed %q, error %v", removed, err)
	}
	if err := WriteFile(in("b.tsm"), []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	keep = append(keep, "b.tsm")
	slices.Sort(keep)
	if names := safefiletest.DirNames(t, dir); !slices.Equal(names, keep) {
		t.Errorf("directory holds\n%q\nwant\n%q", names, keep)
	}
	if err := pending.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestRemoveStaleKilledWriter: a writer process killed mid-write leaves its
// temporary file; it is kept while the writer lives and removed after.
func TestRemoveStaleKilledWriter(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
	cmd.Env = append(os.Environ(), "SAFEFILE_HELPER_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	name := strings.TrimSpace(line)
	if removed, err := RemoveStale(dir); err != nil || len(removed) > 0 {
		t.Fatalf("with the writer alive, RemoveStale removed %q, error %v", removed, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if removed, err := RemoveStale(dir); err != nil || !slices.Equal(removed, []string{name}) {
		t.Fatalf("after the writer died, RemoveStale removed %q, error %v; want %q", removed, err, name)
	}
}

// TestHelperWriter is the writer process of TestRemoveStaleKilledWriter.
func TestHelperWriter(t *testing.T) {
	dir := os.Getenv("SAFEFILE_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process only")
	}
	f, err := Create(filepath.Join(dir, "t.tsm"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half a table"))
	os.Stdout.WriteString(filepath.Base(f.TempName()) + "\n")
	time.Sleep(time.Minute) // killed
}

func TestAbort(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "t.tsm")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("new")); err != nil {
		t.Fatal(err)
	}
	if err := f.Abort(); err != nil {
		t.Fatal(err)
	}
	if err := f.Abort(); err != nil {
		t.Errorf("second Abort: %v", err)
	}
	if err := f.Commit(); err == nil {
		t.Error("Commit after Abort: no error")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("target is %q", b)
	}
	noTempFiles(t, dir)
}

// TestCommitTargetChanged: a node that appears at the target during the
// write is not replaced either.
func TestCommitTargetChanged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "t.tsm")
	f, err := Create(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	n := safefiletest.Node{Path: path, Kind: "named pipe"}
	wantNotRegular(t, f.Commit(), n)
	safefiletest.Unchanged(t, n)
	noTempFiles(t, dir)
}

// TestCommitSyncDirError: a failed directory sync is reported. Not
// parallel: it replaces syncDir.
func TestCommitSyncDirError(t *testing.T) {
	injected := errors.New("injected directory sync failure")
	syncDir = func(string) error { return injected }
	defer func() { syncDir = syncDirectory }()
	path := filepath.Join(t.TempDir(), "t.tsm")
	if err := WriteFile(path, []byte("x"), 0o644); !errors.Is(err, injected) {
		t.Errorf("WriteFile error %v, want the directory sync failure", err)
	}
}

func TestOpenRegular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range safefiletest.Nodes(t, dir) {
		f, err := OpenRegular(n.Path)
		switch {
		case n.Path == filepath.Join(dir, "symlink"): // to a regular file: fine to read
			if err != nil {
				t.Errorf("%s: %v", n.Path, err)
			} else {
				f.Close()
			}
		case strings.HasSuffix(n.Path, "dangling"):
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: error %v, want ErrNotExist", n.Path, err)
			}
		default:
			wantNotRegular(t, err, n)
		}
	}
	if _, err := OpenRegular(filepath.Join(dir, "absent")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absent: error %v", err)
	}
	f, err := OpenRegular(filepath.Join(dir, "target-regular"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if b, err := io.ReadAll(f); err != nil || string(b) != "data" {
		t.Errorf("read %q, %v", b, err)
	}
}

// TestOpenFIFONoBlock: opening a FIFO without a writer returns at once, also
// past the Stat shortcut (as when the FIFO appears after it).
func TestOpenFIFONoBlock(t *testing.T) {
	t.Parallel()
	for _, open := range []func(string) (*os.File, error){OpenRegular, openNoFollow} {
		fifo, err := safefiletest.OpenFIFO(t, func(path string) error {
			f, err := open(path)
			if err == nil {
				f.Close()
			}
			return err
		})
		wantNotRegular(t, err, safefiletest.Node{Path: fifo, Kind: "named pipe"})
	}
}
