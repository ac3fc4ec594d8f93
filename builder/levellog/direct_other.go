//go:build !linux

package levellog

import (
	"errors"
	"os"
)

// openDirect reports that direct writes are not used here: the log goes through the
// page cache (see logFile).
func openDirect(*os.File) (*os.File, error) { return nil, errors.New("no O_DIRECT") }
