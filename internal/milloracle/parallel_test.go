package milloracle

import (
	"slices"
	"testing"
)

// TestForEachPositionParallel checks that the goroutines of
// forEachPositionParallel visit every position exactly once, as
// forEachPosition does.
func TestForEachPositionParallel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ w, b, workers int }{{0, 0, 1}, {2, 3, 3}, {3, 1, 2}, {1, 4, 5}} {
		var want []uint64
		forEachPosition(tc.w, tc.b, func(white, black uint32) {
			want = append(want, uint64(white)<<24|uint64(black))
		})
		seen := make([][]uint64, tc.workers)
		forEachPositionParallel(tc.w, tc.b, tc.workers, func(i int, white, black uint32) {
			seen[i] = append(seen[i], uint64(white)<<24|uint64(black))
		})
		got := slices.Concat(seen...)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("w %d b %d on %d goroutines: %d positions visited, want %d once each",
				tc.w, tc.b, tc.workers, len(got), len(want))
		}
	}
}
