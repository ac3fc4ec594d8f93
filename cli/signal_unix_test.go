//go:build unix

package cli

import (
	"os"
	"syscall"
	"testing"
)

// terminateSelf sends SIGTERM to this process, as a service manager stops `serve`.
func terminateSelf(t *testing.T) {
	t.Helper()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
}
