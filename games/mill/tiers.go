package mill

import (
	"flag"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/tablesmith/tablesmith/games"
)

// Nine Men's Morris as a graph of tiers: a tier is a sector, the stones of the side to move
// and of the opponent. A move without capture leads from sector (w, b) to (b, w), so the
// two reach each other and are solved together; a capture leads to (b−1, w), solved
// before, or ends the game when it leaves the opponent two stones.

var _ games.TieredGame = Game{}

// sectorTier is the tier of sector (w, b): w in the low four bits, b in the next four (the
// bits above are kept for the stones in hand of the placement phase).
func sectorTier(w, b int) games.Tier { return games.Tier(w | b<<4) }

// tierStones returns the stones of a tier, and whether it is a sector of this game.
func tierStones(t games.Tier) (w, b int, ok bool) {
	w, b = int(t&15), int(t>>4&15)
	return w, b, t>>8 == 0 && w >= MinStones && w <= MaxStones && b >= MinStones && b <= MaxStones
}

// TierNoun is what Mühle calls a tier.
func (Game) TierNoun() string { return "sector" }

// RulesID fingerprints the rules (see the package function RulesID).
func (Game) RulesID() string { return RulesID() }

// Tiers lists the 49 sectors by the stones on the board, fewest first; of w+b stones,
// sector (w, b) with w ≥ b by increasing w, each followed by its twin (b, w).
func (Game) Tiers() []games.Tier {
	var out []games.Tier
	for n := 2 * MinStones; n <= 2*MaxStones; n++ {
		for w := (n + 1) / 2; w <= MaxStones; w++ {
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

// BindTierFlags declares --max-stones and --sectors.
func (g Game) BindTierFlags(fs *flag.FlagSet) func() ([]games.Tier, error) {
	maxStones := fs.Int("max-stones", 0, "every sector with at most N stones on the board in all (6..18), and what it depends on")
	sectors := fs.String("sectors", "", "these sectors (comma-separated W-B: W stones of the side to move, B of the opponent) and what they depend on")
	return func() ([]games.Tier, error) {
		given := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
		switch {
		case given["max-stones"] && given["sectors"]:
			return nil, fmt.Errorf("mill: give --max-stones or --sectors, not both")
		case given["max-stones"]:
			if *maxStones < 2*MinStones || *maxStones > 2*MaxStones {
				return nil, fmt.Errorf("mill: --max-stones %d: want %d to %d", *maxStones, 2*MinStones, 2*MaxStones)
			}
			var out []games.Tier
			for _, t := range g.Tiers() {
				if w, b, _ := tierStones(t); w+b <= *maxStones {
					out = append(out, t)
				}
			}
			return out, nil
		case given["sectors"]:
			var out []games.Tier
			for _, f := range strings.Split(*sectors, ",") {
				t, err := g.ParseTier(f)
				if err != nil {
					return nil, fmt.Errorf("--sectors: %w", err)
				}
				out = append(out, t)
			}
			return out, nil
		}
		return g.Tiers(), nil
	}
}

// TierName writes a sector as "w-b".
func (Game) TierName(t games.Tier) string {
	w, b, ok := tierStones(t)
	if !ok {
		return fmt.Sprintf("tier(%#x)", uint64(t))
	}
	return SectorName(w, b)
}

// ParseTier reads "w-b".
func (Game) ParseTier(name string) (games.Tier, error) {
	a, c, ok := strings.Cut(strings.TrimSpace(name), "-")
	w, err1 := strconv.Atoi(a)
	b, err2 := strconv.Atoi(c)
	if !ok || err1 != nil || err2 != nil || w < MinStones || w > MaxStones || b < MinStones || b > MaxStones {
		return 0, fmt.Errorf("mill: sector %q: want W-B with %d ≤ W, B ≤ %d", name, MinStones, MaxStones)
	}
	return sectorTier(w, b), nil
}

// TierChildren lists (b, w), reached by a move without capture, and (b−1, w), reached by
// a capture while the opponent keeps three stones.
func (Game) TierChildren(t games.Tier) []games.Tier {
	w, b, ok := tierStones(t)
	if !ok {
		return nil
	}
	out := []games.Tier{sectorTier(b, w)}
	if b-1 >= MinStones {
		out = append(out, sectorTier(b-1, w))
	}
	return out
}

// TierSize is the number of classes of the sector.
func (Game) TierSize(t games.Tier) uint64 {
	w, b, ok := tierStones(t)
	if !ok {
		return 0
	}
	return ClassCount(w, b)
}

// TierParams is the sector's table parameters.
func (Game) TierParams(t games.Tier) any {
	w, b, _ := tierStones(t)
	return &Params{W: w, B: b}
}

// TierOf returns the sector of a position.
func (Game) TierOf(state string) (games.Tier, error) {
	p, err := Parse(state)
	if err != nil {
		return 0, err
	}
	own, opp := p.OwnOpp()
	return sectorTier(bits.OnesCount32(own), bits.OnesCount32(opp)), nil
}

// NewTierWorker returns a move generator for one goroutine.
func (Game) NewTierWorker() games.TierWorker {
	return &tierWorker{succ: make([]Succ, 0, 512), pred: make([]Pred, 0, 1024)}
}

// tierWorker generates the moves of sector positions; its buffers are its own.
type tierWorker struct {
	succ []Succ
	pred []Pred
	secs [MaxStones + 1][MaxStones + 1]*Sector
}

// sector returns the ranking of sector (w, b), caching it.
func (tw *tierWorker) sector(w, b int) *Sector {
	s := tw.secs[w][b]
	if s == nil {
		s, _ = NewSector(w, b)
		tw.secs[w][b] = s
	}
	return s
}

func (tw *tierWorker) Children(t games.Tier, lo, hi uint64, b *games.ChildBatch) {
	b.Reset()
	w, bb, ok := tierStones(t)
	if !ok {
		for range hi - lo {
			b.Close()
		}
		return
	}
	sec := tw.sector(w, bb)
	for s := lo; s < hi; s++ {
		own, opp := sec.Unrank(s)
		tw.succ = Successors(tw.succ[:0], own, opp)
		for _, sc := range tw.succ {
			nw, nb := bits.OnesCount32(sc.Own), bits.OnesCount32(sc.Opp)
			if nw < MinStones {
				b.Pos = append(b.Pos, games.TierPosition{Tier: games.GameOver})
				continue
			}
			b.Pos = append(b.Pos, games.TierPosition{Tier: sectorTier(nw, nb), Slot: tw.sector(nw, nb).Rank(sc.Own, sc.Opp)})
		}
		b.Close()
	}
}

func (tw *tierWorker) Parents(t games.Tier, slots []uint64, from games.Tier, b *games.ParentBatch) {
	b.Reset()
	w, bb, ok := tierStones(t)
	fw, fb, fok := tierStones(from)
	if !ok || !fok {
		for range slots {
			b.Close()
		}
		return
	}
	sec, fsec := tw.sector(w, bb), tw.sector(fw, fb)
	for _, s := range slots {
		own, opp := sec.Unrank(s)
		tw.pred = Predecessors(tw.pred[:0], own, opp)
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
