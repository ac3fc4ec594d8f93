// Command benchtable regenerates the README's table of large builds from the reports
// that benchmarks/repeat wrote into bench/*.txt, so that the figures in the README are
// the measured ones and not copies that drift.
//
//	go run ./benchmarks/benchtable [-check] [README.md]
//
// The table lives between two markers in the README; the first names the report files:
//
//	<!-- bench-big:begin bench/slide-3x4.txt bench/pdb78.txt -->
//	...generated...
//	<!-- bench-big:end -->
//
// Each file may hold several series (older ones kept below or above newer ones); the
// newest by its date is the one shown. With -check the README is not written: the
// command fails if its table differs from the reports (make test runs this).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/tablesmith/tablesmith/internal/safefile"
)

const (
	beginMarker = "<!-- bench-big:begin"
	endMarker   = "<!-- bench-big:end -->"
)

// stat is one measure's minimum, median and maximum.
type stat struct{ Min, Median, Max float64 }

// report is one series as benchmarks/repeat prints it.
type report struct {
	Label, Date           string
	Runs                  int
	LoadBefore, LoadAfter string
	Wall, User, Sys, Peak stat
	Spread                float64 // wall max/min
}

var (
	headerRE = regexp.MustCompile(`^(\S.*) \((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ), (\d+) runs, load (\S+) -> (\S+)\)$`)
	statRE   = regexp.MustCompile(`^  (wall|user|sys|peak) +min +(\S+) +median +(\S+) +max +(\S+) (s|MiB)$`)
	spreadRE = regexp.MustCompile(`^  wall max/min (\S+)$`)
)

// parseReports returns the series in a report file, in file order. A header must be
// followed by its four measures and the spread, in repeat's order; other lines (the
// measured command's output) are skipped.
func parseReports(text string) ([]report, error) {
	var reps []report
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		m := headerRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		r := report{Label: m[1], Date: m[2], LoadBefore: m[4], LoadAfter: m[5]}
		runs, err := strconv.Atoi(m[3])
		if err != nil || runs < 1 {
			return nil, fmt.Errorf("line %d: run count %q", i+1, m[3])
		}
		r.Runs = runs
		for k, name := range []string{"wall", "user", "sys", "peak"} {
			n := i + 1 + k
			if n >= len(lines) {
				return nil, fmt.Errorf("line %d: series %q ends before its %s line", i+1, r.Label, name)
			}
			sm := statRE.FindStringSubmatch(lines[n])
			if sm == nil || sm[1] != name {
				return nil, fmt.Errorf("line %d: want the %s line of series %q, got %q", n+1, name, r.Label, lines[n])
			}
			s, err := parseStat(sm[2], sm[3], sm[4])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n+1, err)
			}
			*[]*stat{&r.Wall, &r.User, &r.Sys, &r.Peak}[k] = s
		}
		n := i + 5
		if n >= len(lines) {
			return nil, fmt.Errorf("line %d: series %q ends before its spread", i+1, r.Label)
		}
		sm := spreadRE.FindStringSubmatch(lines[n])
		if sm == nil {
			return nil, fmt.Errorf("line %d: want the wall max/min of series %q, got %q", n+1, r.Label, lines[n])
		}
		if r.Spread, err = parseNumber(sm[1]); err != nil || r.Spread < 1 {
			return nil, fmt.Errorf("line %d: wall max/min %q", n+1, sm[1])
		}
		reps = append(reps, r)
		i = n
	}
	return reps, nil
}

func parseNumber(s string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return 0, fmt.Errorf("not a measure: %q", s)
	}
	return x, nil
}

func parseStat(min, median, max string) (stat, error) {
	var s stat
	for i, f := range []string{min, median, max} {
		x, err := parseNumber(f)
		if err != nil {
			return stat{}, err
		}
		*[]*float64{&s.Min, &s.Median, &s.Max}[i] = x
	}
	if s.Min > s.Median || s.Median > s.Max {
		return stat{}, fmt.Errorf("min %s, median %s, max %s out of order", min, median, max)
	}
	return s, nil
}

// newest is the series with the latest date (the last of equal ones).
func newest(reps []report) report {
	best := reps[0]
	for _, r := range reps[1:] {
		if r.Date >= best.Date {
			best = r
		}
	}
	return best
}

