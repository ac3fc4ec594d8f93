package slide

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// spaced writes b with sep between tiles and "/" between rows, by hand.
func spaced(b []uint8, cols int, sep, rowSep string) string {
	var sb strings.Builder
	for i, t := range b {
		switch {
		case i == 0:
		case i%cols == 0:
			sb.WriteString(rowSep)
		default:
			sb.WriteString(sep)
		}
		sb.WriteString(strconv.Itoa(int(t)))
	}
	return sb.String()
}

func TestParseFormatAllSmallBoards(t *testing.T) {
	t.Parallel()
	for _, sz := range smallSizes {
		g := mustGeometry(t, sz[0], sz[1])
		t.Run(g.String(), func(t *testing.T) {
			t.Parallel()
			count := 0
			forEachPerm(g.Cells(), func(b []uint8) {
				count++
				forms := []string{g.Format(b), spaced(b, g.Cols, " ", " / ")}
				if count%97 == 0 { // the costlier forms on a sample
					forms = append(forms, spaced(b, g.Cols, ",", "/"), " "+spaced(b, g.Cols, ", ", ",")+"\t\n")
				}
				for _, s := range forms {
					got, err := g.Parse(s)
					if err != nil || !slices.Equal(got, b) {
						t.Fatalf("Parse(%q) = %v, %v; want %v", s, got, err, b)
					}
				}
			})
			if count != factorial(g.Cells()) {
				t.Fatalf("enumerated %d boards, want %d", count, factorial(g.Cells()))
			}
		})
	}
}

func TestParseFormatRandomLargerBoards(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	for _, sz := range sizes() {
		g := mustGeometry(t, sz[0], sz[1])
		for range 200 {
			b := randomBoard(rng, g.Cells())
			f := g.Format(b)
			if g.Cells() > maxCompactCells && f != spaced(b, g.Cols, " ", " ") {
				t.Fatalf("%v Format(%v) = %q, want single spaces", g, b, f)
			}
			for _, s := range []string{f, spaced(b, g.Cols, ",", "/"), "  " + spaced(b, g.Cols, " , ", " /\t") + " "} {
				got, err := g.Parse(s)
				if err != nil || !slices.Equal(got, b) {
					t.Fatalf("%v Parse(%q) = %v, %v; want %v", g, s, got, err, b)
				}
			}
		}
	}
}

func TestFormatExamples(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rows, cols int
		goal       Goal
		want       string
	}{
		{3, 3, BlankLast, "123456780"},
		{3, 3, BlankFirst, "012345678"},
		{2, 2, BlankLast, "1230"},
		{2, 5, BlankLast, "1234567890"},
		{3, 4, BlankLast, "1 2 3 4 5 6 7 8 9 10 11 0"},
		{4, 4, BlankFirst, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"},
	} {
		g := mustGeometry(t, tc.rows, tc.cols)
		if got := g.Format(g.GoalBoard(tc.goal)); got != tc.want {
			t.Errorf("%v Format(%v goal) = %q, want %q", g, tc.goal, got, tc.want)
		}
	}
	// A tile above 9 (an invalid small board) is still written unambiguously.
	g := mustGeometry(t, 2, 2)
	if got := g.Format([]uint8{12, 1, 2, 0}); got != "12 1 2 0" {
		t.Errorf("Format of a board with tile 12 = %q", got)
	}
}

