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
// together: their codes then come from the cache rather than from memory. Siblings
// (games.SiblingTiers: Mühle's placement sectors of one board) are checked side by side,
// their children listed once (see forwardStep).

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

// tierCache holds the codes of loaded tiers within budget bytes, for a check whose steps
// 0, 1, … each read the tiers in reads[i].
type tierCache[C games.Code] struct {
	s      *Set
	reads  [][]games.Tier
	budget uint64
	used   uint64
	held   map[games.Tier]*loadedTier[C]
	blocks map[games.Tier]bool // tiers whose blocks are checked when loaded, until they are
}

// unchecked lists the tiers whose blocks are still to be checked.
func (c *tierCache[C]) unchecked() []games.Tier {
	var out []games.Tier
	for t, due := range c.blocks {
		if due {
			out = append(out, t)
		}
	}
	return out
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

// forwardStep is one pass of the forward check: tiers checked side by side, siblings of
// one family (games.SiblingTiers) whose children the game lists once, for head, and each
// reads where they lie for it; or one tier alone, its own head. In the placement phase of
// Mühle a board's sectors differ only in the stones in hand, and listing and ranking the
// children is over half the work of the check: a board's several sectors share it.
type forwardStep struct {
	head  games.Tier
	tiers []games.Tier // in the order of the check
}

// forwardSteps groups the tiers in order into steps: each with the siblings of its family
// that follow it in order (games.SiblingTiers), as many as fit in budget bytes of codes
// with the tiers they read (need), the first alone where even two do not.
func (s *Set) forwardSteps(order []games.Tier, budget uint64, need func([]games.Tier) uint64) []forwardStep {
	tt, siblings := s.tiers.g.(games.SiblingTiers)
	checked := map[games.Tier]bool{}
	for _, t := range order {
		checked[t] = false
	}
	var out []forwardStep
	for _, t := range order {
		if checked[t] {
			continue
		}
		checked[t] = true
		step := forwardStep{head: t, tiers: []games.Tier{t}}
		if siblings {
			family := tt.TierSiblings(t)
			step.head = family[0]
			for _, u := range order {
				if done, ok := checked[u]; ok && !done && slices.Contains(family, u) && need(append(slices.Clip(step.tiers), u)) <= budget {
					step.tiers = append(step.tiers, u)
					checked[u] = true
				}
			}
		}
		if len(step.tiers) == 1 {
			step.head = t // alone, it lists its own children
		}
		out = append(out, step)
	}
	return out
}

// readsOfAll lists the tiers the forward check of the tiers ts reads, each once: ts
// first, then every tier their moves lead into.
func (s *Set) readsOfAll(ts []games.Tier) []games.Tier {
	out := slices.Clone(ts)
	for _, t := range ts {
		for _, u := range s.readsOf(t) {
			if !slices.Contains(out, u) {
				out = append(out, u)
			}
		}
	}
	return out
}

// checkTiersForward checks the forward consistency of the tiers in order (see
// verifyTiers), each with its children present in the set, and names the first
// inconsistent position of the first tier that has one. The files of the tiers in
// blocks have every block checked (checksums, counts; format.Reader.VerifyEach) as they
// are first loaded. It holds a code in a byte where the codes of every tier it reads
// fit in one.
func (s *Set) checkTiersForward(ctx context.Context, order, blocks []games.Tier, opt VerifyOptions) error {
	if opt.wideCodes {
		return checkTiersForwardIn[uint16](ctx, s, order, blocks, opt)
	}
	for _, t := range order {
		for _, u := range s.readsOf(t) {
			if s.tiers.byTier[u].meta.CodeBits > 8 {
				return checkTiersForwardIn[uint16](ctx, s, order, blocks, opt)
			}
		}
	}
	return checkTiersForwardIn[uint8](ctx, s, order, blocks, opt)
}

// checkTiersForwardIn is checkTiersForward with the codes held in Cs.
func checkTiersForwardIn[C games.Code](ctx context.Context, s *Set, order, blocks []games.Tier, opt VerifyOptions) error {
	g := s.tiers.g
	c := &tierCache[C]{s: s, held: map[games.Tier]*loadedTier[C]{}, blocks: map[games.Tier]bool{}}
	for _, t := range blocks {
		c.blocks[t] = true
	}
	need := func(ts []games.Tier) uint64 {
		var n uint64
		for _, u := range s.readsOfAll(ts) {
			n += tierBytes[C](s, u)
		}
		return n
	}
	var peak uint64
	var peakTier games.Tier
	for _, t := range order {
		if n := need([]games.Tier{t}); n > peak {
			peak, peakTier = n, t
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
	siblingBudget := c.budget
	if opt.noSiblings {
		siblingBudget = 0 // no two tiers fit: each is checked alone
	}
	steps := s.forwardSteps(order, siblingBudget, need)
	for _, st := range steps {
		c.reads = append(c.reads, s.readsOfAll(st.tiers))
	}
	defer c.releaseAll()
	for i, st := range steps {
		loaded, err := c.load(ctx, i, opt)
		if err != nil {
			return err
		}
		failed, err := checkForward(ctx, s, st, loaded, opt)
		if err == nil {
			continue
		}
		// A step takes siblings from further on in order: tiers before the failed one may
		// not have been checked yet, and the first of them that fails is the one to name
		// (a damaged tier makes those that move into it fail too). They are checked now,
		// their codes loaded afresh: a failure costs at most the check it cut short. An
		// error that is no inconsistency of one tier (a file that cannot be read, a fault
		// of the game) is reported at once.
		at := slices.Index(order, failed)
		var before []games.Tier
		for _, later := range steps[i+1:] {
			for _, u := range later.tiers {
				if k := slices.Index(order, u); k >= 0 && k < at {
					before = append(before, u)
				}
			}
		}
		if failed == games.GameOver || len(before) == 0 {
			return err
		}
		c.releaseAll()
		if opt.rechecked != nil {
			opt.rechecked(failed, before)
		}
		slices.SortFunc(before, func(a, b games.Tier) int { return slices.Index(order, a) - slices.Index(order, b) })
		if earlier := checkTiersForwardIn[C](ctx, s, before, c.unchecked(), opt); earlier != nil {
			return earlier
		}
		return err
	}
	return nil
}

// load returns the codes of the tiers step i reads, by tier, loading those not held and
// evicting first, while they would not fit, the held tier needed again last.
func (c *tierCache[C]) load(ctx context.Context, i int, opt VerifyOptions) (map[games.Tier][]C, error) {
	out := map[games.Tier][]C{}
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
			load := loadCodesInto[C]
			if c.blocks[t] {
				load = loadCheckedInto[C]
			}
			if err := load(ctx, tab, h.codes, max(opt.Workers, 1), nil); err != nil {
				mem.Release()
				return nil, fmt.Errorf("%s: %w", tab.File(), err)
			}
			c.blocks[t] = false
			c.held[t] = h
			c.used += need
		}
		out[t] = h.codes
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

// siblingCheck is what the forward check of one tier of a step needs: its table, its codes
// and those of the tiers its moves lead into (loaded[0] its own), where its children lie
// for each tier the step's head's lie in, and its first failure.
type siblingCheck[C games.Code] struct {
	tier   games.Tier
	tab    *Table
	loaded []tierCodes[C]
	// The head's child tiers (heads) and where the same children lie for this tier
	// (mine); direct: the head's tiers may be read as this tier's (each goes to a
	// different tier of this one's, none ends the game), so its gather reads the head's
	// children as listed; else they are moved (retag) first.
	heads, mine []games.Tier
	direct      bool
	first       *firstFailure
}

// newSiblingCheck prepares the check of tier u of a step whose children are listed for head.
func newSiblingCheck[C games.Code](s *Set, head, u games.Tier, loaded map[games.Tier][]C) *siblingCheck[C] {
	g := s.tiers.g
	tc := &siblingCheck[C]{tier: u, tab: s.tiers.byTier[u], first: newFirstFailure(s.tiers.byTier[u].meta.Slots), direct: true}
	for _, r := range s.readsOf(u) {
		tc.loaded = append(tc.loaded, tierCodes[C]{tier: r, codes: loaded[r]})
	}
	if head != u {
		tc.heads, tc.mine, tc.direct = siblingMap(g, head, u)
	}
	return tc
}

// siblingMap returns the tiers the children of head lie in (heads), where the same
// children lie for its sibling u (mine), and whether u may read them as listed for head:
// each of heads goes to a different tier of u, and none ends the game.
func siblingMap(g games.TieredGame, head, u games.Tier) (heads, mine []games.Tier, direct bool) {
	tt := g.(games.SiblingTiers)
	direct = true
	for _, c := range g.TierChildren(head) {
		m := tt.SiblingChild(u, c)
		if m == games.GameOver || slices.Contains(mine, m) {
			direct = false
		}
		heads, mine = append(heads, c), append(mine, m)
	}
	return heads, mine, direct
}

// gatherTiers returns the tiers under which tc's gather reads each of its loaded tiers:
// their own, or where it reads the head's children as listed, the head's tier whose
// children lie in each (GameOver, which no listed child is looked up under, for one
// none lie in).
func (tc *siblingCheck[C]) gatherTiers() []games.Tier {
	out := make([]games.Tier, len(tc.loaded))
	for k, l := range tc.loaded {
		out[k] = l.tier
		if tc.heads == nil || !tc.direct {
			continue
		}
		out[k] = games.GameOver
		if i := slices.Index(tc.mine, l.tier); i >= 0 {
			out[k] = tc.heads[i]
		}
	}
	return out
}

// retag appends to dst the children ps of the head moved to where they lie for tc. A
// child in a tier that the head's moves do not lead into (a fault of the game) goes to
// unlisted, which no tier of tc is: the check then names the move rather than reading
// another tier's codes for it.
func (tc *siblingCheck[C]) retag(dst, ps []games.TierPosition) []games.TierPosition {
	for _, c := range ps {
		if i := slices.Index(tc.heads, c.Tier); i >= 0 {
			c.Tier = tc.mine[i]
			if c.Tier == games.GameOver {
				c.Slot = 0
			}
		} else if c.Tier != games.GameOver {
			c.Tier = unlisted
		}
		dst = append(dst, c)
	}
	return dst
}

// unlisted is the tier retag gives a child whose tier the head's moves do not lead into.
const unlisted = games.GameOver - 1

// forwardState is one worker's scratch in checkForward.
type forwardState[C games.Code] struct {
	tw       games.TierWorker
	ow       games.OrderedTierWorker // tw, when it has an order of its own
	cb       games.ChildBatch
	slots    []uint64
	gather   []games.CodeGather[C] // one per tier of the step
	own      []C                   // the codes of the positions at slots
	gathered []uint16              // the codes of their children, one per child
	moved    []games.TierPosition  // the children retagged for a sibling (siblingCheck.retag)
}

// checkForward recomputes every value of the tiers of step from their children's codes,
// loaded by tier, and reports the first inconsistent position of the first tier of the
// step that has one, and that tier (GameOver for a fault of no one tier). The children
// of a chunk of positions are listed once, for the step's head, and read for each tier.
func checkForward[C games.Code](ctx context.Context, s *Set, step forwardStep, loaded map[games.Tier][]C, opt VerifyOptions) (games.Tier, error) {
	g := s.tiers.g
	n := g.TierSize(step.head)
	var checks []*siblingCheck[C]
	for _, u := range step.tiers {
		if slots := s.tiers.byTier[u].meta.Slots; slots != n {
			return u, fmt.Errorf("%s: %s %s has %d slots, its sibling %s %d (a fault of the game)",
				s.tiers.byTier[u].File(), g.TierNoun(), g.TierName(u), slots, g.TierName(step.head), n)
		}
		checks = append(checks, newSiblingCheck(s, step.head, u, loaded))
	}
	var checked atomic.Uint64
	total := n * uint64(len(checks))
	newState := func() *forwardState[C] {
		st := &forwardState[C]{tw: g.NewTierWorker(), gather: make([]games.CodeGather[C], len(checks))}
		st.ow, _ = st.tw.(games.OrderedTierWorker)
		for k, tc := range checks {
			tabs := make([][]C, len(tc.loaded))
			for j, l := range tc.loaded {
				tabs[j] = l.codes
			}
			st.gather[k].Layout = games.Layout(g)
			st.gather[k].SetTiers(tc.gatherTiers(), tabs)
		}
		return st
	}
	err := parallel.ForEach(ctx, max(opt.Workers, 1), n, 1<<12, newState, func(st *forwardState[C], lo, hi uint64) error {
		// In slot order a chunk after a known failure of every tier cannot hold the
		// first; in the game's order a chunk's positions are no range of slots, and each
		// is checked.
		if st.ow == nil && !slices.ContainsFunc(checks, func(tc *siblingCheck[C]) bool { return !tc.first.before(lo) }) {
			return nil
		}
		st.slots = st.slots[:0]
		if st.ow != nil {
			st.slots = st.ow.ChildrenInOrder(step.head, lo, hi, st.slots, &st.cb)
		} else {
			st.tw.Children(step.head, lo, hi, &st.cb)
			for s := lo; s < hi; s++ {
				st.slots = append(st.slots, s)
			}
		}
		if len(st.slots) != int(hi-lo) || len(st.cb.Off) != len(st.slots)+1 {
			return fmt.Errorf("the game listed %d positions (%d with children) for %d", len(st.slots), len(st.cb.Off)-1, hi-lo)
		}
		for _, slot := range st.slots {
			if slot >= n {
				return fmt.Errorf("the game's order of %s %s names slot %d of %d", g.TierNoun(), g.TierName(step.head), slot, n)
			}
		}
		for k, tc := range checks {
			checkChunk(s, tc, st, &st.gather[k])
		}
		if opt.Progress != nil {
			opt.Progress("values", checked.Add((hi-lo)*uint64(len(checks))), total)
		}
		return nil
	})
	if err != nil {
		if step.head != checks[0].tier {
			err = fmt.Errorf("listing the moves of its sibling %s %s: %w", g.TierNoun(), g.TierName(step.head), err)
		}
		return games.GameOver, fmt.Errorf("%s: %w", checks[0].tab.File(), err)
	}
	for _, tc := range checks {
		if err := tc.first.err(tc.tab, "position"); err != nil {
			return tc.tier, fmt.Errorf("%s: %w", tc.tab.File(), err)
		}
	}
	return 0, nil
}

// checkChunk checks tier tc's positions at st.slots, whose children (listed for the
// step's head) are in st.cb.
func checkChunk[C games.Code](s *Set, tc *siblingCheck[C], st *forwardState[C], gather *games.CodeGather[C]) {
	// The positions' own codes first, in a loop of their own: in the game's order their
	// slots are scattered over the tier, and read one by one between the children's,
	// nearly every read would wait for memory alone.
	own := tc.loaded[0].codes
	st.own = st.own[:0]
	for _, slot := range st.slots {
		st.own = append(st.own, own[slot])
	}
	children := st.cb.Pos
	if !tc.direct {
		st.moved = tc.retag(st.moved[:0], st.cb.Pos)
		children = st.moved
	}
	// The children's codes, all read at once (games.CodeGather), then combined by the
	// one rule as the one-pass solver combines them (values.CodeOfMoves). A position
	// that does not check out, or a chunk with a child that cannot be read, is checked
	// again by checkPosition, move by move, to say what is wrong.
	n := tc.tab.meta.Slots
	failSlot, failMsg := n, ""
	var bad int
	st.gathered, bad = gather.Gather(st.gathered, children)
	holes := bad < 0 && gather.Least() == values.WDLHole
	// The game's layout, in a win/draw/loss-only set too: its outcome codes (a loss 2, a
	// win 3) combine right in either, but a win over by the rules has a code only there.
	layout := gather.Layout
	if err := st.cb.CheckOver(layout); len(st.cb.Over) > 0 && err != nil {
		tc.first.record(st.slots[0], err.Error())
		return
	}
	nextOver := 0 // the next of st.cb.Over, the positions over by the rules
	for p, slot := range st.slots {
		var over values.Outcome
		if nextOver < len(st.cb.Over) && st.cb.Over[nextOver].At == p {
			over = st.cb.Over[nextOver].Outcome
			nextOver++
		}
		if bad < 0 && !holes {
			want := layout.OfMoves(st.gathered[st.cb.Off[p]:st.cb.Off[p+1]])
			if over != 0 {
				want = layout.Code(over, 0)
			}
			if tc.tab.outcomeOnly {
				want = values.OutcomeCode(want)
			}
			if uint32(st.own[p]) == want {
				continue
			}
		}
		mine := children[st.cb.Off[p]:st.cb.Off[p+1]]
		if tc.direct && tc.heads != nil {
			mine = tc.retag(nil, mine)
		}
		msg := checkPosition(s, layout, tc.tier, tc.loaded, mine, over, uint16(st.own[p]), tc.tab)
		if msg == "" && (bad < 0 && !holes) {
			msg = "its moves' values combine to two different values (a fault of tablesmith)"
		}
		if msg != "" && slot < failSlot {
			failSlot, failMsg = slot, msg
			if st.ow == nil {
				break // ascending slots: the chunk's first failure
			}
		}
	}
	if failMsg != "" {
		tc.first.record(failSlot, failMsg)
	}
}

// checkPosition checks one position of tier t whose moves lead to children and whose
// stored code is got, move by move; over is its value by the rules where it is over (0
// where it is not). It returns what is wrong, or "".
func checkPosition[C games.Code](s *Set, layout values.WDLCodes, t games.Tier, loaded []tierCodes[C], children []games.TierPosition, over values.Outcome, got uint16, tab *Table) string {
	g := s.tiers.g
	var sum values.MoveSummary
	for _, c := range children {
		if c.Tier == unlisted {
			return fmt.Sprintf("a move leads into a %s that the game does not list among those of its family's first", g.TierNoun())
		}
		code, ok := games.EndCode(c.Slot, layout)
		if c.Tier == games.GameOver && !ok {
			return fmt.Sprintf("a move ends the game at slot %d of GameOver, which is no end the game declares", c.Slot)
		}
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
		if !sum.AddCodeOf(layout, uint32(code)) {
			return fmt.Sprintf("a move leads to slot %d of %s %s, which holds the hole marker", c.Slot, g.TierNoun(), g.TierName(c.Tier))
		}
	}
	want := sum.CodeOf(layout)
	rules := ""
	if over != 0 {
		want, rules = layout.Code(over, 0), " by the rules (it is over)"
	}
	if tab.outcomeOnly {
		want = values.OutcomeCode(want)
	}
	if uint32(got) == want {
		return ""
	}
	o, gr, ok := tab.wdl.Decode(uint32(got))
	exp, er, _ := tab.wdl.Decode(want)
	switch {
	case tab.outcomeOnly && uint32(got) > values.WDLOnlyWin:
		return fmt.Sprintf("stored code %d, no win, draw or loss; %s a %v%s", got, madeBy(over), exp, rules)
	case tab.outcomeOnly:
		return fmt.Sprintf("stored %v, %s a %v%s", o, madeBy(over), exp, rules)
	case !ok:
		return fmt.Sprintf("stored the hole marker (code %d) where a position is; %s %s%s", got, madeBy(over), valueText(exp, er), rules)
	case over != 0:
		return fmt.Sprintf("stored %s, it is %s%s", valueText(o, gr), valueText(exp, er), rules)
	}
	return fmt.Sprintf("stored %s, its moves make it %s", valueText(o, gr), valueText(exp, er))
}

// madeBy says where a position's value comes from: its moves, or the rules (over).
func madeBy(over values.Outcome) string {
	if over != 0 {
		return "it is"
	}
	return "its moves make it"
}

// valueText writes a value with its remoteness ("win in 7", "draw").
func valueText(o values.Outcome, r int) string {
	if o == values.Draw {
		return o.String()
	}
	return fmt.Sprintf("%v in %d", o, r)
}
