// Package pdbtest builds the sliding-tile pattern-database sets that the tests of the
// packages above the pipeline (tables, solver, benchmarks, the CLI) read: one helper for
// them all. (The pipeline's own tests, inside the package, keep theirs.)
package pdbtest

import (
	"testing"

	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/pipeline"
)

// SlideSpec is the sliding-tile set sp (checked by the family), its files in encoding enc
// ("" for the default).
func SlideSpec(t testing.TB, sp slide.PDBSpec, enc string) pipeline.PDBBuildSpec {
	t.Helper()
	set, err := sp.Set()
	if err != nil {
		t.Fatal(err)
	}
	return pipeline.PDBBuildSpec{Family: slide.PDBGame{}, PDBSetSpec: set, Encoding: enc}
}
