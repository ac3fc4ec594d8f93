//go:build long

package pipeline

import (
	"testing"

	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/morrisoracle"
)

// TestMillFamilyAgreesWithOracleLong compares more of the small boards with the second
// oracle (`make test-long`): under Five Men's Morris's rules the moving-phase sectors of
// at most 8 stones and the whole game of 4 stones a side; under Six's the whole games of 3
// and 4 stones a side and the moving-phase pair 4-3 / 3-4; under Seven's (flying) the whole
// game of 3 stones a side; and, by the oracle's dense mode, the whole games of Five (5
// stones, about 20 s) and Six (6 stones, about 1.5 min, 1 GB).
func TestMillFamilyAgreesWithOracleLong(t *testing.T) {
	t.Run("five-moving-8", func(t *testing.T) {
		compareFamilyWithOracle(t, mill.Five, morrisoracle.Five, 5, "4-4", "5-3")
	})
	t.Run("five-4-stones", func(t *testing.T) {
		compareFamilyWithOracle(t, mill.Five, morrisoracle.Five, 4)
	})
	t.Run("six-3-stones", func(t *testing.T) {
		compareFamilyWithOracle(t, mill.Six, morrisoracle.Six, 3)
	})
	t.Run("six-4-stones", func(t *testing.T) {
		compareFamilyWithOracle(t, mill.Six, morrisoracle.Six, 4)
	})
	t.Run("six-moving-7", func(t *testing.T) {
		compareFamilyWithOracle(t, mill.Six, morrisoracle.Six, 6, "4-3")
	})
	t.Run("seven-3-stones", func(t *testing.T) {
		compareFamilyWithOracle(t, mill.Seven, morrisoracle.Seven, 3)
	})
	t.Run("five-whole", func(t *testing.T) {
		compareFamilyWithDenseOracle(t, mill.Five, morrisoracle.Five, 5)
	})
	t.Run("six-whole", func(t *testing.T) {
		compareFamilyWithDenseOracle(t, mill.Six, morrisoracle.Six, 6)
	})
}
