//go:build unix && !aix && !solaris

package safefile

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive flock on f without waiting. It returns errBusy
// if another open file holds one (in this process or another), and another
// error if the file system offers no locks. The lock lasts until f is
// closed.
func tryLock(f *os.File) error {
	return control(f, func(fd int) error {
		for {
			err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
			switch {
			case errors.Is(err, syscall.EINTR):
				continue
			case errors.Is(err, syscall.EWOULDBLOCK):
				return errBusy
			}
			return err
		}
	})
}
