package pipeline

import (
	"strings"
	"testing"
)

// TestSlurmOutputPercent: a '%' of the log directory is written "%%" in the --output
// pattern, so that sbatch neither replaces "%x"/"%j" in it nor drops a lone '%'; the
// job's own %x-%j stay codes (issue 27).
func TestSlurmOutputPercent(t *testing.T) {
	t.Parallel()
	units := []Unit{{ID: "mill-3-3", Cores: 1, MemBytes: 1 << 20, Seconds: 60, Command: []string{"tablesmith", "build"}}}
	for _, tc := range []struct{ dir, want string }{
		{"/shared/set/logs", "--output=/shared/set/logs/%x-%j.out"},
		{"/shared/100%/%x-%j/logs/", "--output=/shared/100%%/%%x-%%j/logs/%x-%j.out"},
		{"/a%%b/logs", "--output=/a%%%%b/logs/%x-%j.out"},
	} {
		s := SlurmScript(units, SlurmOptions{LogDir: tc.dir})
		if !strings.Contains(s, " "+tc.want+" ") {
			t.Errorf("log dir %q: the script lacks %s:\n%s", tc.dir, tc.want, s)
		}
	}
}
