package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/format"
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

// TestVerifyLegacyManifestSaysWhatWasNotChecked (issue 38, item 6): verify of a set whose
// manifest (of an earlier format) records no SHA-256 never claims the SHA-256 matched: it
// says they were not checked.
func TestVerifyLegacyManifestSaysWhatWasNotChecked(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "m")
	if code, _, stderr := runCmd(t, "", "build", "mill", "--max-stones", "6", "--workers", "2", "-o", dir); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	m, err := format.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	type sector struct {
		Sector string `json:"sector"`
		File   string `json:"file"`
		Bytes  int64  `json:"bytes"`
	}
	old := struct {
		Format  string   `json:"format"`
		Version int      `json:"version"`
		Game    string   `json:"game"`
		Rules   string   `json:"rules"`
		Sectors []sector `json:"sectors"`
	}{Format: "tablesmith-sector-set", Version: 1, Game: m.Game, Rules: m.Rules}
	for _, x := range m.Members {
		old.Sectors = append(old.Sectors, sector{x.Name, x.File, x.Bytes})
	}
	b, _ := json.Marshal(old)
	if err := os.WriteFile(filepath.Join(dir, format.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"verify", dir}, {"verify", "--checksums-only", dir}, {"verify", "--tier", "3-3", dir}} {
		code, out, stderr := runCmd(t, "", args...)
		if code != exitOK || strings.Contains(out, "SHA-256 match") || strings.Contains(out, "SHA-256 and") ||
			!strings.Contains(out, "SHA-256 not checked") {
			t.Errorf("%q: exit %d: %s%s", args, code, out, stderr)
		}
	}
}

// TestPlanVerifyRefusesOtherRules (issue 38, item 8): plan verify refuses a set built
// under other rules, as verify (and every other command) does.
func TestPlanVerifyRefusesOtherRules(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "m")
	if code, _, stderr := runCmd(t, "", "build", "mill", "--max-stones", "6", "--workers", "2", "-o", dir); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	if code, out, stderr := runCmd(t, "", "plan", "verify", dir); code != exitOK {
		t.Fatalf("plan verify: exit %d: %s%s", code, out, stderr)
	}
	m, err := format.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.Rules = "mill-v1-0000000000000000"
	b, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, format.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"verify", dir}, {"plan", "verify", dir}} {
		code, out, stderr := runCmd(t, "", args...)
		if code != exitFail || strings.Count(out+stderr, "built under other rules") != 1 {
			t.Errorf("%q: exit %d: %s%s", args, code, out, stderr)
		}
	}
}

// TestBuildChecksEveryOutputPathFirst (issue 38, item 9): a symbolic link at the output
// path of the last unit of a build is refused before the first unit is built.
func TestBuildChecksEveryOutputPathFirst(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "m")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// 4-3 and 3-4 are built after 3-3, which their captures lead into.
	if err := os.Symlink(filepath.Join(t.TempDir(), "elsewhere.tsm"), filepath.Join(dir, "sector-4-3.tsm")); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd(t, "", "build", "mill", "--max-stones", "7", "--workers", "2", "-o", dir)
	if code != exitFail || !strings.Contains(stderr, "sector-4-3.tsm is a symbolic link") {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "sector-3-3.tsm")); err == nil {
		t.Error("sector 3-3 was built before the refusal")
	}
}
