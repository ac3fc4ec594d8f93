//go:build long

package pipeline

import (
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/morrisoracle"
)

// TestMillLaskerAgreesWithOracleLong compares more of Lasker Morris with the oracle's
// dense mode (`make test-long`): the whole 3-stone game on Nine's board, the whole 4-stone
// games on Six's and Seven's.
func TestMillLaskerAgreesWithOracleLong(t *testing.T) {
	t.Run("lasker-3-stones", func(t *testing.T) {
		compareFamilyWithDenseOracle(t, mill.Lasker, morrisoracle.Lasker, 3)
	})
	t.Run("lasker-six-4-stones", func(t *testing.T) {
		compareFamilyWithDenseOracle(t, mill.LaskerSix, morrisoracle.LaskerSix, 4)
	})
	t.Run("lasker-seven-4-stones", func(t *testing.T) {
		compareFamilyWithDenseOracle(t, mill.LaskerSeven, morrisoracle.LaskerSeven, 4)
	})
}
