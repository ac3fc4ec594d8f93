package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sample is two series as benchmarks/repeat prints them, with the measured command's
// output around them, the newer first.
const sample = `repeat: run 1/2: 8.30 s wall, 15.10 s user, 0.62 s sys, 418 MiB peak
/tmp/t/slide-3x4.tsm: slide, 239,500,800 states, search 6.47s, write 1.34s
slide 3x4 (2026-11-25T16:46:25Z, 2 runs, load 1.87 -> 2.06)
  wall  min     7.72  median     7.82  max     8.30 s
  user  min    14.32  median    14.49  max    15.10 s
  sys   min     0.24  median     0.36  max     0.66 s
  peak  min   415.41  median   417.01  max   418.61 MiB
  wall max/min 1.08
slide 3x4 (2026-11-21T09:00:00Z, 1 runs, load 0.10 -> 1.00)
  wall  min   130.50  median   130.50  max   130.50 s
  user  min    14.00  median    14.00  max    14.00 s
  sys   min     0.20  median     0.20  max     0.20 s
  peak  min  2048.00  median  2048.00  max  2048.00 MiB
  wall max/min 1.00
`

func TestWallUnits(t *testing.T) {
	for _, c := range []struct {
		s    stat
		want string
	}{
		{stat{7.72, 7.82, 8.3}, "7.72 / 7.82 / 8.30 s"},
		{stat{117.33, 118.4, 127.37}, "1:57 / 1:58 / 2:07"},
		{stat{348, 348, 348}, "5:48 / 5:48 / 5:48"},
	} {
		if got := wall(c.s); got != c.want {
			t.Errorf("wall(%v) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestParseReports(t *testing.T) {
	reps, err := parseReports(sample)
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 2 {
		t.Fatalf("%d series, want 2", len(reps))
	}
	r := reps[0]
	want := report{Label: "slide 3x4", Date: "2026-11-25T16:46:25Z", Runs: 2, LoadBefore: "1.87", LoadAfter: "2.06",
		Wall: stat{7.72, 7.82, 8.30}, User: stat{14.32, 14.49, 15.10}, Sys: stat{0.24, 0.36, 0.66},
		Peak: stat{415.41, 417.01, 418.61}, Spread: 1.08}
	if r != want {
		t.Fatalf("parsed %+v\nwant %+v", r, want)
	}
	if got := newest([]report{reps[1], reps[0]}); got.Date != want.Date {
		t.Fatalf("newest is %s, want %s", got.Date, want.Date)
	}
}

func TestParseReportsRefuses(t *testing.T) {
	header := "x (2026-11-25T16:46:25Z, 5 runs, load 1 -> 2)\n"
	wall := "  wall  min     7.72  median     7.82  max     8.30 s\n"
	user := "  user  min    14.32  median    14.49  max    15.10 s\n"
	sys := "  sys   min     0.24  median     0.36  max     0.66 s\n"
	peak := "  peak  min   415.41  median   417.01  max   418.61 MiB\n"
	for _, c := range []struct{ name, text, want string }{
		{"cut after the header", header, "want the wall line"},
		{"cut without a newline", strings.TrimSuffix(header, "\n"), "ends before its wall line"},
		{"cut before the spread", header + wall + user + sys + peak, "want the wall max/min"},
		{"cut before the spread without a newline", header + wall + user + sys + strings.TrimSuffix(peak, "\n"), "ends before its spread"},
		{"measures out of order", header + user + wall + sys + peak + "  wall max/min 1.08\n", "want the wall line"},
		{"median below min", header + "  wall  min     7.72  median     7.00  max     8.30 s\n" + user + sys + peak, "out of order"},
		{"not a number", header + "  wall  min     NaN  median     7.82  max     8.30 s\n" + user + sys + peak, "not a measure"},
		{"no runs", strings.Replace(header, "5 runs", "0 runs", 1) + wall + user + sys + peak + "  wall max/min 1.08\n", "run count"},
		{"spread below one", header + wall + user + sys + peak + "  wall max/min 0.50\n", "wall max/min"},
	} {
		_, err := parseReports(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestRegenerate(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bench"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bench", "s.txt"), []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	readme := "# T\n\nbefore\n" + beginMarker + " bench/s.txt -->\nstale row\n" + endMarker + "\nafter\n"
	out, err := regenerate(readme, dir)
	if err != nil {
		t.Fatal(err)
	}
	row := "| slide 3x4 | 2026-11-25 16:46:25 | 2 | 7.72 / 7.82 / 8.30 s | 1.08 | 14.5 s + 0.4 s | 417 MiB | 1.87 → 2.06 | `bench/s.txt` |\n"
	if !strings.Contains(out, row) || strings.Contains(out, "stale row") ||
		!strings.HasPrefix(out, "# T\n\nbefore\n") || !strings.HasSuffix(out, endMarker+"\nafter\n") {
		t.Fatalf("regenerated README:\n%s", out)
	}
	if again, err := regenerate(out, dir); err != nil || again != out {
		t.Fatalf("regenerating twice changed the README (%v)", err)
	}

	// The command: writes the README, then -check holds; a stale table fails -check.
	path := filepath.Join(dir, "README.md")
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
		{"no end marker", beginMarker + " bench/s.txt -->\n", "exactly one " + endMarker},
		{"no files", beginMarker + " -->\n" + endMarker + "\n", "names no report files"},
		{"a missing file", beginMarker + " bench/none.txt -->\n" + endMarker + "\n", "no such file"},
		{"two begin markers", beginMarker + " bench/s.txt -->\n" + beginMarker + " bench/s.txt -->\n" + endMarker + "\n", "exactly one"},
	} {
		if _, err := regenerate(c.readme, dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestReadmeCurrent: the README's table of large builds is the one the reports in
// bench/ give (after a benchmark run, make bench-table rewrites it).
func TestReadmeCurrent(t *testing.T) {
	if err := run(filepath.Join("..", "..", "README.md"), true); err != nil {
		t.Fatal(err)
	}
}

func FuzzParseReports(f *testing.F) {
	f.Add(sample)
	f.Add("x (2026-11-25T16:46:25Z, 5 runs, load 1 -> 2)\n  wall  min 1 median 2 max 3 s\n")
	f.Fuzz(func(t *testing.T, text string) {
		reps, err := parseReports(text)
		if err != nil {
			return
		}
		for _, r := range reps {
			for _, s := range []stat{r.Wall, r.User, r.Sys, r.Peak} {
				if !(s.Min <= s.Median && s.Median <= s.Max) {
					t.Fatalf("series %q accepted with %+v", r.Label, s)
				}
			}
			if r.Runs < 1 || r.Spread < 1 {
				t.Fatalf("series %q accepted with %d runs, spread %v", r.Label, r.Runs, r.Spread)
			}
			_ = table([]report{r}, []string{"f"})
		}
	})
}
