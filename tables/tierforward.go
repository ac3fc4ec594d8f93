package tables

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/internal/parallel"
	"github.com/tablesmith/tablesmith/internal/sysmem"
	"github.com/tablesmith/tablesmith/values"
)

// The forward check of a tiered game's set recomputes every position's value from its
// children's stored values. It runs tier by tier, holding in memory only the codes of the
// tier checked and of the tiers its moves lead into, outside the Go heap on huge pages
// (package bigmem): a whole game's codes need not fit at once. A code takes a byte where
// every tier's codes fit in one (Mühle's do: 27 GB for the whole game), else two; a byte
// halves the memory the tiers take and the cache lines the children's reads touch.
// Loaded tiers stay cached within a memory budget, and when one must go, it is the one
// needed again last (or never: Belady's rule, the order being known), so that a tier
// read by the several tiers that lead into it is mostly read once.
//
// Within a tier the positions are visited in the game's own order where it has one
// (games.OrderedTierWorker), in which the children of consecutive positions lie close
// together: their codes then come from the cache rather than from memory.

// tierCodes is the codes of one loaded tier.
type tierCodes[C games.Code] struct {
	tier  games.Tier
	codes []C
}

// loadedTier is a tier held by a tierCache, and the memory that holds it.
type loadedTier[C games.Code] struct {
	codes []C
	mem   *bigmem.Buf
}

// tierCache holds the codes of loaded tiers within budget bytes, for a check that visits
// the tiers order[0], order[1], … each reading the tiers in reads[i].
type tierCache[C games.Code] struct {
	s      *Set
	reads  [][]games.Tier
	budget uint64
	used   uint64
	held   map[games.Tier]*loadedTier[C]
}

