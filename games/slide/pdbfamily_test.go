package slide_test

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games/slide"
)

// TestPDBExcessCodesChunks converts a group's values whole and in chunks of every size
// from 1 to 40 (beginning and ending inside the blocks of the last tile) and checks that
// every chunking gives the codes and the largest code of a conversion entry by entry.
func TestPDBExcessCodesChunks(t *testing.T) {
	t.Parallel()
	p := slide.PDBParams{Rows: 3, Cols: 3, Goal: "blank-first", Tiles: []int{2, 5, 7}}
	g, err := slide.NewPDBGroup(p)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := slide.PDBGame{}.NewPDBBuild(&p)
	if err != nil {
		t.Fatal(err)
	}
	n := g.Slots()
	vals := make([]uint8, n)
	want := make([]uint8, n)
	var wantTop uint64
	for e := range n {
		want[e] = uint8(e * 7 % 5)
		vals[e] = uint8(g.EntryMD(e)) + 2*want[e]
		wantTop = max(wantTop, uint64(want[e]))
	}
	for size := uint64(1); size <= 40; size++ {
		got := slices.Clone(vals)
		var top uint64
		for lo := uint64(0); lo < n; lo += size {
			c, err := sp.ExcessCodes(lo, got[lo:min(lo+size, n)])
			if err != nil {
				t.Fatalf("chunks of %d at %d: %v", size, lo, err)
			}
			top = max(top, c)
		}
		if !slices.Equal(got, want) || top != wantTop {
			t.Fatalf("chunks of %d: largest code %d (want %d), codes differ: %v", size, top, wantTop, !slices.Equal(got, want))
		}
	}
	bad := slices.Clone(vals)
	bad[100]++
	if _, err := sp.ExcessCodes(90, bad[90:110]); err == nil || !strings.Contains(err.Error(), "placement") {
		t.Fatalf("a value of the wrong parity gave %v", err)
	}
}

// TestPDBBindSetFlags: the set the flags describe, and the errors of bad flags.
func TestPDBBindSetFlags(t *testing.T) {
	t.Parallel()
	parse := func(args ...string) (string, error) {
		fs := flag.NewFlagSet("pdb", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		setOf := slide.PDBGame{}.BindSetFlags(fs)
		if err := fs.Parse(args); err != nil {
			return "", err
		}
		set, err := setOf()
		if err != nil {
			return "", err
		}
		return strings.Join(set.Flags, " ") + " | " + set.Key + " | " + string(set.Params), nil
	}
	got, err := parse("--rows", "4", "--cols", "4", "--goal", "blank-first", "--partition", "7-8")
	if want := "--rows 4 --cols 4 --goal blank-first --groups 1,2,3,4,5,6,7/8,9,10,11,12,13,14,15 | 4×4 blank-first | " +
		`{"rows":4,"cols":4,"goal":"blank-first"}`; err != nil || got != want {
		t.Errorf("got %q, %v\nwant %q", got, err, want)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--rows", "3"}, "--rows and --cols are required"},
		{[]string{"--rows", "3", "--cols", "3"}, "exactly one of --groups and --partition"},
		{[]string{"--rows", "3", "--cols", "3", "--groups", "1,x"}, `"x" is not a tile number`},
		{[]string{"--rows", "3", "--cols", "3", "--partition", "4-3"}, "covers 7 tiles"},
		{[]string{"--rows", "3", "--cols", "3", "--groups", "1,2/2"}, "groups 1 and 2"},
	} {
		if _, err := parse(c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error mentioning %q", c.args, err, c.want)
		}
	}
}
