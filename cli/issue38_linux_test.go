//go:build linux

package cli

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestBuildUnderUlimitV (issue 38, item 10): under ulimit -v (RLIMIT_AS) too small for
// the build, a real process refuses it with a message naming the limit, before any
// work, instead of dying with the Go runtime's "fatal error: out of memory".
func TestBuildUnderUlimitV(t *testing.T) {
	if dir := os.Getenv("TABLESMITH_ULIMIT_CHILD"); dir != "" {
		vm := vmSize(t)
		var r syscall.Rlimit
		syscall.Getrlimit(syscall.RLIMIT_AS, &r)
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: vm + 64<<20, Max: r.Max}); err != nil {
			t.Fatal(err)
		}
		code, out, stderr := runCmd(t, "", "build", "mill", "--stones", "5", "--workers", "1", "-o", dir)
		if code != exitFail || !strings.Contains(stderr, "ulimit -v") || !strings.Contains(stderr, "needs about") {
			t.Fatalf("exit %d: %s%s", code, out, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "sector-3-3.tsm")); err == nil {
			t.Fatal("a unit was built before the refusal")
		}
		return
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBuildUnderUlimitV$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TABLESMITH_ULIMIT_CHILD="+filepath.Join(t.TempDir(), "g5"))
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "fatal error") {
		t.Fatalf("%v: %s", err, out)
	}
}

// vmSize is this process's mapped address space (VmSize).
func vmSize(t *testing.T) uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fs := strings.Fields(sc.Text()); len(fs) >= 2 && fs[0] == "VmSize:" {
			kb, _ := strconv.ParseUint(fs[1], 10, 64)
			return kb << 10
		}
	}
	t.Skip("no VmSize")
	return 0
}
