package tables

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/parallel"
	"github.com/tablesmith/tablesmith/internal/sysmem"
	"github.com/tablesmith/tablesmith/values"
)

// A two-bit table stores each state's remoteness d modulo 3 (values.EncodingDepthMod3)
// or, in a space of two sides that every move crosses, ⌊d/2⌋ mod 2
// (values.EncodingHalfDepth). A state's neighbours are one move nearer, equally near or
// one move farther (in a sided space never equally near), so exactly the neighbours of
// one code are one move nearer: c−1 mod 3, or for half-depth the code that d mod 4 =
// 2c + side gives d−1 (values.TwoBitNearer), the side the slot's (games.Sided). The
// exact remoteness is the number of such steps down to a goal (the descent), one walk
// for both encodings. Every step expands one slot with the space's expander and reads
// the codes of its neighbours, through the reader's cache of decoded blocks: a table
// whose blocks are cached answers in microseconds.

// mod3Table is what a two-bit table keeps for its lookups.
type mod3Table struct {
	enc       values.Encoding // EncodingDepthMod3 or EncodingHalfDepth
	extra     values.DepthMod3Extra
	goals     []uint64    // sorted
	sides     games.Sided // half-depth tables: the side of each slot
	expanders sync.Pool
}

// side returns the side of slot's state: 0 for a depth-mod-3 table, whose codes do not
// depend on it.
func (m *mod3Table) side(slot uint64) (uint8, error) {
	if m.sides == nil {
		return 0, nil
	}
	side, ok := m.sides.RunSide(slot, slot+1)
	if !ok {
		return 0, fmt.Errorf("slot %d of a half-depth table has no side: %w", slot, format.ErrCorrupt)
	}
	return side, nil
}

// nearer returns the code of the neighbours one move nearer a goal than slot, which
// holds the reached code c.
func (m *mod3Table) nearer(slot uint64, c uint32) (uint32, error) {
	side, err := m.side(slot)
	return values.TwoBitNearer(m.enc, c, side), err
}

// goalCode reports whether a goal may hold code c at slot: 0, and on side 0 for a
// half-depth table.
func (m *mod3Table) goalCode(slot uint64, c uint32) bool {
	side, err := m.side(slot)
	return c == 0 && err == nil && side == 0
}

// cacheOverheadGuess is the bytes a cached block costs beyond its codes (format's
// bookkeeping and padding).
const cacheOverheadGuess = 128

// mod3Walker is one goroutine's expander and scratch.
type mod3Walker struct {
	expand func(dst, src []uint64) []uint64
	src    [1]uint64
	nbrs   []uint64
	nodes  []descentNode // the look-ahead tree, level by level
	line   []int32       // the chosen line, from the step's start down
	slots  []uint64      // the tree's slots below its root, and their codes
	codes  []uint32
}

// descentNode is a slot of a descent's look-ahead tree: a state some moves below the
// step's start, and the code it holds if the moves above it go down a level each.
type descentNode struct {
	slot       uint64
	parent     int32 // index in the tree; -1 at its root
	kids, nkid int32 // its children, w.nodes[kids : kids+nkid] (none: not expanded)
	want       uint32
	code       uint32
}

// descentTreeNodes caps a step's look-ahead tree: levels are added while the tree holds
// fewer nodes. Its codes are read with their cache misses in flight together, but a core
// keeps only so many in flight, and every node costs an expansion: on the 2×7 (two or
// three moves a state, less the move back) 6 nodes, mostly two levels, answered a random
// state's path in 44–50 µs against 55–62 with a step of one move, and 8 or more nodes
// were slower again (BenchmarkTwoBitLookup, benchmarks/RESULTS.md). A space of more
// moves a state gets one level, never less.
const defaultDescentTreeNodes = 6

// descentTreeNodes is the cap in force: defaultDescentTreeNodes, or a benchmark's or
// test's (SetDescentTreeNodes), read by every descent step.
var descentTreeNodes = func() *atomic.Int32 {
	var n atomic.Int32
	n.Store(defaultDescentTreeNodes)
	return &n
}()

