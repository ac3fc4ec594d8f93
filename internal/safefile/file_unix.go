//go:build unix

package safefile

import (
	"errors"
	"os"
	"syscall"
)

// OpenRegular opens path for reading if it is a regular file, and returns an
// error naming path and what it is (wrapping ErrNotRegular) otherwise. It
// never blocks on a FIFO: the file is opened with O_NONBLOCK, checked with
// fstat, and only then switched back to blocking reads.
func OpenRegular(path string) (*os.File, error) {
	// Refuse what is plainly not a regular file without opening it (opening
	// a device can have effects); the fstat in openRegular settles races.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, notRegular(path, fi)
	}
	return openRegular(path, 0)
}

// openNoFollow opens a regular file for RemoveStale, not following a final
// symbolic link.
func openNoFollow(path string) (*os.File, error) { return openRegular(path, syscall.O_NOFOLLOW) }

// openRegular opens path with O_NONBLOCK, refuses a non-regular file after
// fstat, and clears O_NONBLOCK.
func openRegular(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|flag, 0)
	if err != nil {
		return nil, err
	}
	if err := checkOpened(f, path); err != nil {
		return nil, err
	}
	if err := control(f, func(fd int) error { return syscall.SetNonblock(fd, false) }); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// control runs fn on f's descriptor.
func control(f *os.File, fn func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	if ferr != nil {
		return &os.PathError{Op: "fcntl", Path: f.Name(), Err: ferr}
	}
	return nil
}

// syncDirectory syncs dir. File systems that cannot sync a directory
// (EINVAL, EOPNOTSUPP) are not an error; every other failure is.
func syncDirectory(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.EOPNOTSUPP) {
		err = nil
	}
	return errors.Join(err, d.Close())
}
