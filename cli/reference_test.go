package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReferenceCoversHelp (issue 38, item 11): every command (and kind of build, plan and
// bench) that -h lists has a synopsis line in docs/REFERENCE.md, and every flag its -h
// lists is named there.
func TestReferenceCoversHelp(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../docs/REFERENCE.md")
	if err != nil {
		t.Fatal(err)
	}
	ref := string(b)
	flagLine := regexp.MustCompile(`(?m)^\s+-([a-z0-9][a-z0-9-]*)`)
	for _, c := range commands() {
		kinds := []string{""}
		// "eight|slide|…" or "[eight|hanoi|…]" first: the kinds, each with flags of its own.
		if first := strings.Trim(strings.Fields(c.args)[0], "[]"); strings.Contains(first, "|") && !strings.HasPrefix(first, "-") {
			kinds = strings.Split(first, "|")
		}
		for _, k := range kinds {
			args := []string{c.name}
			if k != "" {
				args = append(args, k)
			}
			name := strings.Join(args, " ")
			if !strings.Contains(ref, "\ntablesmith "+name+" ") {
				t.Errorf("REFERENCE has no synopsis line of %q", "tablesmith "+name)
			}
			code, out, stderr := runCmd(t, "", append(args, "-h")...)
			if code != exitOK {
				t.Errorf("%s -h: exit %d", name, code)
			}
			flags := flagLine.FindAllStringSubmatch(out+stderr, -1)
			if len(flags) == 0 {
				t.Errorf("%s -h lists no flag: %s", name, stderr)
			}
			for _, f := range flags {
				want := "--" + f[1]
				if len(f[1]) == 1 {
					want = "-" + f[1] + " "
				}
				if !strings.Contains(ref, want) {
					t.Errorf("%s -h lists %s, which REFERENCE does not name", name, want)
				}
			}
		}
	}
}
