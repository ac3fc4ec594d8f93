package pipeline

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/tablesmith/tablesmith/builder/onepass"
	"github.com/tablesmith/tablesmith/builder/retro"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/bigmem"
	"github.com/tablesmith/tablesmith/values"
)

// tierSpace is a unit of a tiered game as the retrograde engine sees it: the slots of its
// tiers one after another; a move into a tier outside the unit is an exit, whose value
// comes from the codes of that tier, solved before.
type tierSpace struct {
	g     games.TieredGame
	codes values.WDLCodes // the layout of the set's codes (games.Layout)
	u     TierUnit
	off   []uint64 // off[i]: the first slot of u.Tiers[i]; off[len(u.Tiers)]: the total
	ex    *tierExits
	// parents[i] lists the tiers of the unit (by index) with moves into u.Tiers[i], each
	// once; declared[i] lists the tiers u.Tiers[i] declares as its children.
	parents [][]int
	// dest[i] lists where the children tier u.Tiers[i] declares are: in the unit (from
	// off, size slots) or an exit's codes. One short scan per move finds a child's.
	dest [][]childDest
	// once[i] is the index in dest[i] of the only tier of the unit among u.Tiers[i]'s
	// children, when there is exactly one (else −1): a games.CountingTierWorker counts
	// the children in it apart, once each.
	once []int

	mu     sync.Mutex
	failed error // the first move the game did not declare (see summarise)
}

// childDest is where the positions of one child tier are: slots off.. off+size−1 of the
// unit, or (exit) the values in codes.
type childDest struct {
	tier      games.Tier
	exit      bool
	off, size uint64
	codes     []uint16
}

func newTierSpace(g games.TieredGame, u TierUnit, ex *tierExits) *tierSpace {
	sp := &tierSpace{g: g, codes: games.Layout(g), u: u, ex: ex, off: []uint64{0}, parents: make([][]int, len(u.Tiers))}
	for i, t := range u.Tiers {
		sp.off = append(sp.off, sp.off[i]+g.TierSize(t))
		for _, c := range g.TierChildren(t) {
			// A game may list a child twice; its parents must still be asked for once, or
			// every predecessor would be counted twice.
			if j := slices.Index(u.Tiers, c); j >= 0 && !slices.Contains(sp.parents[j], i) {
				sp.parents[j] = append(sp.parents[j], i)
			}
		}
	}
	for _, t := range u.Tiers {
		var dest []childDest
		for _, c := range g.TierChildren(t) {
			if slices.ContainsFunc(dest, func(d childDest) bool { return d.tier == c }) {
				continue
			}
			if j := slices.Index(u.Tiers, c); j >= 0 {
				dest = append(dest, childDest{tier: c, off: sp.off[j], size: sp.off[j+1] - sp.off[j]})
				continue
			}
			codes := ex.lookup(c)
			dest = append(dest, childDest{tier: c, exit: true, size: uint64(len(codes)), codes: codes})
		}
		sp.dest = append(sp.dest, dest)
		once, in := -1, 0
		for k, d := range dest {
			if !d.exit {
				once = k
				in++
			}
		}
		if in != 1 {
			once = -1
		}
		sp.once = append(sp.once, once)
	}
	return sp
}

// fail records a move the game's tier graph does not allow; the build reports the first.
func (sp *tierSpace) fail(err error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.failed == nil {
		sp.failed = err
	}
}

// err is the first undeclared move met, or nil.
func (sp *tierSpace) err() error {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.failed
}

func (sp *tierSpace) Slots() uint64 { return sp.off[len(sp.off)-1] }

func (sp *tierSpace) NewWorker() retro.Worker {
	return &tierSpaceWorker{sp: sp, tw: sp.g.NewTierWorker(), pb: make([]games.ParentBatch, len(sp.u.Tiers))}
}

// tierAt returns the index in the unit of the tier holding slot s.
func (sp *tierSpace) tierAt(s uint64) int {
	i := 0
	for s >= sp.off[i+1] {
		i++
	}
	return i
}

