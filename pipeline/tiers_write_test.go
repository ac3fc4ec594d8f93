package pipeline

import "testing"

func TestAlignedBits(t *testing.T) {
	for _, c := range []struct{ need, want int }{{1, 2}, {2, 2}, {3, 4}, {4, 4}, {5, 8}, {7, 8}, {8, 8}, {9, 16}, {16, 16}, {17, 32}, {32, 32}} {
		if got := alignedBits(c.need); got != c.want {
			t.Errorf("alignedBits(%d) = %d, want %d", c.need, got, c.want)
		}
	}
}
