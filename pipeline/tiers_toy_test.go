package pipeline

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/values"
)

// The generic tier orchestrator checked against an independent oracle on a synthetic
// game: a toy tiered game whose move graph is generated from a seed and held explicitly,
// solved a second time by the textbook definition of win/loss/draw with remoteness
// (toyOracle), which shares nothing with the engine, the exits, the one-pass solver or the
// combining rule of package values.
//
// The toy's tiers form groups, lowest first; a move leads into its own tier, another tier
// of its group or a tier of a lower group. The groups are the strongly connected
// components the plan must find:
//
//	one-pass  one tier, no move stays in it (solved in one pass); its slot 0 moves to
//	          every slot of every tier it leads into (more than 255 exits, often)
//	self      one tier with moves inside itself: slot 0 moves to itself only (a draw),
//	          slots 1 and 2 to each other only (draws; slot 1 by two equal moves), and a
//	          chain 3 → 4 → … whose last slot moves into the chain of the self tier below
//	          (or ends the game), so that remoteness runs up to a few hundred plies
//	pair      two tiers that reach each other
//	triple    three tiers on a cycle, more edges at random
//	big       a triple of about 200 slots a tier (one per game): a position that moves to
//	          every slot of the unit, and positions with 260 distinct successors in the
//	          unit that are all wins (a loss at 2), all wins but one draw (a draw), all
//	          wins but one at 5 (a loss at 6)
//	wide      a pair, and a one-pass tier, of about 5,000 slots a tier (one each per game):
//	          more than one chunk of the engine's passes (4,096 slots), so that more than
//	          one worker takes part
//
// Every other position has up to four random moves (some repeated, some ending the game:
// games.GameOver), or none (lost at 0).

// toyGame is one generated game.
type toyGame struct {
	seed   uint64
	order  []games.Tier // Tiers(): shuffled, not a dependency order
	tiers  map[games.Tier]*toyTier
	groups [][]games.Tier // the generator's groups, lowest first, each in generation order
	kinds  []int          // the kind of each group
	// Positions whose values are known by construction (checked against the oracle).
	known map[games.TierPosition]uint32
}

// toyTier is one tier: its moves, and their inverse.
type toyTier struct {
	id       int
	size     uint64
	group    int
	children []games.Tier // declared (TierChildren), itself included when a move stays
	moves    [][]games.TierPosition
	parents  map[games.Tier][][]uint64 // from → per slot, the distinct slots of from moving to it
	fixed    map[uint64]bool           // slots whose moves are hand-made (no move is added to them)
}

// The kinds of groups.
const (
	toyOnePass = iota
	toySelf
	toyPair
	toyTriple
	toyBig
	toyWidePair    // a pair of about 5,000 slots a tier: several chunks of the engine's passes
	toyWideOnePass // a one-pass tier of about 5,000 slots
)

// toyTierID spreads the tiers' numbers: nothing may assume they are dense or small.
func toyTierID(i int) games.Tier { return games.Tier(1000 + 17*i) }

// newToyGame generates the game of seed.
func newToyGame(seed uint64) *toyGame {
	rng := rand.New(rand.NewPCG(seed, 0x70e5))
	kinds := []int{toyOnePass, toySelf, toyPair, toyOnePass, toyTriple, toySelf, toyPair, toyOnePass, toyTriple, toySelf, toyOnePass}
	rng.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	big := 1 + rng.IntN(len(kinds)-1) // never the lowest: it has exits
	kinds = slices.Insert(kinds, big, toyBig)
	for _, kind := range []int{toyWidePair, toyWideOnePass} {
		kinds = slices.Insert(kinds, 2+rng.IntN(len(kinds)-1), kind)
	}

	g := &toyGame{seed: seed, tiers: map[games.Tier]*toyTier{}, kinds: kinds, known: map[games.TierPosition]uint32{}}
	var all []games.Tier // generation order
	var chain games.Tier // the last self tier's, whose chain starts at slot 3
	hasChain := false
	declare := func(from, to games.Tier) {
		if tt := g.tiers[from]; !slices.Contains(tt.children, to) {
			tt.children = append(tt.children, to)
		}
	}
	for gi, kind := range kinds {
		k := map[int]int{toyOnePass: 1, toySelf: 1, toyPair: 2, toyTriple: 3, toyBig: 3, toyWidePair: 2, toyWideOnePass: 1}[kind]
		lower := slices.Clone(all)
		var grp []games.Tier
		for range k {
			size := uint64(5 + rng.IntN(40))
			switch {
			case kind == toyBig:
				size = uint64(180 + rng.IntN(21))
			case kind == toySelf:
				size = uint64(120 + rng.IntN(81))
			case kind == toyWidePair || kind == toyWideOnePass:
				size = uint64(4500 + rng.IntN(1001))
			case rng.IntN(4) == 0:
				size = uint64(5 + rng.IntN(196))
			}
			t := toyTierID(len(all))
			g.tiers[t] = &toyTier{id: len(all), size: size, group: gi, parents: map[games.Tier][][]uint64{}, fixed: map[uint64]bool{}}
			grp = append(grp, t)
			all = append(all, t)
		}
		// The edges inside the group.
		switch kind {
		case toySelf:
			declare(grp[0], grp[0])
		case toyPair, toyWidePair:
			declare(grp[0], grp[1])
			declare(grp[1], grp[0])
			for _, t := range grp {
				if rng.IntN(2) == 0 {
					declare(t, t)
				}
			}
		case toyTriple, toyBig:
			for i, t := range grp {
				declare(t, grp[(i+1)%3])
			}
			for _, a := range grp {
				for _, b := range grp {
					if rng.IntN(10) < 3 {
						declare(a, b)
					}
				}
			}
			if kind == toyBig {
				a, b, c := grp[0], grp[1], grp[2]
				declare(a, a)
				declare(a, c)
				declare(b, a)
				declare(b, b)
			}
		}
		// The edges to lower groups.
		for _, t := range grp {
			if len(lower) == 0 {
				break
			}
			for range rng.IntN(4) {
				declare(t, lower[rng.IntN(len(lower))])
			}
		}
		if kind == toySelf && hasChain {
			declare(grp[0], chain)
		}
		// Random moves, then the hand-made positions.
		for _, t := range grp {
			tt := g.tiers[t]
			tt.moves = make([][]games.TierPosition, tt.size)
			for s := range tt.size {
				tt.moves[s] = g.randomMoves(rng, tt, kind == toyWidePair)
			}
		}
		g.handMade(rng, kind, grp, chain, hasChain)
		if kind == toySelf {
			chain, hasChain = grp[0], true
		}
		g.groups = append(g.groups, grp)
	}
	// Every declared edge is taken by some move (so the declared graph is the true one).
	for _, t := range all {
		tt := g.tiers[t]
		for _, c := range tt.children {
			used := slices.ContainsFunc(tt.moves, func(ms []games.TierPosition) bool {
				return slices.ContainsFunc(ms, func(p games.TierPosition) bool { return p.Tier == c })
			})
			for !used {
				s := rng.Uint64N(tt.size)
				if tt.fixed[s] {
					continue
				}
				tt.moves[s] = append(tt.moves[s], games.TierPosition{Tier: c, Slot: rng.Uint64N(g.tiers[c].size)})
				used = true
			}
		}
	}
	// The inverse of the moves.
	for _, from := range all {
		for s, ms := range g.tiers[from].moves {
			for _, p := range ms {
				if p.Tier == games.GameOver {
					continue
				}
				to := g.tiers[p.Tier]
				if to.parents[from] == nil {
					to.parents[from] = make([][]uint64, to.size)
				}
				to.parents[from][p.Slot] = append(to.parents[from][p.Slot], uint64(s))
			}
		}
	}
	for _, tt := range g.tiers {
		for _, ps := range tt.parents {
			for i := range ps {
				ps[i] = slices.Compact(ps[i]) // appended in increasing order
			}
		}
	}
	g.order = slices.Clone(all)
	rng.Shuffle(len(g.order), func(i, j int) { g.order[i], g.order[j] = g.order[j], g.order[i] })
	return g
}

