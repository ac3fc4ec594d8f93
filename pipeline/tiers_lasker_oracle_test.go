package pipeline

import (
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/morrisoracle"
)

// TestMillLaskerAgreesWithOracle compares Lasker Morris (merged phases, flying at 3 in
// total) with the second oracle, every raw position of every sector of the whole games of
// 3 stones a side: on Six's board by the oracle's map (about 10 s), on Seven's by its
// dense mode.
func TestMillLaskerAgreesWithOracle(t *testing.T) {
	t.Parallel()
	t.Run("lasker-six", func(t *testing.T) {
		t.Parallel()
		compareFamilyWithOracle(t, mill.LaskerSix, morrisoracle.LaskerSix, 3)
	})
	t.Run("lasker-seven", func(t *testing.T) {
		t.Parallel()
		compareFamilyWithDenseOracle(t, mill.LaskerSeven, morrisoracle.LaskerSeven, 3)
	})
}
