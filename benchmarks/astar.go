package benchmarks

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/solver"
)

// EightPDBGroups is the pattern-database split of the 8-puzzle comparison: tiles 1–4 and
// 5–8, built with the project's pattern-database builder (BuildPDBSet).
var EightPDBGroups = [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}

// AStarRow is one heuristic's line of the 8-puzzle A* comparison: means and maxima over
// the same instances.
type AStarRow struct {
	Heuristic   string
	Instances   int
	MeanLength  float64
	MeanExpand  float64 // vertices expanded per instance
	MeanMaxHeap float64 // largest open list per instance
	MaxExpand   uint64
	MaxMaxHeap  int
	Reopened    uint64 // in total (nonzero only for an inconsistent heuristic)
	Seconds     float64
}

// EightAStarOptions tune the comparison.
type EightAStarOptions struct {
	Instances int    // random solvable boards (0: 200)
	Seed      uint64 // of the boards (0: 1)
	// Heuristics to compare (nil: all of solver.HeuristicNames).
	Heuristics []string
}

// EightBoards returns count random 8-puzzle boards that can reach the blank-last goal,
// drawn uniformly with a fixed seed.
func EightBoards(count int, seed uint64) [][]uint8 {
	geo, _ := slide.NewGeometry(3, 3)
	r := rand.New(rand.NewPCG(seed, 0x8_9022e))
	var out [][]uint8
	for len(out) < count {
		b := make([]uint8, 9)
		for i, p := range r.Perm(9) {
			b[i] = uint8(p)
		}
		if geo.Solvable(b, slide.BlankLast) {
			out = append(out, b)
		}
	}
	return out
}

// EightAStar solves the same random 8-puzzle boards (blank-last goal) with A* under each
// heuristic and reports vertices expanded and the maximum heap size. The PDB heuristics
// use the 1–4/5–8 split.
func EightAStar(ctx context.Context, opt EightAStarOptions) ([]AStarRow, error) {
	if opt.Instances <= 0 {
		opt.Instances = 200
	}
	if opt.Seed == 0 {
		opt.Seed = 1
	}
	if opt.Heuristics == nil {
		opt.Heuristics = solver.HeuristicNames
	}
	geo, _ := slide.NewGeometry(3, 3)
	pdb, err := slide.PDBSpec{Rows: 3, Cols: 3, Goal: "blank-last", Groups: EightPDBGroups}.Set()
	if err != nil {
		return nil, err
	}
	set, err := BuildPDBSet(ctx, pipeline.PDBBuildSpec{Family: slide.PDBGame{}, PDBSetSpec: pdb}, 0)
	if err != nil {
		return nil, err
	}
	defer set.Close()
	boards := EightBoards(opt.Instances, opt.Seed)
	var rows []AStarRow
	for _, name := range opt.Heuristics {
		h, err := solver.NewHeuristic(name, geo, slide.BlankLast, set)
		if err != nil {
			return nil, err
		}
		row := AStarRow{Heuristic: name, Instances: len(boards)}
		t0 := time.Now()
		for _, b := range boards {
			res, err := solver.AStar(ctx, h, b, solver.Options{})
			if err != nil {
				return nil, err
			}
			row.MeanLength += float64(res.Length)
			row.MeanExpand += float64(res.Expanded)
			row.MeanMaxHeap += float64(res.MaxHeap)
			row.MaxExpand = max(row.MaxExpand, res.Expanded)
			row.MaxMaxHeap = max(row.MaxMaxHeap, res.MaxHeap)
			row.Reopened += res.Reopened
		}
		row.Seconds = time.Since(t0).Seconds()
		n := float64(len(boards))
		row.MeanLength /= n
		row.MeanExpand /= n
		row.MeanMaxHeap /= n
		rows = append(rows, row)
	}
	return rows, nil
}