// tierSpaceWorker is one goroutine's view of a tierSpace.
type tierSpaceWorker struct {
	sp     *tierSpace
	tw     games.TierWorker
	cb     games.ChildBatch
	pb     []games.ParentBatch
	counts []uint32 // the children in the unit, counted by a games.CountingTierWorker
	local  []uint64
	// gathered holds one position's exit codes between reading and combining them.
	gathered []uint16
	// A one-pass chunk's exit reads: the codes of the children of the chunk's positions,
	// one per child, read by gather from the exits of tier gatherOf−1.
	gather   games.CodeGather[uint16]
	gatherOf int
	exCodes  []uint16
}

// gatherExits reads the codes of children, the moves of a chunk of positions of the
// unit's tier i, all exits, into w.exCodes (one per child), all at once (see
// games.CodeGather: read one position at a time, the placement phase spent half its time
// waiting for them).
func (w *tierSpaceWorker) gatherExits(i int, children []games.TierPosition) error {
	dest := w.sp.dest[i]
	if w.gatherOf != i+1 {
		tiers, tabs := make([]games.Tier, len(dest)), make([][]uint16, len(dest))
		for k, d := range dest {
			tiers[k], tabs[k] = d.tier, d.codes
			if !d.exit {
				tabs[k] = nil // a move into it is refused below
			}
		}
		w.gather.Layout = w.sp.codes
		w.gather.SetTiers(tiers, tabs)
		w.gatherOf = i + 1
	}
	var bad int
	if w.exCodes, bad = w.gather.Gather(w.exCodes, children); bad < 0 {
		return nil
	}
	c := children[bad]
	if c.Tier == games.GameOver {
		return fmt.Errorf("a move of %s %s ends the game at slot %d of GameOver, which is no end this game declares "+
			"(%d: a loss, %d: a draw, %d: a win, only in a game with games.OverWins)",
			w.sp.g.TierNoun(), w.sp.g.TierName(w.sp.u.Tiers[i]), c.Slot, games.EndLoss, games.EndDraw, games.EndWin)
	}
	k := 0
	for k < len(dest) && dest[k].tier != c.Tier {
		k++
	}
	switch {
	case k == len(dest):
		return fmt.Errorf("a move of %s %s leads into %s %s, which it does not declare as a child",
			w.sp.g.TierNoun(), w.sp.g.TierName(w.sp.u.Tiers[i]), w.sp.g.TierNoun(), w.sp.g.TierName(c.Tier))
	case !dest[k].exit:
		return fmt.Errorf("a move of %s %s stays in the unit, which a one-pass unit must not",
			w.sp.g.TierNoun(), w.sp.g.TierName(w.sp.u.Tiers[i]))
	}
	return fmt.Errorf("a move leads to slot %d of %s %s, which has %d", c.Slot, w.sp.g.TierNoun(),
		w.sp.g.TierName(c.Tier), dest[k].size)
}

// summarise counts the children of one position of the unit's tier i that stay in the
// unit, each slot once, and summarises the others (the exits). A move into a tier that
// tier i does not declare, or past the end of a tier, is a fault of the game: it is
// recorded (the build fails with it) and the move left out.
func (w *tierSpaceWorker) summarise(i int, children []games.TierPosition) (uint32, values.MoveSummary) {
	var ex values.MoveSummary
	succ := w.local[:0]
	for _, c := range children {
		if c.Tier == games.GameOver {
			o, ok := games.EndOutcome(c.Slot)
			if !ok || !w.sp.codes.Holds(o, 0) {
				w.sp.fail(fmt.Errorf("a move of %s %s ends the game at slot %d of GameOver, which is no end this game declares "+
					"(%d: a loss, %d: a draw, %d: a win, only in a game with games.OverWins)",
					w.sp.g.TierNoun(), w.sp.g.TierName(w.sp.u.Tiers[i]), c.Slot, games.EndLoss, games.EndDraw, games.EndWin))
				continue
			}
			ex.Add(o, 0)
			continue
		}
		k := 0
		dest := w.sp.dest[i]
		for k < len(dest) && dest[k].tier != c.Tier {
			k++
		}
		if k == len(dest) {
			w.sp.fail(fmt.Errorf("a move of %s %s leads into %s %s, which it does not declare as a child",
				w.sp.g.TierNoun(), w.sp.g.TierName(w.sp.u.Tiers[i]), w.sp.g.TierNoun(), w.sp.g.TierName(c.Tier)))
			continue
		}
		d := &dest[k]
		if c.Slot >= d.size {
			w.sp.fail(fmt.Errorf("a move leads to slot %d of %s %s, which has %d", c.Slot, w.sp.g.TierNoun(),
				w.sp.g.TierName(c.Tier), d.size))
			continue
		}
		if !d.exit {
			succ = append(succ, d.off+c.Slot)
			continue
		}
		w.gathered = append(w.gathered, d.codes[c.Slot])
	}
	// The exits' codes are read at random across arrays of up to gigabytes: nearly every
	// read misses the cache. Gathered in a loop where nothing depends on what they read,
	// the reads overlap; combined as they came, each waited for the one before (a branch
	// on the code, mispredicted, dropped the reads begun after it). The placement phase,
	// all exits, spent half its time in that wait.
	for _, code := range w.gathered {
		ex.AddCodeOf(w.sp.codes, uint32(code))
	}
	w.gathered = w.gathered[:0]
	slices.Sort(succ)
	w.local = succ
	return uint32(len(slices.Compact(succ))), ex
}

