package tables

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/values"
)

// Table is an open table file together with the game instance that reads its states.
// It is safe for concurrent use.
type Table struct {
	path string
	r    *format.Reader
	meta format.Metadata
	in   *games.Instance
	dom  Domain
	rem  values.RemotenessCodes // remoteness tables
	wdl  values.WDLCodes        // two-player tables
	pdb  PDBDomain              // pattern-database groups
	mod3 *mod3Table             // two-bit tables (values.EncodingDepthMod3, EncodingHalfDepth)
	// outcomeOnly marks a win/draw/loss-only table (values.EncodingWDLOnly): wdl decodes
	// its outcomes, and the remoteness it decodes to means nothing.
	outcomeOnly bool
	kind        string // games.KindOf the table's game
	// lazy, set for a member of a tiered game's set, opens the file (r, meta, wdl) and
	// recreates in and dom on first use: a set of hundreds of tiers is mostly probed in a
	// few, opening every member costs a fresh process tens of milliseconds before its
	// first answer, and a game's index for one tier can take a tenth of a second or more
	// to build (Mühle's class ranks of a sector).
	lazy  *lazyMember
	stage atomic.Uint32 // stageNone, stageOpen or stageReady: what can be used at once
}

// lazyMember opens a member of a tiered game's set on first use, and builds its game
// instance on the first use that needs it (Info needs the file only). A step that fails
// is tried again on the next use: a file repaired or replaced, or a passing shortage
// (too many open files), heals without a restart, as a damaged block does.
type lazyMember struct {
	mu     sync.Mutex
	open   func(t *Table) error                    // sets t.r, t.meta and t.wdl, or leaves them unset and says why
	build  func(t *Table) (*games.Instance, error) // after open
	closed bool                                    // Close was called: no open after it
}

// A table's stage (Table.stage): what of it can be used without waiting. A table opened
// by Open is stageReady from the start; a member of a tiered game's set (Table.lazy)
// moves up once each step is done, published after the fields it sets, so that what
// laziness costs every lookup is one atomic load, inlined (opened and ready), and the
// locked steps are the slow path's.
const (
	stageNone  uint32 = iota // a member not opened yet (or that cannot be)
	stageOpen                // r, meta and wdl set
	stageReady               // in and dom too
)

// opened opens the file of a table that opens it on first use (one goroutine at a time;
// a failed open is tried again next time), and returns the error, naming the tier and the file, if it cannot be
// opened. Every use of r, meta or wdl comes after it (or after ready, which calls it).
func (t *Table) opened() error {
	if t.stage.Load() >= stageOpen {
		return nil
	}
	return t.openFirst()
}

// openFirst is opened's slow path: one goroutine opens, the others wait for it; a
// failed open is tried again by the next use.
func (t *Table) openFirst() error {
	l := t.lazy
	if l == nil {
		return nil // opened by Open (newTable marks it so)
	}
	l.mu.Lock()
	defer l.mu.Unlock() // an open that panics (a fault of tablesmith, which serve recovers from per request) leaves the member unopened
	switch {
	case t.stage.Load() >= stageOpen:
		return nil
	case l.closed:
		return fmt.Errorf("tables: %s: read after Close", t.path)
	}
	if err := l.open(t); err != nil {
		return err
	}
	t.stage.Store(stageOpen)
	return nil
}

// ready opens the file and builds the game instance of a table that does both on first
// use, and returns the error, naming the file, if it cannot (tried again on the next
// use). Every use of in or dom comes after it.
func (t *Table) ready() error {
	if t.stage.Load() == stageReady {
		return nil
	}
	return t.buildFirst()
}

// buildFirst is ready's slow path.
func (t *Table) buildFirst() error {
	if err := t.opened(); err != nil {
		return err
	}
	l := t.lazy
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if t.stage.Load() == stageReady {
		return nil
	}
	in, err := l.build(t)
	if err != nil {
		return fmt.Errorf("tables: %s: %w", t.path, err)
	}
	t.in, t.dom = in, in.Space
	t.stage.Store(stageReady)
	return nil
}

