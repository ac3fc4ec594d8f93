package tables

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tablesmith/tablesmith/format"
)

// Table is an open remoteness table together with the game that reads its states.
// It is safe for concurrent use.
type Table struct {
	path string
	r    *format.Reader
	meta format.Metadata
	enc  RemotenessCodes
	dom  Domain
}

// Answer is what a table says of one state.
type Answer struct {
	State      string // the state in canonical notation (the user's labels)
	Reachable  bool   // whether the state can reach a goal at all
	Remoteness int    // moves on a shortest path to a goal (when Reachable)
}

// ErrBadState marks a query the table cannot answer: a malformed state, or one of
// another game or board size (the message says which).
var ErrBadState = errors.New("invalid state")

// Open opens a table file, checks its structure, and recreates the game and index scheme
// its metadata names. Blocks are read (and checked) only when a lookup needs them.
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
	if meta.Encoding != EncodingRemoteness {
		return nil, fmt.Errorf("unsupported value encoding %q", meta.Encoding)
	}
	if meta.CodeBits < 2 || meta.CodeBits > 32 {
		return nil, fmt.Errorf("remoteness codes of %d bits: %w", meta.CodeBits, format.ErrCorrupt)
	}
	dom, err := DomainFor(meta)
	if err != nil {
		return nil, err
	}
	if dom.Slots() != meta.Slots {
		return nil, fmt.Errorf("the %s/%s scheme has %d slots, the file %d: %w",
			meta.Game, meta.Index, dom.Slots(), meta.Slots, format.ErrCorrupt)
	}
	return &Table{r: r, meta: meta, enc: RemotenessCodes{Bits: meta.CodeBits}, dom: dom}, nil
}

// File is the path the table was opened from.
func (t *Table) File() string { return t.path }

// Close releases the file.
func (t *Table) Close() error { return t.r.Close() }

// Meta returns the table's metadata.
func (t *Table) Meta() format.Metadata { return t.meta }

// Domain returns the game and index scheme the table was built over.
func (t *Table) Domain() Domain { return t.dom }

// Reader exposes the underlying file for slot-level access (heuristics, benchmarks).
func (t *Table) Reader() *format.Reader { return t.r }

// Lookup answers one state given in the game's notation.
func (t *Table) Lookup(state string) (Answer, error) {
	norm, err := t.dom.Normalize(state)
	if err != nil {
		return Answer{}, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	return t.lookupNormalized(norm)
}

// lookupNormalized answers a state already in canonical notation (as Neighbors returns
// them), saving the path walk a second parse per neighbour.
func (t *Table) lookupNormalized(norm string) (Answer, error) {
	slot, ok, err := t.dom.Slot(norm)
	if err != nil {
		return Answer{}, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	a := Answer{State: norm}
	if !ok {
		return a, nil // the scheme only has slots for the reachable class
	}
	d, reachable, err := t.SlotRemoteness(slot)
	if err != nil {
		return Answer{}, fmt.Errorf("state %s: %w", norm, err)
	}
	a.Reachable, a.Remoteness = reachable, d
	return a, nil
}

// SlotRemoteness reads the remoteness stored at slot; reachable is false for a state that
// cannot reach a goal. A hole at the slot of a valid state means the file is corrupt.
func (t *Table) SlotRemoteness(slot uint64) (d int, reachable bool, err error) {
	c, err := t.r.Code(slot)
	if err != nil {
		return 0, false, err
	}
	switch c {
	case t.enc.Unreachable():
		return 0, false, nil
	case t.enc.Hole():
		return 0, false, fmt.Errorf("slot %d holds the hole marker: %w", slot, format.ErrCorrupt)
	}
	return int(c), true, nil
}

// BestMoves returns the neighbours of state that are one move closer to a goal (empty at
// a goal or for a state that cannot reach one).
func (t *Table) BestMoves(state string) ([]string, error) {
	a, err := t.Lookup(state)
	if err != nil || !a.Reachable || a.Remoteness == 0 {
		return nil, err
	}
	nbrs, err := t.dom.Neighbors(a.State)
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

// Path returns a shortest path from state to a goal, both included, each state one legal
// move from the one before, in the user's own notation and labels. It is nil for a state
// that cannot reach a goal. A table whose values do not form such a path is corrupt.
func (t *Table) Path(state string) ([]string, error) {
	a, err := t.Lookup(state)
	if err != nil || !a.Reachable {
		return nil, err
	}
	path := []string{a.State}
	cur := a
	for cur.Remoteness > 0 {
		nbrs, err := t.dom.Neighbors(cur.State)
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
	if goal, err := t.dom.IsGoal(cur.State); err != nil || !goal {
		return nil, fmt.Errorf("state %s has remoteness 0 but is no goal: %w", cur.State, format.ErrCorrupt)
	}
	return path, nil
}

// Verify checks every block checksum and the stored counts against the values.
func (t *Table) Verify(ctx context.Context, progress func(done, total uint64)) error {
	return t.r.Verify(ctx, progress)
}

// Info is the summary of a table that `tablesmith info` prints.
type Info struct {
	Game          string          `json:"game"`
	Params        any             `json:"params"`
	Index         string          `json:"index"`
	Encoding      string          `json:"encoding"`
	Slots         uint64          `json:"slots"`
	States        uint64          `json:"states"`
	Unreachable   uint64          `json:"unreachable"`
	Holes         uint64          `json:"holes"`
	MaxRemoteness int             `json:"max_remoteness"`
	Counts        []uint64        `json:"counts"`
	Bytes         int64           `json:"bytes"`
	BitsPerState  float64         `json:"bits_per_state"`
	CodeBits      int             `json:"code_bits"`
	Blocks        int             `json:"blocks"`
	SlotsPerBlock int             `json:"slots_per_block"`
	FormatVersion int             `json:"format_version"`
	Build         format.Build    `json:"build"`
	Created       time.Time       `json:"-"`
	Raw           format.Metadata `json:"-"`
}

// Info summarises the table from its metadata.
func (t *Table) Info() Info {
	counts, unreachable, holes := t.enc.Summary(t.meta.CodeCounts)
	var states uint64
	for _, c := range counts {
		states += c
	}
	info := Info{
		Game: t.meta.Game, Params: rawOrEmpty(t.meta.Params), Index: t.meta.Index,
		Encoding: t.meta.Encoding, Slots: t.meta.Slots, States: states,
		Unreachable: unreachable, Holes: holes, MaxRemoteness: len(counts) - 1,
		Counts: counts, Bytes: t.r.FileSize(), CodeBits: t.meta.CodeBits,
		Blocks: t.r.Blocks(), SlotsPerBlock: t.r.SlotsPerBlock(),
		FormatVersion: t.r.Version(), Build: t.meta.Build, Raw: t.meta,
	}
	if states > 0 {
		info.BitsPerState = float64(info.Bytes) * 8 / float64(states)
	}
	if info.Counts == nil {
		info.Counts = []uint64{}
	}
	return info
}
