package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/builder"
)

// TestStatusOnlyOnATerminal: the progress line shows level, states, rate and ETA on a
// terminal, and nothing at all is written when stderr is not one.
func TestStatusOnlyOnATerminal(t *testing.T) {
	t.Parallel()
	p := builder.Progress{Level: 7, Reached: 1500, Base: 500, Expect: 3000, Elapsed: 2 * time.Second}
	for _, term := range []bool{true, false} {
		var errb bytes.Buffer
		s := newStatus(&env{stderr: &errb, stderrIsTerm: term}, 4000)
		s.search("search: level", p)
		s.write(10, 40)
		s.clear()
		out := errb.String()
		if !term {
			if out != "" {
				t.Fatalf("not a terminal, yet wrote %q", out)
			}
			continue
		}
		// 1000 new states in 2 s: 500/s, 1500 to go: ETA 3s.
		for _, want := range []string{"level 7", "1,500 states", "500/s", "50.0%", "ETA 3s", "write: 25.0%"} {
			if !strings.Contains(out, want) {
				t.Errorf("progress %q lacks %q", out, want)
			}
		}
	}
}