// Answer is what a table says of one state.
type Answer struct {
	State   string         // the state in canonical notation (the user's labels)
	Outcome values.Outcome // Remoteness or Unreachable (puzzles), Bound (PDB), Win/Loss/Draw (games)
	// Remoteness is the distance the outcome carries: moves to the nearest goal
	// (Remoteness), the lower bound (Bound), plies to the end of the game (Win, Loss).
	Remoteness int
	// NoRemoteness marks the answer of a win/draw/loss-only table (values.EncodingWDLOnly)
	// or set: the outcome is exact, Remoteness is 0 and means nothing.
	NoRemoteness bool
	Reachable    bool // puzzles: the state reaches a goal (Outcome == Remoteness)
	// Over marks a two-player position that is over by the rules (a line of three, a
	// full board): its value is the rules', at remoteness 0, and it has no move. Set by
	// Set.Moves, which asks the game; Lookup leaves it false.
	Over bool
}

// ErrBadState marks a query the table cannot answer: a malformed state, or one of
// another game or board size (the message says which).
var ErrBadState = errors.New("invalid state")

// Open opens a table file of any kind tablesmith writes, checks its structure, and
// recreates the game and index scheme its metadata names. Blocks are read (and checked)
// only when a lookup needs them.
func Open(path string) (*Table, error) {
	r, err := format.Open(path)
	if err != nil {
		return nil, err
	}
	t, err := newTable(r)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("tables: %s: %w", path, err)
	}
	t.path = path
	return t, nil
}

func newTable(r *format.Reader) (*Table, error) {
	meta := r.Meta()
	in, err := registry.Open(meta.Game, meta.Params, meta.Index)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", err, format.ErrCorrupt)
	}
	if meta.Index == "" {
		return nil, fmt.Errorf("no index scheme named: %w", format.ErrCorrupt)
	}
	dom := in.Space
	t := &Table{r: r, meta: meta, in: in, dom: dom, kind: games.KindOf(in.Game)}
	t.stage.Store(stageReady)
	var ok bool
	switch values.Encoding(meta.Encoding) {
	case values.EncodingRemoteness:
		t.rem = values.RemotenessCodes{Bits: meta.CodeBits}
		if !t.rem.Valid() {
			return nil, fmt.Errorf("remoteness codes of %d bits: %w", meta.CodeBits, format.ErrCorrupt)
		}
		if _, ok := in.Game.(games.PuzzleGame); !ok {
			return nil, fmt.Errorf("a remoteness table of %s, which is no puzzle: %w", meta.Game, format.ErrCorrupt)
		}
	case values.EncodingDepthMod3, values.EncodingHalfDepth:
		if _, ok := in.Game.(games.PuzzleGame); !ok {
			return nil, fmt.Errorf("a %s table of %s, which is no puzzle: %w", meta.Encoding, meta.Game, format.ErrCorrupt)
		}
		if err := t.openMod3(); err != nil {
			return nil, err
		}
	case values.EncodingPDBValue, values.EncodingPDBExcess:
		if _, isPDB := in.Game.(games.PDBFamily); !isPDB {
			return nil, fmt.Errorf("a pattern-database table of %s, which is no pattern database: %w", meta.Game, format.ErrCorrupt)
		}
		if t.pdb, ok = dom.(PDBDomain); !ok {
			return nil, fmt.Errorf("a pattern-database table of %s, which is no pattern database: %w", meta.Game, format.ErrCorrupt)
		}
	case values.EncodingWDL, values.EncodingWDLSplit, values.EncodingWDLOnly:
		t.wdl, _ = values.WDLLayout(values.Encoding(meta.Encoding)) // the parity layout for outcomes alone
		t.wdl.Bits = meta.CodeBits
		t.outcomeOnly = values.Encoding(meta.Encoding) == values.EncodingWDLOnly
		if _, tiered := in.Game.(games.TieredGame); !t.wdl.Valid() || !tiered {
			return nil, fmt.Errorf("a win/loss/draw table of %s with %d-bit codes: %w", meta.Game, meta.CodeBits, format.ErrCorrupt)
		}
	default:
		return nil, fmt.Errorf("unsupported value encoding %q (this tablesmith reads %s, %s, %s, %s, %s, %s, %s, %s): %w", meta.Encoding,
			values.EncodingRemoteness, values.EncodingDepthMod3, values.EncodingHalfDepth, values.EncodingPDBValue, values.EncodingPDBExcess, values.EncodingWDL, values.EncodingWDLSplit,
			values.EncodingWDLOnly, format.ErrCorrupt)
	}
	if dom.Slots() != meta.Slots {
		return nil, fmt.Errorf("the %s/%s scheme has %d slots, the file %d: %w",
			meta.Game, meta.Index, dom.Slots(), meta.Slots, format.ErrCorrupt)
	}
	if err := t.checkGoals(); err != nil {
		return nil, err
	}
	return t, nil
}

