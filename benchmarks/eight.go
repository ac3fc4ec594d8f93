// Package benchmarks compares index schemes, builders and lookups side by side on the
// same spaces, for `tablesmith bench` and `make bench`. The same code serves the CLI
// (plain timing) and `go test -bench` (testing.B wrappers in the _test files).
package benchmarks

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/index"
	"github.com/tablesmith/tablesmith/pipeline"
)

// SchemeRow is one scheme's line of the 8-puzzle comparison. NaN marks what a scheme
// cannot do (a Zobrist key cannot be unranked and makes no table).
type SchemeRow struct {
	Scheme       string
	RankNs       float64 // one rank (Zobrist: one key from scratch)
	UnrankNs     float64
	UpdateNs     float64 // Zobrist only: one incremental update per move
	Slots        uint64  // 0 for Zobrist (hash set, no slot space)
	SlotsPerPerm float64 // slots per 9-permutation (9! = 362,880)
	TableBytes   int64   // size of the table file (0 for Zobrist)
	BFS          time.Duration
	Counts       []uint64 // states per remoteness level, from that scheme's search
}

// EightOptions tune the comparison.
type EightOptions struct {
	Workers int    // BFS workers
	Rounds  int    // passes over the sample of permutations per timing (0: 20)
	Repeats int    // BFS runs per scheme, the fastest is reported (0: 3)
	Dir     string // where table files are written (0: a temp dir, removed afterwards)
}

// EightSchemes times every index scheme of the 8-puzzle: rank and unrank on random
// 9-permutations, the full BFS over all 9! states, and the size of the table it makes.
func EightSchemes(ctx context.Context, opt EightOptions) ([]SchemeRow, error) {
	if opt.Rounds <= 0 {
		opt.Rounds = 20
	}
	if opt.Repeats <= 0 {
		opt.Repeats = 3
	}
	if opt.Dir == "" {
		dir, err := os.MkdirTemp("", "tablesmith-bench-*")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		opt.Dir = dir
	}
	rng := rand.New(rand.NewPCG(1, 2))
	perms := make([][]uint8, 4096)
	for i := range perms {
		p := []uint8{0, 1, 2, 3, 4, 5, 6, 7, 8}
		rng.Shuffle(len(p), func(a, b int) { p[a], p[b] = p[b], p[a] })
		perms[i] = p
	}
	var rows []SchemeRow
	for _, name := range []string{"lex", "lex-half", "mr", "branch767359"} {
		sch, err := index.ByName(name, 9)
		if err != nil {
			return nil, err
		}
		slots := make([]uint64, len(perms))
		for i, p := range perms {
			slots[i] = sch.Rank(p)
		}
		TimeRank(sch, perms, 1) // warm caches and branch predictors before timing
		TimeUnrank(sch, slots, 1)
		per := float64(len(perms) * opt.Rounds)
		row := SchemeRow{
			Scheme:       name,
			RankNs:       float64(TimeRank(sch, perms, opt.Rounds).Nanoseconds()) / per,
			UnrankNs:     float64(TimeUnrank(sch, slots, opt.Rounds).Nanoseconds()) / per,
			UpdateNs:     math.NaN(),
			Slots:        sch.Size(),
			SlotsPerPerm: float64(sch.Size()) / float64(index.Factorial(9)),
		}
		sp, err := slide.NewSpace(slide.Params{Rows: 3, Cols: 3, Goal: "blank-last", Index: name})
		if err != nil {
			return nil, err
		}
		res, best, err := bestBFS(ctx, sp, opt.Workers, opt.Repeats)
		if err != nil {
			return nil, err
		}
		row.BFS, row.Counts = best, res.Counts
		path := filepath.Join(opt.Dir, "eight-"+name+".tsm")
		meta := format.Metadata{Game: "slide", Index: name,
			Params: []byte(`{"rows":3,"cols":3,"goal":"blank-last"}`), Build: format.Build{Tool: "tablesmith bench"}}
		if _, err := pipeline.WriteRemoteness(ctx, path, res, meta, format.WriteOptions{Workers: opt.Workers}); err != nil {
			return nil, err
		}
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		row.TableBytes = st.Size()
		rows = append(rows, row)
	}
	z, err := zobristRow(perms, opt)
	if err != nil {
		return nil, err
	}
	rows = append(rows, z)
	for _, r := range rows[1:] {
		if !slices.Equal(r.Counts, rows[0].Counts) {
			return rows, fmt.Errorf("benchmarks: scheme %s found other distance counts than %s", r.Scheme, rows[0].Scheme)
		}
	}
	return rows, nil
}

// bestBFS runs the search repeats times and returns the last result and the best time.
func bestBFS(ctx context.Context, sp bfs.Space, workers, repeats int) (*bfs.Result, time.Duration, error) {
	var res *bfs.Result
	best := time.Duration(math.MaxInt64)
	for range repeats {
		r, err := bfs.Search(ctx, sp, bfs.Options{Workers: workers})
		if err != nil {
			return nil, 0, err
		}
		res, best = r, min(best, r.Elapsed)
	}
	return res, best, nil
}

// zobristSink keeps the timed key computations observable, so none can be optimised away.
var zobristSink uint64

func zobristRow(perms [][]uint8, opt EightOptions) (SchemeRow, error) {
	geo, err := slide.NewGeometry(3, 3)
	if err != nil {
		return SchemeRow{}, err
	}
	z := index.NewZobrist(9, 9, index.DefaultZobristSeed)
	var sink uint64
	start := time.Now()
	for range opt.Rounds {
		for _, p := range perms {
			sink ^= z.Hash(p)
		}
	}
	per := float64(len(perms) * opt.Rounds)
	hashNs := float64(time.Since(start).Nanoseconds()) / per
	start = time.Now()
	h := sink
	for r := range opt.Rounds {
		for i := range perms {
			h = z.Move(h, i%9, (i+r)%9, uint8(i%8+1))
		}
	}
	updateNs := float64(time.Since(start).Nanoseconds()) / per
	sink ^= h
	best := time.Duration(math.MaxInt64)
	var counts []uint64
	for range opt.Repeats {
		start := time.Now()
		counts = ZobristBFS(geo, geo.GoalBoard(slide.BlankLast), z)
		best = min(best, time.Since(start))
	}
	zobristSink = sink
	return SchemeRow{Scheme: "zobrist", RankNs: hashNs, UnrankNs: math.NaN(), UpdateNs: updateNs,
		SlotsPerPerm: math.NaN(), BFS: best, Counts: counts}, nil
}
