package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/serve"
	"github.com/tablesmith/tablesmith/solver"
)

const solveArgs = "[--algo astar|idastar] [--heuristic discrete|hamming|manhattan|pdb] [--pdb DIR] [--goal blank-last|blank-first] [--json] [STATE ...]"

// defaultMaxNodes bounds A* by default: about 1.5 GB of nodes and hash table.
const defaultMaxNodes = 20_000_000

// solveLine is one answer of `solve --json`; absent fields are omitted.
type solveLine struct {
	State    string   `json:"state"`
	Length   *int     `json:"length,omitempty"`
	Path     []string `json:"path,omitempty"`
	Expanded *uint64  `json:"expanded,omitempty"`
	MaxHeap  *int     `json:"max_heap,omitempty"` // A* only
	Seconds  *float64 `json:"seconds,omitempty"`
	Solvable *bool    `json:"solvable,omitempty"` // false for a state of the other parity class
	Error    string   `json:"error,omitempty"`
	moves    []uint8
}

// searchFlags are the flags solve and bench korf share.
type searchFlags struct {
	fs        *flag.FlagSet
	algo      *string
	heuristic *string
	reflect   *bool
	pdbDir    *string
	maxNodes  *int
}

func addSearchFlags(fs *flag.FlagSet, defaultAlgo string) *searchFlags {
	return &searchFlags{
		fs:        fs,
		algo:      fs.String("algo", defaultAlgo, "search: astar or idastar"),
		heuristic: fs.String("heuristic", "", "discrete, hamming, manhattan or pdb (default: pdb with --pdb, else manhattan)"),
		reflect:   fs.Bool("reflect", true, "with pdb on a square board, also look up the mirrored board and take the larger value"),
		pdbDir:    fs.String("pdb", "", "directory of a pattern-database set (built by the builder)"),
		maxNodes:  fs.Int("max-nodes", defaultMaxNodes, "A*: give up on a state after storing this many nodes (0: no limit)"),
	}
}

// setup checks the flags and opens the pattern databases. The returned close function
// is never nil.
func (f *searchFlags) setup() (solver.Algo, solver.PatternSet, func(), error) {
	nop := func() {}
	algo, err := solver.AlgoByName(*f.algo)
	if err != nil {
		return nil, nil, nop, fmt.Errorf("%w: %v", errUsage, err)
	}
	if *f.heuristic == "" {
		*f.heuristic = "manhattan"
		if *f.pdbDir != "" {
			*f.heuristic = "pdb"
		}
	}
	switch *f.heuristic {
	case "discrete", "hamming", "manhattan":
		if *f.pdbDir != "" {
			return nil, nil, nop, fmt.Errorf("%w: --pdb is for --heuristic pdb, not %s", errUsage, *f.heuristic)
		}
	case "pdb":
		if *f.pdbDir == "" {
			return nil, nil, nop, fmt.Errorf("%w: --heuristic pdb needs --pdb DIR", errUsage)
		}
	default:
		return nil, nil, nop, fmt.Errorf("%w: unknown heuristic %q (want discrete, hamming, manhattan or pdb)", errUsage, *f.heuristic)
	}
	if *f.maxNodes < 0 {
		return nil, nil, nop, fmt.Errorf("%w: --max-nodes %d is negative", errUsage, *f.maxNodes)
	}
	if *f.pdbDir == "" {
		return algo, nil, nop, nil
	}
	set, err := openPDBSet(*f.pdbDir)
	if err != nil {
		return nil, nil, nop, err
	}
	closer := nop
	if c, ok := set.(io.Closer); ok {
		closer = func() { c.Close() }
	}
	return algo, set, closer, nil
}

// heuristicFor returns the heuristic for a board of geo, reflecting a PDB on square
// boards unless --reflect=false (asking for it on a non-square board is an error).
func (f *searchFlags) heuristicFor(geo *slide.Geometry, goal slide.Goal, set solver.PatternSet) (solver.Heuristic, error) {
	name := *f.heuristic
	if name == "pdb" && *f.reflect {
		explicit := false
		f.fs.Visit(func(fl *flag.Flag) { explicit = explicit || fl.Name == "reflect" })
		if geo.Rows == geo.Cols || explicit {
			name = "pdb+reflect"
		}
	}
	return solver.NewHeuristic(name, geo, goal, set)
}