func (t *Table) openMod3() error {
	enc := values.Encoding(t.meta.Encoding)
	if t.meta.CodeBits != values.DepthMod3Bits {
		return fmt.Errorf("a %s table with %d-bit codes: %w", enc, t.meta.CodeBits, format.ErrCorrupt)
	}
	pz, ok := t.dom.(PuzzleDomain)
	if !ok {
		return fmt.Errorf("a %s table of %s, which is no puzzle: %w", enc, t.meta.Game, format.ErrCorrupt)
	}
	m := &mod3Table{enc: enc, goals: slices.Clone(pz.Goals())}
	if enc == values.EncodingHalfDepth {
		// The descent needs each slot's side, which the codes leave out.
		if m.sides, ok = t.dom.(games.Sided); !ok {
			return fmt.Errorf("a half-depth table of %s/%s, whose states have no sides (games.Sided) to descend by: %w",
				t.meta.Game, t.meta.Index, format.ErrCorrupt)
		}
	}
	x, err := values.ParseTwoBitExtra(enc, t.meta.Extra, t.meta.CodeCounts)
	if err != nil {
		return fmt.Errorf("%w: %w", err, format.ErrCorrupt)
	}
	m.extra = x
	slices.Sort(m.goals)
	m.expanders.New = func() any { return &mod3Walker{expand: pz.NewExpander()} }
	t.mod3 = m
	// A descent reads blocks all over the table (a move changes a rank's leading
	// digits): a process that answers many queries keeps every block it decoded, up to
	// half the memory available, rather than the default budget. A budget that holds
	// the whole table keeps it in one array on huge pages (format's whole-table cache):
	// a code is then one cache miss, not three.
	decoded := int64(t.meta.Slots/4) + int64(t.r.Blocks())*(cacheOverheadGuess)
	if avail := int64(sysmem.Available() / 2); decoded > format.DefaultCacheBytes && avail > format.DefaultCacheBytes {
		t.r.SetCacheBytes(min(decoded, avail))
	}
	return nil
}

// isGoal reports whether slot is a goal's.
func (m *mod3Table) isGoal(slot uint64) bool {
	_, ok := slices.BinarySearch(m.goals, slot)
	return ok
}

// descend returns the remoteness of the state at slot, which holds a reached code c, by
// walking down to a goal; visit, if set, is called with every slot on the way after
// slot, the goal last.
//
// A step of one move would wait for its neighbours' codes before it knew which
// neighbour to expand next: a walk of 60 moves through a table larger than the caches
// is 60 memory latencies in a row. A step therefore expands a tree of the moves a few
// levels down (descentTreeNodes), reads all their codes at once (the reads do not wait
// on each other, so their cache misses overlap) and then walks down the tree as a walk
// of single moves would: to the first child that holds its nearer code, from there to
// its first such child, and so on, stopping at a goal, a node without one (the next step
// starts there, and reports it if it is a dead end) or a node not expanded. The walk, its
// slots and its errors are those of a walk of single moves, on any table, in fewer waits.
func (t *Table) descend(slot uint64, c uint32, visit func(uint64)) (int, error) {
	m := t.mod3
	w := m.expanders.Get().(*mod3Walker)
	defer m.expanders.Put(w)
	limit := len(m.extra.Counts) - 1
	d := 0
	from := slot // the slot the walk came from: no neighbour of the start is the start
	for !m.isGoal(slot) {
		if d >= limit {
			return 0, fmt.Errorf("slot %d: no goal within %d steps down: %w", slot, limit, format.ErrCorrupt)
		}
		want, err := m.nearer(slot, c)
		if err != nil {
			return 0, err
		}
		if err := t.descentTree(w, slot, from, c, limit-d); err != nil {
			return 0, err
		}
		if w.chooseLine(m); len(w.line) == 0 {
			return 0, fmt.Errorf("slot %d holds code %d but no neighbour holds %d: %w", slot, c, want, format.ErrCorrupt)
		}
		for _, i := range w.line {
			n := &w.nodes[i]
			from, slot, c = slot, n.slot, n.code
			d++
			if visit != nil {
				visit(slot)
			}
		}
	}
	if !m.goalCode(slot, c) {
		return 0, fmt.Errorf("goal slot %d holds code %d (or is on side 1): %w", slot, c, format.ErrCorrupt)
	}
	return d, nil
}

