package registry

import (
	"encoding/json"
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games"
)

// TestRegistry: names are unique, every game declares schemes and flag-bindable typed
// parameters, and its parameters survive the JSON round trip with the index kept apart.
func TestRegistry(t *testing.T) {
	t.Parallel()
	small := map[string]string{
		"slide":            `{"rows":2,"cols":3,"goal":"blank-first"}`,
		"slide-pdb":        `{"rows":3,"cols":3,"goal":"blank-last","tiles":[1,2,3]}`,
		"hanoi":            `{"pegs":4,"disks":5}`,
		"mill":             `{"w":3,"b":4}`,
		"tictactoe":        `{"stones":4}`,
		"tictactoe-misere": `{"stones":4}`,
	}
	seen := map[string]bool{}
	for _, g := range builtin {
		name := g.Name()
		if seen[name] {
			t.Fatalf("game %q registered twice", name)
		}
		seen[name] = true
		if len(g.Schemes()) == 0 || g.Summary() == "" {
			t.Errorf("%s: no schemes or summary", name)
		}
		caps := 0
		for _, ok := range []bool{isA[games.PuzzleGame](g), isA[games.PDBFamily](g), isA[games.TieredGame](g)} {
			if ok {
				caps++
			}
		}
		if caps != 1 || games.KindOf(g) == "unknown" {
			t.Errorf("%s: offers %d capabilities (kind %q), want exactly one", name, caps, games.KindOf(g))
		}
		if _, ok := g.NewParams().(games.FlagBinder); !ok {
			t.Errorf("%s: parameters declare no flags", name)
		}
		raw, ok := small[name]
		if !ok {
			t.Errorf("%s: no small instance in this test", name)
			continue
		}
		in, err := Open(name, []byte(raw), "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if in.Index != g.Schemes()[0] {
			t.Errorf("%s: default index %q", name, in.Index)
		}
		back, err := in.ParamsJSON()
		if err != nil || string(back) != raw {
			t.Errorf("%s: params %s round-trip to %s (%v)", name, raw, back, err)
		}
		if strings.Contains(string(back), "index") {
			t.Errorf("%s: the index leaks into the parameters: %s", name, back)
		}
		if !strings.Contains(in.Key(), "index="+in.Index) {
			t.Errorf("%s: key %q", name, in.Key())
		}
	}
}

func TestRegistryErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ game, params, index, want string }{
		{"chess", `{}`, "", "unknown game"},
		{"slide", `{"rows":"x"}`, "", "parameters"},
		{"slide", `{"rows":2,"cols":3}`, "nope", "no index scheme"},
		{"hanoi", `{"pegs":4}`, "", "--disks"},
		{"slide", `{"rows":0,"cols":3}`, "", "--rows"},
	} {
		if _, err := Open(c.game, json.RawMessage(c.params), c.index); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s %q: %v, want an error mentioning %q", c.game, c.params, c.index, err, c.want)
		}
	}
	// Flags set the typed parameters.
	g, _ := Lookup("hanoi")
	p := g.NewParams()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	p.(games.FlagBinder).BindFlags(fs)
	if err := fs.Parse([]string{"--pegs", "5", "--disks", "7"}); err != nil {
		t.Fatal(err)
	}
	in, err := games.New(g, p, "")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := in.ParamsJSON(); string(b) != `{"pegs":5,"disks":7}` {
		t.Errorf("flags gave %s", b)
	}
}

// isA reports whether g offers capability C.
func isA[C any](g games.Game) bool {
	_, ok := g.(C)
	return ok
}

// TestRegisterRefuses: a game registered from outside may not take a reserved name, a
// name already taken, a name that is no lower-case word, or offer no capability; one
// that is fine is listed after the built-in games and found by name.
func TestRegisterRefuses(t *testing.T) {
	mu.Lock()
	before := slices.Clone(registered)
	mu.Unlock()
	t.Cleanup(func() { mu.Lock(); registered = before; mu.Unlock() })
	mill := mustLookup(t, "mill")
	for _, tc := range []struct {
		g    games.Game
		want string
	}{
		{nil, "nil game"},
		{renamed{mill, "pdb"}, "reserved"},
		{renamed{mill, "verify"}, "reserved"},
		{renamed{mill, "hanoi"}, "registered already"},
		{renamed{mill, ""}, "no name"},
		{renamed{mill, "My Game"}, "lower-case word"},
		{renamed{mill, "-x"}, "starts with '-'"},
		{bare{renamed{mill, "bare"}}, "none of the capabilities"},
	} {
		err := Register(tc.g)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Register(%v) = %v, want an error saying %q", tc.g, err, tc.want)
		}
	}
	if err := Register(renamed{mill, "mill-copy"}); err != nil {
		t.Fatal(err)
	}
	names := Names()
	if names[len(names)-1] != "mill-copy" {
		t.Errorf("registered game not listed last: %v", names)
	}
	if g, err := Lookup("mill-copy"); err != nil || g.Name() != "mill-copy" {
		t.Errorf("Lookup(mill-copy) = %v, %v", g, err)
	}
	if err := Register(renamed{mill, "mill-copy"}); err == nil {
		t.Error("the same name registered twice")
	}
}

func mustLookup(t *testing.T, name string) games.TieredGame {
	g, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g.(games.TieredGame)
}

// renamed is a tiered game under another name.
type renamed struct {
	games.TieredGame
	name string
}

func (r renamed) Name() string { return r.name }

// bare is a game with no capability.
type bare struct{ r renamed }

func (b bare) Name() string                                  { return b.r.Name() }
func (b bare) Summary() string                               { return "no capability" }
func (b bare) Schemes() []string                             { return b.r.Schemes() }
func (b bare) NewParams() any                                { return b.r.NewParams() }
func (b bare) Open(p any, index string) (games.Space, error) { return b.r.Open(p, index) }