func (w *tierSpaceWorker) Expand(lo, hi uint64, b *retro.Batch) {
	b.Reset()
	for lo < hi {
		i := w.sp.tierAt(lo)
		end := min(hi, w.sp.off[i+1])
		t := w.sp.u.Tiers[i]
		ow, ok := w.tw.(games.CountingTierWorker)
		if k := w.sp.once[i]; ok && k >= 0 {
			d := &w.sp.dest[i][k]
			w.counts = ow.ChildrenOnce(t, lo-w.sp.off[i], end-w.sp.off[i], d.tier, &w.cb, w.counts[:0])
			if len(w.counts) != int(end-lo) {
				// The build fails with it; the batch is still filled, with no successors.
				w.sp.fail(fmt.Errorf("the game counted the children of %d positions for %d", len(w.counts), end-lo))
				w.counts = append(w.counts[:0], make([]uint32, end-lo)...)
			}
			// The children listed are all exits then (the unit's only child tier among
			// them, once, is counted apart): their codes read at once and combined by the
			// one rule, as the one-pass solver reads them; a move the game should not make
			// is told move by move, below (summarise).
			first := len(b.Count)
			if w.gatherExits(i, w.cb.Pos) == nil {
				for p := range int(end - lo) {
					moves := w.exCodes[w.cb.Off[p]:w.cb.Off[p+1]]
					b.Count = append(b.Count, w.counts[p])
					b.Exits = append(b.Exits, w.sp.codes.SummaryOf(w.sp.codes.OfMoves(moves), len(moves)))
				}
			} else {
				for p := range int(end - lo) {
					n, ex := w.summarise(i, w.cb.Pos[w.cb.Off[p]:w.cb.Off[p+1]])
					b.Count = append(b.Count, w.counts[p]+n)
					b.Exits = append(b.Exits, ex)
				}
			}
			w.settleOver(i, b, first)
			lo = end
			continue
		}
		first := len(b.Count)
		w.tw.Children(t, lo-w.sp.off[i], end-w.sp.off[i], &w.cb)
		for p := range int(end - lo) {
			n, ex := w.summarise(i, w.cb.Pos[w.cb.Off[p]:w.cb.Off[p+1]])
			b.Count = append(b.Count, n)
			b.Exits = append(b.Exits, ex)
		}
		w.settleOver(i, b, first)
		lo = end
	}
}

// settleOver passes the positions of the last batch of tier i that the game marked over
// by the rules (games.ChildBatch.Over) to the engine (retro.Batch.Over), the batch's p-th
// at b.Count[first+p]. A batch that marks them wrongly fails the build.
func (w *tierSpaceWorker) settleOver(i int, b *retro.Batch, first int) {
	if len(w.cb.Over) == 0 {
		return
	}
	if err := w.cb.CheckOver(w.sp.codes); err != nil {
		w.sp.fail(fmt.Errorf("%s %s: %w", w.sp.g.TierNoun(), w.sp.g.TierName(w.sp.u.Tiers[i]), err))
		return
	}
	for _, o := range w.cb.Over {
		k := first + o.At
		if b.Count[k] != 0 {
			w.sp.fail(fmt.Errorf("%s %s: a position over by the rules counts %d moves in its own unit",
				w.sp.g.TierNoun(), w.sp.g.TierName(w.sp.u.Tiers[i]), b.Count[k]))
			return
		}
		b.Over = append(b.Over, retro.Over{At: k, Outcome: o.Outcome})
	}
}