// descentTree fills w.nodes with the tree of moves below root (a reached slot of code
// c, entered from slot from), at most levels deep, and the codes of all its nodes. A
// node's children leave out the move back to its parent (the root's, to from: a slot
// farther from a goal), and a node whose side is unknown is not expanded (a step
// that reaches it stops there, and the next step reports it).
func (t *Table) descentTree(w *mod3Walker, root, from uint64, c uint32, levels int) error {
	m := t.mod3
	w.nodes = append(w.nodes[:0], descentNode{slot: root, parent: -1, code: c, want: c})
	capNodes := int(descentTreeNodes.Load())
	for lo, level := 0, 0; level < levels && (level == 0 || len(w.nodes) < capNodes); level++ {
		hi := len(w.nodes)
		for i := lo; i < hi; i++ {
			p := w.nodes[i]
			want, err := m.nearer(p.slot, p.want)
			if err != nil {
				if i == 0 {
					return err
				}
				continue
			}
			back := from
			if p.parent >= 0 {
				back = w.nodes[p.parent].slot
			}
			w.src[0] = p.slot
			w.nbrs = w.expand(w.nbrs[:0], w.src[:])
			kids := int32(len(w.nodes))
			for _, nb := range w.nbrs {
				if nb != back {
					w.nodes = append(w.nodes, descentNode{slot: nb, parent: int32(i), want: want})
				}
			}
			w.nodes[i].kids, w.nodes[i].nkid = kids, int32(len(w.nodes))-kids
		}
		lo = hi
	}
	// Every node's code, none waiting on another's.
	w.slots, w.codes = w.slots[:0], w.codes[:0]
	for _, n := range w.nodes[1:] {
		w.slots = append(w.slots, n.slot)
		w.codes = append(w.codes, 0)
	}
	if err := t.r.CodesAt(w.codes, w.slots); err != nil {
		return err
	}
	for i, code := range w.codes {
		w.nodes[i+1].code = code
	}
	return nil
}

// chooseLine walks w.nodes from the root as single moves would walk: to the first child
// holding the code it wants, and on, up to a goal, a node none of whose children holds
// it, or a node not expanded. It leaves the line's nodes in w.line, root excluded (none:
// no neighbour of the root holds its nearer code).
func (w *mod3Walker) chooseLine(m *mod3Table) {
	w.line = w.line[:0]
	for cur := int32(0); ; {
		n := &w.nodes[cur]
		next := int32(-1)
		for k := n.kids; k < n.kids+n.nkid; k++ {
			if w.nodes[k].code == w.nodes[k].want {
				next = k
				break
			}
		}
		if next < 0 {
			return
		}
		w.line = append(w.line, next)
		if m.isGoal(w.nodes[next].slot) {
			return
		}
		cur = next
	}
}

// decodeMod3 answers slot of a two-bit table, holding code c.
func (t *Table) decodeMod3(slot uint64, c uint32) (Answer, error) {
	if c == values.DepthMod3NotReached {
		return Answer{Outcome: values.Unreachable}, nil
	}
	d, err := t.descend(slot, c, nil)
	if err != nil {
		return Answer{}, err
	}
	return Answer{Outcome: values.Remoteness, Remoteness: d, Reachable: true}, nil
}