// randomMoves gives a position of tt up to four random moves, or none; quiet ones (the
// wide pair's) end the game more rarely, so that more of them draw.
func (g *toyGame) randomMoves(rng *rand.Rand, tt *toyTier, quiet bool) []games.TierPosition {
	none, over := 14, 12
	if quiet {
		none, over = 200, 60
	}
	if rng.IntN(none) == 0 {
		return nil
	}
	var out []games.TierPosition
	for range 1 + rng.IntN(4) {
		switch {
		case rng.IntN(over) == 0 || len(tt.children) == 0 && rng.IntN(2) == 0:
			out = append(out, games.TierPosition{Tier: games.GameOver})
		case len(tt.children) > 0:
			c := tt.children[rng.IntN(len(tt.children))]
			out = append(out, games.TierPosition{Tier: c, Slot: rng.Uint64N(g.tiers[c].size)})
		}
		if len(out) > 0 && rng.IntN(20) == 0 {
			out = append(out, out[len(out)-1]) // the same position by two moves
		}
	}
	return out
}

// handMade sets the moves of the special positions of a group of kind.
func (g *toyGame) handMade(rng *rand.Rand, kind int, grp []games.Tier, chain games.Tier, hasChain bool) {
	set := func(t games.Tier, s uint64, ms ...games.TierPosition) {
		g.tiers[t].moves[s] = ms
		g.tiers[t].fixed[s] = true
	}
	at := func(t games.Tier, s uint64) games.TierPosition { return games.TierPosition{Tier: t, Slot: s} }
	over := games.TierPosition{Tier: games.GameOver}
	switch kind {
	case toyOnePass, toyWideOnePass:
		t := grp[0]
		var ms []games.TierPosition
		for _, c := range g.tiers[t].children {
			for s := range g.tiers[c].size {
				ms = append(ms, at(c, s))
			}
		}
		if len(ms) > 0 {
			set(t, 0, ms...)
		}
	case toySelf:
		t := grp[0]
		set(t, 0, at(t, 0))
		set(t, 1, at(t, 2), at(t, 2))
		set(t, 2, at(t, 1))
		for _, s := range []uint64{0, 1, 2} {
			g.known[at(t, s)] = 1 // draws
		}
		n := g.tiers[t].size
		length := n - 10 - uint64(rng.IntN(20)) // slots 3 .. 3+length−1, leaving free slots
		last := 3 + length - 1
		for s := uint64(3); s < last; s++ {
			set(t, s, at(t, s+1))
		}
		if hasChain {
			set(t, last, at(chain, 3))
		} else {
			set(t, last, over)
			for s := uint64(3); s <= last; s++ {
				g.known[at(t, s)] = uint32(2 + (last - s + 1)) // 1 + the plies to the end
			}
		}
	case toyBig:
		a, b, c := grp[0], grp[1], grp[2]
		na := g.tiers[a].size
		const k = 130
		var wins []games.TierPosition // 260 distinct positions, each winning at 1
		for _, t := range []games.Tier{b, c} {
			for s := range uint64(k) {
				g.tiers[t].moves[s] = append(g.tiers[t].moves[s], over)
				g.known[at(t, s)] = 2 + 1
				wins = append(wins, at(t, s))
			}
		}
		set(b, k, at(b, k))                                     // a draw
		set(b, k+2, at(a, 0))                                   // a loss at 4
		set(b, k+1, at(b, k+2))                                 // a win at 5
		set(a, na-2, wins...)                                   // a loss at 2
		set(a, 0, at(a, na-2))                                  // a win at 3
		set(a, na-3, append(slices.Clone(wins), at(b, k))...)   // a draw
		set(a, na-4, append(slices.Clone(wins), at(b, k+1))...) // a loss at 6
		var every []games.TierPosition
		for _, t := range grp {
			for s := range g.tiers[t].size {
				every = append(every, at(t, s))
			}
		}
		set(a, na-1, every...) // a win (at 3 through slot na−2, or at 1)
		for p, code := range map[games.TierPosition]uint32{
			at(b, k): 1, at(b, k+2): 2 + 4, at(b, k+1): 2 + 5, at(a, na-2): 2 + 2, at(a, 0): 2 + 3,
			at(a, na-3): 1, at(a, na-4): 2 + 6,
		} {
			g.known[p] = code
		}
	}
}

