// Command millreport writes the Markdown tables of the README's "Mühle solved" section
// from a whole-game Mühle set: the value of the empty board and of every first move, the
// sectors and classes of each phase with their size and build time, and for each of the
// first plies of a game the sectors reachable then and the positions really reached.
//
//	go run ./benchmarks/millreport [-plies 6] DIR
//
// The sector figures are the files' own counts (every arrangement of the sector's stones,
// reachable or not); the "reached" figures come from a forward enumeration of the
// placements from the empty board, one position per symmetry class, each looked up in
// the set. Build times are the units' own seconds from the manifest (a unit's members
// share its run: the longest of them counts once).
package main

import (
	"flag"
	"fmt"
	"github.com/tablesmith/tablesmith/internal/humanize"
	"io"
	"math/bits"
	"os"
	"slices"
	"strings"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

func main() {
	plies := flag.Int("plies", 6, "report plies 0 to `N` of a game")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: millreport [-plies N] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *plies < 0 || *plies > 17 {
		flag.Usage()
		os.Exit(2)
	}
	if err := report(os.Stdout, flag.Arg(0), *plies); err != nil {
		fmt.Fprintln(os.Stderr, "millreport:", err)
		os.Exit(1)
	}
}

func report(w io.Writer, dir string, plies int) error {
	set, err := tables.OpenSet(dir)
	if err != nil {
		return err
	}
	defer set.Close()
	g := set.Tiered()
	if g == nil || g.(games.Game).Name() != "mill" {
		return fmt.Errorf("%s is not a Mühle set", dir)
	}
	// Info summarises a member that cannot be opened by its file alone: open them all
	// first, so that a damaged set fails here rather than print short totals.
	if err := set.OpenMembers(); err != nil {
		return err
	}
	info := set.Info()
	p := &printer{w: w}
	// Each side's stones at the start: the hand of the empty board's sector, the largest.
	stones := 0
	for _, ts := range info.Tiers {
		stones = max(stones, pair(ts, "hand")[0])
	}
	if stones == 0 {
		return fmt.Errorf("%s holds no placement sector: build the whole game (build mill -o DIR)", dir)
	}
	plies = min(plies, 2*stones-1)

	empty := mill.Position{ToMove: mill.White, WhiteHand: stones, BlackHand: stones}.String()
	root, moves, err := set.Moves(empty)
	if err != nil {
		return fmt.Errorf("the empty board: %w (is this the whole game, built from the empty board?)", err)
	}
	p.f("The empty board, White to place: **%s**.\n\n", value(root))
	byValue := map[string][]string{}
	for _, m := range moves {
		v := value(opponentView(m.Answer))
		byValue[v] = append(byValue[v], m.Move)
	}
	keys := mapsKeys(byValue)
	slices.Sort(keys)
	for _, v := range keys {
		p.f("- first moves that %s: %d (%s)\n", v, len(byValue[v]), strings.Join(byValue[v], " "))
	}
	p.f("\n")

	// The phases.
	units := unitSeconds(g, set)
	type phase struct {
		sectors             int
		classes, w, l, d    uint64
		bytes               int64
		seconds             float64
		maxWin, maxLoss     int
		name                string
		placement           bool
		longestWinSector    string
		longestLossSector   string
		unitsDone, unitsAll int
	}
	ph := []*phase{{name: "moving", maxWin: -1, maxLoss: -1}, {name: "placement", placement: true, maxWin: -1, maxLoss: -1}}
	for _, ts := range info.Tiers {
		x := ph[0]
		if handSum(ts) > 0 {
			x = ph[1]
		}
		x.sectors++
		x.classes += ts.Classes
		x.w, x.l, x.d = x.w+ts.Wins, x.l+ts.Losses, x.d+ts.Draws
		x.bytes += ts.Bytes
		if ts.MaxWin != nil && *ts.MaxWin > x.maxWin {
			x.maxWin, x.longestWinSector = *ts.MaxWin, ts.Name
		}
		if ts.MaxLoss != nil && *ts.MaxLoss > x.maxLoss {
			x.maxLoss, x.longestLossSector = *ts.MaxLoss, ts.Name
		}
	}
	for _, u := range units {
		x := ph[0]
		if u.placement {
			x = ph[1]
		}
		x.seconds += u.seconds
	}
	p.f("| phase | sectors | classes | wins | losses | draws | longest win | longest loss | files | build time (units) |\n")
	p.f("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	var tot phase
	for _, x := range ph {
		p.f("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", x.name, x.sectors, comma(x.classes), comma(x.w), comma(x.l), comma(x.d),
			plyIn(x.maxWin, x.longestWinSector), plyIn(x.maxLoss, x.longestLossSector), humanize.Bytes(uint64(x.bytes)), duration(x.seconds))
		tot.sectors += x.sectors
		tot.classes += x.classes
		tot.w, tot.l, tot.d = tot.w+x.w, tot.l+x.l, tot.d+x.d
		tot.bytes += x.bytes
		tot.seconds += x.seconds
	}
	p.f("| both | %d | %s | %s | %s | %s | | | %s | %s |\n\n", tot.sectors, comma(tot.classes), comma(tot.w), comma(tot.l), comma(tot.d),
		humanize.Bytes(uint64(tot.bytes)), duration(tot.seconds))

	// The first plies.
	reached, err := reachedByPly(set, stones, plies)
	if err != nil {
		return err
	}
	p.f("| ply | to move | sector (board, hand: mover/opponent) | classes | wins | losses | draws | longest win | longest loss |\n")
	p.f("|--:|---|---|--:|--:|--:|--:|--:|--:|\n")
	for k := 0; k <= plies; k++ {
		side := "White"
		if k%2 == 1 {
			side = "Black"
		}
		for _, ts := range info.Tiers {
			if handSum(ts) != 2*stones-k {
				continue
			}
			b, h := pair(ts, "board"), pair(ts, "hand")
			p.f("| %d | %s | %s (%d/%d, %d/%d) | %s | %s | %s | %s | %s | %s |\n", k, side, ts.Name, b[0], b[1], h[0], h[1],
				comma(ts.Classes), comma(ts.Wins), comma(ts.Losses), comma(ts.Draws), opt(ts.MaxWin), opt(ts.MaxLoss))
		}
	}
	p.f("\nPositions reached from the empty board (one per symmetry class), by ply:\n\n")
	p.f("| ply | positions | wins | losses | draws | longest win | longest loss |\n|--:|--:|--:|--:|--:|--:|--:|\n")
	for k, r := range reached {
		p.f("| %d | %s | %s | %s | %s | %s | %s |\n", k, comma(r.n), comma(r.w), comma(r.l), comma(r.d), plyIn(r.maxWin, ""), plyIn(r.maxLoss, ""))
	}
	return p.err
}

// opponentView turns the answer for the position a move leads to (the opponent to move)
// into the mover's outcome of that move, counting the move itself.
func opponentView(a tables.Answer) tables.Answer {
	switch a.Outcome {
	case values.Win:
		a.Outcome = values.Loss
		a.Remoteness++
	case values.Loss:
		a.Outcome = values.Win
		a.Remoteness++
	}
	return a
}

func value(a tables.Answer) string {
	switch a.Outcome {
	case values.Win:
		return fmt.Sprintf("win in %d plies", a.Remoteness)
	case values.Loss:
		return fmt.Sprintf("loss in %d plies", a.Remoteness)
	case values.Draw:
		return "draw"
	}
	return a.Outcome.String()
}

type plyCount struct {
	n, w, d, l      uint64
	maxWin, maxLoss int
}

// reachedByPly enumerates the positions of the first plies of a game, one per symmetry
// class, and counts their values in the set.
func reachedByPly(set *tables.Set, stones, plies int) ([]plyCount, error) {
	type pos struct{ own, opp uint32 }
	level := []pos{{0, 0}}
	var out []plyCount
	var succ []mill.Succ
	for k := 0; k <= plies; k++ {
		toMove := mill.White
		if k%2 == 1 {
			toMove = mill.Black
		}
		// White has placed ⌈k/2⌉ stones before ply k, Black ⌊k/2⌋.
		ownHand, oppHand := stones-k/2, stones-(k+1)/2
		if toMove == mill.White {
			ownHand, oppHand = stones-(k+1)/2, stones-k/2
		}
		c := plyCount{maxWin: -1, maxLoss: -1}
		next := map[pos]bool{}
		for _, q := range level {
			p := mill.FromOwnOpp(q.own, q.opp, toMove)
			if toMove == mill.White {
				p.WhiteHand, p.BlackHand = ownHand, oppHand
			} else {
				p.WhiteHand, p.BlackHand = oppHand, ownHand
			}
			a, err := set.Lookup(p.String())
			if err != nil {
				return nil, fmt.Errorf("ply %d, %s: %w", k, p, err)
			}
			c.n++
			switch a.Outcome {
			case values.Win:
				c.w++
				c.maxWin = max(c.maxWin, a.Remoteness)
			case values.Loss:
				c.l++
				c.maxLoss = max(c.maxLoss, a.Remoteness)
			case values.Draw:
				c.d++
			default:
				return nil, fmt.Errorf("ply %d, %s: %v is not a game value", k, p, a.Outcome)
			}
			if k == plies {
				continue
			}
			succ = mill.Placements(succ[:0], q.own, q.opp)
			for _, s := range succ {
				if bits.OnesCount32(s.Own)+oppHand < mill.MinStones {
					continue // the game is over (in a game of fewer stones a side): no position
				}
				o, x, _ := mill.Canonical(s.Own, s.Opp)
				next[pos{o, x}] = true
			}
		}
		out = append(out, c)
		level = level[:0]
		for q := range next {
			level = append(level, q)
		}
		slices.SortFunc(level, func(a, b pos) int {
			if a.own != b.own {
				return int(int64(a.own) - int64(b.own))
			}
			return int(int64(a.opp) - int64(b.opp))
		})
	}
	return out, nil
}

type unitTime struct {
	seconds   float64
	placement bool
}

// unitSeconds returns each unit's build seconds: the longest of its members' (they are
// written one after the other by one run).
func unitSeconds(g games.TieredGame, set *tables.Set) []unitTime {
	byName := map[string]float64{}
	for _, m := range set.Manifest().Members {
		if m.Build != nil {
			byName[m.Name] = m.Build.Seconds
		}
	}
	var out []unitTime
	var tiers []games.Tier
	for _, name := range set.TierNames() {
		if t, err := g.ParseTier(name); err == nil {
			tiers = append(tiers, t)
		}
	}
	for _, u := range pipeline.TierPlan(g, tiers) {
		var ut unitTime
		for _, t := range u.Tiers {
			ut.seconds = max(ut.seconds, byName[g.TierName(t)])
			_, _, wh, bh := splitTier(g, t)
			ut.placement = wh+bh > 0
		}
		out = append(out, ut)
	}
	return out
}

func splitTier(g games.TieredGame, t games.Tier) (w, b, wh, bh int) {
	d := g.(games.TierDescriber).DescribeTier(t)
	board, hand := d["board"].([2]int), d["hand"].([2]int)
	return board[0], board[1], hand[0], hand[1]
}

func handSum(ts tables.TierSummary) int { h := pair(ts, "hand"); return h[0] + h[1] }

// pair reads a [mover, opponent] count the game writes into a tier's description.
func pair(ts tables.TierSummary, key string) [2]int {
	switch v := ts.Described[key].(type) {
	case [2]int:
		return v
	case []int:
		if len(v) == 2 {
			return [2]int{v[0], v[1]}
		}
	}
	return [2]int{}
}

func opt(p *int) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprint(*p)
}

func plyIn(n int, where string) string {
	if n < 0 {
		return "—"
	}
	if where == "" {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d (%s)", n, where)
}

func comma(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func duration(sec float64) string {
	s := int(sec + 0.5)
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

func mapsKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// printer writes formatted text, keeping the first error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}
