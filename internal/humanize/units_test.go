package humanize

import "testing"

func TestBytes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    uint64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {1536, "1.5 KiB"}, {1 << 20, "1.00 MiB"}, {3 << 29, "1.50 GiB"}, {1 << 62, "4294967296.00 GiB"}} {
		if got := Bytes(tc.n); got != tc.want {
			t.Errorf("Bytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
