package mill

import (
	"cmp"
	"flag"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/tablesmith/tablesmith/games"
)

// Nine Men's Morris as a graph of tiers. A tier is a sector: the stones on the board of
// the side to move (w) and of the opponent (b) and, in the placement phase, the stones
// they still hold in hand (wh, bh). In the moving phase (wh = bh = 0) a move without
// capture leads from sector (w, b) to (b, w), so the two reach each other and are solved
// together; a capture leads to (b−1, w), solved before, or ends the game when it leaves
// the opponent two stones. A placement leads from (w, b, wh, bh) to (b, w+1, bh, wh−1), or
// (b−1, w+1, bh, wh−1) with a capture: the hands only shrink, so a placement sector is
// solved in one pass from its children, and the last placement leads into the moving
// phase.

var _ games.TieredGame = Game{}

// tierOf is the tier of the sector with w and b stones on the board and wh and bh in hand
// (mover first): four bits each, so a moving-phase sector is w | b<<4.
func tierOf(w, b, wh, bh int) games.Tier { return games.Tier(w | b<<4 | wh<<8 | bh<<12) }

// sectorTier is the tier of moving-phase sector (w, b).
func sectorTier(w, b int) games.Tier { return tierOf(w, b, 0, 0) }

// tierStones returns the stones of a tier, and whether it is a sector of the game: in the
// moving phase 3 ≤ w, b ≤ 9; in the placement phase the hands fit a side to move (equal,
// White to move, or the mover holding one more, Black), neither side has more stones on
// the board than it has placed, and both have at least 3 on the board and in hand.
func (v *variant) tierStones(t games.Tier) (w, b, wh, bh int, ok bool) {
	w, b, wh, bh = int(t&15), int(t>>4&15), int(t>>8&15), int(t>>12&15)
	if t>>16 != 0 {
		return w, b, wh, bh, false
	}
	n := v.stones
	if wh == 0 && bh == 0 {
		return w, b, 0, 0, w >= MinStones && w <= n && b >= MinStones && b <= n
	}
	if v.merged { // any hands: a side may move before its hand is empty
		ok = wh <= n && bh <= n && w <= n-wh && b <= n-bh && w+wh >= MinStones && b+bh >= MinStones
		return w, b, wh, bh, ok
	}
	ok = wh >= 1 && (wh == bh || wh == bh+1) && wh <= n &&
		w <= n-wh && b <= n-bh && w+wh >= MinStones && b+bh >= MinStones
	return w, b, wh, bh, ok
}

// placementStart is the tier of the empty board of a game of n stones a side.
func placementStart(n int) games.Tier { return tierOf(0, 0, n, n) }

