package tables

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/parallel"
	"github.com/tablesmith/tablesmith/internal/sysmem"
	"github.com/tablesmith/tablesmith/values"
)

// A two-bit table (values.EncodingDepthMod3) stores each state's remoteness modulo 3. A
// state's neighbours are one move nearer, equally near or one move farther, so exactly
// the neighbours of code c−1 (mod 3) are one move nearer; the exact remoteness is the
// number of such steps down to a goal (the descent). Every step expands one slot with
// the space's expander and reads the codes of its neighbours, through the reader's
// cache of decoded blocks: a table whose blocks are cached answers in microseconds.

// mod3Table is what a two-bit table keeps for its lookups.
type mod3Table struct {
	extra     values.DepthMod3Extra
	goals     []uint64 // sorted
	expanders sync.Pool
}

// cacheOverheadGuess is the bytes a cached block costs beyond its codes (format's
// bookkeeping and padding).
const cacheOverheadGuess = 128

// mod3Walker is one goroutine's expander and scratch.
type mod3Walker struct {
	expand func(dst, src []uint64) []uint64
	src    [1]uint64
	nbrs   []uint64
}

func (t *Table) openMod3() error {
	if t.meta.CodeBits != values.DepthMod3Bits {
		return fmt.Errorf("a depth-mod-3 table with %d-bit codes: %w", t.meta.CodeBits, format.ErrCorrupt)
	}
	pz, ok := t.dom.(PuzzleDomain)
	if !ok {
		return fmt.Errorf("a depth-mod-3 table of %s, which is no puzzle: %w", t.meta.Game, format.ErrCorrupt)
	}
	x, err := values.ParseDepthMod3Extra(t.meta.Extra, t.meta.CodeCounts)
	if err != nil {
		return fmt.Errorf("%w: %w", err, format.ErrCorrupt)
	}
	m := &mod3Table{extra: x, goals: slices.Clone(pz.Goals())}
	slices.Sort(m.goals)
	m.expanders.New = func() any { return &mod3Walker{expand: pz.NewExpander()} }
	t.mod3 = m
	// A descent reads blocks all over the table (a move changes a rank's leading
	// digits): a process that answers many queries keeps every block it decoded, up to
	// half the memory available, rather than the default budget.
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

// descend returns the remoteness of the state at slot, which holds code c (0..2), by
// walking down to a goal; visit, if set, is called with every slot on the way after
// slot, the goal last.
func (t *Table) descend(slot uint64, c uint32, visit func(uint64)) (int, error) {
	m := t.mod3
	w := m.expanders.Get().(*mod3Walker)
	defer m.expanders.Put(w)
	limit := len(m.extra.Counts) - 1
	d := 0
	for !m.isGoal(slot) {
		if d >= limit {
			return 0, fmt.Errorf("slot %d: no goal within %d steps down: %w", slot, limit, format.ErrCorrupt)
		}
		want := (c + 2) % 3
		w.src[0] = slot
		w.nbrs = w.expand(w.nbrs[:0], w.src[:])
		next := slot
		for _, nb := range w.nbrs {
			nc, err := t.r.Code(nb)
			if err != nil {
				return 0, err
			}
			if nc == want {
				next = nb
				break
			}
		}
		if next == slot {
			return 0, fmt.Errorf("slot %d holds code %d but no neighbour holds %d: %w", slot, c, want, format.ErrCorrupt)
		}
		slot, c = next, want
		d++
		if visit != nil {
			visit(slot)
		}
	}
	if c != 0 {
		return 0, fmt.Errorf("goal slot %d holds code %d: %w", slot, c, format.ErrCorrupt)
	}
	return d, nil
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
// code c) that are one move nearer a goal: those of code c−1 mod 3, in Neighbors' order.
func (t *Table) mod3Nearer(pz PuzzleDomain, state string, c uint32, first bool) ([]string, []uint32, error) {
	nbrs, err := pz.Neighbors(state)
	if err != nil {
		return nil, nil, err
	}
	want := (c + 2) % 3
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
func (t *Table) mod3Path(pz PuzzleDomain, state string) ([]string, error) {
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
		return nil, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	if !ok {
		return nil, nil // no slot: the other parity class, which cannot reach the goal
	}
	c, err := t.r.Code(slot)
	if err != nil || c == values.DepthMod3NotReached {
		return nil, err
	}
	var slots []uint64
	if _, err := t.descend(slot, c, func(s uint64) { slots = append(slots, s) }); err != nil {
		return nil, fmt.Errorf("state %s: %w", norm, err)
	}
	a := Answer{State: norm, Remoteness: len(slots)}
	path := make([]string, 1, a.Remoteness+1)
	path[0] = a.State
	if sp, ok := t.dom.(SlotsSpeller); ok && sp.SlotsSpellStates() {
		// Every step is a neighbour by construction (the descent expanded it).
		for _, s := range slots {
			st, ok := t.dom.StateOf(s)
			if !ok {
				return nil, fmt.Errorf("slot %d on a descent is a hole: %w", s, format.ErrCorrupt)
			}
			path = append(path, st)
		}
		return path, nil
	}
	cur := a.State
	for i := range a.Remoteness {
		nbrs, err := pz.Neighbors(cur)
		if err != nil {
			return nil, err
		}
		next, ok := t.dom.StateOf(slots[i])
		if !ok || !slices.Contains(nbrs, next) {
			// Fall back to the neighbours' own spellings.
			cc, err := t.r.Code(slots[i])
			if err != nil {
				return nil, err
			}
			found := false
			for _, n := range nbrs {
				ns, ok, err := t.dom.Slot(n)
				if err != nil || !ok {
					continue
				}
				nc, err := t.r.Code(ns)
				if err != nil {
					return nil, err
				}
				if nc == cc {
					next, found = n, true
					break
				}
			}
			if !found {
				return nil, fmt.Errorf("state %s has no neighbour one move nearer: %w", cur, format.ErrCorrupt)
			}
		}
		path = append(path, next)
		cur = next
	}
	if goal, err := pz.IsGoal(cur); err != nil || !goal {
		return nil, fmt.Errorf("state %s ends the descent but is no goal: %w", cur, format.ErrCorrupt)
	}
	return path, nil
}

// newMod3Checker checks a two-bit table's code of a slot against its neighbours': a
// goal holds 0; any other reached state has a neighbour one less mod 3 and no
// unreached one; a slot no level reached has no reached neighbour. (A cycle of codes
// going down mod 3 that never meets a goal would pass these checks: `tablesmith
// verify` recomputes the search where it fits.)
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
		case isGoal && c != 0:
			return fmt.Sprintf("a goal holds code %d, not 0", c)
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
			nearer = nearer || nc == (c+2)%3
		}
		if c != 3 && !isGoal && !nearer {
			return fmt.Sprintf("code %d, but no neighbour holds %d", c, (c+2)%3)
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
