//go:build !unix

package cli

import (
	"runtime"
	"testing"
)

// terminateSelf: a process cannot send itself SIGTERM here (Windows), so the test of a
// graceful stop is skipped; it runs on every Unix.
func terminateSelf(t *testing.T) {
	t.Helper()
	t.Skip("no SIGTERM to send to this process on " + runtime.GOOS)
}
