package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMillRules builds Three Men's Morris whole with --rules, reads its rules from the
// set (query, info, verify), refuses positions of the wrong board or with too many stones,
// refuses to build other rules into it, and plans it with --rules in every job.
func TestMillRules(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "three")
	if code, _, stderr := runCmd(t, "", "build", "mill", "--rules", "three", "--workers", "2", "-o", dir); code != exitOK {
		t.Fatalf("build --rules three: exit %d: %s", code, stderr)
	}
	// The first player wins by taking the centre (point 9); a midpoint loses.
	code, out, stderr := runCmd(t, "", "query", dir, "......... W W:3 B:3")
	if code != exitOK || !strings.Contains(out, "win in 9 plies") || !strings.Contains(out, "9 (loss 8)") || !strings.Contains(out, "2 (win 7)") {
		t.Fatalf("query the empty board: exit %d: %s%s", code, out, stderr)
	}
	for _, bad := range []struct{ state, want string }{
		{"................ W W:3 B:3", "the board has 16 characters, want 9"},
		{"WWWW..... B W:0 B:3", "at most 3 in all"},
	} {
		code, out, stderr := runCmd(t, "", "query", dir, bad.state)
		if code == exitOK || !strings.Contains(out+stderr, bad.want) {
			t.Errorf("query %q: exit %d, %s%s; want an error saying %q", bad.state, code, out, stderr, bad.want)
		}
	}
	if code, out, stderr := runCmd(t, "", "verify", dir); code != exitOK || !strings.Contains(out, "OK") {
		t.Errorf("verify: exit %d: %s%s", code, out, stderr)
	}
	if code, out, stderr := runCmd(t, "", "info", dir); code != exitOK || !strings.Contains(out, "0-0-3-3") || !strings.Contains(out, "rules           three: Three Men's Morris") {
		t.Errorf("info: exit %d: %s%s", code, out, stderr)
	}
	if code, _, stderr := runCmd(t, "", "build", "mill", "--rules", "five", "-o", dir); code == exitOK || !strings.Contains(stderr, "other rules") {
		t.Errorf("build --rules five into a set of three: exit %d, %s; want it refused as other rules", code, stderr)
	}
	if code, _, stderr := runCmd(t, "", "build", "mill", "--rules", "ninety", "-o", dir); code != exitUsage || !strings.Contains(stderr, "ninety") {
		t.Errorf("build --rules ninety: exit %d, %s; want a usage error", code, stderr)
	}
	code, out, stderr = runCmd(t, "", "plan", "mill", "--rules", "three", "--emit", "json", "-o", filepath.Join(t.TempDir(), "x"))
	if code != exitOK || !strings.Contains(out, `"build","mill","--rules","three","--tier","0-0-3-3"`) {
		t.Errorf("plan --rules three: exit %d: %s%s", code, out, stderr)
	}
}
