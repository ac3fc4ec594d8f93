//go:build long

package pipeline

import (
	"os"
	"testing"
)

// TestMillAgreesWithOracleLong compares every position of every sector with at most 7
// stones (`make test-long`).
func TestMillAgreesWithOracleLong(t *testing.T) { compareWithOracle(t, 7) }

// TestMillGameAgreesWithOracleHuge compares the whole game of 4 stones a side, placement
// phase included, from its empty board (`make test-huge`: the oracle takes about half an
// hour to solve it; the 3-stone game is in `make test`).
func TestMillGameAgreesWithOracleHuge(t *testing.T) {
	if os.Getenv("TABLESMITH_HUGE") != "1" {
		t.Skip("the oracle's 4-stone game takes about half an hour: set TABLESMITH_HUGE=1 (make test-huge)")
	}
	compareGameWithOracle(t, 4, 200_000)
}
