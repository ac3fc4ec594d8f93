package solver

import (
	"context"
	"testing"

	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/internal/pdbtest"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/values"
)

// The packed sets serve the PDB heuristics directly.
var _ PatternSet = (*PDBSet)(nil)

// TestPatternsMatchTableFiles is the differential test between the two pattern-database
// builders: sets written by pipeline.BuildPDBSet (parallel 0-1 BFS over ranked placements,
// packed codes) and read back with OpenPDBSet must give the same value as the
// in-memory Patterns for every placement of every group, and the PDB heuristic on either
// must agree on every board.
func TestPatternsMatchTableFiles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rows, cols int
		goal       slide.Goal
		groups     [][]uint8
		encoding   string
	}{
		{3, 3, slide.BlankLast, [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}, string(values.EncodingPDBExcess)},
		{3, 3, slide.BlankFirst, [][]uint8{{1, 3, 5}, {2, 4, 6, 7, 8}}, string(values.EncodingPDBValue)},
		{4, 4, slide.BlankFirst, [][]uint8{{1, 2, 3, 6}, {4, 5, 8, 9, 12}, {7, 10, 11}}, string(values.EncodingPDBExcess)},
	} {
		geo, _ := slide.NewGeometry(tc.rows, tc.cols)
		dir := t.TempDir()
		spec := pdbtest.SlideSpec(t, slide.PDBSpec{Rows: tc.rows, Cols: tc.cols, Goal: tc.goal.String(), Groups: tc.groups}, tc.encoding)
		if _, err := pipeline.BuildPDBSet(context.Background(), dir, spec, pipeline.PDBOptions{Workers: 2}); err != nil {
			t.Fatal(err)
		}
		files, err := OpenPDBSet(dir)
		if err != nil {
			t.Fatal(err)
		}
		// In memory only the groups of at most 5 tiles on 4×4; compare those.
		var small [][]uint8
		var index []int
		for g, tiles := range tc.groups {
			if len(tiles) <= 5 || tc.rows*tc.cols <= 9 {
				small = append(small, tiles)
				index = append(index, g)
			}
		}
		mem, err := BuildPatterns(geo, tc.goal, small)
		if err != nil {
			t.Fatal(err)
		}
		n := geo.Cells()
		pos := make([]uint8, n)
		for mg, tiles := range small {
			fg := index[mg]
			compared := 0
			// Every placement of the group's tiles (the rest of pos is irrelevant).
			var place func(i int, used uint32)
			place = func(i int, used uint32) {
				if i == len(tiles) {
					if a, b := mem.GroupValue(mg, pos), files.GroupValue(fg, pos); a != b {
						t.Fatalf("%v %v group %v: placement %v: memory %d, file %d", geo, tc.goal, tiles, pos, a, b)
					}
					compared++
					return
				}
				for c := range n {
					if used&(1<<c) == 0 {
						pos[tiles[i]] = uint8(c)
						place(i+1, used|1<<c)
					}
				}
			}
			place(0, 0)
			t.Logf("%v %v group %v: %d placements agree", geo, tc.goal, tiles, compared)
		}
		if tc.rows == 3 {
			e := exactDistances(t, 3, 3, tc.goal)
			for _, reflect := range []bool{false, true} {
				hm, err := NewPDB(geo, tc.goal, mem, reflect)
				if err != nil {
					t.Fatal(err)
				}
				hf, err := NewPDB(geo, tc.goal, files, reflect)
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range e.boards {
					if a, c := hm.Estimate(b), hf.Estimate(b); a != c || c > e.of(b) {
						t.Fatalf("%s: memory %d, files %d, distance %d", geo.Format(b), a, c, e.of(b))
					}
				}
			}
		}
		files.Close()
	}
}
