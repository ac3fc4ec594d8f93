// Package benchreport is the report of a benchmark series: what benchmarks/repeat prints
// after running a command several times, and what benchmarks/benchtable reads back from
// benchmarks/raw/*.txt to regenerate the table in benchmarks/RESULTS.md. Writer and parser
// live together so that the one cannot change without the other (TestRoundTrip).
//
// The text form, after the measured command's own output:
//
//	slide 3x4 (2026-11-25T16:46:25Z, 5 runs, load 1.87 -> 2.06)
//	  wall  min     7.72  median     7.82  max     8.30 s
//	  user  min    14.32  median    14.49  max    15.10 s
//	  sys   min     0.24  median     0.36  max     0.66 s
//	  peak  min   415.41  median   417.01  max   418.61 MiB
//	  wall max/min 1.08
package benchreport

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Stat is one measure's minimum, median and maximum.
type Stat struct{ Min, Median, Max float64 }

// Summarize is the Stat of xs (at least one value; the median of an even count is the
// mean of the middle two).
func Summarize(xs []float64) Stat {
	s := slices.Sorted(slices.Values(xs))
	mid := s[len(s)/2]
	if len(s)%2 == 0 {
		mid = (s[len(s)/2-1] + mid) / 2
	}
	return Stat{s[0], mid, s[len(s)-1]}
}

// Report is one series. Times are in seconds, PeakMiB is the peak resident memory.
type Report struct {
	Label      string
	Date       string // RFC 3339, UTC as written by Write
	Runs       int
	LoadBefore string // the 1-minute load average, or "?"
	LoadAfter  string
	Wall       Stat
	User       Stat
	Sys        Stat
	PeakMiB    Stat
	Spread     float64 // wall max/min
}

// Write prints r in the text form.
func (r Report) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %d runs, load %s -> %s)\n", r.Label, r.Date, r.Runs, r.LoadBefore, r.LoadAfter)
	for _, m := range r.measures() {
		fmt.Fprintf(&b, "  %-5s min %8.2f  median %8.2f  max %8.2f %s\n", m.name, m.s.Min, m.s.Median, m.s.Max, m.unit)
	}
	fmt.Fprintf(&b, "  wall max/min %.2f\n", r.Spread)
	_, err := io.WriteString(w, b.String())
	return err
}

type measure struct {
	name, unit string
	s          *Stat
}

func (r *Report) measures() []measure {
	return []measure{{"wall", "s", &r.Wall}, {"user", "s", &r.User}, {"sys", "s", &r.Sys}, {"peak", "MiB", &r.PeakMiB}}
}

var (
	headerRE = regexp.MustCompile(`^(\S.*) \((\S+), (\d+) runs, load (\S+) -> (\S+)\)$`)
	statRE   = regexp.MustCompile(`^  (\S+) +min +(\S+) +median +(\S+) +max +(\S+) (\S+)$`)
	spreadRE = regexp.MustCompile(`^  wall max/min (\S+)$`)
)

// Parse returns the series in a report file, in file order. A header must be followed
// by its four measures and the spread, in Write's order; other lines (the measured
// command's output) are skipped.
func Parse(text string) ([]Report, error) {
	var reps []Report
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		m := headerRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		r := Report{Label: m[1], Date: m[2], LoadBefore: m[4], LoadAfter: m[5]}
		if _, err := time.Parse(time.RFC3339, r.Date); err != nil {
			return nil, fmt.Errorf("line %d: series %q: date %q is not RFC 3339", i+1, r.Label, r.Date)
		}
		runs, err := strconv.Atoi(m[3])
		if err != nil || runs < 1 {
			return nil, fmt.Errorf("line %d: run count %q", i+1, m[3])
		}
		r.Runs = runs
		for k, ms := range r.measures() {
			n := i + 1 + k
			if n >= len(lines) {
				return nil, fmt.Errorf("line %d: series %q ends before its %s line", i+1, r.Label, ms.name)
			}
			sm := statRE.FindStringSubmatch(lines[n])
			if sm == nil || sm[1] != ms.name || sm[5] != ms.unit {
				return nil, fmt.Errorf("line %d: want the %s line of series %q, got %q", n+1, ms.name, r.Label, lines[n])
			}
			if *ms.s, err = parseStat(sm[2], sm[3], sm[4]); err != nil {
				return nil, fmt.Errorf("line %d: %w", n+1, err)
			}
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

func parseStat(min, median, max string) (Stat, error) {
	var s Stat
	for i, f := range []string{min, median, max} {
		x, err := parseNumber(f)
		if err != nil {
			return Stat{}, err
		}
		*[]*float64{&s.Min, &s.Median, &s.Max}[i] = x
	}
	if s.Min > s.Median || s.Median > s.Max {
		return Stat{}, fmt.Errorf("min %s, median %s, max %s out of order", min, median, max)
	}
	return s, nil
}

// Time is the report's date (Parse has checked it).
func (r Report) Time() time.Time {
	t, _ := time.Parse(time.RFC3339, r.Date)
	return t
}

// Newest is the series measured last (the last of equal ones); reps is not empty.
func Newest(reps []Report) Report {
	best := reps[0]
	for _, r := range reps[1:] {
		if !r.Time().Before(best.Time()) {
			best = r
		}
	}
	return best
}
