package hanoi

import (
	"strings"
	"testing"
)

// TestSlotSpellingMatchesParse: the one-parse lookup path gives the slot of Rank(Parse)
// and the spelling of Normalize for every state of 4 pegs and 6 disks under every scheme,
// spelt compactly or with separators, and Parse's errors for bad input.
func TestSlotSpellingMatchesParse(t *testing.T) {
	t.Parallel()
	for _, scheme := range SchemeNames() {
		s, err := NewSpace(Params{Pegs: 4, Disks: 6, Index: scheme})
		if err != nil {
			t.Fatal(err)
		}
		st := make([]uint8, 6)
		for x := range 1 << 12 {
			for i := range st {
				st[i] = uint8(x >> (2 * i) & 3)
			}
			canon := Format(st)
			for _, in := range []string{canon, strings.Join(strings.Split(canon, ""), ","), " " + canon} {
				slot, ok, spelling, err := s.SlotSpelling(in)
				if err != nil || !ok || slot != s.Rank(st) || spelling != canon {
					t.Fatalf("%s %q: %d %v %q %v, want %d %q", scheme, in, slot, ok, spelling, err, s.Rank(st), canon)
				}
			}
		}
		for _, in := range []string{"", "01230", "0123012", "01a301", "014301"} {
			_, _, _, err := s.SlotSpelling(in)
			_, perr := Parse(in, 4, 6)
			if err == nil || perr == nil || err.Error() != perr.Error() {
				t.Errorf("%q: error %v, Parse says %v", in, err, perr)
			}
		}
	}
}
