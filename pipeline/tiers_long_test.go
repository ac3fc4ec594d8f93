//go:build long

package pipeline

import "testing"

// TestMillAgreesWithOracleLong compares every position of every sector with at most 7
// stones (`make test-long`).
func TestMillAgreesWithOracleLong(t *testing.T) { compareWithOracle(t, 7) }

// TestMillGameAgreesWithOracleLong compares the whole games of 4 and 5 stones a side,
// placement phase included, from their empty boards (`make test-long`).
func TestMillGameAgreesWithOracleLong(t *testing.T) {
	for _, n := range []int{4, 5} {
		compareGameWithOracle(t, n, 200_000)
	}
}
