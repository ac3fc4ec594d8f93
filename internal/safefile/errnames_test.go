package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestErrorsNameTheTarget: a failure at any step of writing a file (a full disk at the
// write, the sync, the rename, the close) is reported naming the file being written,
// never the temporary file (issue 27: "DIR/.ts-31669-….tmp" told nobody which file);
// the cause stays testable with errors.Is, the target is left as it was, and no
// temporary file is left behind.
func TestErrorsNameTheTarget(t *testing.T) {
	t.Parallel()
	for _, op := range []string{"write", "sync", "chmod", "rename into", "close"} {
		t.Run(op, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			target := filepath.Join(dir, "manifest.json")
			if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := Create(target, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Abort()
			f.fault = func(step string) error {
				if step == op {
					return &os.PathError{Op: step, Path: f.TempName(), Err: syscall.ENOSPC}
				}
				return nil
			}
			_, err = f.Write([]byte("new\n"))
			if err == nil {
				err = f.Commit()
			}
			msg := "<nil>"
			if err != nil {
				msg = err.Error()
			}
			if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(msg, op+" "+target+": no space left on device") ||
				strings.Contains(msg, tempPrefix) {
				t.Fatalf("error %q: want %q naming %s and not the temporary file", msg, op, target)
			}
			if op == "close" { // after the rename: the new file is in place
				return
			}
			f.Abort()
			if b, _ := os.ReadFile(target); string(b) != "old\n" {
				t.Errorf("the target changed: %q", b)
			}
			if des, _ := os.ReadDir(dir); len(des) != 1 {
				t.Errorf("left in the directory: %v", des)
			}
		})
	}
	// Creating the temporary file fails (here: no such directory): the error names the
	// target too.
	target := filepath.Join(t.TempDir(), "missing", "x.tsm")
	if _, err := Create(target, 0o644); err == nil || !strings.Contains(err.Error(), "create "+target+":") || strings.Contains(err.Error(), tempPrefix) {
		t.Errorf("Create in a missing directory: %v", err)
	}
}