// The games.TieredGame interface.

var _ games.TieredGame = (*toyGame)(nil)

func (g *toyGame) Name() string      { return "toy" }
func (g *toyGame) Summary() string   { return "a synthetic tiered game for the orchestrator's tests" }
func (g *toyGame) Schemes() []string { return []string{"slot"} }
func (g *toyGame) NewParams() any    { return &toyParams{} }
func (g *toyGame) TierNoun() string  { return "tier" }
func (g *toyGame) RulesID() string   { return fmt.Sprintf("toy-v1-seed-%d", g.seed) }

func (g *toyGame) Tiers() []games.Tier { return slices.Clone(g.order) }

func (g *toyGame) BindTierFlags(fs *flag.FlagSet) func() ([]games.Tier, error) {
	list := fs.String("tiers", "", "these tiers (comma-separated) and what they depend on")
	return func() ([]games.Tier, error) {
		if *list == "" {
			return g.Tiers(), nil
		}
		var out []games.Tier
		for _, name := range strings.Split(*list, ",") {
			t, err := g.ParseTier(name)
			if err != nil {
				return nil, fmt.Errorf("--tiers: %w", err)
			}
			out = append(out, t)
		}
		return out, nil
	}
}

func (g *toyGame) TierName(t games.Tier) string {
	if tt, ok := g.tiers[t]; ok {
		return fmt.Sprintf("t%02d", tt.id)
	}
	return fmt.Sprintf("tier(%#x)", uint64(t))
}

func (g *toyGame) ParseTier(name string) (games.Tier, error) {
	if rest, ok := strings.CutPrefix(name, "t"); ok {
		if i, err := strconv.Atoi(rest); err == nil && i >= 0 {
			if t := toyTierID(i); g.tiers[t] != nil && g.TierName(t) == name {
				return t, nil
			}
		}
	}
	return 0, fmt.Errorf("toy: no tier %q", name)
}

func (g *toyGame) TierChildren(t games.Tier) []games.Tier {
	if tt, ok := g.tiers[t]; ok {
		return slices.Clone(tt.children)
	}
	return nil
}

func (g *toyGame) TierSize(t games.Tier) uint64 {
	if tt, ok := g.tiers[t]; ok {
		return tt.size
	}
	return 0
}

func (g *toyGame) TierParams(t games.Tier) any { return &toyParams{Seed: g.seed, Tier: g.TierName(t)} }

// TierOf reads a position written "tNN:slot".
func (g *toyGame) TierOf(state string) (games.Tier, error) {
	t, _, err := g.parseState(state)
	return t, err
}

func (g *toyGame) parseState(state string) (games.Tier, uint64, error) {
	name, slot, ok := strings.Cut(state, ":")
	if !ok {
		return 0, 0, fmt.Errorf("toy: position %q: want tier:slot", state)
	}
	t, err := g.ParseTier(name)
	if err != nil {
		return 0, 0, err
	}
	s, err := strconv.ParseUint(slot, 10, 64)
	if err != nil || s >= g.tiers[t].size {
		return 0, 0, fmt.Errorf("toy: position %q: no slot %s in tier %s", state, slot, name)
	}
	return t, s, nil
}

func (g *toyGame) NewTierWorker() games.TierWorker { return toyWorker{g} }

func (g *toyGame) Open(params any, index string) (games.Space, error) {
	p, ok := params.(*toyParams)
	if !ok || index != "slot" {
		return nil, fmt.Errorf("toy: parameters %T, index %q", params, index)
	}
	t, err := g.ParseTier(p.Tier)
	if err != nil {
		return nil, err
	}
	return toySpace{g, t}, nil
}

// toyParams are a toy table's parameters: the game's seed and the tier.
type toyParams struct {
	Seed uint64 `json:"seed"`
	Tier string `json:"tier"`
}

func (p *toyParams) BindFlags(fs *flag.FlagSet) {
	fs.Uint64Var(&p.Seed, "seed", 0, "the toy game's seed")
	fs.StringVar(&p.Tier, "tier", "", "the tier")
}

// toySpace is one tier's table as the lookup reads it.
type toySpace struct {
	g *toyGame
	t games.Tier
}

func (sp toySpace) Slots() uint64 { return sp.g.tiers[sp.t].size }

func (sp toySpace) Slot(state string) (uint64, bool, error) {
	t, s, err := sp.g.parseState(state)
	if err != nil {
		return 0, false, err
	}
	if t != sp.t {
		return 0, false, fmt.Errorf("toy: %s is not in tier %s", state, sp.g.TierName(sp.t))
	}
	return s, true, nil
}

func (sp toySpace) Normalize(state string) (string, error) {
	t, s, err := sp.g.parseState(state)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s:%d", sp.g.TierName(t), s), nil
}

func (sp toySpace) StateOf(slot uint64) (string, bool) {
	return fmt.Sprintf("%s:%d", sp.g.TierName(sp.t), slot), slot < sp.Slots()
}

func (sp toySpace) Moves(state string) (moves, next []string, err error) {
	t, s, err := sp.g.parseState(state)
	if err != nil {
		return nil, nil, err
	}
	for i, p := range sp.g.tiers[t].moves[s] {
		moves = append(moves, strconv.Itoa(i))
		if p.Tier == games.GameOver {
			next = append(next, "")
		} else {
			next = append(next, fmt.Sprintf("%s:%d", sp.g.TierName(p.Tier), p.Slot))
		}
	}
	return moves, next, nil
}