// checkGoals is the cheap sanity check on open: a goal's value must be 0. It reads only
// the goals' blocks, and catches a table relabelled to another scheme or goal.
func (t *Table) checkGoals() error {
	var goals []uint64
	switch {
	case t.pdb != nil:
		goals = []uint64{t.pdb.GoalEntry()}
	case values.Encoding(t.meta.Encoding) == values.EncodingRemoteness, t.mod3 != nil:
		goals = t.dom.(PuzzleDomain).Goals()
	}
	for _, g := range goals {
		c, err := t.r.Code(g)
		if err != nil {
			return err
		}
		if c != 0 {
			state, _ := t.dom.StateOf(g)
			return fmt.Errorf("the goal %s (slot %d) holds code %d, not 0: the file is not a table of this game, scheme and goal: %w",
				state, g, c, format.ErrCorrupt)
		}
	}
	return nil
}

// File is the path the table was opened from.
func (t *Table) File() string { return t.path }

// Close releases the file. A member of a tiered game's set that was never opened has
// none, and after Close it is never opened: its uses fail.
func (t *Table) Close() error {
	if l := t.lazy; l != nil {
		// Under the lock that opens: t.r is safe to read after it, and no use can open
		// the file after Close.
		l.mu.Lock()
		l.closed = true
		r := t.r
		l.mu.Unlock()
		if r == nil {
			return nil
		}
		return r.Close()
	}
	return t.r.Close()
}

// Meta returns the table's metadata (zero for a member of a tiered game's set that
// cannot be opened: its lookups say why).
func (t *Table) Meta() format.Metadata {
	if t.opened() != nil {
		return format.Metadata{}
	}
	return t.meta
}

// Instance returns the game, parameters and index scheme the table was built over (nil
// for a member of a tiered game's set whose instance cannot be built: its lookups say why).
func (t *Table) Instance() *games.Instance {
	if t.ready() != nil {
		return nil
	}
	return t.in
}

// Domain returns the game and index scheme the table was built over (nil where Instance
// is).
func (t *Table) Domain() Domain {
	if t.ready() != nil {
		return nil
	}
	return t.dom
}

// Reader exposes the underlying file for slot-level access (heuristics, benchmarks); nil
// for a member of a tiered game's set that cannot be opened (its lookups say why).
func (t *Table) Reader() *format.Reader {
	if t.opened() != nil {
		return nil
	}
	return t.r
}