// table is the Markdown table of the series, one row each, from the given files.
func table(reps []report, files []string) string {
	var b strings.Builder
	b.WriteString("| series | measured (UTC) | runs | wall: min / median / max | max/min | CPU user + sys (median) | peak memory (median) | load before → after | report |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---|---|\n")
	for i, r := range reps {
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %.2f | %.1f s + %.1f s | %s | %s → %s | `%s` |\n",
			r.Label, strings.Replace(strings.TrimSuffix(r.Date, "Z"), "T", " ", 1), r.Runs,
			wall(r.Wall), r.Spread, r.User.Median, r.Sys.Median, mib(r.Peak.Median),
			r.LoadBefore, r.LoadAfter, files[i])
	}
	return b.String()
}

// wall spells min / median / max in one unit: seconds while the maximum is below two
// minutes, else m:ss.
func wall(s stat) string {
	if s.Max < 120 {
		return fmt.Sprintf("%.2f / %.2f / %.2f s", s.Min, s.Median, s.Max)
	}
	mmss := func(x float64) string {
		t := int(math.Round(x))
		return fmt.Sprintf("%d:%02d", t/60, t%60)
	}
	return mmss(s.Min) + " / " + mmss(s.Median) + " / " + mmss(s.Max)
}

func mib(m float64) string {
	if m >= 1024 {
		return fmt.Sprintf("%.2f GiB", m/1024)
	}
	return fmt.Sprintf("%.0f MiB", m)
}

// section finds the marked section of readme: the file names in the begin marker, and
// the byte range between the end of the begin marker's line and the end marker.
func section(readme string) (files []string, start, end int, err error) {
	b := strings.Index(readme, beginMarker)
	if b < 0 || strings.Count(readme, beginMarker) != 1 {
		return nil, 0, 0, errors.New("the README needs exactly one " + beginMarker + " … --> line")
	}
	lineEnd := strings.IndexByte(readme[b:], '\n')
	if lineEnd < 0 {
		return nil, 0, 0, errors.New("the begin marker is the README's last line")
	}
	marker := strings.TrimSpace(readme[b : b+lineEnd])
	if !strings.HasSuffix(marker, "-->") {
		return nil, 0, 0, errors.New("the begin marker must end its line with -->")
	}
	files = strings.Fields(strings.TrimSuffix(strings.TrimPrefix(marker, beginMarker), "-->"))
	if len(files) == 0 {
		return nil, 0, 0, errors.New("the begin marker names no report files")
	}
	start = b + lineEnd + 1
	e := strings.Index(readme[start:], endMarker)
	if e < 0 || strings.Count(readme, endMarker) != 1 {
		return nil, 0, 0, errors.New("the README needs exactly one " + endMarker + " after the begin marker")
	}
	return files, start, start + e, nil
}

// regenerate returns readme with its section rebuilt from the report files, which are
// read relative to dir.
func regenerate(readme, dir string) (string, error) {
	files, start, end, err := section(readme)
	if err != nil {
		return "", err
	}
	var reps []report
	for _, f := range files {
		text, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "", err
		}
		rs, err := parseReports(string(text))
		if err != nil {
			return "", fmt.Errorf("%s: %w", f, err)
		}
		if len(rs) == 0 {
			return "", fmt.Errorf("%s: no report of benchmarks/repeat in it", f)
		}
		reps = append(reps, newest(rs))
	}
	return readme[:start] + table(reps, files) + readme[end:], nil
}

func main() {
	check := flag.Bool("check", false, "fail if the README's table differs from the reports; write nothing")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchtable [-check] [README.md]")
		flag.PrintDefaults()
	}
	flag.Parse()
	path := "README.md"
	switch flag.NArg() {
	case 0:
	case 1:
		path = flag.Arg(0)
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err := run(path, *check); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func run(path string, check bool) error {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return err
	}
	var b strings.Builder
	_, err = bufio.NewReader(f).WriteTo(&b)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	readme := b.String()
	out, err := regenerate(readme, filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if check {
		if out != readme {
			return fmt.Errorf("%s: the table of large builds is out of date: run make bench-table", path)
		}
		return nil
	}
	if out == readme {
		return nil
	}
	return safefile.WriteFile(path, []byte(out), 0o644)
}
