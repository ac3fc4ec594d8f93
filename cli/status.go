package cli

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tablesmith/tablesmith/builder"
)

// status draws a one-line progress report on stderr when it is a terminal, and nothing
// otherwise, so scripted runs stay quiet. A single line rewritten with \r is all a build
// needs, which is why no progress-bar library is used.
type status struct {
	mu    sync.Mutex
	e     *env
	on    bool
	slots uint64
	width int
	start time.Time
}

func newStatus(e *env, slots uint64) *status {
	return &status{e: e, on: e.stderrIsTerm, slots: slots, start: time.Now()}
}

func (s *status) show(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.on {
		return
	}
	pad := ""
	if n := s.width - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprintf(s.e.stderr, "\r%s%s", line, pad)
	s.width = len(line)
}

// clear erases the line so that the next output starts clean.
func (s *status) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.on && s.width > 0 {
		fmt.Fprintf(s.e.stderr, "\r%s\r", strings.Repeat(" ", s.width))
		s.width = 0
	}
}

// search reports a running breadth-first search: level, states, rate, ETA, after what
// (e.g. "search: level").
func (s *status) search(what string, p builder.Progress) {
	if p.Done {
		return
	}
	rate := float64(p.Reached-p.Base) / p.Elapsed.Seconds() // this run's own rate, after a resume too
	line := fmt.Sprintf("%s %d, %s states, %s/s", what, p.Level, commas(p.Reached), si(rate))
	if p.Expect > 0 {
		pct := 100 * float64(p.Reached) / float64(p.Expect)
		line += fmt.Sprintf(", %.1f%%", pct)
		if rate > 0 && p.Reached < p.Expect {
			eta := time.Duration(float64(p.Expect-p.Reached) / rate * float64(time.Second))
			line += ", ETA " + eta.Round(time.Second).String()
		}
	}
	s.show(line)
}

// write reports the table being compressed and written.
func (s *status) write(done, total uint64) {
	if total == 0 {
		return
	}
	s.show(fmt.Sprintf("write: %.1f%% of %s slots", 100*float64(done)/float64(total), commas(total)))
}

func si(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.2fG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.2fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}
