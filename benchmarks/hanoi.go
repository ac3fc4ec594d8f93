package benchmarks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/hanoi"
	"github.com/tablesmith/tablesmith/pipeline"
)

// HanoiRow is one index scheme's build of a Towers of Hanoi table.
type HanoiRow struct {
	Scheme     string
	Slots      uint64
	States     uint64 // classes reached (every class reaches the goal)
	Holes      uint64
	MaxDepth   int
	Search     time.Duration
	Write      time.Duration
	TableBytes int64
}

// HanoiSchemes builds the k-peg, n-disk table under every scheme (classes, seed, plain),
// writing each file to dir (a temp dir when empty), to compare the symmetry-reduced
// schemes with the plain one.
func HanoiSchemes(ctx context.Context, pegs, disks, workers int, dir string) ([]HanoiRow, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "tablesmith-bench-*")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	var rows []HanoiRow
	for _, scheme := range hanoi.SchemeNames() {
		sp, err := hanoi.NewSpace(hanoi.Params{Pegs: pegs, Disks: disks, Index: scheme})
		if err != nil {
			return nil, err
		}
		res, search, err := bestBFS(ctx, sp, workers, 1)
		if err != nil {
			return nil, err
		}
		params, _ := json.Marshal(map[string]int{"pegs": pegs, "disks": disks})
		path := filepath.Join(dir, "hanoi-"+scheme+".tsm")
		start := time.Now()
		meta := format.Metadata{Game: "hanoi", Index: scheme, Params: params, Build: format.Build{Tool: "tablesmith bench"}}
		if _, err := pipeline.WriteRemoteness(ctx, path, res, meta, format.WriteOptions{Workers: workers}); err != nil {
			return nil, err
		}
		write := time.Since(start)
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		os.Remove(path) // plain tables of large instances are big; keep the disk free
		rows = append(rows, HanoiRow{Scheme: scheme, Slots: sp.Slots(), States: res.Reached, Holes: res.Holes,
			MaxDepth: res.MaxRemoteness(), Search: search, Write: write, TableBytes: st.Size()})
	}
	return rows, nil
}
