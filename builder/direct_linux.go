package builder

import (
	"os"
	"syscall"
)

// openDirect opens path for writing past the page cache (see logFile).
func openDirect(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|syscall.O_DIRECT, 0)
}
