package levellog

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// openDirect opens f's file a second time for writing past the page cache (see
// logFile). It reopens the descriptor, not the path, so that a path replaced or
// redirected since f was opened cannot make the two write different files; a file
// that is not regular (a pipe) gets no direct writes.
func openDirect(f *os.File) (*os.File, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	fd, err := syscall.Open(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), syscall.O_WRONLY|syscall.O_DIRECT|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: f.Name(), Err: err}
	}
	// Named after f, so that a failed write (a full disk) names the checkpoint, not the
	// descriptor's path under /proc.
	d := os.NewFile(uintptr(fd), f.Name())
	if dst, err := d.Stat(); err != nil || !os.SameFile(st, dst) {
		d.Close()
		return nil, errors.New("the reopened descriptor is another file")
	}
	return d, nil
}
