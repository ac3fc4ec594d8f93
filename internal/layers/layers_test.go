package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/tablesmith/tablesmith"

// A layer is a part of the module named by a path prefix (whole path segments: "builder"
// is builder and builder/retro, never builderx) and the prefixes its packages may depend
// on, directly or through others. Test files are not counted: a test may import whatever
// it checks against (pipeline's tests read their sets back with tables).
type layer struct {
	prefix string
	may    []string // may depend on these prefixes (and on its own)
	why    string
}

// layers is the rule of every package of the module, the longest prefix deciding. A
// package under no prefix fails the test: a new part of the module takes its rule here.
var layers = []layer{
	{"values", nil, "value encodings: the bottom layer"},
	{"internal", []string{"internal"}, "small helpers (files, memory, parallel loops, notation)"},
	{"internal/milloracle", nil, "the independent Mühle oracle shares no code with the solver"},
	{"internal/racetest", nil, "a test kit"},
	{"internal/safefile/safefiletest", nil, "a test kit"},
	{"internal/settest", []string{"format", "internal"}, "a test kit"},
	{"internal/pdbtest", []string{"pipeline", "builder", "format", "games", "index", "values", "internal"}, "a test kit"},
	{"index", []string{"internal"}, "index schemes"},
	{"games", []string{"index", "values", "internal"}, "the capabilities and the games: nothing about files, engines or workers"},
	{"builder", []string{"values", "internal"}, "the engines know a space through their own small interfaces, never a game"},
	{"format", []string{"internal"}, "the file format knows nothing of games, engines, values or the lookup"},
	{"tables", []string{"format", "games", "index", "values", "internal"}, "the read-only lookup links no engine and no pipeline"},
	{"pipeline", []string{"builder", "format", "games", "index", "values", "internal"}, "the builds write with format and never read with tables"},
	{"solver", []string{"format", "games", "index", "values", "internal"}, "searches read pattern databases with format, build nothing"},
	{"serve", []string{"tables", "format", "games", "index", "values", "internal"}, "a server links no engine, pipeline or solver"},
	{"benchmarks", []string{"pipeline", "solver", "tables", "builder", "format", "games", "index", "values", "internal"}, "the side-by-side comparisons"},
	{"cli", []string{"benchmarks", "serve", "pipeline", "solver", "tables", "builder", "format", "games", "index", "values", "internal"}, "the command line"},
	{"cmd", []string{"cli", "benchmarks", "serve", "pipeline", "solver", "tables", "builder", "format", "games", "index", "values", "internal"}, "main packages"},
}

// cmdDirect: a main package under cmd imports nothing of the project but cli (the
// command line is package cli, so that a program of another module can run it).
var cmdDirect = []string{"cli"}

// testKits are imported by tests only, never by a package a program links.
var testKits = []string{"games/gametest", "internal/pdbtest", "internal/settest", "internal/safefile/safefiletest", "internal/racetest"}

// A particular game is a package under games/ other than the list of games and the
// conformance kit. Only these may import one directly; the others find a game through
// games/registry and dispatch on its capability.
var (
	notAGame  = []string{"games", "games/registry", "games/gametest"}
	mayNameIt = []string{"games", "solver", "benchmarks", "cli", "cmd", "internal/pdbtest"}
	// solver searches sliding-tile puzzles, and names that game alone.
	solverGames = []string{"games/slide"}
)

// within reports whether path is prefix or lies under it, segment by segment.
func within(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

func withinAny(path string, prefixes []string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool { return within(path, p) })
}

// rule returns the layer of pkg: the longest prefix that holds it.
func rule(pkg string) (layer, bool) {
	var best layer
	found := false
	for _, l := range layers {
		if within(pkg, l.prefix) && (!found || len(l.prefix) > len(best.prefix)) {
			best, found = l, true
		}
	}
	return best, found
}

type pkgInfo struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// own strips the module's path, and reports whether p is of the module.
func own(p string) (string, bool) {
	if p == module {
		return "", true
	}
	return strings.CutPrefix(p, module+"/")
}

// listPackages runs go list over the module: every package with its own imports and
// dependencies, as paths inside the module.
func listPackages(t *testing.T) map[string]pkgInfo {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the packages: %v", err)
	}
	cmd := exec.Command(goTool, "list", "-e", "-json=ImportPath,Imports,Deps", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	pkgs := map[string]pkgInfo{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkgInfo
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		path, ok := own(p.ImportPath)
		if !ok {
			continue
		}
		var imports, deps []string
		for _, i := range p.Imports {
			if q, ok := own(i); ok {
				imports = append(imports, q)
			}
		}
		for _, d := range p.Deps {
			if q, ok := own(d); ok {
				deps = append(deps, q)
			}
		}
		pkgs[path] = pkgInfo{ImportPath: path, Imports: imports, Deps: deps}
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %d packages of %s", len(pkgs), module)
	}
	return pkgs
}