// toyWorker answers from the explicit graph (read-only: any number of goroutines).
type toyWorker struct{ g *toyGame }

func (w toyWorker) Children(t games.Tier, lo, hi uint64, b *games.ChildBatch) {
	b.Reset()
	tt := w.g.tiers[t]
	for s := lo; s < hi; s++ {
		b.Pos = append(b.Pos, tt.moves[s]...)
		b.Close()
	}
}

func (w toyWorker) Parents(t games.Tier, slots []uint64, from games.Tier, b *games.ParentBatch) {
	b.Reset()
	ps := w.g.tiers[t].parents[from]
	for _, s := range slots {
		if ps != nil {
			b.Slots = append(b.Slots, ps[s]...)
		}
		b.Close()
	}
}

// toyOracle solves the whole game from its explicit graph by the definition, depth after
// depth over every position: a position is lost at 0 when it has no move; won at odd d
// when a move leads to a position lost at d−1 (a move that ends the game leaves the
// opponent lost at 0); lost at even d > 0 when every move leads to a position won, the
// slowest at d−1. Positions undecided when two depths in a row decide nothing are draws.
// It returns each tier's WDL codes: 1 for a draw, 2 + r for remoteness r.
func toyOracle(g *toyGame) map[games.Tier][]uint32 {
	rem := map[games.Tier][]int{}
	var pending []games.TierPosition
	for t, tt := range g.tiers {
		r := make([]int, tt.size)
		for s := range r {
			r[s] = -1
			pending = append(pending, games.TierPosition{Tier: t, Slot: uint64(s)})
		}
		rem[t] = r
	}
	quiet := 0 // depths in a row that decided nothing
	for d := 0; quiet < 2; d++ {
		var decided, left []games.TierPosition
		for _, p := range pending {
			moves := g.tiers[p.Tier].moves[p.Slot]
			ok := false
			switch {
			case d == 0:
				ok = len(moves) == 0
			case d%2 == 1:
				for _, c := range moves {
					if c.Tier == games.GameOver && d == 1 || c.Tier != games.GameOver && rem[c.Tier][c.Slot] == d-1 {
						ok = true
					}
				}
			default:
				slowest := -1
				ok = true
				for _, c := range moves {
					if c.Tier == games.GameOver {
						ok = false
						break
					}
					r := rem[c.Tier][c.Slot]
					if r < 0 || r%2 == 0 {
						ok = false
						break
					}
					slowest = max(slowest, r)
				}
				ok = ok && slowest == d-1
			}
			if ok {
				decided = append(decided, p)
			} else {
				left = append(left, p)
			}
		}
		for _, p := range decided {
			rem[p.Tier][p.Slot] = d
		}
		pending = left
		if len(decided) == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
	out := map[games.Tier][]uint32{}
	for t, r := range rem {
		codes := make([]uint32, len(r))
		for s, x := range r {
			codes[s] = 1
			if x >= 0 {
				codes[s] = uint32(2 + x)
			}
		}
		out[t] = codes
	}
	return out
}

// toySeeds are the games the tests build.
var toySeeds = []uint64{1, 2, 3, 0xdecade}

// toySeedsFor returns the first n seeds, or only the first under -short (the race pass).
func toySeedsFor(n int) []uint64 {
	if testing.Short() {
		n = 1
	}
	return toySeeds[:min(n, len(toySeeds))]
}

// toyGames holds the games, and toyCases the games with their oracles, each made once
// when a test first asks (read-only after).
var toyGames, toyCases = func() (map[uint64]func() *toyGame, map[uint64]func() toyCase) {
	gs, cases := map[uint64]func() *toyGame{}, map[uint64]func() toyCase{}
	for _, seed := range toySeeds {
		gs[seed] = sync.OnceValue(func() *toyGame { return newToyGame(seed) })
		cases[seed] = sync.OnceValue(func() toyCase {
			g := gs[seed]()
			return toyCase{g, toyOracle(g)}
		})
	}
	return gs, cases
}()

type toyCase struct {
	g      *toyGame
	oracle map[games.Tier][]uint32
}

// TestToyGame checks the toy itself before it judges the orchestrator: Parents is the
// exact inverse of Children, the game has every feature the other tests rely on, and the
// oracle gives the hand-made positions their values.
func TestToyGame(t *testing.T) {
	t.Parallel()
	for _, seed := range toySeeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			c := toyCases[seed]()
			g := c.g
			// Parents against Children, for every pair of tiers (all slots in one batch, Parents
			// asked in reverse order).
			w := g.NewTierWorker()
			want := map[games.Tier]map[games.Tier][]map[uint64]bool{} // to → from → slot → parents
			for _, from := range g.order {
				var cb games.ChildBatch
				n := g.TierSize(from)
				w.Children(from, 0, n, &cb)
				if len(cb.Off) != int(n)+1 {
					t.Fatalf("Children of %s: %d offsets for %d slots", g.TierName(from), len(cb.Off), n)
				}
				used := map[games.Tier]bool{}
				for s := range n {
					for _, p := range cb.Pos[cb.Off[s]:cb.Off[s+1]] {
						if p.Tier == games.GameOver {
							continue
						}
						used[p.Tier] = true
						if !slices.Contains(g.TierChildren(from), p.Tier) || p.Slot >= g.TierSize(p.Tier) {
							t.Fatalf("%s:%d moves to %s:%d, undeclared", g.TierName(from), s, g.TierName(p.Tier), p.Slot)
						}
						if want[p.Tier] == nil {
							want[p.Tier] = map[games.Tier][]map[uint64]bool{}
						}
						if want[p.Tier][from] == nil {
							want[p.Tier][from] = make([]map[uint64]bool, g.TierSize(p.Tier))
						}
						if want[p.Tier][from][p.Slot] == nil {
							want[p.Tier][from][p.Slot] = map[uint64]bool{}
						}
						want[p.Tier][from][p.Slot][s] = true
					}
				}
				if len(used) != len(g.TierChildren(from)) {
					t.Fatalf("%s declares %d tiers its moves lead into, they lead into %d", g.TierName(from), len(g.TierChildren(from)), len(used))
				}
			}
			for _, to := range g.order {
				for _, from := range g.order {
					var slots []uint64
					for s := range g.TierSize(to) {
						slots = append(slots, s)
					}
					slices.Reverse(slots)
					var pb games.ParentBatch
					w.Parents(to, slots, from, &pb)
					if len(pb.Off) != len(slots)+1 {
						t.Fatalf("Parents of %s from %s: %d offsets for %d slots", g.TierName(to), g.TierName(from), len(pb.Off), len(slots))
					}
					for i, s := range slots {
						got := pb.Slots[pb.Off[i]:pb.Off[i+1]]
						var exp map[uint64]bool
						if want[to][from] != nil {
							exp = want[to][from][s]
						}
						if len(got) != len(exp) {
							t.Fatalf("Parents of %s:%d from %s: %v, want %v", g.TierName(to), s, g.TierName(from), got, exp)
						}
						for _, p := range got {
							if !exp[p] {
								t.Fatalf("Parents of %s:%d from %s: %v, want %v", g.TierName(to), s, g.TierName(from), got, exp)
							}
						}
					}
				}
			}
			// The features.
			var noMove, gameOver, dup, fan255, draws, wins, losses, maxR int
			for _, tier := range g.order {
				tt := g.tiers[tier]
				for s, ms := range tt.moves {
					if len(ms) == 0 {
						noMove++
					}
					if slices.ContainsFunc(ms, func(p games.TierPosition) bool { return p.Tier == games.GameOver }) {
						gameOver++
					}
					distinct := slices.Clone(ms)
					slices.SortFunc(distinct, func(a, b games.TierPosition) int {
						return cmpPos(a, b)
					})
					if n := len(slices.Compact(distinct)); n < len(ms) {
						dup++
					} else if n > 255 {
						fan255++
					}
					switch code := c.oracle[tier][s]; {
					case code == 1:
						draws++
					case code%2 == 0:
						losses++
						maxR = max(maxR, int(code-2))
					default:
						wins++
						maxR = max(maxR, int(code-2))
					}
				}
			}
			sizes := map[int]int{}
			for _, grp := range g.groups {
				sizes[len(grp)]++
			}
			t.Logf("seed %d: %d tiers in %d groups %v; %d wins, %d losses, %d draws, remoteness up to %d; %d positions with no move, %d ending the game, %d with a repeated move, %d with > 255 distinct successors",
				seed, len(g.order), len(g.groups), g.kinds, wins, losses, draws, maxR, noMove, gameOver, dup, fan255)
			if noMove == 0 || gameOver == 0 || dup == 0 || fan255 < 4 || draws == 0 || wins == 0 || losses == 0 || maxR < 256 ||
				sizes[1] < 5 || sizes[2] == 0 || sizes[3] == 0 {
				t.Fatalf("the toy lacks a feature the tests need")
			}
			for p, code := range g.known {
				if got := c.oracle[p.Tier][p.Slot]; got != code {
					t.Errorf("oracle: %s:%d is code %d, by construction %d", g.TierName(p.Tier), p.Slot, got, code)
				}
			}
		})
	}
}

