//go:build !unix || aix || solaris

package safefile

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// Lock waits for an exclusive lock on path and returns the function that releases it.
// Without flock the lock is the file's existence, created exclusively: a process killed
// while holding it leaves the file behind, and the message says to remove it.
func Lock(path string) (unlock func(), err error) {
	start := time.Now()
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if time.Since(start) > 10*time.Minute {
			return nil, fmt.Errorf("locking %s: held for over 10 minutes; remove it if no build is running", path)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
