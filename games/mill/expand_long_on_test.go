//go:build long

package mill

// expandLong is set by the build tag long (make test-long): the exhaustive checks of
// expand.go walk the sectors of 8 stones too.
const expandLong = true