func cmpPos(a, b games.TierPosition) int {
	switch {
	case a.Tier != b.Tier:
		if a.Tier < b.Tier {
			return -1
		}
		return 1
	case a.Slot < b.Slot:
		return -1
	case a.Slot > b.Slot:
		return 1
	}
	return 0
}

// toyReach is the reflexive-transitive closure of the declared tier graph, by a search
// from every tier.
func toyReach(g *toyGame) map[games.Tier]map[games.Tier]bool {
	out := map[games.Tier]map[games.Tier]bool{}
	for _, t := range g.order {
		seen := map[games.Tier]bool{t: true}
		stack := []games.Tier{t}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, c := range g.TierChildren(x) {
				if !seen[c] {
					seen[c] = true
					stack = append(stack, c)
				}
			}
		}
		out[t] = seen
	}
	return out
}

// TestToyTierPlan: the plan's units are exactly the strongly connected components of the
// tier graph (as mutual reachability and as the generator's groups), each after the units
// it depends on, listing those as Deps, its tiers in the game's order and named after the
// first; among the units ready, the earliest in the game's order comes first; a plan for
// some tiers holds exactly what they reach.
func TestToyTierPlan(t *testing.T) {
	t.Parallel()
	for _, seed := range toySeeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			g := toyGames[seed]()
			reach := toyReach(g)
			order := map[games.Tier]int{}
			for i, x := range g.order {
				order[x] = i
			}
			check := func(want []games.Tier) {
				t.Helper()
				plan := TierPlan(g, want)
				needed := map[games.Tier]bool{}
				for _, w := range want {
					for x := range reach[w] {
						needed[x] = true
					}
				}
				unitOf := map[games.Tier]int{}
				for i, u := range plan {
					if len(u.Tiers) == 0 || u.Name != g.TierName(u.Tiers[0]) {
						t.Fatalf("unit %d: %+v", i, u)
					}
					if !slices.IsSortedFunc(u.Tiers, func(a, b games.Tier) int { return order[a] - order[b] }) {
						t.Errorf("unit %s: tiers %v not in the game's order", u.Name, u.Tiers)
					}
					for _, x := range u.Tiers {
						if _, dup := unitOf[x]; dup {
							t.Fatalf("tier %s in two units", g.TierName(x))
						}
						unitOf[x] = i
					}
				}
				if len(unitOf) != len(needed) {
					t.Fatalf("the plan holds %d tiers, want the %d the wanted ones reach", len(unitOf), len(needed))
				}
				for x := range needed {
					if _, ok := unitOf[x]; !ok {
						t.Fatalf("the plan lacks %s", g.TierName(x))
					}
				}
				for a := range needed {
					for b := range needed {
						same := unitOf[a] == unitOf[b]
						if scc := reach[a][b] && reach[b][a]; same != scc {
							t.Fatalf("%s and %s: in one unit %v, reach each other %v", g.TierName(a), g.TierName(b), same, scc)
						}
						if same != (g.tiers[a].group == g.tiers[b].group) {
							t.Fatalf("%s and %s: in one unit %v, one generated group %v", g.TierName(a), g.TierName(b), same, !same)
						}
					}
				}
				for i, u := range plan {
					var deps []string
					for _, x := range u.Tiers {
						for _, c := range g.TierChildren(x) {
							j := unitOf[c]
							if j > i {
								t.Fatalf("unit %s (#%d) leads into %s of unit %s (#%d), planned after it", u.Name, i, g.TierName(c), plan[j].Name, j)
							}
							if j < i && !slices.Contains(deps, plan[j].Name) {
								deps = append(deps, plan[j].Name)
							}
						}
					}
					if slices.Sort(deps); !slices.Equal(slices.Sorted(slices.Values(u.Deps)), deps) {
						t.Errorf("unit %s: Deps %v, want %v", u.Name, u.Deps, deps)
					}
					// Among the units whose dependencies are all before i, u is the first
					// in the game's order.
					for _, v := range plan[i+1:] {
						ready := !slices.ContainsFunc(v.Deps, func(d string) bool {
							return !slices.ContainsFunc(plan[:i], func(x TierUnit) bool { return x.Name == d })
						})
						if ready && order[v.Tiers[0]] < order[u.Tiers[0]] {
							t.Errorf("unit %s (#%d) was ready before %s (#%d) and comes first in the game's order", v.Name, unitOf[v.Tiers[0]], u.Name, i)
						}
					}
				}
			}
			check(g.Tiers())
			check(slices.Clone(g.order[:3]))
			check([]games.Tier{g.groups[len(g.groups)-1][0]})
			check([]games.Tier{g.groups[0][0]})
			for _, x := range g.order { // TierUnitOf: the unit of each tier
				u, err := TierUnitOf(g, g.TierName(x))
				if err != nil || !slices.Contains(u.Tiers, x) || len(u.Tiers) != len(g.groups[g.tiers[x].group]) {
					t.Fatalf("TierUnitOf(%s) = %+v, %v", g.TierName(x), u, err)
				}
			}
			if _, err := TierUnitOf(g, "t999"); err == nil {
				t.Errorf("TierUnitOf of no tier: no error")
			}
		})
	}
}

