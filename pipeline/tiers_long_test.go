//go:build long

package pipeline

import "testing"

// TestMillAgreesWithOracleLong compares every position of every sector with at most 7
// stones (`make test-long`).
func TestMillAgreesWithOracleLong(t *testing.T) { compareWithOracle(t, 7) }
