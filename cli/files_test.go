//go:build linux || darwin

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tablesmith/tablesmith/internal/safefile/safefiletest"
)

// TestOutputsNeverReplaceNodes: -o onto a device, FIFO, symlink or directory is refused
// with an error naming it, and the node is left as it was.
func TestOutputsNeverReplaceNodes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range safefiletest.Nodes(t, dir) {
		for _, args := range [][]string{
			{"build", "eight", "-o", n.Path},
			{"build", "hanoi", "--disks", "3", "-o", n.Path},
		} {
			code, _, stderr := runCmd(t, "", args...)
			if code != exitFail || !strings.Contains(stderr, n.Kind) {
				t.Errorf("%q: exit %d, stderr %q; want 1 naming a %s", args, code, stderr, n.Kind)
			}
			safefiletest.Unchanged(t, n)
		}
		if n.Kind == "directory" {
			continue
		}
		code, _, stderr := runCmd(t, "", "build", "pdb", "--rows", "2", "--cols", "3", "--groups", "1,2/3", "-o", n.Path)
		if code == exitOK {
			t.Errorf("build pdb -o %s (%s): exit 0, stderr %q", n.Path, n.Kind, stderr)
		}
		safefiletest.Unchanged(t, n)
	}
}

// TestFIFOInputsDoNotHang: info, verify, query and solve --pdb refuse a FIFO promptly.
func TestFIFOInputsDoNotHang(t *testing.T) {
	t.Parallel()
	for _, cmd := range [][]string{{"info"}, {"verify"}, {"query"}} {
		_, err := safefiletest.OpenFIFO(t, func(path string) error {
			code, stdout, stderr := runCmd(t, "", append(cmd, path)...)
			if code != exitFail || !strings.Contains(stdout+stderr, "named pipe") {
				t.Errorf("%s on a FIFO: exit %d, %q", cmd[0], code, stderr)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	set := filepath.Join(t.TempDir(), "set")
	if err := os.Mkdir(set, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(set, "manifest.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := safefiletest.OpenFIFO(t, func(string) error {
		code, _, stderr := runCmd(t, "", "solve", "--pdb", set, "123456780")
		if code == exitOK || !strings.Contains(stderr, "named pipe") {
			t.Errorf("solve --pdb with a FIFO manifest: exit %d, %q", code, stderr)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLongOutputName: a legal 250-byte file name is accepted.
func TestLongOutputName(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), strings.Repeat("n", 246)+".tsm")
	if code, _, stderr := runCmd(t, "", "build", "hanoi", "--disks", "4", "-o", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
