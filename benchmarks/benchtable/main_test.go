package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/internal/benchreport"
)

// sample is a report file: two series, the newer first, with the measured command's
// output around them.
func sample(t *testing.T) string {
	var b strings.Builder
	b.WriteString("/tmp/t/slide-3x4.tsm: slide, 239,500,800 states, search 6.47s, write 1.34s\n")
	for _, r := range []benchreport.Report{
		{Label: "slide 3x4", Date: "2026-11-25T16:46:25Z", Runs: 2, LoadBefore: "1.87", LoadAfter: "2.06",
			Wall: benchreport.Stat{Min: 7.72, Median: 7.82, Max: 8.30}, User: benchreport.Stat{Min: 14.32, Median: 14.49, Max: 15.10},
			Sys: benchreport.Stat{Min: 0.24, Median: 0.36, Max: 0.66}, PeakMiB: benchreport.Stat{Min: 415.41, Median: 417.01, Max: 418.61}, Spread: 1.08},
		{Label: "slide 3x4", Date: "2026-11-21T09:00:00Z", Runs: 1, LoadBefore: "0.10", LoadAfter: "1.00",
			Wall: benchreport.Stat{Min: 130.5, Median: 130.5, Max: 130.5}, PeakMiB: benchreport.Stat{Min: 2048, Median: 2048, Max: 2048}, Spread: 1},
	} {
		if err := r.Write(&b); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func TestWallUnits(t *testing.T) {
	for _, c := range []struct {
		min, median, max float64
		want             string
	}{
		{7.72, 7.82, 8.3, "7.72 / 7.82 / 8.30 s"},
		{117.33, 118.4, 127.37, "1:57 / 1:58 / 2:07"},
		{348, 348, 348, "5:48 / 5:48 / 5:48"},
	} {
		s := benchreport.Stat{Min: c.min, Median: c.median, Max: c.max}
		if got := wall(s); got != c.want {
			t.Errorf("wall(%v) = %q, want %q", s, got, c.want)
		}
	}
}

func TestRegenerate(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "raw"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "raw", "s.txt"), []byte(sample(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	readme := "# T\n\nbefore\n" + beginMarker + " raw/s.txt -->\nstale row\n" + endMarker + "\nafter\n"
	out, err := regenerate(readme, dir)
	if err != nil {
		t.Fatal(err)
	}
	row := "| slide 3x4 | 2026-11-25 16:46:25 | 2 | 7.72 / 7.82 / 8.30 s | 1.08 | 14.5 s + 0.4 s | 417 MiB | 1.87 → 2.06 | `raw/s.txt` |\n"
	if !strings.Contains(out, row) || strings.Contains(out, "stale row") ||
		!strings.HasPrefix(out, "# T\n\nbefore\n") || !strings.HasSuffix(out, endMarker+"\nafter\n") {
		t.Fatalf("regenerated document:\n%s", out)
	}
	if again, err := regenerate(out, dir); err != nil || again != out {
		t.Fatalf("regenerating twice changed the document (%v)", err)
	}

	// The command: writes the document, then -check holds; a stale table fails -check.
	path := filepath.Join(dir, "RESULTS.md")
	if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(path, true); err == nil || !strings.Contains(err.Error(), "out of date") {
		t.Fatalf("-check of a stale table: %v", err)
	}
	if err := run(path, false); err != nil {
		t.Fatal(err)
	}
	if err := run(path, true); err != nil {
		t.Fatalf("-check after regenerating: %v", err)
	}

	for _, c := range []struct{ name, readme, want string }{
		{"no markers", "# T\n", "exactly one"},
		{"no end marker", beginMarker + " raw/s.txt -->\n", "exactly one " + endMarker},
		{"no files", beginMarker + " -->\n" + endMarker + "\n", "names no report files"},
		{"a missing file", beginMarker + " raw/none.txt -->\n" + endMarker + "\n", "no such file"},
		{"a file outside", beginMarker + " ../s.txt -->\n" + endMarker + "\n", "not a path inside"},
		{"an absolute file", beginMarker + " /etc/passwd -->\n" + endMarker + "\n", "not a path inside"},
		{"two begin markers", beginMarker + " raw/s.txt -->\n" + beginMarker + " raw/s.txt -->\n" + endMarker + "\n", "exactly one"},
	} {
		if _, err := regenerate(c.readme, dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
