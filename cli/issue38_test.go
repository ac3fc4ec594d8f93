package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestQueryPathOnLoneSectorFile (issue 38, item 5): --path on one sector's file of a set
// is refused as a usage error (a line crosses sectors), not silently ignored; a set's
// manifest given for its directory says to give the directory (item 12).
func TestQueryPathOnLoneSectorFile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "m")
	if code, _, stderr := runCmd(t, "", "build", "mill", "--max-stones", "6", "--workers", "2", "-o", dir); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	const pos = "WWW.....BBB............. W"
	file := filepath.Join(dir, "sector-3-3.tsm")
	code, out, stderr := runCmd(t, "", "query", "--path", file, pos)
	if code != exitUsage || out != "" || !strings.Contains(stderr, "--path") || !strings.Contains(stderr, "query the set's directory") {
		t.Errorf("query --path FILE: exit %d: %s%s", code, out, stderr)
	}
	if code, out, _ := runCmd(t, "", "query", file, pos); code != exitOK || !strings.HasPrefix(out, pos+": ") {
		t.Errorf("query FILE: exit %d: %s", code, out)
	}
	if code, out, _ := runCmd(t, "", "query", "--path", dir, pos); code != exitOK || !strings.Contains(out, "; line ") {
		t.Errorf("query --path DIR: exit %d: %s", code, out)
	}
	code, _, stderr = runCmd(t, "", "query", filepath.Join(dir, "manifest.json"), pos)
	if code == exitOK || !strings.Contains(stderr, "give the set's directory, "+dir) {
		t.Errorf("query DIR/manifest.json: exit %d: %s", code, stderr)
	}
}