func TestParseGoodInputs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rows, cols int
		in         string
		want       []uint8
	}{
		{3, 3, "123456780", []uint8{1, 2, 3, 4, 5, 6, 7, 8, 0}},
		{3, 3, "  867254301\n", []uint8{8, 6, 7, 2, 5, 4, 3, 0, 1}},
		{3, 3, "123/456/780", []uint8{1, 2, 3, 4, 5, 6, 7, 8, 0}},
		{3, 3, "1 2 3 4 5 6 7 8 0", []uint8{1, 2, 3, 4, 5, 6, 7, 8, 0}},
		{3, 3, "1,2,3,4,5,6,7,8,0", []uint8{1, 2, 3, 4, 5, 6, 7, 8, 0}},
		{3, 3, "1 2 3 / 4 5 6 / 7 8 0", []uint8{1, 2, 3, 4, 5, 6, 7, 8, 0}},
		{3, 3, "01 2 3 4 5 6 7 8 0", []uint8{1, 2, 3, 4, 5, 6, 7, 8, 0}},
		{2, 2, "3 1 2 0", []uint8{3, 1, 2, 0}},
		{2, 5, "0987654321", []uint8{0, 9, 8, 7, 6, 5, 4, 3, 2, 1}},
		{4, 4, "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
			[]uint8{14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3}},
		{4, 4, "14,13,15,7/11,12,9,5/6,0,2,1/4,8,10,3",
			[]uint8{14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3}},
	} {
		g := mustGeometry(t, tc.rows, tc.cols)
		got, err := g.Parse(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%v Parse(%q) = %v, %v; want %v", g, tc.in, got, err, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rows, cols int
		in         string
		want       []string // substrings of the error
	}{
		{3, 3, "", []string{"empty input"}},
		{3, 3, " \t\n", []string{"empty input"}},
		{3, 3, "12345678", []string{"got 8 tiles, a 3×3 board has 9"}},
		{3, 3, "1 2 3 4 5 6 7 8", []string{"got 8 tiles, a 3×3 board has 9"}},
		{3, 3, "1234567801", []string{"got 10 tiles, a 3×3 board has 9"}},
		{3, 3, ",", []string{"got 0 tiles"}},
		{3, 3, "1", []string{"got 1 tile, a 3×3 board has 9"}},
		{4, 4, "123456789012345", []string{"got 1 tile, a 4×4 board has 16", "compact digit form is only for boards of at most 10 cells"}},
		{3, 3, "1 2 3 4 5 6 7 8 9", []string{"tile 9 at 16 out of range 0..8"}},
		{3, 3, "1 2 3 4 5 6 7 8 99999999999999999999999", []string{"tile 99999999999999999999999 at 16 out of range 0..8"}},
		{2, 2, "12 30", []string{"got 2 tiles, a 2×2 board has 4"}},
		{2, 2, "12 3 0 1", []string{"tile 12 at 0 out of range 0..3"}},
		{3, 3, "123446780", []string{"tile 4 appears twice", "tile 5 is missing"}},
		{3, 3, "1 1 1 4 5 6 7 8 0", []string{"tile 1 appears 3 times", "tile 2 is missing"}},
		{3, 3, "1234x6780", []string{"unexpected character 'x' at 4"}},
		{3, 3, "-1 2 3 4 5 6 7 8 0", []string{"unexpected character '-' at 0"}},
		{3, 3, "1;2;3;4;5;6;7;8;0", []string{"unexpected character ';' at 1"}},
		{3, 3, "12345678×", []string{"unexpected character '×' at 8"}},
		{3, 3, "12345678\xff", []string{"unexpected byte 0xff at 8"}},
		{3, 3, "123/456", []string{"got 2 rows, a 3×3 board has 3"}},
		{3, 3, "123/456/780/", []string{"got 4 rows, a 3×3 board has 3"}},
		{3, 3, "1234/56/780", []string{"row 1 has 4 tiles, a 3×3 board has 3 per row"}},
		{3, 3, "1 2 3/4 5/6 7 8 0", []string{"row 2 has 2 tiles, a 3×3 board has 3 per row"}},
		{3, 3, "123//456780", []string{"row 2 has 0 tiles, a 3×3 board has 3 per row"}},
		{3, 3, "12 3/456/780", []string{"row 1 has 2 tiles, a 3×3 board has 3 per row"}},
		{4, 4, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", []string{"tile 16 at 36 out of range 0..15"}},
		{4, 4, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 15", []string{"tile 15 appears twice; tile 0 is missing"}},
		{5, 5, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24", []string{"got 24 tiles, a 5×5 board has 25"}},
	} {
		g := mustGeometry(t, tc.rows, tc.cols)
		b, err := g.Parse(tc.in)
		if err == nil {
			t.Errorf("%v Parse(%q) = %v, want error", g, tc.in, b)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "slide: parse ") || !strings.Contains(msg, strconv.Quote(tc.in)) {
			t.Errorf("%v Parse(%q) error %q does not name the input", g, tc.in, msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%v Parse(%q) error %q, want it to contain %q", g, tc.in, msg, w)
			}
		}
	}
	// A runaway input is cut in the message.
	g := mustGeometry(t, 3, 3)
	_, err := g.Parse(strings.Repeat("1 ", 1000))
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "got 1000 tiles") {
		t.Errorf("long input: error %v", err)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	g := mustGeometry(t, 3, 3)
	for _, tc := range []struct {
		b    []uint8
		want string
	}{
		{[]uint8{1, 2, 3, 4, 5, 6, 7, 8, 0}, ""},
		{[]uint8{1, 2, 3, 4, 5, 6, 7, 8}, "got 8 tiles, a 3×3 board has 9"},
		{[]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9}, "tile 9 at cell 8 out of range 0..8"},
		{[]uint8{1, 2, 3, 4, 4, 6, 7, 8, 0}, "tile 4 appears twice; tile 5 is missing"},
	} {
		err := g.Check(tc.b)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Check(%v) = %v, want %q", tc.b, err, tc.want)
		}
	}
}

// FuzzParse checks that Parse never panics and that whatever it accepts is a
// permutation that Format writes back to the same board. The size byte picks
// one of the 16 board sizes.
func FuzzParse(f *testing.F) {
	for _, seed := range []struct {
		size uint8
		s    string
	}{
		{5, "123456780"}, {5, "867254301"}, {5, "1 2 3 4 5 6 7 8 0"}, {5, "1,2,3/4,5,6/7,8,0"},
		{5, "123/456/780"}, {5, " 1 2 3 4 5 6 7 8 0 "}, {5, "1234x6780"}, {5, "123446780"},
		{5, "12345678"}, {5, ""}, {5, "1 2 3 4 5 6 7 8 99999999999999999999"}, {5, "123//456780"},
		{10, "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"}, {10, "14,13,15,7/11,12,9,5/6,0,2,1/4,8,10,3"},
		{15, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0"},
		{0, "1230"}, {0, "12/30"}, {0, "12 30"}, {3, "1234567890"}, {3, "12345678\xff9"},
	} {
		f.Add(seed.size, seed.s)
	}
	var geoms [16]*Geometry
	for i := range geoms {
		geoms[i] = mustGeometry(f, minSide+i/4, minSide+i%4)
	}
	f.Fuzz(func(t *testing.T, size uint8, s string) {
		g := geoms[size%16]
		b, err := g.Parse(s)
		if err != nil {
			if b != nil {
				t.Fatalf("Parse(%q) returned %v with error %v", s, b, err)
			}
			return
		}
		if err := g.Check(b); err != nil {
			t.Fatalf("Parse(%q) = %v, not a board: %v", s, b, err)
		}
		f := g.Format(b)
		b2, err := g.Parse(f)
		if err != nil || !slices.Equal(b, b2) {
			t.Fatalf("Parse(%q) = %v, Format = %q, parses back to %v, %v", s, b, f, b2, err)
		}
	})
}

func ExampleGeometry_Parse() {
	g, _ := NewGeometry(3, 3)
	b, _ := g.Parse("1 2 3 / 4 5 6 / 7 0 8")
	fmt.Println(b, g.Format(b), g.Solvable(b, BlankLast), g.Manhattan(b, BlankLast))
	_, err := g.Parse("1 2 3 4 4 5 6 7 8")
	fmt.Println(err)
	// Output:
	// [1 2 3 4 5 6 7 0 8] 123456708 true 1
	// slide: parse "1 2 3 4 4 5 6 7 8": tile 4 appears twice; tile 0 is missing
}
