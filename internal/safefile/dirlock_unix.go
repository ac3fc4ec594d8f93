//go:build unix && !aix && !solaris

package safefile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Lock waits for an exclusive lock on the file path (created if missing) and returns the
// function that releases it. Processes that update one file together (jobs adding to one
// set's manifest) take it around their read-modify-write.
func Lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	err = control(f, func(fd int) error {
		for {
			err := syscall.Flock(fd, syscall.LOCK_EX)
			if !errors.Is(err, syscall.EINTR) {
				return err
			}
		}
	})
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}
