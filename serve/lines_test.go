package serve

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll runs ReadLines over r and returns the lines (long ones marked with a leading
// "LONG:") and the error.
func readAll(r io.Reader) ([]string, error) {
	var got []string
	err := ReadLines(context.Background(), r, func(b []byte, long bool) {
		if long {
			got = append(got, "LONG:"+string(b))
		} else {
			got = append(got, string(b))
		}
	}, func() {})
	return got, err
}

// wantLines is what ReadLines must return for in, read in full (cut: false) or cut by a
// read error after its last byte (cut: true): every line whose newline was read (or, at
// the end of a whole input, the last one), trimmed, empty ones skipped, long ones as
// their first 80 bytes; never the bytes of a line the error cut.
func wantLines(in string, cut bool) []string {
	parts := strings.Split(in, "\n")
	if cut { // the last part has no newline: it was cut short
		parts = parts[:len(parts)-1]
	}
	var want []string
	for _, p := range parts {
		switch {
		case len(p) > MaxStateLine:
			want = append(want, "LONG:"+p[:80])
		case strings.TrimSpace(p) != "":
			want = append(want, strings.TrimSpace(p))
		}
	}
	return want
}

var errCut = errors.New("cut")

// TestReadLinesCutLine: a read error in the middle of a line (a POST body over its limit,
// a failed read of stdin) answers every whole line and not the cut one, whose first
// bytes may be a valid state ("123456780" of "1234567800").
func TestReadLinesCutLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		cut  bool
		want []string
	}{
		{"123456780\n1234567800\n123456780", true, []string{"123456780", "1234567800"}},
		{"123456780\n1234567800\n123456780", false, []string{"123456780", "1234567800", "123456780"}},
		{"123456780\n", true, []string{"123456780"}},
		{"", true, nil},
		{strings.Repeat("1", 100<<10) + "\n12", true, []string{"LONG:" + strings.Repeat("1", 80)}},
		{"a\n" + strings.Repeat("1", 100<<10), true, []string{"a"}},
		{"a\n" + strings.Repeat("1", 100<<10), false, []string{"a", "LONG:" + strings.Repeat("1", 80)}},
	} {
		var r io.Reader = strings.NewReader(tc.in)
		if tc.cut {
			r = io.MultiReader(r, iotest.ErrReader(errCut))
		}
		got, err := readAll(iotest.OneByteReader(r))
		if tc.cut != errors.Is(err, errCut) || !tc.cut && err != nil {
			t.Errorf("%.20q (cut %v): error %v", tc.in, tc.cut, err)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%.20q (cut %v): lines %.100q, want %.100q", tc.in, tc.cut, got, tc.want)
		}
	}
}

// FuzzReadLines: the lines ReadLines returns, for any input read whole or cut by an
// error at any byte, against the plain split of wantLines.
func FuzzReadLines(f *testing.F) {
	f.Add([]byte("123456780\n867254301\n"), 15, false)
	f.Add([]byte("123456780\r\n  \n1234567800"), 23, true)
	f.Add(bytes.Repeat([]byte("7"), 5000), 4999, true)
	f.Fuzz(func(t *testing.T, in []byte, at int, cut bool) {
		if cut {
			in = in[:min(max(at, 0), len(in))]
		}
		var r io.Reader = bytes.NewReader(in)
		if cut {
			r = io.MultiReader(r, iotest.ErrReader(errCut))
		}
		got, err := readAll(r)
		if cut != errors.Is(err, errCut) || !cut && err != nil {
			t.Fatalf("error %v (cut %v)", err, cut)
		}
		want := wantLines(string(in), cut)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("lines %q, want %q", got, want)
		}
	})
}