// toyRead reads a tier's file in dir: its bytes and every slot's code.
func toyRead(t *testing.T, g *toyGame, dir string, tier games.Tier) ([]byte, []uint32) {
	t.Helper()
	path := filepath.Join(dir, "tier-"+g.TierName(tier)+".tsm")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := format.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if m := r.Meta(); m.Game != "toy" || m.Slots != g.TierSize(tier) || m.Index != "slot" ||
		string(m.Params) != fmt.Sprintf(`{"seed":%d,"tier":%q}`, g.seed, g.TierName(tier)) {
		t.Fatalf("%s: metadata %+v", path, m)
	}
	codes := make([]uint32, g.TierSize(tier))
	if err := r.Codes(codes, 0); err != nil {
		t.Fatal(err)
	}
	return b, codes
}

// toyCheckSet compares every file of the set in dir with the oracle and with want (the
// bytes of another build, or nil) and checks its manifest; it returns the files' bytes.
func toyCheckSet(t *testing.T, c toyCase, dir string, want map[games.Tier][]byte) map[games.Tier][]byte {
	t.Helper()
	g := c.g
	m, err := format.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != format.SetTiers || m.Game != "toy" || m.Rules != g.RulesID() || len(m.Members) != len(g.order) {
		t.Fatalf("manifest: %s %s %q, %d members, want %d", m.Kind, m.Game, m.Rules, len(m.Members), len(g.order))
	}
	got := map[games.Tier][]byte{}
	for i, tier := range g.order {
		x := m.Members[i]
		if x.Name != g.TierName(tier) || x.File != "tier-"+x.Name+".tsm" {
			t.Fatalf("manifest member %d is %s (%s), want %s in the game's order", i, x.Name, x.File, g.TierName(tier))
		}
		b, codes := toyRead(t, g, dir, tier)
		if sum, _ := format.FileSHA256(filepath.Join(dir, x.File)); sum != x.SHA256 || x.Bytes != int64(len(b)) {
			t.Fatalf("%s: the manifest records %d bytes, SHA-256 %s; the file has %d, %s", x.File, x.Bytes, x.SHA256, len(b), sum)
		}
		wrong := 0
		for s, code := range codes {
			if exp := c.oracle[tier][s]; code != exp {
				if wrong < 5 {
					t.Errorf("%s:%d: code %d (%s), oracle %d (%s); moves %v", g.TierName(tier), s, code, toyCodeString(code), exp,
						toyCodeString(exp), toyMovesString(g, g.tiers[tier].moves[s], c.oracle))
				}
				wrong++
			}
		}
		if wrong > 0 {
			t.Fatalf("%s: %d of %d slots differ from the oracle", g.TierName(tier), wrong, len(codes))
		}
		if want != nil && !bytes.Equal(b, want[tier]) {
			t.Fatalf("%s: the file differs from the other build's", x.File)
		}
		got[tier] = b
	}
	return got
}

// toyCounts is what a tier's codes count (written independently of values.WDLSummary).
func toyCounts(codes []uint32) values.WDLSummary {
	sum := values.WDLSummary{MaxWin: -1, MaxLoss: -1}
	for _, c := range codes {
		switch r := int(c) - 2; {
		case c == 1:
			sum.Draws++
		case r%2 == 1:
			sum.Wins++
			sum.MaxWin = max(sum.MaxWin, r)
		default:
			sum.Losses++
			sum.MaxLoss = max(sum.MaxLoss, r)
		}
	}
	return sum
}

func toyCodeString(c uint32) string {
	switch {
	case c == 0:
		return "hole"
	case c == 1:
		return "draw"
	case c%2 == 0:
		return fmt.Sprintf("loss in %d", c-2)
	}
	return fmt.Sprintf("win in %d", c-2)
}

