package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/values"
)

// The tier orchestrator on the toy game of tiers_toy_game_test.go: the plan against the
// tier graph's strongly connected components, every stored value against the independent
// oracle, reproducible bytes across workers and jobs, resume, and the errors of a unit
// whose dependency is missing or whose game breaks its contract.

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
					switch o, r, _ := games.Layout(g).Decode(c.oracle[tier][s]); o {
					case values.Draw:
						draws++
					case values.Loss:
						losses++
						maxR = max(maxR, r)
					default:
						wins++
						maxR = max(maxR, r)
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
				o, r, _ := values.WDLCodes{}.Decode(code) // known in the parity layout
				if got, want := c.oracle[p.Tier][p.Slot], games.Layout(g).Code(o, r); got != want {
					t.Errorf("oracle: %s:%d is code %d, by construction %d", g.TierName(p.Tier), p.Slot, got, want)
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
					t.Errorf("%s:%d: code %d (%s), oracle %d (%s); moves %v", g.TierName(tier), s, code, toyCodeString(g, code), exp,
						toyCodeString(g, exp), toyMovesString(g, g.tiers[tier].moves[s], c.oracle))
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

// toyCounts is what a tier's codes in the layout of g count (written independently of
// values.WDLSummary).
func toyCounts(g *toyGame, codes []uint32) values.WDLSummary {
	sum := values.WDLSummary{MaxWin: -1, MaxLoss: -1}
	for _, c := range codes {
		r := int(c) - 2
		if g.overWins {
			r /= 2
		}
		switch {
		case c == 1:
			sum.Draws++
		case c%2 == 1:
			sum.Wins++
			sum.MaxWin = max(sum.MaxWin, r)
		default:
			sum.Losses++
			sum.MaxLoss = max(sum.MaxLoss, r)
		}
	}
	return sum
}

func toyCodeString(g *toyGame, c uint32) string {
	o, r, ok := games.Layout(g).Decode(c)
	switch {
	case !ok:
		return "hole"
	case o == values.Draw:
		return "draw"
	}
	return fmt.Sprintf("%v in %d", o, r)
}

func toyMovesString(g *toyGame, ms []games.TierPosition, oracle map[games.Tier][]uint32) string {
	var parts []string
	for _, p := range ms {
		if p.Tier == games.GameOver {
			parts = append(parts, "game over")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s:%d (%s)", g.TierName(p.Tier), p.Slot, toyCodeString(g, oracle[p.Tier][p.Slot])))
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
						if x := u.Tiers[i]; m.Name != c.g.TierName(x) || m.Slots != c.g.TierSize(x) || m.Counts != toyCounts(c.g, c.oracle[x]) {
							t.Errorf("unit %s: member %+v (%d slots, %+v), want %s (%d slots, %+v)", u.Name, m.Member, m.Slots, m.Counts,
								c.g.TierName(x), c.g.TierSize(x), toyCounts(c.g, c.oracle[x]))
						}
					}
				}
				if err := BuildTierSet(context.Background(), c.g, dir, plan, opt); err != nil {
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
			if err := BuildTierSet(ctx, g, dir, plan, TierOptions{Workers: 2}); err != nil {
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
					if err := BuildTierSet(ctx, g, dir, plan, opt); err != nil {
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
			if err := BuildTierSet(ctx, g, part, TierPlan(g, []games.Tier{top}), TierOptions{Workers: 2, Jobs: 2}); err != nil {
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
			if err := BuildTierSet(ctx, g, t.TempDir(), rest, TierOptions{Workers: 1, Jobs: 2}); err == nil ||
				!strings.Contains(err.Error(), "build "+depUnit.Name+" first") {
				t.Fatalf("a plan without unit %s: %v", depUnit.Name, err)
			}
			// Everything built, then the unit's files and its dependency's removed or changed.
			if err := BuildTierSet(ctx, g, dir, plan, TierOptions{Workers: 2}); err != nil {
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
// pass; when it has such moves after all, the build fails naming the tier and the move's
// tier, rather than writing wrong values.
func TestToyTierUndeclaredMove(t *testing.T) {
	t.Parallel()
	c := toyCases[toySeeds[0]]()
	self := c.g.groups[slices.Index(c.g.kinds, toySelf)][0]
	g := toyHideSelf{c.g, self}
	err := BuildTierSet(context.Background(), g, t.TempDir(), TierPlan(g, g.Tiers()), TierOptions{Workers: 1})
	if err == nil || !strings.Contains(err.Error(), "a move of tier "+g.TierName(self)+" leads into tier "+g.TierName(self)+", which it does not declare") {
		t.Fatalf("tier %s with an undeclared move within itself: %v", g.TierName(self), err)
	}
}

// toyDupChildren is the toy with every tier's children listed twice: allowed by the
// interface, and it must not change a value (each predecessor is still counted once).
type toyDupChildren struct{ *toyGame }

func (g toyDupChildren) TierChildren(t games.Tier) []games.Tier {
	c := g.toyGame.TierChildren(t)
	return append(c, c...)
}

// TestToyTierDuplicateChildren: a game listing a child tier twice gets the same files.
func TestToyTierDuplicateChildren(t *testing.T) {
	t.Parallel()
	for _, seed := range toySeedsFor(2) {
		c := toyCases[seed]()
		dir := t.TempDir()
		g := toyDupChildren{c.g}
		if err := BuildTierSet(context.Background(), g, dir, TierPlan(g, g.Tiers()), TierOptions{Workers: 2}); err != nil {
			t.Fatal(err)
		}
		toyCheckSet(t, c, dir, nil)
	}
}
