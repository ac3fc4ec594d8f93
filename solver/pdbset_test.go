package solver

import (
	"bytes"
	"context"
	"testing"

	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/internal/pdbtest"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/values"
)

// TestPDBCopyMatchesRepack: sets loaded by copying the files' packed blocks hold every
// entry as loading code by code does, in every packing and both encodings. Not parallel:
// it switches the copy off for the whole package. The 3×4 groups span 8 to 13 blocks,
// widened on the way, and loading workers take runs of 3; TestCopyPackedInPlace covers
// files decoded straight into place over many blocks.
func TestPDBCopyMatchesRepack(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 13 s")
	defer func(old int) { pdbRunBlocks = old }(pdbRunBlocks)
	pdbRunBlocks = 3
	specs := []pipeline.PDBBuildSpec{
		pdbtest.SlideSpec(t, slide.PDBSpec{Rows: 3, Cols: 3, Groups: [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}}, ""),
		pdbtest.SlideSpec(t, slide.PDBSpec{Rows: 3, Cols: 3, Groups: [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}}, string(values.EncodingPDBValue)),
		pdbtest.SlideSpec(t, slide.PDBSpec{Rows: 4, Cols: 4, Goal: "blank-first", Groups: [][]uint8{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}, {13, 14, 15}}}, ""),
		pdbtest.SlideSpec(t, slide.PDBSpec{Rows: 2, Cols: 5, Groups: [][]uint8{{1, 2, 3, 4, 5}, {6, 7, 8, 9}}}, ""),
		pdbtest.SlideSpec(t, slide.PDBSpec{Rows: 3, Cols: 4, Groups: [][]uint8{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11}}}, ""),
		pdbtest.SlideSpec(t, slide.PDBSpec{Rows: 3, Cols: 4, Groups: [][]uint8{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11}}}, string(values.EncodingPDBValue)),
	}
	before, beforeInPlace := packedCopies.Load(), inPlaceCopies.Load()
	for _, spec := range specs {
		dir := t.TempDir()
		if _, err := pipeline.BuildPDBSet(context.Background(), dir, spec, pipeline.PDBOptions{Workers: 2}); err != nil {
			t.Fatal(err)
		}
		for _, packing := range []PDBPacking{PackAuto, PackBytes, PackNibbles, PackCrumbs} {
			opt := PDBOpenOptions{Packing: packing, Workers: 2}
			fast, err := OpenPDBSetWith(dir, opt)
			if err != nil {
				t.Fatal(err)
			}
			forceRepack = true
			slow, err := OpenPDBSetWith(dir, opt)
			forceRepack = false
			if err != nil {
				t.Fatal(err)
			}
			for g := range spec.Groups {
				if !bytes.Equal(fast.tabs[g].data, slow.tabs[g].data) {
					t.Fatalf("%v %s, packing %d, group %d: the copied codes differ from the repacked ones",
						spec.Groups, spec.Encoding, packing, g)
				}
			}
		}
	}
	if n := packedCopies.Load() - before; n < 4 {
		t.Fatalf("only %d groups were loaded by copying", n)
	}
	if n := inPlaceCopies.Load() - beforeInPlace; n < 4 {
		t.Fatalf("only %d groups were decoded into place", n)
	}
}