func runSolve(e *env, args []string) error {
	fs := newFlags(e, "solve", solveArgs)
	sf := addSearchFlags(fs, "idastar")
	goalName := fs.String("goal", "", "goal: blank-last or blank-first (default: the PDB set's goal, else blank-last)")
	rows := fs.Int("rows", 0, "board rows (default: from --pdb, else from each state: a square board)")
	cols := fs.Int("cols", 0, "board columns (see --rows)")
	timeout := fs.Duration("timeout", 0, "give up on a state after this long (0: never)")
	asJSON := fs.Bool("json", false, "print one JSON object per state")
	states, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if (*rows == 0) != (*cols == 0) {
		return fmt.Errorf("%w: give both --rows and --cols, or neither", errUsage)
	}
	if *timeout < 0 {
		return fmt.Errorf("%w: --timeout %v is negative (0 means no timeout)", errUsage, *timeout)
	}
	algo, set, closeSet, err := sf.setup()
	if err != nil {
		return err
	}
	defer closeSet()
	goal, fixed, err := solveBoard(sf, set, *goalName, *rows, *cols)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ss := &stateSolver{ctx: ctx, sf: sf, algo: algo, set: set, goal: goal, fixed: fixed, timeout: *timeout,
		heuristics: map[[2]int]solver.Heuristic{}}

	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	failed := false
	// A failed write (a reader that closed the pipe, a full disk) stops the states: their
	// answers could not be read.
	ctx, outFailed := context.WithCancel(ctx)
	defer outFailed()
	flush := func() {
		if out.Flush() != nil {
			outFailed()
		}
	}
	answer := func(state string) {
		line := ss.solve(state)
		if line.Error != "" {
			failed = true
		}
		writeSolveLine(out, *asJSON, line)
		flush() // answers can be slow: show each as it comes
	}
	tooLong := func(prefix string) {
		failed = true
		writeSolveLine(out, *asJSON, solveLine{State: prefix + "…", Error: serve.ErrLineTooLong.Error()})
		flush()
	}
	if err := forEachState(ctx, states, e.stdin, answer, tooLong, func() {}); err != nil {
		out.Flush()
		return err
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("writing to standard output: %w", err)
	}
	if err := ctx.Err(); err != nil {
		out.Flush()
		return fmt.Errorf("interrupted")
	}
	if failed {
		return errSilentFail
	}
	return nil
}

func writeSolveLine(w io.Writer, asJSON bool, l solveLine) {
	if asJSON {
		b, _ := json.Marshal(l)
		w.Write(append(b, '\n'))
		return
	}
	switch {
	case l.Error != "":
		fmt.Fprintf(w, "%s: error: %s\n", l.State, l.Error)
		return
	case l.Solvable != nil && !*l.Solvable:
		fmt.Fprintf(w, "%s: unsolvable (it cannot reach the goal)\n", l.State)
		return
	case *l.Length == 0:
		fmt.Fprintf(w, "%s: length 0 (the goal)", l.State)
	default:
		moves := make([]string, len(l.moves))
		for i, t := range l.moves {
			moves[i] = strconv.Itoa(int(t))
		}
		fmt.Fprintf(w, "%s: length %d; tiles to slide: %s", l.State, *l.Length, strings.Join(moves, " "))
	}
	fmt.Fprintf(w, "; expanded %s", commas(*l.Expanded))
	if l.MaxHeap != nil {
		fmt.Fprintf(w, ", max heap %s", commas(uint64(*l.MaxHeap)))
	}
	fmt.Fprintf(w, ", %.3f s\n", *l.Seconds)
}

// nounCount returns "1 worker" or "2 workers".
func nounCount(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// inferSize guesses the board of a state given without --rows/--cols: rows from the
// "/" separators when present, else a square board of as many cells as tiles (the
// compact digit form counts one tile per digit). slide.Geometry.Parse then checks it.
func inferSize(state string) (rows, cols int, err error) {
	isSep := func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }
	count := func(s string) int {
		f := strings.FieldsFunc(s, isSep)
		if len(f) == 1 && len(f[0]) <= 10 && len(f[0]) > 2 {
			return len(f[0]) // compact digits
		}
		return len(f)
	}
	if strings.Contains(state, "/") {
		parts := strings.Split(state, "/")
		return len(parts), count(parts[0]), nil
	}
	n := count(state)
	for k := 2; k <= 5; k++ {
		if k*k == n {
			return k, k, nil
		}
	}
	if n == 0 {
		return 0, 0, errors.New("empty state")
	}
	return 0, 0, fmt.Errorf("cannot tell the board size of %d tiles: square boards have 4, 9, 16 or 25; give --rows and --cols", n)
}

