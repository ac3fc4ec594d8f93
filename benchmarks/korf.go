package benchmarks

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/solver"
)

// Korf100 is the text of Korf's 100 random 15-puzzle instances (R. E. Korf,
// Depth-first iterative-deepening, Artificial Intelligence 27 (1985), Table 1) with
// their optimal solution lengths, shipped inside the binary so that the tests and
// `tablesmith bench korf` need no file from outside the repository.
//
//go:embed data/korf100.txt
var Korf100 string

// Korf returns the 100 instances of Korf100.
func Korf() []KorfInstance {
	inst, err := ParseKorf(strings.NewReader(Korf100))
	if err != nil {
		panic(err) // the embedded file is checked by the tests
	}
	return inst
}

// KorfInstance is one line of the instance file: a 15-puzzle board (blank-first goal)
// and its listed optimal solution length.
type KorfInstance struct {
	ID      int
	Optimal int
	Board   []uint8
	Line    int // line number in the file, for messages
}

// korfCells is the board size of Korf's instances: the 15-puzzle.
const korfCells = 16

// KorfGeometry returns the 4×4 geometry of Korf's instances; their goal is
// slide.BlankFirst.
func KorfGeometry() *slide.Geometry {
	geo, err := slide.NewGeometry(4, 4)
	if err != nil {
		panic(err) // 4×4 is always supported
	}
	return geo
}

// ReadKorf parses the instance file at path.
func ReadKorf(path string) ([]KorfInstance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	inst, err := ParseKorf(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return inst, nil
}

// ParseKorf reads Korf's instance format: '#' comments and blank lines, then one
// instance per line — id, optimal length, the 16 cells row-major (0 = blank), separated
// by spaces or tabs. It checks each board (a permutation of 0..15 that can reach the
// blank-first goal), that ids are distinct positive numbers, and that the listed length
// is possible: at least the Manhattan distance and of the board's parity (every move is
// one transposition, so the length's parity is the permutation's). Errors name the line.
func ParseKorf(r io.Reader) ([]KorfInstance, error) {
	geo := KorfGeometry()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 64<<10)
	var out []KorfInstance
	seen := map[int]int{} // id -> line
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		inst, err := parseKorfLine(geo, text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if prev, dup := seen[inst.ID]; dup {
			return nil, fmt.Errorf("line %d: instance id %d is already on line %d", line, inst.ID, prev)
		}
		seen[inst.ID] = line
		inst.Line = line
		out = append(out, inst)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than 64 KiB", line+1)
		}
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no instances")
	}
	return out, nil
}

func parseKorfLine(geo *slide.Geometry, text string) (KorfInstance, error) {
	f := strings.Fields(text)
	if len(f) != 2+korfCells {
		return KorfInstance{}, fmt.Errorf("got %d fields, want %d (id, optimal length, %d cells)", len(f), 2+korfCells, korfCells)
	}
	num := func(what, s string, limit int) (int, error) {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 || v > limit {
			return 0, fmt.Errorf("%s %q is not a number in 0..%d", what, s, limit)
		}
		return v, nil
	}
	id, err := num("id", f[0], 1<<30)
	if err != nil {
		return KorfInstance{}, err
	}
	if id == 0 {
		return KorfInstance{}, errors.New("id 0: ids start at 1")
	}
	opt, err := num("optimal length", f[1], 1000)
	if err != nil {
		return KorfInstance{}, err
	}
	board := make([]uint8, korfCells)
	for c := range korfCells {
		v, err := num(fmt.Sprintf("cell %d", c), f[2+c], korfCells-1)
		if err != nil {
			return KorfInstance{}, err
		}
		board[c] = uint8(v)
	}
	if err := geo.Check(board); err != nil {
		return KorfInstance{}, fmt.Errorf("instance %d: %w", id, err)
	}
	if !geo.Solvable(board, slide.BlankFirst) {
		return KorfInstance{}, fmt.Errorf("instance %d cannot reach the blank-first goal", id)
	}
	if md := geo.Manhattan(board, slide.BlankFirst); opt < md {
		return KorfInstance{}, fmt.Errorf("instance %d: listed optimal length %d is below its Manhattan distance %d", id, opt, md)
	} else if (opt-md)%2 != 0 {
		// Every move changes the Manhattan distance by exactly one.
		return KorfInstance{}, fmt.Errorf("instance %d: listed optimal length %d has the wrong parity (its Manhattan distance is %d)", id, opt, md)
	}
	return KorfInstance{ID: id, Optimal: opt, Board: board}, nil
}

// KorfRow is one solved instance.
type KorfRow struct {
	ID, Optimal, Length int
	Expanded, Generated uint64
	Seconds             float64
}

// OK reports whether the length found is the listed optimum.
func (r KorfRow) OK() bool { return r.Length == r.Optimal }

// KorfOptions tune RunKorf.
type KorfOptions struct {
	Algo      solver.Algo      // solver.IDAStar when nil
	Heuristic solver.Heuristic // for the 4×4 board and the blank-first goal
	Search    solver.Options
	Workers   int           // instances solved at once (0: 1)
	Progress  func(KorfRow) // called as each instance finishes, from one goroutine at a time
}

// RunKorf solves the instances, Workers at a time, and returns one row per instance in
// input order. It stops at the first error (a cancelled context, a node limit).
func RunKorf(ctx context.Context, instances []KorfInstance, opt KorfOptions) ([]KorfRow, error) {
	if opt.Heuristic == nil {
		return nil, errors.New("korf: no heuristic")
	}
	if g := opt.Heuristic.Geometry(); g.Rows != 4 || g.Cols != 4 || opt.Heuristic.Goal() != slide.BlankFirst {
		return nil, fmt.Errorf("korf: the heuristic is for the %v board and the %v goal, not 4×4 blank-first", g, opt.Heuristic.Goal())
	}
	if opt.Algo == nil {
		opt.Algo = solver.IDAStar
	}
	workers := max(1, min(opt.Workers, len(instances)))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	rows := make([]KorfRow, len(instances))
	var (
		mu       sync.Mutex
		next     int
		firstErr error
		wg       sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(instances) || ctx.Err() != nil {
					return
				}
				in := instances[i]
				t0 := time.Now()
				res, err := opt.Algo(ctx, opt.Heuristic, in.Board, opt.Search)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = fmt.Errorf("instance %d: %w", in.ID, err)
					}
					cancel()
					mu.Unlock()
					return
				}
				rows[i] = KorfRow{ID: in.ID, Optimal: in.Optimal, Length: res.Length,
					Expanded: res.Expanded, Generated: res.Generated, Seconds: time.Since(t0).Seconds()}
				if opt.Progress != nil {
					opt.Progress(rows[i])
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return rows, nil
}

// KorfTotal sums the rows: lengths, nodes and the seconds spent per instance (with
// several workers, more than the wall time).
func KorfTotal(rows []KorfRow) KorfRow {
	var t KorfRow
	for _, r := range rows {
		t.Optimal += r.Optimal
		t.Length += r.Length
		t.Expanded += r.Expanded
		t.Generated += r.Generated
		t.Seconds += r.Seconds
	}
	return t
}

// SelectKorf returns the instances whose ids are listed, in the order given; the error
// names an unknown id.
func SelectKorf(all []KorfInstance, ids []int) ([]KorfInstance, error) {
	byID := map[int]KorfInstance{}
	for _, in := range all {
		byID[in.ID] = in
	}
	out := make([]KorfInstance, 0, len(ids))
	for _, id := range ids {
		in, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("korf: no instance %d", id)
		}
		out = append(out, in)
	}
	return out, nil
}
