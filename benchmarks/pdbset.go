package benchmarks

import (
	"context"
	"os"

	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/solver"
)

// BuildPDBSet builds a pattern-database set with the project's pipeline (pipeline.BuildPDBSet) into a temporary
// directory, loads it into memory and removes the files: the comparisons need the set,
// not the files, and use the same code path as `tablesmith build pdb` and `solve --pdb`.
func BuildPDBSet(ctx context.Context, spec pipeline.PDBBuildSpec, workers int) (*solver.PDBSet, error) {
	dir, err := os.MkdirTemp("", "tablesmith-pdb-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if _, err := pipeline.BuildPDBSet(ctx, dir, spec, pipeline.PDBOptions{Workers: workers}); err != nil {
		return nil, err
	}
	return solver.OpenPDBSet(dir)
}
