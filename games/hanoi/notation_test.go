package hanoi

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in          string
		pegs, disks int
		want        []uint8
		err         string // substring of the error; "" for success
	}{
		{"0120", 3, 4, []uint8{0, 1, 2, 0}, ""},
		{"3333", 4, 4, []uint8{3, 3, 3, 3}, ""},
		{" 0 1 2 0 ", 3, 4, []uint8{0, 1, 2, 0}, ""},
		{"0,1,2,0", 3, 4, []uint8{0, 1, 2, 0}, ""},
		{"5", 6, 1, []uint8{5}, ""},
		{strings.Repeat("2", 32), 3, 32, slices.Repeat([]uint8{2}, 32), ""},
		{"", 3, 4, nil, "empty"},
		{"  , ", 3, 4, nil, "empty"},
		{"01201", 4, 4, nil, "got 5 peg digits, want 4 (one per disk)"},
		{"012", 4, 4, nil, "got 3 peg digits, want 4 (one per disk)"},
		{"0170", 4, 4, nil, "disk 3 is on peg 7, but there are only 4 pegs"},
		{"0123", 3, 4, nil, "disk 4 is on peg 3, but there are only 3 pegs"},
		{"01x0", 3, 4, nil, `unexpected 'x' at position 3`},
		{"01-0", 3, 4, nil, `unexpected '-' at position 3`},
		{"0١20", 3, 4, nil, "unexpected"},
		{"\xff", 3, 1, nil, "unexpected"},
		{"000", 2, 3, nil, "2 pegs: want 3 to 6"},
		{"000", 7, 3, nil, "7 pegs: want 3 to 6"},
		{"", 3, 0, nil, "0 disks: want 1 to 32"},
		{"0", 3, 33, nil, "33 disks: want 1 to 32"},
		{"0", 3, -1, nil, "-1 disks"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.in, tt.pegs, tt.disks)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Parse(%q, %d, %d) error = %v, want one containing %q", tt.in, tt.pegs, tt.disks, err, tt.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Fatalf("Parse(%q, %d, %d) = %v, %v; want %v", tt.in, tt.pegs, tt.disks, got, err, tt.want)
			}
		})
	}
}

func TestParseErrorsWrapErrState(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "01x0", "012", "0190"} {
		if _, err := Parse(in, 4, 4); !errors.Is(err, ErrState) {
			t.Errorf("Parse(%q): error %v does not wrap ErrState", in, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0120", "3333", " 0 1 2 0 ", "0,1,2,0", "", "01201", "0170", "01x0", "\xff", "٣"} {
		f.Add(s, 4, 4)
	}
	f.Add("012", 3, 3)
	f.Add("55555", 6, 5)
	f.Add("0", 2, 1)
	f.Add("0", 3, 40)
	f.Fuzz(func(t *testing.T, s string, pegs, disks int) {
		st, err := Parse(s, pegs, disks)
		if err != nil {
			if st != nil {
				t.Fatalf("Parse(%q) returned a state with error %v", s, err)
			}
			return
		}
		if len(st) != disks {
			t.Fatalf("Parse(%q, %d, %d) has %d disks", s, pegs, disks, len(st))
		}
		for _, p := range st {
			if int(p) >= pegs {
				t.Fatalf("Parse(%q, %d, %d) put a disk on peg %d", s, pegs, disks, p)
			}
		}
		f := Format(st)
		again, err := Parse(f, pegs, disks)
		if err != nil || !slices.Equal(again, st) {
			t.Fatalf("Format/Parse round trip of %q: %q -> %v, %v", s, f, again, err)
		}
		canon, toUser := Canonical(nil, st, pegs)
		if !IsCanonical(canon, pegs) {
			t.Fatalf("Canonical(%v) = %v is not canonical", st, canon)
		}
		for i, c := range canon {
			if toUser[c] != st[i] {
				t.Fatalf("Canonical(%v) = %v, toUser %v does not map back", st, canon, toUser)
			}
		}
	})
}

func TestFormat(t *testing.T) {
	t.Parallel()
	if got := Format([]uint8{0, 1, 2, 5}); got != "0125" {
		t.Errorf("Format = %q", got)
	}
	if got := Format(nil); got != "" {
		t.Errorf("Format(nil) = %q", got)
	}
}

func TestCanonical(t *testing.T) {
	t.Parallel()
	tests := []struct {
		state  string
		pegs   int
		want   string
		toUser []uint8 // first pegs entries
	}{
		{"0000", 3, "0000", []uint8{0, 1, 2}},
		{"1111", 3, "0000", []uint8{1, 0, 2}},
		{"2222", 3, "2222", []uint8{0, 1, 2}},
		{"0121", 3, "1020", []uint8{1, 0, 2}},
		{"0123", 4, "2103", []uint8{2, 1, 0, 3}},
		{"3210", 4, "3210", []uint8{0, 1, 2, 3}},
		{"5511", 6, "5500", []uint8{1, 0, 2, 3, 4, 5}},
		{"4305", 6, "2105", []uint8{0, 3, 4, 1, 2, 5}},
	}
	for _, tt := range tests {
		st, err := Parse(tt.state, tt.pegs, len(tt.state))
		if err != nil {
			t.Fatal(err)
		}
		canon, toUser := Canonical(nil, st, tt.pegs)
		if got := Format(canon); got != tt.want || !slices.Equal(toUser[:tt.pegs], tt.toUser) {
			t.Errorf("Canonical(%s, %d) = %s, %v; want %s, %v", tt.state, tt.pegs, got, toUser[:tt.pegs], tt.want, tt.toUser)
		}
		if !IsCanonical(canon, tt.pegs) {
			t.Errorf("IsCanonical(%s) = false", Format(canon))
		}
		if IsCanonical(st, tt.pegs) != (tt.state == tt.want) {
			t.Errorf("IsCanonical(%s) = %v", tt.state, IsCanonical(st, tt.pegs))
		}
		// In place.
		inPlace, _ := Canonical(st, st, tt.pegs)
		if Format(inPlace) != tt.want {
			t.Errorf("in-place Canonical(%s) = %s", tt.state, Format(inPlace))
		}
	}
}

func TestThreePegDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		state string
		want  uint64
	}{
		{"2", 0}, {"0", 1}, {"1", 1},
		{"22", 0}, {"02", 1}, {"00", 3}, {"11", 3}, {"10", 2}, {"20", 3},
		{"000", 7}, {"111", 7}, {"222", 0}, {"0000000000", 1023},
	}
	for _, tt := range tests {
		st, _ := Parse(tt.state, 3, len(tt.state))
		if got := ThreePegDistance(st); got != tt.want {
			t.Errorf("ThreePegDistance(%s) = %d, want %d", tt.state, got, tt.want)
		}
	}
}

