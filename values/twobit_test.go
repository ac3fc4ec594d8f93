package values

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTwoBitNearer: for every remoteness d ≥ 1 and both two-bit encodings, the nearer
// code of d's code (on side d mod 2) is d−1's, and d+1's code is another one, so that a
// descent never mistakes a farther neighbour for a nearer one.
func TestTwoBitNearer(t *testing.T) {
	for _, enc := range []Encoding{EncodingDepthMod3, EncodingHalfDepth} {
		for d := uint64(1); d < 100; d++ {
			c := TwoBitCode(enc, d)
			near := TwoBitNearer(enc, c, uint8(d%2))
			if near != TwoBitCode(enc, d-1) || TwoBitCode(enc, d+1) == near {
				t.Fatalf("%s d=%d: code %d, nearer %d; d−1 holds %d, d+1 %d", enc, d, c, near, TwoBitCode(enc, d-1), TwoBitCode(enc, d+1))
			}
			if c >= DepthMod3NotReached || enc == EncodingHalfDepth && c > 1 {
				t.Fatalf("%s d=%d: code %d", enc, d, c)
			}
		}
	}
}

// TestParseTwoBitExtra checks the extra against the per-code counts of each encoding.
func TestParseTwoBitExtra(t *testing.T) {
	extra := json.RawMessage(`{"depth_counts":[1,2,3,4,5],"unreachable":6,"holes":1}`)
	for _, tc := range []struct {
		enc    Encoding
		codes  []uint64
		errHas string
	}{
		{EncodingDepthMod3, []uint64{1 + 4, 2 + 5, 3, 7}, ""},
		{EncodingHalfDepth, []uint64{1 + 2 + 5, 3 + 4, 0, 7}, ""},
		{EncodingHalfDepth, []uint64{1 + 2 + 5, 3 + 4}, "code 3"},
		{EncodingHalfDepth, []uint64{1 + 2, 3 + 4, 5, 7}, "code 0"},
		{EncodingHalfDepth, []uint64{1 + 4, 2 + 5, 3, 7}, "half-depth"},
		{EncodingHalfDepth, []uint64{1 + 2 + 5, 3 + 4, 0, 7, 1}, "5 codes"},
		{EncodingRemoteness, []uint64{1}, "no two-bit encoding"},
	} {
		x, err := ParseTwoBitExtra(tc.enc, extra, tc.codes)
		if tc.errHas == "" {
			if err != nil || len(x.Counts) != 5 || x.Unreachable != 6 || x.Holes != 1 {
				t.Errorf("%s %v: %+v %v", tc.enc, tc.codes, x, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.errHas) {
			t.Errorf("%s %v: %v, want an error with %q", tc.enc, tc.codes, err, tc.errHas)
		}
	}
	for _, bad := range []string{`{}`, `{"depth_counts":[]}`, `[`} {
		if _, err := ParseTwoBitExtra(EncodingHalfDepth, json.RawMessage(bad), nil); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// FuzzParseTwoBitExtra: any extra and counts are answered without a panic, and an extra
// accepted under one encoding has counts whose codes add up to the slots.
func FuzzParseTwoBitExtra(f *testing.F) {
	f.Add([]byte(`{"depth_counts":[1,2,3],"unreachable":1,"holes":0}`), uint64(3), uint64(2), uint64(0), uint64(1), true)
	f.Add([]byte(`{"depth_counts":[1,2,3],"unreachable":1,"holes":0}`), uint64(1), uint64(2), uint64(3), uint64(1), false)
	f.Add([]byte(`{"depth_counts":null}`), uint64(0), uint64(0), uint64(0), uint64(0), true)
	f.Fuzz(func(t *testing.T, extra []byte, c0, c1, c2, c3 uint64, half bool) {
		enc := EncodingDepthMod3
		if half {
			enc = EncodingHalfDepth
		}
		x, err := ParseTwoBitExtra(enc, extra, []uint64{c0, c1, c2, c3})
		if err != nil {
			return
		}
		if half && c2 != 0 {
			t.Fatalf("a half-depth extra accepted with %d slots of code 2", c2)
		}
		var sum uint64
		for _, k := range x.Counts {
			sum += k
		}
		if sum+x.Unreachable+x.Holes != c0+c1+c2+c3 {
			t.Fatalf("counts %+v for codes %d %d %d %d", x, c0, c1, c2, c3)
		}
	})
}