// chain returns the shortest chain of imports that leads from a to b, a and b included
// (nil if none does).
func chain(pkgs map[string]pkgInfo, a, b string) []string {
	prev := map[string]string{a: ""}
	queue := []string{a}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == b {
			var path []string
			for q := b; q != ""; q = prev[q] {
				path = append(path, q)
			}
			slices.Reverse(path)
			return path
		}
		for _, i := range pkgs[p].Imports {
			if _, seen := prev[i]; !seen {
				prev[i] = p
				queue = append(queue, i)
			}
		}
	}
	return nil
}

// forbidden returns the dependencies of p that its layer does not allow.
func forbidden(p string, info pkgInfo, l layer) []string {
	var out []string
	for _, d := range info.Deps {
		if !within(d, l.prefix) && !withinAny(d, l.may) {
			out = append(out, d)
		}
	}
	return out
}

// TestImportLayers states the import rules of the module (docs/DESIGN.md, "Import
// rules") and checks every package against them: what each layer may depend on, that
// main packages import only cli, that test kits are imported by tests only, and that
// no package names a particular game but the games themselves, the solver (sliding
// tiles), the benchmarks and the command line.
func TestImportLayers(t *testing.T) {
	t.Parallel()
	pkgs := listPackages(t)
	names := make([]string, 0, len(pkgs))
	for p := range pkgs {
		names = append(names, p)
	}
	slices.Sort(names)
	// A package breaks its layer's rule if it depends on what the rule does not allow.
	// Each break is reported once, where it starts: at the first forbidden package on the
	// chain of imports, and not again for the packages above that reach it only through
	// another package that breaks its own rule.
	bad := map[string][]string{}
	for _, p := range names {
		if l, ok := rule(p); ok {
			if f := forbidden(p, pkgs[p], l); len(f) > 0 {
				bad[p] = f
			}
		}
	}
	for _, p := range names {
		info := pkgs[p]
		l, ok := rule(p)
		if !ok {
			t.Errorf("%s: no layer rule holds this package: add one to layers in internal/layers/layers_test.go and to docs/DESIGN.md", p)
			continue
		}
		for _, d := range bad[p] {
			c := chain(pkgs, p, d)
			if len(c) < 2 {
				t.Errorf("%s must not depend on %s (%s: %s may import only %s)", p, d, l.why, l.prefix, allowed(l))
				continue
			}
			inherited := slices.ContainsFunc(c[1:len(c)-1], func(q string) bool { return len(bad[q]) > 0 })
			if inherited || slices.Contains(bad[p], c[len(c)-2]) {
				continue
			}
			t.Errorf("%s must not depend on %s (%s: %s may import only %s); the imports: %s",
				p, d, l.why, l.prefix, allowed(l), strings.Join(c, " → "))
		}
		if within(p, "cmd") {
			for _, i := range info.Imports {
				if !withinAny(i, cmdDirect) {
					t.Errorf("%s imports %s: a main package under cmd imports nothing of the project but cli", p, i)
				}
			}
		}
		for _, i := range info.Imports {
			if withinAny(i, testKits) && !withinAny(p, testKits) {
				t.Errorf("%s imports %s, a test kit: only tests (and other kits) may import it", p, i)
			}
			if !within(i, "games") || slices.Contains(notAGame, i) || within(p, i) {
				continue
			}
			switch {
			case within(p, "solver"):
				if !withinAny(i, solverGames) {
					t.Errorf("%s imports %s: solver names no game but the sliding-tile puzzles (%s)", p, i, strings.Join(solverGames, ", "))
				}
			case !withinAny(p, mayNameIt):
				t.Errorf("%s imports %s, a particular game: only %s may name a game; the others find it through games/registry and dispatch on its capability (package games)",
					p, i, strings.Join(mayNameIt, ", "))
			}
		}
	}
}

func allowed(l layer) string {
	if len(l.may) == 0 {
		return "itself (nothing else of the module)"
	}
	return strings.Join(l.may, ", ")
}

// TestWithin pins the prefix match: a path segment at a time, never a suffix or a
// string prefix.
func TestWithin(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		path, prefix string
		want         bool
	}{
		{"builder", "builder", true},
		{"builder/retro", "builder", true},
		{"builder/internal/levels", "builder", true},
		{"builderx", "builder", false},
		{"games/mill", "games", true},
		{"games", "games/mill", false},
		{"internal/settest", "internal/safefile", false},
		{"internal/safefile/safefiletest", "internal/safefile", true},
	} {
		if got := within(c.path, c.prefix); got != c.want {
			t.Errorf("within(%q, %q) = %v, want %v", c.path, c.prefix, got, c.want)
		}
	}
	if l, _ := rule("builder/retro"); l.prefix != "builder" {
		t.Errorf("rule(builder/retro) = %q, want builder", l.prefix)
	}
	if l, _ := rule("internal/milloracle"); l.prefix != "internal/milloracle" {
		t.Errorf("rule(internal/milloracle) = %q, want the oracle's own", l.prefix)
	}
}