func TestDomainMethods(t *testing.T) {
	t.Parallel()
	sp, err := NewSpace(Params{Pegs: 4, Disks: 4})
	if err != nil {
		t.Fatal(err)
	}
	nb, err := sp.Neighbors("0 1 2 0")
	if err != nil {
		t.Fatal(err)
	}
	// Disk 1 (peg 0) to pegs 1, 2, 3; disk 2 (peg 1) onto disk 3 or peg 3; disk 3 (peg 2)
	// to peg 3.
	want := []string{"1120", "2120", "3120", "0220", "0320", "0130"}
	if !slices.Equal(nb, want) {
		t.Errorf("Neighbors = %v, want %v", nb, want)
	}
	if nb, _ := sp.Neighbors("3333"); !slices.Equal(nb, []string{"0333", "1333", "2333"}) {
		t.Errorf("Neighbors(goal) = %v", nb)
	}
	if _, err := sp.Neighbors("01234"); err == nil {
		t.Error("Neighbors accepted a bad state")
	}
	if s, err := sp.Normalize("0, 1, 2, 0"); err != nil || s != "0120" {
		t.Errorf("Normalize = %q, %v", s, err)
	}
	if _, err := sp.Normalize("0120x"); err == nil {
		t.Error("Normalize accepted a bad state")
	}
	for state, want := range map[string]bool{"3333": true, "3330": false, "0000": false} {
		if got, err := sp.IsGoal(state); err != nil || got != want {
			t.Errorf("IsGoal(%s) = %v, %v", state, got, err)
		}
	}
	if _, err := sp.IsGoal("33"); err == nil {
		t.Error("IsGoal accepted a bad state")
	}
	// Slot canonicalises: relabelled states share a slot; the goal is slot 0.
	a, okA, errA := sp.Slot("0120")
	b, okB, errB := sp.Slot("2102")
	if errA != nil || errB != nil || !okA || !okB || a != b {
		t.Errorf("Slot(0120) = %d, %v, %v; Slot(2102) = %d, %v, %v", a, okA, errA, b, okB, errB)
	}
	if g, _, _ := sp.Slot("3333"); g != sp.Goals()[0] {
		t.Errorf("goal slot %d, Goals %v", g, sp.Goals())
	}
	if _, ok, err := sp.Slot("012"); ok || err == nil {
		t.Error("Slot accepted a bad state")
	}
}

// TestParseErrorCutsLongInput: an error repeats at most 80 bytes of a runaway line, once.
func TestParseErrorCutsLongInput(t *testing.T) {
	t.Parallel()
	for _, in := range []string{strings.Repeat("0", 1<<20), strings.Repeat("x", 1<<20), strings.Repeat("9", 1<<20)} {
		_, err := Parse(in, 3, 4)
		if err == nil || len(err.Error()) > 300 {
			t.Errorf("error of %d bytes: %.100v", len(err.Error()), err)
		}
	}
}
