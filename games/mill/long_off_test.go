//go:build !long

package mill_test

// long is set by the build tag `long` (make test-long): it turns on the slow checks.
const long = false
