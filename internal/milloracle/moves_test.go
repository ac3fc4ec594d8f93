package milloracle

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// maskOf returns the mask of the given points.
func maskOf(ps ...int) uint32 {
	var m uint32
	for _, p := range ps {
		m |= bit(p)
	}
	return m
}

// moveName writes a successor the DESIGN.md way: a-b, or a-bxc with a capture.
func moveName(mover, opp uint32, s succ) string {
	from, to := mover&^s.moved, s.moved&^mover
	name := fmt.Sprintf("%d-%d", pointOf(from), pointOf(to))
	if c := opp &^ s.toMove; c != 0 {
		name += fmt.Sprintf("x%d", pointOf(c))
	}
	return name
}

func pointOf(m uint32) int {
	for p := 1; p <= NumPoints; p++ {
		if m == bit(p) {
			return p
		}
	}
	return -1
}

func TestSuccessors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		mover     []int
		opp       []int
		want      string // sorted move names, space separated; "" for none
		wantCount int    // when want is too long to list: the number of successors
	}{
		{
			name:  "blocked: corners boxed in by midpoints",
			mover: []int{1, 3, 5, 7}, opp: []int{2, 4, 6, 8},
			want: "",
		},
		{
			name:  "slides; 4-3 closes 1-2-3 and may only take the stone outside the mill 17-18-19",
			mover: []int{1, 2, 4, 12}, opp: []int{5, 17, 18, 19},
			want: "1-8 12-11 12-13 12-20 2-10 2-3 4-3x5",
		},
		{
			name:  "every opponent stone in a mill: any may be taken",
			mover: []int{1, 2, 4, 12}, opp: []int{17, 18, 19},
			want: "1-8 12-11 12-13 12-20 2-10 2-3 4-3x17 4-3x18 4-3x19 4-5",
		},
		{
			name:  "a mill that stands is not a mill closed",
			mover: []int{1, 2, 3, 24}, opp: []int{9, 10, 11, 5, 6},
			// 1-8 and 3-4 open the mill 1-2-3; no move closes one.
			want: "1-8 24-16 24-17 24-23 3-4",
		},
		{
			name:  "stones in mills are safe while the opponent has one outside",
			mover: []int{8, 16, 23, 22, 14}, opp: []int{9, 10, 11, 7, 3},
			// 23-24 closes 8-16-24; 22-21? no. Capture candidates: 7 and 3 (not 9,10,11).
			want: "14-13 14-15 14-6 16-15 16-24 22-21 23-24x3 23-24x7 8-1",
		},
		{
			name:  "flying: 3 stones go to any of the 18 empty points",
			mover: []int{1, 9, 17}, opp: []int{2, 10, 18},
			wantCount: 3 * 18,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mover, opp := maskOf(tc.mover...), maskOf(tc.opp...)
			got := successors(mover, opp, nil)
			var names []string
			for _, s := range got {
				if s.moved&s.toMove != 0 {
					t.Errorf("successor %s overlaps", moveName(mover, opp, s))
				}
				names = append(names, moveName(mover, opp, s))
			}
			slices.Sort(names)
			if tc.wantCount > 0 {
				if len(got) != tc.wantCount {
					t.Errorf("%d successors, want %d: %v", len(got), tc.wantCount, names)
				}
				return
			}
			if g := strings.Join(names, " "); g != tc.want {
				t.Errorf("successors\n got %q\nwant %q", g, tc.want)
			}
		})
	}
}