// readsOf lists the tiers the forward check of tier t reads: t first, then every other
// tier its moves lead into, once each.
func (s *Set) readsOf(t games.Tier) []games.Tier {
	out := []games.Tier{t}
	for _, c := range s.tiers.g.TierChildren(t) {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// tierBytes is the memory the codes of tier t take, a code in a C.
func tierBytes[C games.Code](s *Set, t games.Tier) uint64 {
	return uint64(unsafe.Sizeof(C(0))) * s.tiers.byTier[t].meta.Slots
}

// checkTiersForward checks the forward consistency of the tiers in order (see
// verifyTiers), each with its children present in the set, and names the first
// inconsistent position of the first tier that has one. It holds a code in a byte where
// the codes of every tier it reads fit in one.
func (s *Set) checkTiersForward(ctx context.Context, order []games.Tier, opt VerifyOptions) error {
	if opt.wideCodes {
		return checkTiersForwardIn[uint16](ctx, s, order, opt)
	}
	for _, t := range order {
		for _, u := range s.readsOf(t) {
			if s.tiers.byTier[u].meta.CodeBits > 8 {
				return checkTiersForwardIn[uint16](ctx, s, order, opt)
			}
		}
	}
	return checkTiersForwardIn[uint8](ctx, s, order, opt)
}

// checkTiersForwardIn is checkTiersForward with the codes held in Cs.
func checkTiersForwardIn[C games.Code](ctx context.Context, s *Set, order []games.Tier, opt VerifyOptions) error {
	g := s.tiers.g
	c := &tierCache[C]{s: s, held: map[games.Tier]*loadedTier[C]{}}
	var peak uint64
	var peakTier games.Tier
	for _, t := range order {
		r := s.readsOf(t)
		c.reads = append(c.reads, r)
		var need uint64
		for _, u := range r {
			need += tierBytes[C](s, u)
		}
		if need > peak {
			peak, peakTier = need, t
		}
	}
	avail := sysmem.Available()
	if avail > 0 && peak > avail {
		return fmt.Errorf("tables: the forward check of %s %s holds its values and those of the %ss its moves lead into in memory (%d bytes), %d are available; use --checksums-only",
			g.TierNoun(), g.TierName(peakTier), g.TierNoun(), peak, avail)
	}
	c.budget = opt.Memory
	if c.budget == 0 {
		c.budget = avail / 2
	}
	c.budget = max(c.budget, peak)
	defer c.releaseAll()
	for i, t := range order {
		loaded, err := c.load(ctx, i, opt)
		if err != nil {
			return err
		}
		if err := checkForward(ctx, s, t, loaded, opt); err != nil {
			return fmt.Errorf("%s: %w", s.tiers.byTier[t].File(), err)
		}
	}
	return nil
}

// load returns the codes of the tiers step i reads, in the order of reads[i], loading
// those not held and evicting first, while they would not fit, the held tier needed
// again last.
func (c *tierCache[C]) load(ctx context.Context, i int, opt VerifyOptions) ([]tierCodes[C], error) {
	var out []tierCodes[C]
	for _, t := range c.reads[i] {
		h := c.held[t]
		if h == nil {
			need := tierBytes[C](c.s, t)
			for c.used+need > c.budget {
				if !c.evict(i) {
					break // cannot happen: the budget holds every step's reads
				}
			}
			tab := c.s.tiers.byTier[t]
			mem := bigmem.New(need)
			h = &loadedTier[C]{codes: bigmem.Slice[C](mem)[:tab.meta.Slots], mem: mem}
			if err := loadCodesInto(ctx, tab, h.codes, max(opt.Workers, 1), nil); err != nil {
				mem.Release()
				return nil, fmt.Errorf("%s: %w", tab.File(), err)
			}
			c.held[t] = h
			c.used += need
		}
		out = append(out, tierCodes[C]{tier: t, codes: h.codes})
	}
	return out, nil
}

// evict releases the held tier that step i does not read and that is read again last
// (never, best), reporting whether there was one.
func (c *tierCache[C]) evict(i int) bool {
	victim, far, found := games.Tier(0), -1, false
	for t := range c.held {
		if slices.Contains(c.reads[i], t) {
			continue
		}
		next := len(c.reads) // never again
		for j := i + 1; j < len(c.reads); j++ {
			if slices.Contains(c.reads[j], t) {
				next = j
				break
			}
		}
		if next > far || next == far && t < victim { // ties: the smaller tier number, for a fixed order
			victim, far, found = t, next, true
		}
	}
	if !found {
		return false
	}
	c.held[victim].mem.Release()
	delete(c.held, victim)
	c.used -= tierBytes[C](c.s, victim)
	return true
}

// releaseAll releases every held tier.
func (c *tierCache[C]) releaseAll() {
	for t, h := range c.held {
		h.mem.Release()
		delete(c.held, t)
	}
	c.used = 0
}

// forwardState is one worker's scratch in checkForward.
type forwardState[C games.Code] struct {
	tw       games.TierWorker
	ow       games.OrderedTierWorker // tw, when it has an order of its own
	cb       games.ChildBatch
	gather   games.CodeGather[C]
	slots    []uint64
	own      []C      // the codes of the positions at slots
	gathered []uint16 // the codes of their children, one per child
}

// checkForward recomputes every value of tier t from its children's codes; loaded holds
// t's codes first, then those of every tier its moves may lead into.
func checkForward[C games.Code](ctx context.Context, s *Set, t games.Tier, loaded []tierCodes[C], opt VerifyOptions) error {
	g := s.tiers.g
	tab := s.tiers.byTier[t]
	own := loaded[0].codes
	n := tab.meta.Slots
	first := newFirstFailure(n)
	var checked atomic.Uint64
	tiers, tabs := make([]games.Tier, len(loaded)), make([][]C, len(loaded))
	for k, l := range loaded {
		tiers[k], tabs[k] = l.tier, l.codes
	}
	newState := func() *forwardState[C] {
		st := &forwardState[C]{tw: g.NewTierWorker()}
		st.ow, _ = st.tw.(games.OrderedTierWorker)
		st.gather.SetTiers(tiers, tabs)
		return st
	}
	err := parallel.ForEach(ctx, max(opt.Workers, 1), n, 1<<12, newState, func(st *forwardState[C], lo, hi uint64) error {
		// In slot order a chunk after a known failure cannot hold the first; in the game's
		// order a chunk's positions are no range of slots, and each is checked.
		if st.ow == nil && first.before(lo) {
			return nil
		}
		st.slots = st.slots[:0]
		if st.ow != nil {
			st.slots = st.ow.ChildrenInOrder(t, lo, hi, st.slots, &st.cb)
		} else {
			st.tw.Children(t, lo, hi, &st.cb)
			for s := lo; s < hi; s++ {
				st.slots = append(st.slots, s)
			}
		}
		if len(st.slots) != int(hi-lo) || len(st.cb.Off) != len(st.slots)+1 {
			return fmt.Errorf("the game listed %d positions (%d with children) for %d", len(st.slots), len(st.cb.Off)-1, hi-lo)
		}
		// The positions' own codes first, in a loop of their own: in the game's order
		// their slots are scattered over the tier, and read one by one between the
		// children's, nearly every read would wait for memory alone.
		st.own = st.own[:0]
		for _, slot := range st.slots {
			if slot >= n {
				return fmt.Errorf("the game's order of %s %s names slot %d of %d", g.TierNoun(), g.TierName(t), slot, n)
			}
			st.own = append(st.own, own[slot])
		}
		// The children's codes, all read at once (games.CodeGather), then combined by the
		// one rule as the one-pass solver combines them (values.CodeOfMoves). A position
		// that does not check out, or a chunk with a child that cannot be read, is checked
		// again by checkPosition, move by move, to say what is wrong.
		failSlot, failMsg := n, ""
		fail := func(slot uint64, msg string) {
			if slot < failSlot {
				failSlot, failMsg = slot, msg
			}
		}
		var bad int
		st.gathered, bad = st.gather.Gather(st.gathered, st.cb.Pos)
		least := uint16(0xFFFF)
		for _, c := range st.gathered {
			least = min(least, c)
		}
		holes := least == values.WDLHole
		for p, slot := range st.slots {
			children := st.cb.Pos[st.cb.Off[p]:st.cb.Off[p+1]]
			if bad < 0 && !holes {
				want := values.CodeOfMoves(st.gathered[st.cb.Off[p]:st.cb.Off[p+1]])
				if tab.outcomeOnly {
					want = values.OutcomeCode(want)
				}
				if uint32(st.own[p]) == want {
					continue
				}
			}
			msg := checkPosition(s, t, loaded, children, uint16(st.own[p]), tab)
			if msg == "" && (bad < 0 && !holes) {
				msg = "its moves' values combine to two different values (a fault of tablesmith)"
			}
			if msg != "" {
				fail(slot, msg)
				if st.ow == nil {
					break // ascending slots: the chunk's first failure
				}
			}
		}
		if failMsg != "" {
			first.record(failSlot, failMsg)
		}
		if opt.Progress != nil {
			opt.Progress("values", checked.Add(hi-lo), n)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return first.err(tab, "position")
}

// checkPosition checks one position of tier t whose moves lead to children and whose
// stored code is got, move by move; it returns what is wrong, or "".
func checkPosition[C games.Code](s *Set, t games.Tier, loaded []tierCodes[C], children []games.TierPosition, got uint16, tab *Table) string {
	g := s.tiers.g
	var sum values.MoveSummary
	for _, c := range children {
		code := games.GameOverCode
		if c.Tier != games.GameOver {
			k := 0
			for k < len(loaded) && loaded[k].tier != c.Tier {
				k++
			}
			if k == len(loaded) {
				return fmt.Sprintf("a move leads into %s %s, which the game does not list among the %ss %s %s leads into",
					g.TierNoun(), g.TierName(c.Tier), g.TierNoun(), g.TierNoun(), g.TierName(t))
			}
			cc := loaded[k].codes
			if c.Slot >= uint64(len(cc)) {
				return fmt.Sprintf("a move leads to slot %d of %s %s, which has %d", c.Slot, g.TierNoun(), g.TierName(c.Tier), len(cc))
			}
			code = uint16(cc[c.Slot])
		}
		if !sum.AddCode(uint32(code)) {
			return fmt.Sprintf("a move leads to slot %d of %s %s, which holds the hole marker", c.Slot, g.TierNoun(), g.TierName(c.Tier))
		}
	}
	want := sum.Code()
	if tab.outcomeOnly {
		want = values.OutcomeCode(want)
	}
	if uint32(got) == want {
		return ""
	}
	o, gr, _ := tab.wdl.Decode(uint32(got))
	exp, er, _ := tab.wdl.Decode(want)
	switch {
	case tab.outcomeOnly && uint32(got) > values.WDLOnlyWin:
		return fmt.Sprintf("stored code %d, no win, draw or loss; its moves make it a %v", got, exp)
	case tab.outcomeOnly:
		return fmt.Sprintf("stored %v, its moves make it a %v", o, exp)
	}
	return fmt.Sprintf("stored %s, its moves make it %s", valueText(o, gr), valueText(exp, er))
}

// valueText writes a value with its remoteness ("win in 7", "draw").
func valueText(o values.Outcome, r int) string {
	if o == values.Draw {
		return o.String()
	}
	return fmt.Sprintf("%v in %d", o, r)
}