// Lookup answers one state given in the game's notation.
func (t *Table) Lookup(state string) (Answer, error) {
	if err := t.ready(); err != nil {
		return Answer{}, err
	}
	if sp, ok := t.dom.(SlotSpeller); ok {
		slot, ok, norm, err := sp.SlotSpelling(state)
		if err != nil {
			return Answer{}, fmt.Errorf("%w: %w", ErrBadState, err)
		}
		return t.answerSlot(slot, ok, norm)
	}
	norm, err := t.dom.Normalize(state)
	if err != nil {
		return Answer{}, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	return t.lookupNormalized(norm)
}

// lookupNormalized answers a state already in canonical notation (as Neighbors returns
// them), saving the path walk a second parse per neighbour.
func (t *Table) lookupNormalized(norm string) (Answer, error) {
	if err := t.ready(); err != nil {
		return Answer{}, err
	}
	slot, ok, err := t.dom.Slot(norm)
	if err != nil {
		return Answer{}, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	return t.answerSlot(slot, ok, norm)
}

// answerSlot answers the state norm (canonical spelling) at slot; ok is false for a
// valid state without a slot.
func (t *Table) answerSlot(slot uint64, ok bool, norm string) (Answer, error) {
	if !ok {
		return Answer{State: norm, Outcome: values.Unreachable}, nil // the scheme only has slots for the reachable class
	}
	a, err := t.SlotAnswer(slot)
	if err != nil {
		return Answer{}, fmt.Errorf("state %s: %w", norm, err)
	}
	a.State = norm
	return a, nil
}

// Probe answers a typed state (a slide.Board, a hanoi.Pegs, …) of a table whose game
// probes states of type S; a table of another game is ErrBadState.
func Probe[S any](t *Table, s S) (Answer, error) {
	if err := t.ready(); err != nil {
		return Answer{}, err
	}
	p, ok := t.dom.(Prober[S])
	if !ok {
		return Answer{}, fmt.Errorf("%w: a %s table does not take states of type %T", ErrBadState, t.meta.Game, s)
	}
	slot, ok, err := p.SlotOfState(s)
	if err != nil {
		return Answer{}, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	state := p.FormatState(s)
	if !ok {
		return Answer{State: state, Outcome: values.Unreachable}, nil
	}
	a, err := t.SlotAnswer(slot)
	a.State = state
	return a, err
}

// SlotAnswer reads the value stored at slot (Answer.State left empty). A hole at the
// slot of a valid state means the file is corrupt.
func (t *Table) SlotAnswer(slot uint64) (Answer, error) {
	if err := t.opened(); err != nil {
		return Answer{}, err
	}
	c, err := t.r.Code(slot)
	if err != nil {
		return Answer{}, err
	}
	return t.decode(slot, c)
}

// decode reads code c of slot.
func (t *Table) decode(slot uint64, c uint32) (Answer, error) {
	switch {
	case t.mod3 != nil:
		return t.decodeMod3(slot, c)
	case t.pdb != nil:
		v := values.PDBValue(values.Encoding(t.meta.Encoding), uint64(c), uint64(t.pdb.EntryMD(slot)))
		return Answer{Outcome: values.Bound, Remoteness: int(v)}, nil
	case t.outcomeOnly:
		o, _, ok := t.wdl.Decode(c)
		if !ok || c > values.WDLOnlyWin {
			return Answer{}, fmt.Errorf("slot %d holds code %d, no win, draw or loss: %w", slot, c, format.ErrCorrupt)
		}
		return Answer{Outcome: o, NoRemoteness: true}, nil
	case t.isWDL():
		o, r, ok := t.wdl.Decode(c)
		if !ok {
			return Answer{}, fmt.Errorf("slot %d holds the hole marker: %w", slot, format.ErrCorrupt)
		}
		return Answer{Outcome: o, Remoteness: r}, nil
	}
	switch c {
	case t.rem.Unreachable():
		return Answer{Outcome: values.Unreachable}, nil
	case t.rem.Hole():
		return Answer{}, fmt.Errorf("slot %d holds the hole marker: %w", slot, format.ErrCorrupt)
	}
	return Answer{Outcome: values.Remoteness, Remoteness: int(c), Reachable: true}, nil
}

// SlotRemoteness reads the remoteness stored at slot of a puzzle table; reachable is
// false for a state that cannot reach a goal.
func (t *Table) SlotRemoteness(slot uint64) (d int, reachable bool, err error) {
	a, err := t.SlotAnswer(slot)
	return a.Remoteness, a.Reachable, err
}

// puzzle returns the puzzle domain, or an error for tables of other kinds.
func (t *Table) puzzle() (PuzzleDomain, error) {
	if err := t.ready(); err != nil {
		return nil, err
	}
	if values.Encoding(t.meta.Encoding) != values.EncodingRemoteness && t.mod3 == nil {
		return nil, fmt.Errorf("tables: a %s table has no shortest paths", t.meta.Encoding)
	}
	return t.dom.(PuzzleDomain), nil
}

// BestMoves returns the neighbours of state that are one move closer to a goal (empty at
// a goal or for a state that cannot reach one).
func (t *Table) BestMoves(state string) ([]string, error) {
	pz, err := t.puzzle()
	if err != nil {
		return nil, err
	}
	a, err := t.Lookup(state)
	if err != nil || !a.Reachable || a.Remoteness == 0 {
		return nil, err
	}
	if t.mod3 != nil {
		slot, _, err := t.dom.Slot(a.State)
		if err != nil {
			return nil, err
		}
		c, err := t.r.Code(slot)
		if err != nil {
			return nil, err
		}
		best, _, err := t.mod3Nearer(pz, a.State, slot, c, false)
		return best, err
	}
	nbrs, err := pz.Neighbors(a.State)
	if err != nil {
		return nil, err
	}
	var best []string
	for _, n := range nbrs {
		b, err := t.lookupNormalized(n)
		if err != nil {
			return nil, err
		}
		if b.Reachable && b.Remoteness == a.Remoteness-1 {
			best = append(best, b.State)
		}
	}
	return best, nil
}

// LookupPath is Lookup and, for a state that reaches a goal, its Path, in one call. A
// two-bit table finds a remoteness by walking the very line Path returns, so it walks it
// once (Lookup then Path would walk it twice, and it spells no state of a line over
// maxPath); another table looks up, then follows the path only when maxPath (0: no
// limit) allows its length. A line over maxPath is the answer with a nil path and
// ErrPathTooLong; an error found after the state was read comes with the answer's State.
func (t *Table) LookupPath(state string, maxPath int) (Answer, []string, error) {
	if err := t.ready(); err != nil {
		return Answer{}, nil, err
	}
	if t.mod3 != nil {
		pz, err := t.puzzle()
		if err != nil {
			return Answer{}, nil, err
		}
		return t.mod3Path(pz, state, maxPath)
	}
	a, err := t.Lookup(state)
	if err != nil || !a.Reachable {
		return a, nil, err
	}
	if maxPath > 0 && a.Remoteness > maxPath {
		return a, nil, ErrPathTooLong
	}
	path, err := t.Path(a.State)
	return a, path, err
}

// ErrPathTooLong is LookupPath's error for a path over its limit.
var ErrPathTooLong = errors.New("path too long")

// Path returns a shortest path from state to a goal, both included, each state one legal
// move from the one before, in the user's own notation and labels. It is nil for a state
// that cannot reach a goal. A table whose values do not form such a path is corrupt.
func (t *Table) Path(state string) ([]string, error) {
	pz, err := t.puzzle()
	if err != nil {
		return nil, err
	}
	if t.mod3 != nil {
		_, path, err := t.mod3Path(pz, state, 0)
		return path, err
	}
	a, err := t.Lookup(state)
	if err != nil || !a.Reachable {
		return nil, err
	}
	path := []string{a.State}
	cur := a
	for cur.Remoteness > 0 {
		nbrs, err := pz.Neighbors(cur.State)
		if err != nil {
			return nil, err
		}
		found := false
		for _, n := range nbrs {
			b, err := t.lookupNormalized(n)
			if err != nil {
				return nil, err
			}
			if b.Reachable && b.Remoteness == cur.Remoteness-1 {
				cur, found = b, true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("state %s has remoteness %d but no neighbour at %d: %w",
				cur.State, cur.Remoteness, cur.Remoteness-1, format.ErrCorrupt)
		}
		path = append(path, cur.State)
	}
	if goal, err := pz.IsGoal(cur.State); err != nil || !goal {
		return nil, fmt.Errorf("state %s has remoteness 0 but is no goal: %w", cur.State, format.ErrCorrupt)
	}
	return path, nil
}

// isWDL reports whether the table holds two-player values with remoteness (either WDL
// layout).
func (t *Table) isWDL() bool {
	_, ok := values.WDLLayout(values.Encoding(t.meta.Encoding))
	return ok
}
