package pipeline

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

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
	seed uint64
	// overWins: positions over as a win for the side to move, and moves that end the game
	// so, occur (odd seeds): the set stores its codes in the split layout (games.OverWins).
	overWins bool
	order    []games.Tier // Tiers(): shuffled, not a dependency order
	tiers    map[games.Tier]*toyTier
	groups   [][]games.Tier // the generator's groups, lowest first, each in generation order
	kinds    []int          // the kind of each group
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
	over     map[uint64]values.Outcome // slots over by the rules, with their value
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

	g := &toyGame{seed: seed, overWins: seed%2 == 1, tiers: map[games.Tier]*toyTier{}, kinds: kinds, known: map[games.TierPosition]uint32{}}
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
	// Positions over by the rules (a loss or a draw at 0, no move; a win too where the game
	// has them), and moves that end the game in a draw (or a win for the side then to
	// move), drawn from a generator of their own.
	orng := rand.New(rand.NewPCG(seed, 0x0e4d))
	ends := []values.Outcome{values.Loss, values.Draw}
	if g.overWins {
		ends = append(ends, values.Win)
	}
	for _, t := range all {
		tt := g.tiers[t]
		tt.over = map[uint64]values.Outcome{}
		for s := range tt.size {
			if _, known := g.known[games.TierPosition{Tier: t, Slot: s}]; tt.fixed[s] || known {
				continue
			}
			if orng.IntN(16) == 0 {
				tt.moves[s] = nil
				tt.over[s] = ends[orng.IntN(len(ends))]
				tt.fixed[s] = true
				continue
			}
			for k, c := range tt.moves[s] {
				if c.Tier == games.GameOver && orng.IntN(3) == 0 {
					tt.moves[s][k].Slot, _ = games.EndSlot(ends[1+orng.IntN(len(ends)-1)])
				}
			}
		}
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
func (g *toyGame) HasOverWins() bool { return g.overWins }

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

func (sp toySpace) Moves(state string) (moves []games.Move, over values.Outcome, err error) {
	t, s, err := sp.g.parseState(state)
	if err != nil {
		return nil, 0, err
	}
	if o, ok := sp.g.tiers[t].over[s]; ok {
		return nil, o, nil
	}
	for i, p := range sp.g.tiers[t].moves[s] {
		m := games.Move{Name: strconv.Itoa(i)}
		if p.Tier == games.GameOver {
			m.End, _ = games.EndOutcome(p.Slot)
		} else {
			m.Next = fmt.Sprintf("%s:%d", sp.g.TierName(p.Tier), p.Slot)
		}
		moves = append(moves, m)
	}
	return moves, 0, nil
}

// toyWorker answers from the explicit graph (read-only: any number of goroutines).
type toyWorker struct{ g *toyGame }

func (w toyWorker) Children(t games.Tier, lo, hi uint64, b *games.ChildBatch) {
	b.Reset()
	tt := w.g.tiers[t]
	for s := lo; s < hi; s++ {
		if o, ok := tt.over[s]; ok {
			b.End(o)
			continue
		}
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
// depth over every position, and gives every slot its code in the game's layout
// (games.Layout): at depth 0 a position is lost when it has no move and is not over by
// the rules, and takes its value by the rules when it is over (a draw for good); at
// d > 0 a position not over is won when a move leads to a position lost at d−1 (a move
// that ends the game with the opponent lost leaves it lost at 0), and lost when every
// move leads to a position won, the slowest at d−1 (a move that ends the game with the
// opponent winning leaves it won at 0; one that ends it otherwise is no such move).
// Positions undecided when two depths in a row decide nothing are draws. Nothing here
// assumes that wins have odd remoteness.
func toyOracle(g *toyGame) map[games.Tier][]uint32 {
	type value struct {
		rem int // −1: undecided
		win bool
	}
	val := map[games.Tier][]value{}
	var pending []games.TierPosition
	for t, tt := range g.tiers {
		v := make([]value, tt.size)
		for s := range v {
			v[s].rem = -1
			if tt.over[uint64(s)] != values.Draw {
				pending = append(pending, games.TierPosition{Tier: t, Slot: uint64(s)})
			}
		}
		val[t] = v
	}
	// childValue is a move's value for the opponent: decided, won, remoteness.
	childValue := func(c games.TierPosition) (bool, bool, int) {
		if c.Tier == games.GameOver {
			o, _ := games.EndOutcome(c.Slot)
			return o != values.Draw, o == values.Win, 0
		}
		v := val[c.Tier][c.Slot]
		return v.rem >= 0, v.win, v.rem
	}
	quiet := 0 // depths in a row that decided nothing
	for d := 0; quiet < 2; d++ {
		type decision struct {
			p   games.TierPosition
			win bool
		}
		var decided []decision
		var left []games.TierPosition
		for _, p := range pending {
			tt := g.tiers[p.Tier]
			moves, over := tt.moves[p.Slot], tt.over[p.Slot]
			win, loss := false, false
			switch {
			case d == 0:
				win, loss = over == values.Win, over == values.Loss || over == 0 && len(moves) == 0
			case over == 0:
				slowest, all := -1, true
				for _, c := range moves {
					known, won, r := childValue(c)
					win = win || known && !won && r == d-1
					all = all && known && won
					if known && won {
						slowest = max(slowest, r)
					}
				}
				loss = !win && len(moves) > 0 && all && slowest == d-1
			}
			if win || loss {
				decided = append(decided, decision{p, win})
			} else {
				left = append(left, p)
			}
		}
		for _, x := range decided {
			val[x.p.Tier][x.p.Slot] = value{rem: d, win: x.win}
		}
		pending = left
		if len(decided) == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
	layout := games.Layout(g)
	out := map[games.Tier][]uint32{}
	for t, vs := range val {
		codes := make([]uint32, len(vs))
		for s, v := range vs {
			switch {
			case v.rem < 0:
				codes[s] = values.WDLDraw
			case v.win:
				codes[s] = layout.Code(values.Win, v.rem)
			default:
				codes[s] = layout.Code(values.Loss, v.rem)
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

// toyCase is a game and its oracle's codes.
type toyCase struct {
	g      *toyGame
	oracle map[games.Tier][]uint32
}

var _ games.TierSpace = toySpace{}