// reachable lists the tiers reachable from start by the tier graph, start first, each once.
func reachable(g Game, start games.Tier) []games.Tier {
	out := []games.Tier{start}
	seen := map[games.Tier]bool{start: true}
	for i := 0; i < len(out); i++ {
		for _, c := range g.TierChildren(out[i]) {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

var _ games.TierDescriber = Game{}

// DescribeTier gives a sector's stones on the board and in hand, the side to move's first.
func (g Game) DescribeTier(t games.Tier) map[string]any {
	w, b, wh, bh, _ := g.v().tierStones(t)
	return map[string]any{"board": [2]int{w, b}, "hand": [2]int{wh, bh}}
}

// TierNoun is what Mühle calls a tier.
func (Game) TierNoun() string { return "sector" }

// RulesID fingerprints the rules the game plays (Rules.RulesID; Nine Men's Morris's is
// the package function RulesID).
func (g Game) RulesID() string { return g.rules().RulesID() }

var _ games.RulesCompat = Game{}

// AcceptsRules accepts the moving-phase fingerprint of the sets built before the
// placement phase was modelled for the moving-phase sectors, whose rules did not change.
func (g Game) AcceptsRules(id string, t games.Tier) bool {
	if g.rules() != Nine {
		return id == g.RulesID()
	}
	_, _, wh, bh, ok := g.v().tierStones(t)
	return id == RulesID() || ok && wh == 0 && bh == 0 && id == movingRulesID()
}

// Tiers lists the moving-phase sectors (49 in Nine Men's Morris) by the stones on the
// board, fewest first (of w+b stones, sector (w, b) with w ≥ b by increasing w, each
// followed by its twin (b, w)), then the placement sectors the game reaches from its empty
// board, by the stones in hand, fewest first (so that each comes after the sectors it
// leads into).
func (g Game) Tiers() []games.Tier {
	v := g.v()
	out := v.movingTiers()
	var place []games.Tier
	for _, t := range reachable(g, placementStart(v.stones)) {
		if _, _, wh, bh, _ := v.tierStones(t); wh > 0 || bh > 0 {
			place = append(place, t)
		}
	}
	slices.SortStableFunc(place, func(a, b games.Tier) int {
		aw, ab, awh, abh, _ := v.tierStones(a)
		bw, bb, bwh, bbh, _ := v.tierStones(b)
		return cmp.Or(cmp.Compare(awh+abh, bwh+bbh), cmp.Compare(awh, bwh), cmp.Compare(aw+ab, bw+bb), cmp.Compare(bw, aw))
	})
	return append(out, place...)
}

// movingTiers lists the moving-phase sectors in the order of Tiers.
func (v *variant) movingTiers() []games.Tier {
	var out []games.Tier
	for n := 2 * MinStones; n <= 2*v.stones; n++ {
		for w := (n + 1) / 2; w <= v.stones; w++ {
			b := n - w
			if b < MinStones || b > w {
				continue
			}
			out = append(out, sectorTier(w, b))
			if b != w {
				out = append(out, sectorTier(b, w))
			}
		}
	}
	return out
}

// BindTierFlags declares --max-stones (moving-phase sectors), --stones (a whole game of N
// stones a side, from its empty board) and --sectors.
func (g Game) BindTierFlags(fs *flag.FlagSet) func() ([]games.Tier, error) {
	v := g.v()
	// The help names the range for these rules and says that it follows --rules: the
	// flags are bound before --rules is read, to the default rule set's game.
	maxStones := fs.Int("max-stones", 0, fmt.Sprintf("every moving-phase sector with at most N stones on the board in all (%d..%d for %s; up to twice the stones of the rule set chosen), and what it depends on", 2*MinStones, 2*v.stones, v.r.Name))
	stones := fs.Int("stones", 0, fmt.Sprintf("the whole game of N stones a side (%d..%d for %s; up to the stones of the rule set chosen), placement phase included, from its empty board", MinStones, v.stones, v.r.Name))
	sectors := fs.String("sectors", "", "these sectors (comma-separated W-B, or W-B-WH-BH with stones in hand: W and WH of the side to move, B and BH of the opponent) and what they depend on")
	return func() ([]games.Tier, error) {
		var given []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "max-stones" || f.Name == "stones" || f.Name == "sectors" {
				given = append(given, "--"+f.Name)
			}
		})
		if len(given) > 1 {
			return nil, fmt.Errorf("mill: give one of --max-stones, --stones and --sectors, not %s", strings.Join(given, " and "))
		}
		switch {
		case len(given) == 0:
			return g.Tiers(), nil
		case given[0] == "--max-stones":
			if *maxStones < 2*MinStones || *maxStones > 2*v.stones {
				return nil, fmt.Errorf("mill: --max-stones %d: want %d to %d", *maxStones, 2*MinStones, 2*v.stones)
			}
			var out []games.Tier
			for _, t := range v.movingTiers() {
				if w, b, _, _, _ := v.tierStones(t); w+b <= *maxStones {
					out = append(out, t)
				}
			}
			return out, nil
		case given[0] == "--stones":
			if *stones < MinStones || *stones > v.stones {
				return nil, fmt.Errorf("mill: --stones %d: want %d to %d stones a side", *stones, MinStones, v.stones)
			}
			return reachable(g, placementStart(*stones)), nil
		}
		var out []games.Tier
		for _, f := range strings.Split(*sectors, ",") {
			t, err := g.ParseTier(strings.TrimSpace(f))
			if err != nil {
				return nil, fmt.Errorf("--sectors: %w", err)
			}
			out = append(out, t)
		}
		return out, nil
	}
}

// TierName writes a sector as "w-b" (moving phase) or "w-b-wh-bh" (placement phase).
func (g Game) TierName(t games.Tier) string {
	w, b, wh, bh, ok := g.v().tierStones(t)
	switch {
	case !ok:
		return fmt.Sprintf("tier(%#x)", uint64(t))
	case wh == 0 && bh == 0:
		return SectorName(w, b)
	}
	return fmt.Sprintf("%d-%d-%d-%d", w, b, wh, bh)
}

// ParseTier reads "w-b" or "w-b-wh-bh" as TierName writes them, and nothing else (no
// leading zeros, no four fields for a moving-phase sector): one tier has one name.
func (g Game) ParseTier(name string) (games.Tier, error) {
	fields := strings.Split(name, "-")
	var n [4]int
	bad := len(fields) != 2 && len(fields) != 4
	for i, f := range fields {
		if bad {
			break
		}
		v, err := strconv.Atoi(f)
		bad = err != nil || v < 0 || v > maxStones || f != strconv.Itoa(v)
		n[i] = v
	}
	if !bad {
		t := tierOf(n[0], n[1], n[2], n[3])
		if _, _, _, _, ok := g.v().tierStones(t); ok && g.TierName(t) == name {
			return t, nil
		}
	}
	k := g.rules().Stones
	hands := "; WH = BH, or WH = BH+1"
	if g.rules().Merged {
		hands = ""
	}
	return 0, fmt.Errorf("mill: sector %q: want W-B with %d ≤ W, B ≤ %d (moving phase), or W-B-WH-BH with stones in hand "+
		"(W, WH of the side to move; at most %d stones a side, at least %d%s)", name, MinStones, k, k, MinStones, hands)
}

// TierChildren lists the sectors the moves of sector t lead into.
func (g Game) TierChildren(t games.Tier) []games.Tier {
	v := g.v()
	w, b, wh, bh, ok := v.tierStones(t)
	switch {
	case !ok:
		return nil
	case v.merged && (wh > 0 || bh > 0):
		return v.mergedChildren(w, b, wh, bh)
	case wh == 0:
		out := []games.Tier{sectorTier(b, w)}
		if b-1 >= MinStones && !v.millWins {
			out = append(out, sectorTier(b-1, w))
		}
		return out
	}
	out := []games.Tier{tierOf(b, w+1, bh, wh-1)}
	if b >= 1 && w+1 >= 3 && b-1+bh >= MinStones && !v.millWins { // a mill can close, and the opponent keeps 3
		out = append(out, tierOf(b-1, w+1, bh, wh-1))
	}
	return out
}

var _ games.SiblingTiers = Game{}

// TierSiblings returns the placement sectors with the board of t and any stones in hand:
// they differ only in the stones left to place, so their positions are the same boards,
// slot for slot, and so are their moves, each leading to the same board in the sector of
// the hands after it. The first is the one whose opponent holds the most, whose captures
// end the game only where every sibling's do (see SiblingChild). A moving-phase sector
// has no sibling (its colour-swapped twin (b, w) is another board).
func (g Game) TierSiblings(t games.Tier) []games.Tier {
	v := g.v()
	w, b, wh, _, ok := v.tierStones(t)
	if !ok || wh == 0 || v.merged { // Lasker's boards lead to other boards by moves as well
		return []games.Tier{t}
	}
	var out []games.Tier
	for bh := v.stones; bh >= 0; bh-- {
		for _, h := range [2]int{bh + 1, bh} {
			u := tierOf(w, b, h, bh)
			if _, _, _, _, ok := v.tierStones(u); ok && h >= 1 { // hands (0, 0): the moving phase
				out = append(out, u)
			}
		}
	}
	return out
}

// SiblingChild returns the sector into which the move of sibling u goes whose sibling in
// the family's first goes into c, at the same slot: the board of c with u's hands after
// the move, or GameOver where the opponent of u is then left with fewer than three stones
// on the board and in hand (a capture in a sector whose opponent holds fewer).
func (g Game) SiblingChild(u, c games.Tier) games.Tier {
	v := g.v()
	_, _, wh, bh, ok := v.tierStones(u)
	cw, cb, _, _, cok := v.tierStones(c)
	if !ok || !cok || c == games.GameOver {
		return games.GameOver
	}
	if wh == 0 || v.merged {
		return c
	}
	if cw+bh < MinStones {
		return games.GameOver
	}
	return tierOf(cw, cb, bh, wh-1)
}

// TierSize is the number of classes of the sector: the symmetry classes of its board.
func (g Game) TierSize(t games.Tier) uint64 {
	v := g.v()
	w, b, _, _, ok := v.tierStones(t)
	if !ok {
		return 0
	}
	return v.classCount(w, b)
}

// TierParams is the sector's table parameters: its stones and, but for Nine Men's Morris,
// the rule set's name.
func (g Game) TierParams(t games.Tier) any {
	w, b, wh, bh, _ := g.v().tierStones(t)
	return &Params{Rules: g.paramsName(), W: w, B: b, WH: wh, BH: bh}
}

// TierOf returns the sector of a position.
func (g Game) TierOf(state string) (games.Tier, error) {
	p, err := g.rules().Parse(state)
	if err != nil {
		return 0, err
	}
	own, opp := p.OwnOpp()
	oh, ph := p.Hands()
	return tierOf(bits.OnesCount32(own), bits.OnesCount32(opp), oh, ph), nil
}

// NewTierWorker returns a move generator for one goroutine.
func (g Game) NewTierWorker() games.TierWorker {
	return &tierWorker{v: g.v(), succ: make([]Succ, 0, 512), pred: make([]Pred, 0, 1024)}
}

// tierWorker generates the moves of sector positions; its buffers are its own.
type tierWorker struct {
	v     *variant // the rule set
	succ  []Succ
	pred  []Pred
	local []uint64
	secs  [maxStones + 1][maxStones + 1]*Sector
	// captures[c] is the frame of the children whose own stones are some opponent
	// stones less the one on point c (see captureFrame).
	captures [Points]childFrame
	// distinct's hash set: setKey[h] is a member while setGenAt[h] == setGen.
	setKey   [256]uint64
	setGenAt [256]uint32
	setGen   uint32
}

// sector returns the ranking of the boards of w and b stones, caching it.
func (tw *tierWorker) sector(w, b int) *Sector {
	s := tw.secs[w][b]
	if s == nil {
		s = tw.v.boardSector(w, b)
		tw.secs[w][b] = s
	}
	return s
}

func (tw *tierWorker) Children(t games.Tier, lo, hi uint64, b *games.ChildBatch) {
	b.Reset()
	w, bb, wh, bh, ok := tw.v.tierStones(t)
	if !ok {
		for range hi - lo {
			b.Close()
		}
		return
	}
	if wh == 0 && bh == 0 {
		tw.movingChildren(w, bb, lo, hi, b, nil)
		return
	}
	tw.children(t, lo, hi, b)
}

// ChildrenOnce is Children, except that the children of each position in tier once are
// only counted, once per slot, one count per position appended to counts, rather than
// listed in b once per move: the retrograde solver needs no more than the number of a
// position's distinct successors in its own unit (games.CountingTierWorker). In the moving
// phase most of them are counted without being ranked at all (see positionChildren).
func (tw *tierWorker) ChildrenOnce(t games.Tier, lo, hi uint64, once games.Tier, b *games.ChildBatch, counts []uint32) []uint32 {
	b.Reset()
	w, bb, wh, bh, ok := tw.v.tierStones(t)
	if ok && wh == 0 && bh == 0 && once == sectorTier(bb, w) {
		tw.movingChildren(w, bb, lo, hi, b, &counts)
		return counts
	}
	if !ok {
		for range hi - lo {
			b.Close()
			counts = append(counts, 0)
		}
		return counts
	}
	tw.children(t, lo, hi, b)
	// Count each position's children in tier once, once each, and take them out of b.
	end := 0
	for i := range len(b.Off) - 1 {
		from, to := b.Off[i], b.Off[i+1]
		b.Off[i] = end
		tw.local = tw.local[:0]
		for _, c := range b.Pos[from:to] {
			if c.Tier == once {
				tw.local = append(tw.local, c.Slot)
			} else {
				b.Pos[end] = c
				end++
			}
		}
		counts = append(counts, uint32(len(tw.distinct(tw.local))))
	}
	b.Off[len(b.Off)-1] = end
	b.Pos = b.Pos[:end]
	return counts
}

// children is Children by Unrank, Successors or Placements and Rank, slot by slot: the
// placement phase's.
func (tw *tierWorker) children(t games.Tier, lo, hi uint64, b *games.ChildBatch) {
	w, bb, wh, bh, _ := tw.v.tierStones(t)
	sec := tw.sector(w, bb)
	for s := lo; s < hi; s++ {
		own, opp := sec.Unrank(s)
		if tw.v.merged {
			tw.appendMergedChildren(own, opp, wh, bh, b)
		} else {
			tw.appendChildren(own, opp, wh, bh, b)
		}
		b.Close()
	}
}

// Parents lists un-moves within the moving phase, the only sectors that reach each other;
// a placement sector is never solved with another, and has no parents here.
func (tw *tierWorker) Parents(t games.Tier, slots []uint64, from games.Tier, b *games.ParentBatch) {
	b.Reset()
	w, bb, wh, bh, ok := tw.v.tierStones(t)
	fw, fb, fwh, fbh, fok := tw.v.tierStones(from)
	if ok && fok && tw.v.merged && (wh > 0 || bh > 0) && from == tierOf(bb, w, bh, wh) {
		tw.mergedParents(w, bb, wh, bh, slots, b)
		return
	}
	if !ok || !fok || wh != 0 || fwh != 0 || fbh != 0 {
		for range slots {
			b.Close()
		}
		return
	}
	if fw == bb && fb == w {
		tw.movingParents(w, bb, slots, b)
		return
	}
	sec, fsec := tw.sector(w, bb), tw.sector(fw, fb)
	for _, s := range slots {
		own, opp := sec.Unrank(s)
		tw.pred = tw.v.predecessors(tw.pred[:0], own, opp)
		start := len(b.Slots)
		for _, pr := range tw.pred {
			if bits.OnesCount32(pr.Own) != fw || bits.OnesCount32(pr.Opp) != fb {
				continue // a capture's un-move, from a sector with one stone more
			}
			b.Slots = append(b.Slots, fsec.Rank(pr.Own, pr.Opp))
		}
		run := b.Slots[start:]
		slices.Sort(run)
		b.Slots = b.Slots[:start+len(slices.Compact(run))]
		b.Close()
	}
}
