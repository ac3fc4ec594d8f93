package benchreport

import (
	"strings"
	"testing"
)

// older is a series as benchmarks/repeat printed it, with the measured command's output
// before it; reports append newer series above or below older ones.
const older = `repeat: run 1/1: 130.50 s wall, 14.00 s user, 0.20 s sys, 2048 MiB peak
/tmp/t/slide-3x4.tsm: slide, 239,500,800 states, search 6.47s, write 1.34s
slide 3x4 (2026-11-21T10:00:00+01:00, 1 runs, load 0.10 -> 1.00)
  wall  min   130.50  median   130.50  max   130.50 s
  user  min    14.00  median    14.00  max    14.00 s
  sys   min     0.20  median     0.20  max     0.20 s
  peak  min  2048.00  median  2048.00  max  2048.00 MiB
  wall max/min 1.00
`

var newer = Report{Label: "slide 3x4", Date: "2026-11-25T16:46:25Z", Runs: 2, LoadBefore: "1.87", LoadAfter: "2.06",
	Wall: Stat{7.72, 7.82, 8.3}, User: Stat{14.32, 14.49, 15.1}, Sys: Stat{0.24, 0.36, 0.66},
	PeakMiB: Stat{415.41, 417.01, 418.61}, Spread: 1.08}

// TestRoundTrip: what Write prints, Parse reads back, among other output; the newest
// series is found by its time, whatever its zone.
func TestRoundTrip(t *testing.T) {
	var b strings.Builder
	if err := newer.Write(&b); err != nil {
		t.Fatal(err)
	}
	reps, err := Parse(b.String() + "trailing output\n" + older)
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 2 || reps[0] != newer {
		t.Fatalf("parsed %+v\nwant %+v first", reps, newer)
	}
	if got := Newest([]Report{reps[0], reps[1]}); got != newer {
		t.Fatalf("newest is %s", got.Date)
	}
	if got := Newest([]Report{reps[1], reps[0]}); got != newer {
		t.Fatalf("newest is %s", got.Date)
	}
}

func TestSummarize(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want Stat
	}{
		{[]float64{3}, Stat{3, 3, 3}},
		{[]float64{4, 1, 3}, Stat{1, 3, 4}},
		{[]float64{4, 1, 3, 2}, Stat{1, 2.5, 4}},
	} {
		if got := Summarize(c.xs); got != c.want {
			t.Errorf("Summarize(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	header := "x (2026-11-25T16:46:25Z, 5 runs, load 1 -> 2)\n"
	wall := "  wall  min     7.72  median     7.82  max     8.30 s\n"
	user := "  user  min    14.32  median    14.49  max    15.10 s\n"
	sys := "  sys   min     0.24  median     0.36  max     0.66 s\n"
	peak := "  peak  min   415.41  median   417.01  max   418.61 MiB\n"
	spread := "  wall max/min 1.08\n"
	for _, c := range []struct{ name, text, want string }{
		{"cut after the header", header, "want the wall line"},
		{"cut without a newline", strings.TrimSuffix(header, "\n"), "ends before its wall line"},
		{"cut before the spread", header + wall + user + sys + peak, "want the wall max/min"},
		{"cut before the spread without a newline", header + wall + user + sys + strings.TrimSuffix(peak, "\n"), "ends before its spread"},
		{"measures out of order", header + user + wall + sys + peak + spread, "want the wall line"},
		{"peak in seconds", header + wall + user + sys + strings.Replace(peak, "MiB", "s", 1) + spread, "want the peak line"},
		{"median below min", header + "  wall  min     7.72  median     7.00  max     8.30 s\n" + user + sys + peak, "out of order"},
		{"not a number", header + "  wall  min     NaN  median     7.82  max     8.30 s\n" + user + sys + peak, "not a measure"},
		{"no runs", strings.Replace(header, "5 runs", "0 runs", 1) + wall + user + sys + peak + spread, "run count"},
		{"a date that is none", strings.Replace(header, "2026-11-25T16:46:25Z", "yesterday", 1) + wall + user + sys + peak + spread, "RFC 3339"},
		{"spread below one", header + wall + user + sys + peak + "  wall max/min 0.50\n", "wall max/min"},
	} {
		_, err := Parse(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// FuzzParse: any text is refused or parsed into series that hold together, and a
// parsed series written again parses to itself.
func FuzzParse(f *testing.F) {
	var b strings.Builder
	newer.Write(&b)
	f.Add(b.String() + older)
	f.Add("x (2026-11-25T16:46:25Z, 5 runs, load 1 -> 2)\n  wall  min 1 median 2 max 3 s\n")
	f.Fuzz(func(t *testing.T, text string) {
		reps, err := Parse(text)
		if err != nil {
			return
		}
		for _, r := range reps {
			for _, s := range []Stat{r.Wall, r.User, r.Sys, r.PeakMiB} {
				if !(s.Min <= s.Median && s.Median <= s.Max) {
					t.Fatalf("series %q accepted with %+v", r.Label, s)
				}
			}
			if r.Runs < 1 || r.Spread < 1 || r.Time().IsZero() {
				t.Fatalf("series %q accepted with %d runs, spread %v, date %q", r.Label, r.Runs, r.Spread, r.Date)
			}
			var b strings.Builder
			r.Write(&b)
			again, err := Parse(b.String())
			if err != nil || len(again) != 1 {
				t.Fatalf("series %q written again: %d series, %v", r.Label, len(again), err)
			}
		}
	})
}
