package slide

import (
	"strings"
	"testing"
)

// TestSlotSpellingMatchesParse: the one-parse lookup path (the compact form read without
// allocating) gives the slot and spelling of Parse, Format and SlotOf for every board of
// the 8-puzzle and the 2×4 board under every scheme, in the compact and the spaced form,
// and falls back to Parse (and its errors) for anything else.
func TestSlotSpellingMatchesParse(t *testing.T) {
	t.Parallel()
	for _, dims := range [][2]int{{3, 3}, {2, 4}} {
		for _, scheme := range SchemeNames(dims[0] * dims[1]) {
			sp, err := NewSpace(Params{Rows: dims[0], Cols: dims[1], Index: scheme})
			if err != nil {
				t.Fatal(err)
			}
			geo := sp.Geometry()
			pos := make([]uint8, geo.Cells())
			forEachPerm(geo.Cells(), func(b []uint8) {
				canon := geo.Format(b)
				wantSlot, wantOK := sp.SlotOf(b, pos)
				spaced := strings.Join(strings.Split(canon, ""), " ")
				for _, in := range []string{canon, spaced} {
					slot, ok, spelling, err := sp.SlotSpelling(in)
					if err != nil || slot != wantSlot || ok != wantOK || spelling != canon {
						t.Fatalf("%s %q: %d %v %q %v, want %d %v %q", scheme, in, slot, ok, spelling, err, wantSlot, wantOK, canon)
					}
				}
			})
		}
	}
	sp, _ := NewSpace(Params{Rows: 3, Cols: 3, Index: "lex-half"})
	for _, in := range []string{"", "12345678", "1234567800", "123456788", "12345678a", "923456781", " 123456780", "123/456/780"} {
		_, _, spelling, err := sp.SlotSpelling(in)
		_, perr := sp.Geometry().Parse(in)
		if (err == nil) != (perr == nil) || (err != nil && err.Error() != perr.Error()) {
			t.Errorf("%q: error %v, Parse says %v", in, err, perr)
		}
		if norm, _ := sp.Normalize(in); err == nil && spelling != norm {
			t.Errorf("%q: spelt %q, Normalize says %q", in, spelling, norm)
		}
	}
}