func toyMovesString(g *toyGame, ms []games.TierPosition, oracle map[games.Tier][]uint32) string {
	var parts []string
	for _, p := range ms {
		if p.Tier == games.GameOver {
			parts = append(parts, "game over")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s:%d (%s)", g.TierName(p.Tier), p.Slot, toyCodeString(oracle[p.Tier][p.Slot])))
	}
	if len(parts) > 8 {
		parts = append(parts[:8], fmt.Sprintf("… %d moves", len(ms)))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// TestToyTierSet builds every seed's whole game with one and three workers, one and two
// jobs: every slot's value equals the oracle's and the files are the same bytes.
func TestToyTierSet(t *testing.T) {
	t.Parallel()
	for _, seed := range toySeedsFor(len(toySeeds)) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			c := toyCases[seed]()
			plan := TierPlan(c.g, c.g.Tiers())
			var first map[games.Tier][]byte
			opts := []TierOptions{{Workers: 1, Jobs: 1}, {Workers: 3, Jobs: 2}, {Workers: 1, Jobs: 2}, {Workers: 3, Jobs: 1}}
			if testing.Short() {
				opts = opts[:3] // the race pass
			}
			for k, opt := range opts {
				plan := plan
				if k == 2 { // the plan's units in reverse: the dependencies still come first
					plan = slices.Clone(plan)
					slices.Reverse(plan)
				}
				dir := t.TempDir()
				var built []string
				opt.UnitDone = func(u TierUnit, members []TierMember, skipped bool) {
					if skipped {
						t.Errorf("unit %s skipped in an empty directory", u.Name)
					}
					built = append(built, u.Name)
					if len(members) != len(u.Tiers) {
						t.Errorf("unit %s: %d members for %d tiers", u.Name, len(members), len(u.Tiers))
						return
					}
					for i, m := range members {
						if x := u.Tiers[i]; m.Name != c.g.TierName(x) || m.Slots != c.g.TierSize(x) || m.Counts != toyCounts(c.oracle[x]) {
							t.Errorf("unit %s: member %+v (%d slots, %+v), want %s (%d slots, %+v)", u.Name, m.Member, m.Slots, m.Counts,
								c.g.TierName(x), c.g.TierSize(x), toyCounts(c.oracle[x]))
						}
					}
				}
				if err := TierSet(context.Background(), c.g, dir, plan, opt); err != nil {
					t.Fatalf("workers %d, jobs %d: %v", opt.Workers, opt.Jobs, err)
				}
				if len(built) != len(plan) {
					t.Fatalf("workers %d, jobs %d: built %v, want the %d units of the plan", opt.Workers, opt.Jobs, built, len(plan))
				}
				got := toyCheckSet(t, c, dir, first)
				if first == nil {
					first = got
				}
			}
		})
	}
}

// TestToyTierResume: a build resumes where files are missing or not the ones recorded,
// rebuilding only their units, into the same bytes; a plan for some tiers builds only
// what they need.
func TestToyTierResume(t *testing.T) {
	t.Parallel()
	for _, seed := range toySeedsFor(2) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			c := toyCases[seed]()
			g := c.g
			ctx := context.Background()
			plan := TierPlan(g, g.Tiers())
			dir := t.TempDir()
			if err := TierSet(ctx, g, dir, plan, TierOptions{Workers: 2}); err != nil {
				t.Fatal(err)
			}
			want := toyCheckSet(t, c, dir, nil)
			// A tier of a unit of three that others depend on, a one-pass tier, a self tier.
			var victims []games.Tier
			for _, kind := range []int{toyBig, toyOnePass, toySelf} {
				i := slices.Index(g.kinds, kind)
				victims = append(victims, g.groups[i][len(g.groups[i])-1])
			}
			for _, v := range victims {
				for _, damage := range []string{"delete", "garble"} {
					path := filepath.Join(dir, "tier-"+g.TierName(v)+".tsm")
					if damage == "delete" {
						if err := os.Remove(path); err != nil {
							t.Fatal(err)
						}
					} else {
						b := slices.Clone(want[v])
						b[len(b)/2] ^= 0x40
						if err := os.WriteFile(path, b, 0o644); err != nil {
							t.Fatal(err)
						}
					}
					var rebuilt []string
					opt := TierOptions{Workers: 2, Jobs: 2, UnitDone: func(u TierUnit, _ []TierMember, skipped bool) {
						if !skipped {
							rebuilt = append(rebuilt, u.Name)
						}
					}}
					if err := TierSet(ctx, g, dir, plan, opt); err != nil {
						t.Fatalf("%s %s: %v", damage, g.TierName(v), err)
					}
					u, _ := TierUnitOf(g, g.TierName(v))
					if !slices.Equal(rebuilt, []string{u.Name}) {
						t.Errorf("%s %s: rebuilt %v, want its unit %s only", damage, g.TierName(v), rebuilt, u.Name)
					}
					toyCheckSet(t, c, dir, want)
				}
			}
			// Unit by unit, as one job per unit would build them: the same bytes.
			byUnit := t.TempDir()
			for _, u := range plan {
				if built, err := BuildTierUnit(ctx, g, byUnit, u, TierOptions{Workers: 1}); err != nil || !built {
					t.Fatalf("unit %s alone: %v, %v", u.Name, built, err)
				}
			}
			toyCheckSet(t, c, byUnit, want)
			// A plan for one tier of the highest group but one builds what it reaches only.
			top := g.groups[len(g.groups)-2][0]
			part := t.TempDir()
			if err := TierSet(ctx, g, part, TierPlan(g, []games.Tier{top}), TierOptions{Workers: 2, Jobs: 2}); err != nil {
				t.Fatal(err)
			}
			m, err := format.ReadManifest(part)
			if err != nil {
				t.Fatal(err)
			}
			reach := toyReach(g)[top]
			if len(m.Members) != len(reach) {
				t.Fatalf("a plan for %s built %d tiers, it reaches %d", g.TierName(top), len(m.Members), len(reach))
			}
			for _, x := range m.Members {
				tier, _ := g.ParseTier(x.Name)
				if b, _ := toyRead(t, g, part, tier); !reach[tier] || !bytes.Equal(b, want[tier]) {
					t.Fatalf("a plan for %s: %s (reached %v) differs from the whole build's", g.TierName(top), x.Name, reach[tier])
				}
			}
		})
	}
}

