// Package racetest marks the tests that are too slow for the quick race pass. `make test`
// runs the packages with concurrent code under the race detector with -short
// (`make test-race`); a few tests take 5 to 120 s each there, because they build large
// instances (the Mühle sets behind the TestMill* tests, the A* and Korf tables, the level
// log's round trips). Each such test starts with
//
//	racetest.SkipSlow(t, "takes 78 s")
//
// which skips it when the race detector is on ([Enabled]) and -short is set, unless the
// environment names the whole race pass ([FullEnv], set by `make test-race-full`, which
// `make test-long` and CI run): there every test runs. Without -race, or without -short,
// SkipSlow does nothing.
package racetest

import (
	"os"
	"testing"
)

// Enabled reports whether the binary was built with the race detector (-race).
const Enabled = raceEnabled

// FullEnv is the environment variable that keeps the slow tests in a race pass with
// -short: `make test-race-full` sets it to 1.
const FullEnv = "TABLESMITH_RACE_FULL"

// SkipSlow skips t in the quick race pass (-race and -short, FullEnv unset), saying why:
// cost is what the test costs under -race ("takes 78 s").
func SkipSlow(t testing.TB, cost string) {
	t.Helper()
	if Enabled && testing.Short() && os.Getenv(FullEnv) == "" {
		t.Skipf("%s under -race; make test-race-full runs it", cost)
	}
}
