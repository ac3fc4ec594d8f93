//go:build long

package morrisoracle

import "testing"

// TestDenseAgreesWithMapLong checks the dense mode against the map on larger games (`make
// test-long`): Seven's flying sectors 3-3 and 4-3, Lasker Morris's whole 3-stone game on
// Six's board.
func TestDenseAgreesWithMapLong(t *testing.T) {
	t.Run("seven-flying", func(t *testing.T) { agree(t, Seven, Sector{3, 3, 0, 0}, Sector{4, 3, 0, 0}) })
	t.Run("lasker-six-3", func(t *testing.T) { agree(t, LaskerSix, Sector{0, 0, 3, 3}) })
}