// mod3Nearer returns the neighbours of state (canonical spelling, a reached state of
// code c at slot) that are one move nearer a goal: those of the nearer code, in
// Neighbors' order.
func (t *Table) mod3Nearer(pz PuzzleDomain, state string, slot uint64, c uint32, first bool) ([]string, []uint32, error) {
	nbrs, err := pz.Neighbors(state)
	if err != nil {
		return nil, nil, err
	}
	want, err := t.mod3.nearer(slot, c)
	if err != nil {
		return nil, nil, err
	}
	var out []string
	var codes []uint32
	for _, n := range nbrs {
		slot, ok, err := t.dom.Slot(n)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrBadState, err)
		}
		if !ok {
			continue
		}
		nc, err := t.r.Code(slot)
		if err != nil {
			return nil, nil, err
		}
		if nc == want {
			out, codes = append(out, n), append(codes, nc)
			if first {
				break
			}
		}
	}
	return out, codes, nil
}

// SlotsSpeller is implemented by a puzzle domain whose StateOf spells every state exactly
// as Neighbors does (slide: yes; Hanoi, which folds peg symmetries, no): a two-bit path
// found by slots is then spelled from its slots.
type SlotsSpeller interface{ SlotsSpellStates() bool }

// mod3Path is Path for a two-bit table: the descent by slots, each slot's state taken
// as the next state of the path when it is one of the previous state's neighbours
// (always, for a game whose states are their slots' spelling); where it is not (a game
// that canonicalises states, whose path keeps the user's labels), the walk goes on by
// the neighbours' own spellings and codes.
// It returns the answer too (a nil path and an answer not Reachable: no line to the goal),
// and refuses, with ErrPathTooLong and before spelling a state, a line over maxPath moves
// (0: no limit). An error found after the state was read names it (a.State).
func (t *Table) mod3Path(pz PuzzleDomain, state string, maxPath int) (Answer, []string, error) {
	var slot uint64
	var ok bool
	var norm string
	var err error
	if sp, isSpeller := t.dom.(SlotSpeller); isSpeller {
		slot, ok, norm, err = sp.SlotSpelling(state)
	} else if norm, err = t.dom.Normalize(state); err == nil {
		slot, ok, err = t.dom.Slot(norm)
	}
	if err != nil {
		return Answer{}, nil, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	a := Answer{State: norm, Outcome: values.Unreachable}
	if !ok {
		return a, nil, nil // no slot: the other parity class, which cannot reach the goal
	}
	c, err := t.r.Code(slot)
	if err != nil {
		return a, nil, fmt.Errorf("state %s: %w", norm, err)
	}
	if c == values.DepthMod3NotReached {
		return a, nil, nil
	}
	var slots []uint64
	if _, err := t.descend(slot, c, func(s uint64) { slots = append(slots, s) }); err != nil {
		return a, nil, fmt.Errorf("state %s: %w", norm, err)
	}
	a.Outcome, a.Remoteness, a.Reachable = values.Remoteness, len(slots), true
	if maxPath > 0 && a.Remoteness > maxPath {
		return a, nil, ErrPathTooLong
	}
	path := make([]string, 1, a.Remoteness+1)
	path[0] = a.State
	if sp, ok := t.dom.(SlotsSpeller); ok && sp.SlotsSpellStates() {
		// Every step is a neighbour by construction (the descent expanded it).
		for _, s := range slots {
			st, ok := t.dom.StateOf(s)
			if !ok {
				return a, nil, fmt.Errorf("slot %d on a descent is a hole: %w", s, format.ErrCorrupt)
			}
			path = append(path, st)
		}
		return a, path, nil
	}
	cur := a.State
	for i := range a.Remoteness {
		nbrs, err := pz.Neighbors(cur)
		if err != nil {
			return a, nil, err
		}
		next, ok := t.dom.StateOf(slots[i])
		if !ok || !slices.Contains(nbrs, next) {
			// Fall back to the neighbours' own spellings.
			cc, err := t.r.Code(slots[i])
			if err != nil {
				return a, nil, err
			}
			found := false
			for _, n := range nbrs {
				ns, ok, err := t.dom.Slot(n)
				if err != nil || !ok {
					continue
				}
				nc, err := t.r.Code(ns)
				if err != nil {
					return a, nil, err
				}
				if nc == cc {
					next, found = n, true
					break
				}
			}
			if !found {
				return a, nil, fmt.Errorf("state %s has no neighbour one move nearer: %w", cur, format.ErrCorrupt)
			}
		}
		path = append(path, next)
		cur = next
	}
	if goal, err := pz.IsGoal(cur); err != nil || !goal {
		return a, nil, fmt.Errorf("state %s ends the descent but is no goal: %w", cur, format.ErrCorrupt)
	}
	return a, path, nil
}

// newMod3Checker checks a two-bit table's code of a slot against its neighbours': a
// goal holds 0 (and, half-depth, is on side 0); any other reached state has a neighbour
// of the nearer code and no unreached one; a slot no level reached has no reached
// neighbour; a half-depth table holds no code 2. (A cycle of codes going down that never
// meets a goal would pass these checks: `tablesmith verify` recomputes the search where
// it fits.)
func (t *Table) newMod3Checker() checker {
	pz := t.dom.(PuzzleDomain)
	expand := pz.NewExpander()
	var src [1]uint64
	var nbrs []uint64
	m := t.mod3
	return func(s uint64, code func(uint64) uint32) string {
		c := code(s)
		isGoal := m.isGoal(s)
		switch {
		case c > 3:
			return fmt.Sprintf("code %d in a two-bit table", c)
		case c == 2 && m.enc == values.EncodingHalfDepth:
			return "code 2 in a half-depth table"
		case isGoal && !m.goalCode(s, c):
			return fmt.Sprintf("a goal holds code %d, not 0 (or is on side 1)", c)
		}
		var want uint32
		if c != 3 {
			var err error
			if want, err = m.nearer(s, c); err != nil {
				return err.Error()
			}
		}
		src[0] = s
		nbrs = expand(nbrs[:0], src[:])
		nearer := false
		for _, nb := range nbrs {
			nc := code(nb)
			switch {
			case c == 3 && nc != 3:
				return fmt.Sprintf("not reached, but a neighbour holds code %d", nc)
			case c != 3 && nc == 3:
				return fmt.Sprintf("code %d, but a neighbour is not reached", c)
			}
			nearer = nearer || nc == want
		}
		if c != 3 && !isGoal && !nearer {
			return fmt.Sprintf("code %d, but no neighbour holds %d", c, want)
		}
		return ""
	}
}

// checkMod3 checks a two-bit table's values as checkValues does, its codes held packed (2
// bits a slot, as the file has them) so that the 2×7's 43.6·10^9 slots take 10.2 GiB.
func checkMod3(ctx context.Context, t *Table, opt VerifyOptions, stage func(string) func(uint64, uint64)) error {
	n := t.meta.Slots
	need := (n + 31) / 32 * 8
	if avail := sysmem.Available(); avail > 0 && need > avail {
		return fmt.Errorf("tables: checking the values of %d slots needs %d bytes of memory, %d are available; use --checksums-only",
			n, need, avail)
	}
	buf := bigmem.New(need)
	defer buf.Release()
	words := buf.Words()
	spb := uint64(max(t.r.SlotsPerBlock(), 32))
	chunk := spb * max(1, (1<<20)/spb) // whole blocks, whole words (spb is a multiple of 64)
	load := stage("load")
	var loaded atomic.Uint64
	err := parallel.For(ctx, opt.Workers, n, chunk, func(lo, hi uint64) error {
		codes := make([]uint32, hi-lo)
		if err := t.r.Codes(codes, lo); err != nil {
			return err
		}
		for i, c := range codes {
			if c > 3 {
				return fmt.Errorf("slot %d: code %d in a two-bit table: %w", lo+uint64(i), c, format.ErrCorrupt)
			}
			s := lo + uint64(i)
			words[s>>5] |= uint64(c) << (s & 31 * 2)
		}
		if load != nil {
			load(loaded.Add(hi-lo), n)
		}
		return nil
	})
	if err != nil {
		return err
	}
	code := func(s uint64) uint32 { return uint32(words[s>>5] >> (s & 31 * 2) & 3) }
	progress := stage("values")
	return checkEvery(ctx, t, opt.Workers, n, code, t.newMod3Checker, progress)
}
