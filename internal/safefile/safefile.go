// Package safefile reads and writes the files a build produces without
// clobbering what should not be clobbered and without leaving half-written
// results behind.
//
//   - CheckOutput and Create refuse to replace a path that exists and is not a
//     regular file (a device such as /dev/null, a FIFO, a symbolic link, a
//     directory, a socket): renaming a new file over it would silently
//     replace the node.
//   - Create writes to a temporary file in the target's directory and renames
//     it into place on Commit, after syncing it; the directory is synced too.
//     Until then the target is untouched, and Abort removes the temporary
//     file.
//   - Temporary files have short names, .ts-<pid>-<12 hex digits>.tmp (at
//     most 31 bytes), so a target name of up to the 255-byte limit works.
//   - The writer holds an exclusive flock on its temporary file until it is
//     renamed or removed. A temporary file whose lock can be taken belongs to
//     a process that died (a killed build); Create removes such stale files
//     from the directory before it writes (RemoveStale). Only names of exactly
//     the pattern above are ever removed. The pid in the name is for people:
//     pids are reused and are not unique across hosts sharing a directory,
//     the lock is what counts. Where there is no flock (neither the platform
//     nor the file system offers it), no file is taken for stale.
//   - OpenRegular opens a file for reading without blocking on a FIFO and
//     refuses anything but a regular file.
package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotRegular is wrapped by the errors for a path that exists but is not a
// regular file.
var ErrNotRegular = errors.New("not a regular file")

// errBusy: another open file holds the lock.
var errBusy = errors.New("locked by another writer")

// notRegular describes what a non-regular file is, for error messages.
func notRegular(path string, fi fs.FileInfo) error {
	kind := "non-regular file"
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		kind = "symbolic link"
		if target, err := os.Readlink(path); err == nil {
			kind += " to " + target
		}
	case m.IsDir():
		kind = "directory"
	case m&fs.ModeNamedPipe != 0:
		kind = "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		kind = "socket"
	case m&fs.ModeCharDevice != 0:
		kind = "character device"
	case m&fs.ModeDevice != 0:
		kind = "block device"
	}
	return fmt.Errorf("%s is a %s, %w", path, kind, ErrNotRegular)
}

// checkOpened closes f and returns an error if f is not a regular file.
func checkOpened(f *os.File, path string) error {
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = notRegular(path, fi)
	}
	if err != nil {
		f.Close()
	}
	return err
}

// CheckOutput reports an error unless path is absent or a regular file, that
// is, unless writing a new regular file there replaces nothing else. The
// error names path and what it is, and wraps ErrNotRegular.
func CheckOutput(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%w: refusing to replace it", notRegular(path, fi))
	}
	return nil
}

const (
	tempPrefix  = ".ts-"
	tempSuffix  = ".tmp"
	tempRandHex = 12
	maxPidLen   = 10 // digits of a 32-bit pid
	// MaxTempNameLen is the longest temporary file name Create uses.
	MaxTempNameLen = len(tempPrefix) + maxPidLen + 1 + tempRandHex + len(tempSuffix)
)

// tempName returns a fresh temporary file name for this process.
func tempName() string {
	return fmt.Sprintf("%s%d-%0*x%s", tempPrefix, os.Getpid(), tempRandHex, rand.Uint64()>>(64-4*tempRandHex), tempSuffix)
}

// isTempName reports whether name is exactly of the temporary file pattern
// .ts-<1..10 decimal digits>-<12 lowercase hex digits>.tmp.
func isTempName(name string) bool {
	mid, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return false
	}
	if mid, ok = strings.CutSuffix(mid, tempSuffix); !ok {
		return false
	}
	pid, rnd, ok := strings.Cut(mid, "-")
	if !ok || len(pid) < 1 || len(pid) > maxPidLen || len(rnd) != tempRandHex {
		return false
	}
	for _, c := range []byte(pid) {
		if c < '0' || c > '9' {
			return false
		}
	}
	for _, c := range []byte(rnd) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// RemoveStale removes the temporary files of this package in dir that no
// live writer holds (see the package documentation) and returns their
// names. Files that do not match the pattern exactly, that are not regular
// files, or whose lock is held are left alone; so are all files where the
// platform or file system offers no lock. The error is the first one met;
// the scan goes on past it.
func RemoveStale(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	var first error
	for _, e := range entries {
		if !isTempName(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		ok, err := removeIfUnlocked(filepath.Join(dir, e.Name()))
		if ok {
			removed = append(removed, e.Name())
		}
		if first == nil {
			first = err
		}
	}
	return removed, first
}

// removeIfUnlocked removes path if its lock can be taken, holding the lock
// while it removes the name, and only if the name still refers to the file
// it locked.
func removeIfUnlocked(path string) (bool, error) {
	f, err := openNoFollow(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) { // its writer finished meanwhile
			err = nil
		}
		return false, err
	}
	defer f.Close()
	switch err := tryLock(f); {
	case errors.Is(err, errBusy):
		return false, nil // a live writer
	case err != nil:
		return false, err // no locks here: cannot tell, keep it
	}
	if !samePath(f, path) {
		return false, nil
	}
	if err := os.Remove(path); err != nil {
		return false, err
	}
	return true, nil
}

