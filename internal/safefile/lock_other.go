//go:build !unix || aix || solaris

package safefile

import (
	"errors"
	"os"
)

// tryLock reports that this platform has no flock: no temporary file is
// ever taken for stale.
func tryLock(*os.File) error { return errors.ErrUnsupported }
