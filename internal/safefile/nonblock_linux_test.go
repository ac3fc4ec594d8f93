package safefile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpenRegularBlocking: the file OpenRegular returns is back in blocking
// mode.
func TestOpenRegularBlocking(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := OpenRegular(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var flags uintptr
	err = control(f, func(fd int) error { // not f.Fd(): it would clear O_NONBLOCK itself
		var errno syscall.Errno
		flags, _, errno = syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
		if errno != 0 {
			return errno
		}
		return nil
	})
	if err != nil || flags&syscall.O_NONBLOCK != 0 {
		t.Errorf("flags 0x%x (%v): O_NONBLOCK still set", flags, err)
	}
}