func (w *tierSpaceWorker) Preds(slots []uint64, b *retro.Batch) {
	b.Reset()
	for k := 0; k < len(slots); {
		i := w.sp.tierAt(slots[k])
		lo, hi := w.sp.off[i], w.sp.off[i+1]
		w.local = w.local[:0]
		e := k
		for ; e < len(slots) && slots[e] >= lo && slots[e] < hi; e++ {
			w.local = append(w.local, slots[e]-lo)
		}
		for _, j := range w.sp.parents[i] {
			w.tw.Parents(w.sp.u.Tiers[i], w.local, w.sp.u.Tiers[j], &w.pb[j])
		}
		for p := range w.local {
			for _, j := range w.sp.parents[i] {
				pb := &w.pb[j]
				for _, s := range pb.Slots[pb.Off[p]:pb.Off[p+1]] {
					b.Succ = append(b.Succ, w.sp.off[j]+s)
				}
			}
			b.Close()
		}
		k = e
	}
}

// solveOnePass solves a unit of one tier none of whose moves stays in it with the one-pass
// engine (builder/onepass): this worker lists a chunk's children in the game's order and
// reads their codes from the exits; the engine combines and writes them. It returns the
// code of every slot.
func solveOnePass(ctx context.Context, sp *tierSpace, workers int) ([]uint16, *bigmem.Buf, error) {
	codes, mem, err := onepass.Solve(ctx, onePassSpace{sp}, onepass.Options{Workers: workers, Layout: sp.codes})
	if err == nil {
		err = sp.err()
	}
	if err != nil {
		if mem != nil {
			mem.Release()
		}
		return nil, nil, err // BuildTierUnit names the tier
	}
	return codes, mem, nil
}

// onePassSpace is a one-pass unit as the one-pass engine sees it.
type onePassSpace struct{ sp *tierSpace }

func (o onePassSpace) Slots() uint64 { return o.sp.Slots() }

func (o onePassSpace) NewWorker() onepass.Worker {
	return onePassWorker{o.sp.NewWorker().(*tierSpaceWorker)}
}

// onePassWorker lists a chunk's positions in the game's order where it has one (their
// children's codes then come from the cache rather than from memory:
// games.OrderedTierWorker), and reads their children's codes at once (gatherExits).
type onePassWorker struct{ w *tierSpaceWorker }

func (o onePassWorker) Expand(lo, hi uint64, b *onepass.Batch) error {
	w := o.w
	t := w.sp.u.Tiers[0]
	if ow, ok := w.tw.(games.OrderedTierWorker); ok {
		b.Slots = ow.ChildrenInOrder(t, lo, hi, b.Slots, &w.cb)
	} else {
		w.tw.Children(t, lo, hi, &w.cb)
		for s := lo; s < hi; s++ {
			b.Slots = append(b.Slots, s)
		}
	}
	if len(b.Slots) != int(hi-lo) {
		return fmt.Errorf("the game ordered %d positions for %d", len(b.Slots), hi-lo)
	}
	// The codes are gathered straight into the batch (no copy a child).
	w.exCodes = b.Codes[:0]
	err := w.gatherExits(0, w.cb.Pos)
	b.Codes, w.exCodes = w.exCodes, nil
	if err != nil {
		return err
	}
	b.Off = append(b.Off[:0], w.cb.Off...)
	if len(w.cb.Over) > 0 {
		if err := w.cb.CheckOver(w.sp.codes); err != nil {
			return err
		}
		for _, x := range w.cb.Over {
			b.Over = append(b.Over, onepass.Over{At: x.At, Code: uint16(w.sp.codes.Code(x.Outcome, 0))})
		}
	}
	return nil
}
