// Package docslinks holds one test: every link of the project's Markdown documents stays
// in the repository and leads to a file that exists (and, for a link to a heading of a
// Markdown file, to a heading that exists), so that a clone reads whole.
package docslinks

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	linkRE    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headingRE = regexp.MustCompile(`(?m)^#+\s+(.*)$`)
)

// anchor is the anchor GitHub gives a heading: lower case, punctuation dropped, spaces
// as hyphens.
func anchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127 && r != '—' && r != '–' && r != '×' && r != '·':
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestLinksStayInTheRepository(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	docs := []string{"README.md", "examples/customgame/README.md"}
	for _, glob := range []string{"docs/*.md", "benchmarks/*.md"} {
		m, _ := filepath.Glob(filepath.Join(root, glob))
		for _, f := range m {
			rel, _ := filepath.Rel(root, f)
			docs = append(docs, rel)
		}
	}
	for _, doc := range docs {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range linkRE.FindAllStringSubmatch(string(b), -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				t.Errorf("%s: link %s leaves the repository", doc, link)
				continue
			}
			path, frag, _ := strings.Cut(link, "#")
			target := filepath.Join(root, filepath.Dir(doc), path)
			if path == "" {
				target = filepath.Join(root, doc)
			}
			if rel, err := filepath.Rel(root, target); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s: link %s leads outside the repository", doc, link)
				continue
			}
			tb, err := os.ReadFile(target)
			if err != nil {
				if st, serr := os.Stat(target); serr == nil && st.IsDir() {
					continue
				}
				t.Errorf("%s: link %s: %v", doc, link, err)
				continue
			}
			if frag == "" || !strings.HasSuffix(target, ".md") {
				continue
			}
			found := false
			for _, h := range headingRE.FindAllStringSubmatch(string(tb), -1) {
				if anchor(h[1]) == frag {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s: link %s: no heading with that anchor in %s", doc, link, path)
			}
		}
	}
}