// TestToyTierUnitMissingDependency: a unit whose dependency is missing, or not the file
// recorded, fails naming it and the unit to build.
func TestToyTierUnitMissingDependency(t *testing.T) {
	t.Parallel()
	for _, seed := range toySeedsFor(2) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			c := toyCases[seed]()
			g := c.g
			ctx := context.Background()
			plan := TierPlan(g, g.Tiers())
			// The last unit with dependencies, and the first tier it leads into.
			var u TierUnit
			for _, x := range plan {
				if len(x.Deps) > 0 {
					u = x
				}
			}
			var dep games.Tier
			for _, x := range u.Tiers {
				for _, ch := range g.TierChildren(x) {
					if !slices.Contains(u.Tiers, ch) && dep == 0 {
						dep = ch
					}
				}
			}
			depUnit, _ := TierUnitOf(g, g.TierName(dep))
			dir := t.TempDir()
			built, err := BuildTierUnit(ctx, g, dir, u, TierOptions{Workers: 2})
			if err == nil || built || !strings.Contains(err.Error(), "needs tier "+g.TierName(dep)) ||
				!strings.Contains(err.Error(), "build "+depUnit.Name+" first") {
				t.Fatalf("unit %s in an empty directory: %v, %v; want it to name tier %s and unit %s", u.Name, built, err, g.TierName(dep), depUnit.Name)
			}
			if _, err := os.Stat(filepath.Join(dir, "tier-"+u.Name+".tsm")); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("a failed unit left its file: %v", err)
			}
			// A plan without depUnit, two jobs at a time: the first failure names it.
			rest := slices.DeleteFunc(slices.Clone(plan), func(x TierUnit) bool { return x.Name == depUnit.Name })
			if err := TierSet(ctx, g, t.TempDir(), rest, TierOptions{Workers: 1, Jobs: 2}); err == nil ||
				!strings.Contains(err.Error(), "build "+depUnit.Name+" first") {
				t.Fatalf("a plan without unit %s: %v", depUnit.Name, err)
			}
			// Everything built, then the unit's files and its dependency's removed or changed.
			if err := TierSet(ctx, g, dir, plan, TierOptions{Workers: 2}); err != nil {
				t.Fatal(err)
			}
			for _, x := range u.Tiers {
				if err := os.Remove(filepath.Join(dir, "tier-"+g.TierName(x)+".tsm")); err != nil {
					t.Fatal(err)
				}
			}
			depPath := filepath.Join(dir, "tier-"+g.TierName(dep)+".tsm")
			good, _ := os.ReadFile(depPath)
			bad := slices.Clone(good)
			bad[len(bad)-1] ^= 1
			if err := os.WriteFile(depPath, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := BuildTierUnit(ctx, g, dir, u, TierOptions{Workers: 2}); !errors.Is(err, format.ErrCorrupt) ||
				!strings.Contains(err.Error(), "tier "+g.TierName(dep)) || !strings.Contains(err.Error(), "rebuild "+depUnit.Name) {
				t.Fatalf("unit %s with %s changed: %v", u.Name, g.TierName(dep), err)
			}
			if err := os.Remove(depPath); err != nil {
				t.Fatal(err)
			}
			if _, err := BuildTierUnit(ctx, g, dir, u, TierOptions{Workers: 2}); err == nil ||
				!strings.Contains(err.Error(), "tier "+g.TierName(dep)) || !strings.Contains(err.Error(), "rebuild "+depUnit.Name) {
				t.Fatalf("unit %s with %s missing: %v", u.Name, g.TierName(dep), err)
			}
			// Restored, the unit builds again into the values of the oracle.
			if err := os.WriteFile(depPath, good, 0o644); err != nil {
				t.Fatal(err)
			}
			if built, err := BuildTierUnit(ctx, g, dir, u, TierOptions{Workers: 2}); err != nil || !built {
				t.Fatalf("unit %s after its dependency was restored: %v, %v", u.Name, built, err)
			}
			toyCheckSet(t, c, dir, nil)
			if built, err := BuildTierUnit(ctx, g, dir, u, TierOptions{Workers: 2}); err != nil || built {
				t.Fatalf("unit %s complete, built again: %v, %v", u.Name, built, err)
			}
		})
	}
}

// toyHideSelf is the toy with one tier's moves within itself left out of TierChildren: a
// game that breaks its own contract.
type toyHideSelf struct {
	*toyGame
	hide games.Tier
}

func (g toyHideSelf) TierChildren(t games.Tier) []games.Tier {
	c := g.toyGame.TierChildren(t)
	if t == g.hide {
		c = slices.DeleteFunc(c, func(x games.Tier) bool { return x == t })
	}
	return c
}

// TestToyTierUndeclaredMove: a tier that declares no move within itself is solved in one
// pass; when it has such moves after all, the build fails naming the tier and the slot,
// rather than writing wrong values.
func TestToyTierUndeclaredMove(t *testing.T) {
	t.Parallel()
	c := toyCases[toySeeds[0]]()
	self := c.g.groups[slices.Index(c.g.kinds, toySelf)][0]
	g := toyHideSelf{c.g, self}
	err := TierSet(context.Background(), g, t.TempDir(), TierPlan(g, g.Tiers()), TierOptions{Workers: 1})
	if err == nil || !strings.Contains(err.Error(), "tier "+g.TierName(self)+": slot 0 has a move within its own tier") {
		t.Fatalf("tier %s with an undeclared move within itself: %v", g.TierName(self), err)
	}
}
