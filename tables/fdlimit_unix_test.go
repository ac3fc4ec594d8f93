//go:build unix

package tables

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// lowerNofile sets this process's limit on open files to n (soft and hard).
func lowerNofile(n uint64) error {
	return syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: n, Max: n})
}

func fdLimitWorks() bool {
	_, _, ok := fdLimit()
	return ok
}

// runChild runs test name of this test binary in a child process with env added.
func runChild(t *testing.T, name string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
