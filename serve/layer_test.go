package serve_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayer pins what the server may import of the project: the lookup (tables, values,
// games, format) and nothing that builds or solves; a server links no builder.
func TestLayer(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err) // no toolchain at test time
	}
	allowed := map[string]bool{"tables": true, "values": true, "games": true, "format": true}
	for _, imp := range strings.Fields(string(out)) {
		if own, ok := strings.CutPrefix(imp, "github.com/tablesmith/tablesmith/"); ok && !allowed[own] {
			t.Errorf("serve imports %s", imp)
		}
	}
	deps, _ := exec.Command("go", "list", "-deps", ".").Output()
	for _, dep := range strings.Fields(string(deps)) {
		for _, banned := range []string{"/tablesmith/builder", "/tablesmith/build", "/tablesmith/solver"} {
			if strings.HasSuffix(dep, banned) {
				t.Errorf("serve depends on %s", dep)
			}
		}
	}
}
