// Command benchtable regenerates the table of large builds in benchmarks/RESULTS.md from
// the reports that benchmarks/repeat wrote and `make bench-record` filed in
// benchmarks/raw/*.txt (internal/benchreport), so that the figures in the results are
// the measured ones and not copies that drift.
//
//	go run ./benchmarks/benchtable [-check] [benchmarks/RESULTS.md]
//
// The table lives between two markers in the document; the first names the report
// files, relative to the document's directory and inside it:
//
//	<!-- bench-big:begin raw/slide-3x4.txt raw/pdb78.txt -->
//	...generated...
//	<!-- bench-big:end -->
//
// Each file may hold several series (older ones kept below or above newer ones); the
// newest by its date is the one shown. With -check the document is not written: the
// command fails if its table differs from the reports (make bench-table-check, run by
// .ci/run).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tablesmith/tablesmith/internal/benchreport"
	"github.com/tablesmith/tablesmith/internal/safefile"
)

const (
	beginMarker = "<!-- bench-big:begin"
	endMarker   = "<!-- bench-big:end -->"
)

// table is the Markdown table of the series, one row each, from the given files.
func table(reps []benchreport.Report, files []string) string {
	var b strings.Builder
	b.WriteString("| series | measured (UTC) | runs | wall: min / median / max | max/min | CPU user + sys (median) | peak memory (median) | load before → after | report |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---|---|\n")
	for i, r := range reps {
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %.2f | %.1f s + %.1f s | %s | %s → %s | `%s` |\n",
			r.Label, r.Time().UTC().Format(time.DateTime), r.Runs,
			wall(r.Wall), r.Spread, r.User.Median, r.Sys.Median, mib(r.PeakMiB.Median),
			r.LoadBefore, r.LoadAfter, files[i])
	}
	return b.String()
}

// wall spells min / median / max in one unit: seconds while the maximum is below two
// minutes, else m:ss.
func wall(s benchreport.Stat) string {
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

// defaultPath is the document benchtable updates when none is named: the results,
// relative to the repository's root (where make runs it).
const defaultPath = "benchmarks/RESULTS.md"

// section finds the marked section of readme: the file names in the begin marker, and
// the byte range between the end of the begin marker's line and the end marker.
func section(readme string) (files []string, start, end int, err error) {
	b := strings.Index(readme, beginMarker)
	if b < 0 || strings.Count(readme, beginMarker) != 1 {
		return nil, 0, 0, errors.New("the document needs exactly one " + beginMarker + " … --> line")
	}
	lineEnd := strings.IndexByte(readme[b:], '\n')
	if lineEnd < 0 {
		return nil, 0, 0, errors.New("the begin marker is the document's last line")
	}
	marker := strings.TrimSpace(readme[b : b+lineEnd])
	if !strings.HasSuffix(marker, "-->") {
		return nil, 0, 0, errors.New("the begin marker must end its line with -->")
	}
	files = strings.Fields(strings.TrimSuffix(strings.TrimPrefix(marker, beginMarker), "-->"))
	if len(files) == 0 {
		return nil, 0, 0, errors.New("the begin marker names no report files")
	}
	for _, f := range files {
		if !filepath.IsLocal(f) {
			return nil, 0, 0, fmt.Errorf("report file %q: not a path inside the document's directory", f)
		}
	}
	start = b + lineEnd + 1
	e := strings.Index(readme[start:], endMarker)
	if e < 0 || strings.Count(readme, endMarker) != 1 {
		return nil, 0, 0, errors.New("the document needs exactly one " + endMarker + " after the begin marker")
	}
	return files, start, start + e, nil
}

// regenerate returns readme (the document) with its section rebuilt from the report
// files, which are read relative to dir.
func regenerate(readme, dir string) (string, error) {
	files, start, end, err := section(readme)
	if err != nil {
		return "", err
	}
	var reps []benchreport.Report
	for _, f := range files {
		text, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "", err
		}
		rs, err := benchreport.Parse(string(text))
		if err != nil {
			return "", fmt.Errorf("%s: %w", f, err)
		}
		if len(rs) == 0 {
			return "", fmt.Errorf("%s: no report of benchmarks/repeat in it", f)
		}
		reps = append(reps, benchreport.Newest(rs))
	}
	return readme[:start] + table(reps, files) + readme[end:], nil
}

func main() {
	check := flag.Bool("check", false, "fail if the document's table differs from the reports; write nothing")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchtable [-check] ["+defaultPath+"]")
		flag.PrintDefaults()
	}
	flag.Parse()
	path := defaultPath
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
			return fmt.Errorf("%s: the table of large builds is out of date: run make bench-table (or make bench-record after a benchmark run)", path)
		}
		return nil
	}
	if out == readme {
		return nil
	}
	return safefile.WriteFile(path, []byte(out), 0o644)
}
