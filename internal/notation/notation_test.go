package notation

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"abc", `"abc"`},
		{strings.Repeat("x", 80), `"` + strings.Repeat("x", 80) + `"`},
		{strings.Repeat("x", 81), `"` + strings.Repeat("x", 80) + `"…`},
		{strings.Repeat("x", 79) + "ü" + "yyyy", `"` + strings.Repeat("x", 79) + `"…`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	if got := Quote(strings.Repeat("y", 1<<20)); len(got) > 90 {
		t.Errorf("a 1 MB input quotes to %d bytes", len(got))
	}
}