// samePath reports whether path still names the file f.
func samePath(f *os.File, path string) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	li, err := os.Lstat(path)
	return err == nil && os.SameFile(fi, li)
}

// File is a temporary file that replaces its target on Commit. Write to it,
// then call Commit, or Abort to give up; Abort after Commit does nothing, so
// `defer f.Abort()` is the usual pattern.
//
// Every error of a write, sync, chmod, rename or close names the target path, never the
// temporary file, which is an implementation detail gone by the time the error is read
// (a full disk says "write DIR/manifest.json: no space left on device").
type File struct {
	f    *os.File
	path string // the target
	perm fs.FileMode
	done bool

	fault func(op string) error // tests: an error for the step op instead of doing it
}

// named returns err (if any) as a *fs.PathError of the step op on the target path: the
// cause without the temporary file's name.
func (t *File) named(op string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe) && pe.Path == t.f.Name():
		err = pe.Err
	case errors.As(err, &le) && le.Old == t.f.Name():
		err = le.Err
	}
	return &fs.PathError{Op: op, Path: t.path, Err: err}
}

// do runs one step of writing the target, or the injected fault, and names the target
// in its error.
func (t *File) do(op string, f func() error) error {
	if t.fault != nil {
		if err := t.fault(op); err != nil {
			return t.named(op, err)
		}
	}
	return t.named(op, f())
}

// maxAttempts bounds the retries of Create on name collisions.
const maxAttempts = 100

// Create starts writing a new file that will replace path on Commit with
// permissions perm (applied exactly, not filtered by the umask). It refuses
// a path that exists and is not a regular file (see CheckOutput), and it
// first removes stale temporary files of this package from the directory
// (errors while doing so are ignored: they do not affect this write).
func Create(path string, perm fs.FileMode) (*File, error) {
	if err := CheckOutput(path); err != nil {
		return nil, err
	}
	// Not filepath.Split: "x.tsm" must give ".", not "" (= $TMPDIR).
	dir := filepath.Dir(path)
	RemoveStale(dir) // best effort; its errors do not concern this write
	for range maxAttempts {
		tmp := filepath.Join(dir, tempName())
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, &fs.PathError{Op: "create", Path: path, Err: err}
		}
		if err := tryLock(f); errors.Is(err, errBusy) {
			// A RemoveStale opened the file between our create and our
			// lock, and may remove the name.
			f.Close()
			continue
		}
		// Without lock support (another error) nobody can take the file
		// for stale either.
		if !samePath(f, tmp) { // removed as stale before we locked it
			f.Close()
			continue
		}
		return &File{f: f, path: path, perm: perm}, nil
	}
	return nil, fmt.Errorf("creating a temporary file for %s: %d names taken", path, maxAttempts)
}

// Write writes to the temporary file; an error names the target.
func (t *File) Write(p []byte) (n int, err error) {
	err = t.do("write", func() error {
		n, err = t.f.Write(p)
		return err
	})
	return n, err
}

// TempName returns the name of the temporary file.
func (t *File) TempName() string { return t.f.Name() }

// Path returns the target path.
func (t *File) Path() string { return t.path }

// Commit makes the written data the file at the target path: it syncs the
// temporary file, sets its permissions, checks again that the target is
// not a non-regular file (one may have appeared meanwhile; this narrows the
// window, the rename cannot be made conditional), renames the temporary
// file over the target and syncs the directory. The lock is held
// until the rename is done. If Commit fails before the rename, the target
// is untouched and the temporary file removed; an error after the rename
// (closing the file, syncing the directory) means the new file is in place
// but may not be durable.
func (t *File) Commit() error {
	if t.done {
		return fmt.Errorf("commit %s: %w", t.path, os.ErrClosed)
	}
	err := t.do("sync", t.f.Sync)
	if err == nil {
		err = t.do("chmod", func() error { return t.f.Chmod(t.perm) })
	}
	if err == nil {
		err = CheckOutput(t.path) // it names the target
	}
	if err == nil {
		err = t.do("rename into", func() error { return os.Rename(t.f.Name(), t.path) })
	}
	if err != nil {
		return errors.Join(err, t.Abort())
	}
	t.done = true
	if err := t.do("close", t.f.Close); err != nil {
		return err
	}
	return syncDir(filepath.Dir(t.path)) // it names the target's directory
}

// Abort removes the temporary file, unless Commit or Abort already ran.
func (t *File) Abort() error {
	if t.done {
		return nil
	}
	t.done = true
	err := os.Remove(t.f.Name()) // while still holding the lock
	if err = errors.Join(err, t.f.Close()); err != nil {
		// The one error that names the temporary file: it may be left behind.
		return fmt.Errorf("removing the temporary file of %s: %w", t.path, err)
	}
	return nil
}

// WriteFile writes data to path atomically, as Create, Write and Commit do.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return errors.Join(err, f.Abort())
	}
	return f.Commit()
}

// syncDir makes a rename in dir durable. A variable for tests.
var syncDir = syncDirectory