// openPDBSet opens a directory of pattern databases written by build.PDBSet.
func openPDBSet(dir string) (solver.PatternSet, error) {
	set, err := solver.OpenPDBSet(dir)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return set, nil
}

// solveBoard resolves the goal and the board's geometry from the flags and the pattern
// databases' set (nil geometry: read from each state), refusing flags the set disagrees
// with as usage errors.
func solveBoard(sf *searchFlags, set solver.PatternSet, goalName string, rows, cols int) (goal slide.Goal, fixed *slide.Geometry, err error) {
	goal = slide.BlankLast
	switch {
	case goalName != "":
		if goal, err = slide.ParseGoal(goalName); err != nil {
			return goal, nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		if set != nil && set.Goal() != goal.String() {
			return goal, nil, fmt.Errorf("%w: the pattern databases in %s are for the %s goal, not --goal %v", errUsage, *sf.pdbDir, set.Goal(), goal)
		}
	case set != nil:
		if goal, err = slide.ParseGoal(set.Goal()); err != nil {
			return goal, nil, err
		}
	}
	switch {
	case rows != 0:
		if fixed, err = slide.NewGeometry(rows, cols); err != nil {
			return goal, nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		if set != nil && (set.Rows() != rows || set.Cols() != cols) {
			return goal, nil, fmt.Errorf("%w: the pattern databases in %s are for %d×%d boards, not %v", errUsage, *sf.pdbDir, set.Rows(), set.Cols(), fixed)
		}
	case set != nil:
		if fixed, err = slide.NewGeometry(set.Rows(), set.Cols()); err != nil {
			return goal, nil, err
		}
	}
	return goal, fixed, nil
}

// stateSolver solves the states of one solve command, one at a time, keeping a heuristic
// per board size.
type stateSolver struct {
	ctx        context.Context
	sf         *searchFlags
	algo       solver.Algo
	set        solver.PatternSet
	goal       slide.Goal
	fixed      *slide.Geometry // nil: the geometry of each state
	timeout    time.Duration
	heuristics map[[2]int]solver.Heuristic
}

// solve answers one state: its optimal solution, or why there is none.
func (ss *stateSolver) solve(state string) solveLine {
	state = strings.TrimSpace(state)
	geo := ss.fixed
	if geo == nil {
		r, c, err := inferSize(state)
		if err != nil {
			return solveLine{State: state, Error: err.Error()}
		}
		if geo, err = slide.NewGeometry(r, c); err != nil {
			return solveLine{State: state, Error: err.Error()}
		}
	}
	board, err := geo.Parse(state)
	if err != nil {
		return solveLine{State: state, Error: err.Error()}
	}
	state = geo.Format(board)
	h := ss.heuristics[[2]int{geo.Rows, geo.Cols}]
	if h == nil {
		if h, err = ss.sf.heuristicFor(geo, ss.goal, ss.set); err != nil {
			return solveLine{State: state, Error: err.Error()}
		}
		ss.heuristics[[2]int{geo.Rows, geo.Cols}] = h
	}
	sctx, cancel := ss.ctx, context.CancelFunc(func() {})
	if ss.timeout > 0 {
		sctx, cancel = context.WithTimeout(ss.ctx, ss.timeout)
	}
	res, err := ss.algo(sctx, h, board, solver.Options{MaxNodes: *ss.sf.maxNodes})
	cancel()
	switch {
	case errors.Is(err, solver.ErrUnsolvable):
		// A valid state that cannot reach the goal is an answer, not an error (as
		// "reachable":false is for query).
		f := false
		return solveLine{State: state, Solvable: &f}
	case errors.Is(err, context.DeadlineExceeded) && ss.ctx.Err() == nil:
		return solveLine{State: state, Error: fmt.Sprintf("gave up after --timeout %v", ss.timeout)}
	case err != nil:
		return solveLine{State: state, Error: err.Error()}
	}
	line := solveLine{State: state, Length: &res.Length, Expanded: &res.Expanded, moves: solver.Moves(res.Path)}
	secs := res.Elapsed.Seconds()
	line.Seconds = &secs
	if *ss.sf.algo == "astar" {
		line.MaxHeap = &res.MaxHeap
	}
	for _, b := range res.Path {
		line.Path = append(line.Path, geo.Format(b))
	}
	return line
}
