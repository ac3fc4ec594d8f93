//go:build linux

package sysmem

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestRealRlimitAS (issue 38, item 10): under a real RLIMIT_AS (a child process) the
// memory available is what the limit leaves, far below the machine's.
func TestRealRlimitAS(t *testing.T) {
	if os.Getenv("SYSMEM_CHILD") != "" {
		l0 := Current()
		var r syscall.Rlimit
		syscall.Getrlimit(syscall.RLIMIT_AS, &r)
		vm, _ := field("/proc/self/status", "VmSize:")
		lim := vm<<10 + 256<<20
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: r.Max}); err != nil {
			t.Fatal(err)
		}
		l := Current()
		if l.Bytes > 300<<20 || !strings.Contains(l.Source, "ulimit -v") || l0.Bytes < l.Bytes {
			t.Fatalf("under ulimit -v: %v (before: %v)", l, l0)
		}
		return
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRealRlimitAS$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "SYSMEM_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}
