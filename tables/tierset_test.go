package tables

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/safefile"
	"github.com/tablesmith/tablesmith/internal/settest"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/values"
)

// The tests of a tiered game's set: lazy opening, and the forward check tier by tier.
// They are internal to reach what a set holds (the lazy instances, the game it plays).

var (
	gameOnce sync.Once
	gameDir  string
	gameErr  error
)

// millGame4 builds the whole Mühle game with four stones a side (placement phase
// included: 0-0-4-4 and every sector it leads into) once per test binary; with -short
// (the race detector's run, where the four-stone game takes minutes), three stones.
func millGame4(tb testing.TB) string {
	tb.Helper()
	gameOnce.Do(func() {
		if gameDir, gameErr = os.MkdirTemp("", "tablesmith-tables-mill-*"); gameErr != nil {
			return
		}
		g := mill.Game{}
		start, _ := g.ParseTier("0-0-4-4")
		if testing.Short() {
			start, _ = g.ParseTier("0-0-3-3")
		}
		gameErr = pipeline.BuildTierSet(context.Background(), g, filepath.Join(gameDir, "game"),
			pipeline.TierPlan(g, []games.Tier{start}), pipeline.TierOptions{Workers: 2})
	})
	if gameErr != nil {
		tb.Fatal(gameErr)
	}
	return filepath.Join(gameDir, "game")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if gameDir != "" {
		os.RemoveAll(gameDir)
	}
	os.Exit(code)
}

// copySet copies the set in dir into a new temporary directory.
func copySet(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		if !de.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, de.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// opened counts the members of s whose file has been opened.
func opened(s *Set) int {
	n := 0
	for _, t := range s.members {
		if t.r != nil {
			n++
		}
	}
	return n
}

// built counts the members of s whose game instance has been built.
func built(s *Set) int {
	n := 0
	for _, t := range s.members {
		if t.lazy == nil || t.in != nil {
			n++
		}
	}
	return n
}

// TestTierSetOpensLazily: opening a tiered set opens no member's file and builds no tier's
// instance; a lookup opens and builds its tier's only, once, however many goroutines ask
// at once; Info opens every file and builds none.
func TestTierSetOpensLazily(t *testing.T) {
	t.Parallel()
	s, err := OpenSet(millGame4(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if o, n := opened(s), built(s); o != 0 || n != 0 {
		t.Fatalf("after OpenSet %d of %d sectors opened and %d built, want none", o, len(s.members), n)
	}
	info := s.Info()
	if o, n := opened(s), built(s); o != len(s.members) || n != 0 || len(info.Tiers) != len(s.members) || info.Totals.Classes == 0 {
		t.Fatalf("Info opened %d sectors (want all) and built %d (want none), and lists %d of %d", o, n, len(info.Tiers), len(s.members))
	}
	const pos = "WWW.....BBB............. W" // sector 3-3
	var wg sync.WaitGroup
	answers := make([]Answer, 16)
	errs := make([]error, 16)
	for i := range answers {
		wg.Go(func() { answers[i], errs[i] = s.Lookup(pos) })
	}
	wg.Wait()
	for i := range answers {
		if errs[i] != nil || answers[i] != answers[0] {
			t.Fatalf("lookup %d: %+v, %v; the first %+v", i, answers[i], errs[i], answers[0])
		}
	}
	if n := built(s); n != 1 {
		t.Errorf("after lookups in one sector %d sectors built, want 1", n)
	}
	if _, _, err := s.Moves(pos); err != nil {
		t.Fatal(err)
	}
	if tab, _ := s.Tier("3-3"); tab.Domain() == nil || tab.Instance() == nil {
		t.Error("a sector's table has no domain")
	}
}

// TestTierSetLazyErrorRetried (issue 38, item 4): a tier whose instance cannot be built
// fails each lookup, naming its file, and is tried again by each: once it can be built,
// lookups answer without a restart.
func TestTierSetLazyErrorRetried(t *testing.T) {
	t.Parallel()
	s, err := OpenSet(millGame4(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tab, _ := s.Tier("3-3")
	var calls atomic.Int32
	build := tab.lazy.build
	tab.lazy.build = func(*Table) (*games.Instance, error) {
		calls.Add(1)
		return nil, fmt.Errorf("no such scheme: %w", format.ErrCorrupt)
	}
	for range 3 {
		_, err := s.Lookup("WWW.....BBB............. W")
		if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), tab.File()) {
			t.Fatalf("lookup in a sector that cannot be built: %v, want an error naming %s", err, tab.File())
		}
	}
	if calls.Load() != 3 || tab.Domain() != nil {
		t.Errorf("built %d times (want 3, once a lookup); domain %v", calls.Load(), tab.Domain())
	}
	tab.lazy.build = build
	if _, err := s.Lookup("WWW.....BBB............. W"); err != nil {
		t.Fatalf("after the build heals: %v", err)
	}
}

// TestTierSetRepairedMemberOpens (issue 38, item 4): a member whose first open fails (its
// header damaged) opens on a later use once its file is repaired, in the same process.
func TestTierSetRepairedMemberOpens(t *testing.T) {
	t.Parallel()
	dir := copySet(t, millGame4(t))
	path := filepath.Join(dir, "sector-3-3.tsm")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(good)
	bad[1] ^= 0xff // the magic: the same size, so OpenSet's stat passes
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const pos = "WWW.....BBB............. W"
	// The tier is named, and the package once (not "tables: sector 3-3: tables: …").
	if _, err := s.Lookup(pos); err == nil || !strings.Contains(err.Error(), "sector 3-3") || strings.Count(err.Error(), "tables: ") != 1 {
		t.Fatalf("lookup in the damaged member: %v", err)
	}
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lookup(pos); err != nil {
		t.Fatalf("lookup after the repair: %v", err)
	}
	if err := s.OpenMembers(); err != nil {
		t.Fatal(err)
	}
}

// TestTierSetFDLimit (issue 38, item 4): a set whose members would not fit the limit on
// open files is refused before any is opened, saying what limit it needs; within the
// limit it opens.
func TestTierSetFDLimit(t *testing.T) {
	// Not parallel: fdLimit is the package's.
	s, err := OpenSet(millGame4(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	old := fdLimit
	defer func() { fdLimit = old }()
	members := uint64(len(s.members))
	fdLimit = func() (uint64, uint64, bool) { return 10 + members + fdSpare - 1, 10, true }
	err = s.OpenMembers()
	if err == nil || !strings.Contains(err.Error(), "limit on open files") || !strings.Contains(err.Error(), fmt.Sprintf("ulimit -n %d", 10+members+fdSpare)) {
		t.Fatalf("over the limit: %v", err)
	}
	if n := opened(s); n != 0 {
		t.Fatalf("%d members opened before the refusal", n)
	}
	fdLimit = func() (uint64, uint64, bool) { return 10 + members + fdSpare, 10, true }
	if err := s.OpenMembers(); err != nil {
		t.Fatalf("within the limit: %v", err)
	}
}

// TestTierSetFDLimitProcess (issue 38, item 4): under a real RLIMIT_NOFILE below what
// the set needs (a child process), OpenMembers refuses with the limit to raise to, not
// "too many open files" part way.
func TestTierSetFDLimitProcess(t *testing.T) {
	if dir := os.Getenv("TABLESMITH_FD_CHILD"); dir != "" {
		s, err := OpenSet(dir)
		if err == nil {
			if err = lowerNofile(20); err == nil {
				err = s.OpenMembers()
			}
		}
		fmt.Printf("child: %v\n", err)
		return
	}
	if !fdLimitWorks() {
		t.Skip("no RLIMIT_NOFILE or /proc/self/fd here")
	}
	t.Parallel()
	dir := millGame4(t)
	out, err := runChild(t, "TestTierSetFDLimitProcess", "TABLESMITH_FD_CHILD="+dir)
	if err != nil || !strings.Contains(out, "child: tables: ") || !strings.Contains(out, "limit on open files is 20") {
		t.Fatalf("%v: %s", err, out)
	}
}

// TestTierSetOpenChecksMembers: a member missing, of another size than the manifest
// says, or not a regular file fails OpenSet, naming it, though OpenSet opens no member.
func TestTierSetOpenChecksMembers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		damage func(path string) error
		is     error
	}{
		{"missing", os.Remove, os.ErrNotExist},
		{"truncated", func(p string) error { return os.Truncate(p, 100) }, format.ErrCorrupt},
		{"grown", func(p string) error {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return err
			}
			_, err = f.Write([]byte{0})
			return errors.Join(err, f.Close())
		}, format.ErrCorrupt},
		{"directory", func(p string) error { return errors.Join(os.Remove(p), os.Mkdir(p, 0o755)) }, safefile.ErrNotRegular},
	} {
		dir := copySet(t, millGame4(t))
		path := filepath.Join(dir, "sector-3-3.tsm") // in the three- and the four-stone game
		if err := c.damage(path); err != nil {
			t.Fatal(err)
		}
		s, err := OpenSet(dir)
		if err == nil {
			s.Close()
		}
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), "sector 3-3") || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: OpenSet: %v, want %v naming sector 3-3 and %s", c.name, err, c.is, path)
		}
		t.Logf("%s: %v", c.name, err)
	}
}

// reseal rewrites the file of sector name of the set in dir with its metadata changed and
// valid checksums, and its manifest entry to match: a file only the metadata checks
// against the manifest and the game can refuse.
func reseal(t *testing.T, dir, name string, change func(meta *format.Metadata)) {
	t.Helper()
	rewriteSector(t, dir, name, func(meta *format.Metadata, _ []uint32) { change(meta) })
}

// rewriteSector rewrites the file of sector name of the set in dir through change, its
// metadata and codes, with valid checksums, and its manifest entry to match.
func rewriteSector(t *testing.T, dir, name string, change func(meta *format.Metadata, codes []uint32)) {
	t.Helper()
	settest.Rewrite(t, dir, "sector-"+name+".tsm", change)
}

// statesOf returns a position of every tier of the set in dir, by tier name, from a set
// of its own (so that the set under test opens nothing before the test does).
func statesOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	s, err := OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := map[string]string{}
	for _, name := range s.TierNames() {
		tab, _ := s.Tier(name)
		dom := tab.Domain()
		if dom == nil {
			t.Fatalf("sector %s has no domain", name)
		}
		for slot := dom.Slots() / 2; slot < dom.Slots(); slot++ {
			if state, ok := dom.StateOf(slot); ok {
				out[name] = state
				break
			}
		}
		if out[name] == "" {
			t.Fatalf("sector %s: no state from slot %d on", name, dom.Slots()/2)
		}
	}
	return out
}

// TestTierSetDamagedMemberAtFirstUse damages one member's header or metadata without
// changing its size: the set opens (it reads no member), the other sectors answer, and
// every use of the damaged one — a lookup, twice, OpenMembers, Verify — fails with the
// error opening it gives, naming the sector and the file, as corruption; Info and Tables
// list it without panicking, and after Close nothing is opened any more.
func TestTierSetDamagedMemberAtFirstUse(t *testing.T) {
	t.Parallel()
	const bad = "3-3" // in the three- and the four-stone game
	states := statesOf(t, millGame4(t))
	flip := func(find string, bit byte) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			path := filepath.Join(dir, "sector-"+bad+".tsm")
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			i := 0
			if find != "" {
				if i = strings.Index(string(b), find); i < 0 {
					t.Fatalf("%s: no %q", path, find)
				}
			}
			b[i] ^= bit
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		name    string
		damage  func(t *testing.T, dir string)
		mention string
	}{
		{"magic", flip("", 0xFF), ""},
		{"metadata", flip(`"class-rank"`, 0x02), ""},
		{"resealed scheme", func(t *testing.T, dir string) {
			reseal(t, dir, bad, func(m *format.Metadata) { m.Index = "no-such-scheme" })
		}, `index scheme "no-such-scheme"`},
		{"resealed tier", func(t *testing.T, dir string) {
			reseal(t, dir, bad, func(m *format.Metadata) { m.Params = []byte(`{"w":3,"b":2,"wh":0,"bh":0}`) })
		}, "the manifest says sector " + bad},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := copySet(t, millGame4(t))
			c.damage(t, dir)
			path := filepath.Join(dir, "sector-"+bad+".tsm")
			s, err := OpenSet(dir)
			if err != nil {
				t.Fatalf("OpenSet: %v", err)
			}
			defer s.Close()
			check := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "sector "+bad+": ") ||
					!strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.mention) {
					t.Fatalf("%s: %v, want corruption naming sector %s and %s (%q)", what, err, bad, path, c.mention)
				}
			}
			_, err = s.Lookup(states[bad])
			check("lookup in the damaged sector", err)
			t.Log(err)
			for name, state := range states {
				if name == bad {
					continue
				}
				if _, err := s.Lookup(state); err != nil {
					t.Fatalf("lookup in sector %s: %v", name, err)
				}
			}
			_, err2 := s.Lookup(states[bad])
			check("the second lookup", err2)
			if err2.Error() != err.Error() {
				t.Errorf("the second lookup: %v, the first %v", err2, err)
			}
			_, _, err = s.Moves(states[bad])
			check("moves", err)
			check("OpenMembers", s.OpenMembers())
			check("Verify", s.Verify(context.Background(), VerifyOptions{Workers: 2, ChecksumsOnly: true}))
			check("Verify", s.Verify(context.Background(), VerifyOptions{Workers: 2}))
			check("VerifyTier", s.VerifyTier(context.Background(), bad, VerifyOptions{Workers: 2}))
			tab, _ := s.Tier(bad)
			if info := s.Info(); len(info.Tiers) != len(states) || tab.Domain() != nil || tab.Reader() != nil {
				t.Errorf("Info lists %d of %d sectors; the damaged one's domain %v", len(info.Tiers), len(states), tab.Domain())
			}
			if n := len(s.Tables()); n != len(states) {
				t.Errorf("Tables: %d, want %d", n, len(states))
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Lookup(states[bad]); err == nil {
				t.Error("a lookup after Close answered")
			}
		})
	}
}

// TestTierSetVerifyTierOpensItsOwn: verifying one tier opens that tier and those its
// moves lead into, not a damaged member it never reads.
func TestTierSetVerifyTierOpensItsOwn(t *testing.T) {
	t.Parallel()
	dir := copySet(t, millGame4(t))
	reseal(t, dir, "3-3", func(m *format.Metadata) { m.Index = "no-such-scheme" })
	start := "0-0-4-4" // its moves lead into 0-1-4-3 alone
	if testing.Short() {
		start = "0-0-3-3"
	}
	s, err := OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.VerifyTier(context.Background(), start, VerifyOptions{Workers: 2}); err != nil {
		t.Fatalf("VerifyTier %s: %v", start, err)
	}
	if n := opened(s); n != 2 {
		t.Errorf("VerifyTier %s opened %d sectors, want 2", start, n)
	}
}

// TestTierSetConcurrentFirstUse: many goroutines' first lookups in every sector of a
// freshly opened set, with Info and Tables among them, open each member once and answer
// as a set opened before does (run it with -race).
func TestTierSetConcurrentFirstUse(t *testing.T) {
	t.Parallel()
	dir := millGame4(t)
	states := statesOf(t, dir)
	ref, err := OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	want := map[string]Answer{}
	for name, state := range states {
		if want[name], err = ref.Lookup(state); err != nil {
			t.Fatal(err)
		}
	}
	s, err := OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const rounds = 4
	var wg sync.WaitGroup
	var failures atomic.Int32
	for range rounds {
		for name, state := range states {
			wg.Go(func() {
				a, err := s.Lookup(state)
				if err != nil || a != want[name] {
					failures.Add(1)
					t.Errorf("sector %s: %+v, %v; want %+v", name, a, err, want[name])
				}
			})
		}
		wg.Go(func() {
			if info := s.Info(); len(info.Tiers) != len(states) {
				t.Errorf("Info lists %d sectors, want %d", len(info.Tiers), len(states))
			}
		})
		wg.Go(func() {
			for _, tab := range s.Tables() {
				if tab.Meta().Slots == 0 {
					t.Errorf("%s: no slots", tab.File())
				}
			}
		})
	}
	wg.Wait()
	if o, n := opened(s), built(s); failures.Load() == 0 && (o != len(states) || n != len(states)) {
		t.Errorf("%d sectors opened and %d built, want %d", o, n, len(states))
	}
}

// TestTierSetDamagedIndexAtFirstRead damages a member's block index, which OpenSet no
// longer reads (format.OpenDeferred): the set opens, and the first lookup in that member
// fails as corruption naming the file, while the other members are read.
func TestTierSetDamagedIndexAtFirstRead(t *testing.T) {
	t.Parallel()
	dir := copySet(t, millGame4(t))
	path := filepath.Join(dir, "sector-3-3.tsm")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-64-5] ^= 0x01 // in the last entry of the block index, just before the 64-byte footer
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSet(dir)
	if err != nil {
		t.Fatalf("OpenSet: %v", err)
	}
	defer s.Close()
	_, err = s.Lookup("WWW.....BBB............. W")
	if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "block index") {
		t.Fatalf("lookup in the damaged member: %v, want corruption of its block index naming %s", err, path)
	}
	for _, tab := range s.Tables() {
		if tab.File() != path {
			if _, err := tab.r.Code(0); err != nil {
				t.Fatalf("a read of undamaged member %s: %v", tab.File(), err)
			}
		}
	}
}

// unordered hides a tier worker's own order (games.OrderedTierWorker).
type unordered struct{ games.TierWorker }

// unorderedGame is a tiered game whose tier workers visit positions in slot order.
type unorderedGame struct{ games.TieredGame }

func (g unorderedGame) NewTierWorker() games.TierWorker {
	return unordered{g.TieredGame.NewTierWorker()}
}

// The siblings of the game hidden (games.SiblingTiers), so that they are checked side by
// side in slot order too.
func (g unorderedGame) TierSiblings(t games.Tier) []games.Tier {
	return g.TieredGame.(games.SiblingTiers).TierSiblings(t)
}

func (g unorderedGame) SiblingChild(u, c games.Tier) games.Tier {
	return g.TieredGame.(games.SiblingTiers).SiblingChild(u, c)
}

// forge rewrites the codes of sector name of the set in dir (and its manifest entry)
// through change.
func forge(t *testing.T, dir, name string, change func(codes []uint32)) {
	t.Helper()
	rewriteSector(t, dir, name, func(_ *format.Metadata, codes []uint32) { change(codes) })
}

// verifyVariant is one way to run the forward check: workers, the memory budget (1: the
// least, what the largest tier and its children need; smaller siblings still fit side by
// side within it), whether the positions are visited in slot
// order rather than the game's, whether the codes are held in two bytes where one would
// do, and whether each tier is checked alone rather than beside its siblings.
type verifyVariant struct {
	workers   int
	memory    uint64
	unordered bool
	wide      bool
	alone     bool
}

var verifyVariantsAll = []verifyVariant{{2, 0, false, false, false}, {2, 1, true, false, false}, {3, 1, false, true, false}, {2, 0, true, false, true}}

// verifyVariants verifies the set in dir (the tier named, or all) in each variant; each
// must give the same answer, which it returns.
func verifyVariants(t *testing.T, dir string, tier string, variants []verifyVariant) error {
	t.Helper()
	ctx := context.Background()
	var first error
	for i, v := range variants {
		s, err := OpenSet(dir)
		if err != nil {
			t.Fatal(err)
		}
		if v.unordered {
			s.tiers.g = unorderedGame{s.tiers.g}
		}
		opt := VerifyOptions{Workers: v.workers, Memory: v.memory, wideCodes: v.wide, noSiblings: v.alone}
		if tier == "" {
			err = s.Verify(ctx, opt)
		} else {
			err = s.VerifyTier(ctx, tier, opt)
		}
		s.Close()
		if i == 0 {
			first = err
			continue
		}
		if fmt.Sprint(err) != fmt.Sprint(first) {
			t.Fatalf("verify %+v: %v; in variant %+v: %v", v, err, variants[0], first)
		}
	}
	return first
}

// TestTierSetVerifyForward: the whole set verifies, tier by tier, within the least
// memory (every tier evicted as soon as the next needs none of it) as with all of it,
// in the game's order and in slot order.
func TestTierSetVerifyForward(t *testing.T) {
	t.Parallel()
	variants := []verifyVariant{{2, 1, false, false, false}, {2, 0, false, false, false}, {2, 0, true, true, false}}
	if testing.Short() {
		variants = variants[:2] // slot order: see TestTierSetVerifyNamesFirstFailure
	}
	if err := verifyVariants(t, millGame4(t), "", variants); err != nil {
		t.Fatal(err)
	}
}

// TestTierSetVerifyNamesFirstFailure: values forged at two slots of a sector (resealed
// with valid checksums, which only the forward check can tell) are caught, and the
// report names the smallest inconsistent slot whatever the workers, order or memory.
func TestTierSetVerifyNamesFirstFailure(t *testing.T) {
	t.Parallel()
	// A moving sector, a placement sector; the moving one is the first in the manifest
	// that the whole set's check meets.
	names := []string{"4-3", "3-4-1-0"}
	if testing.Short() {
		names = []string{"3-3", "2-2-1-1"}
	}
	for i, name := range names {
		dir := copySet(t, millGame4(t))
		var victims []uint64
		forge(t, dir, name, func(codes []uint32) {
			var won []uint64 // the slots of wins and losses
			for s, c := range codes {
				if c >= 2 {
					won = append(won, uint64(s))
				}
			}
			victims = []uint64{won[len(won)/3], won[len(won)-1]}
			for _, s := range victims {
				codes[s] = values.WDLDraw
			}
		})
		err := verifyVariants(t, dir, name, verifyVariantsAll)
		if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "sector-"+name) || !strings.Contains(err.Error(), "inconsistent at slot") {
			t.Fatalf("%s: forged values verified: %v", name, err)
		}
		var slot uint64
		if _, e := fmt.Sscanf(err.Error()[strings.Index(err.Error(), "at slot"):], "at slot %d", &slot); e != nil || slot > victims[0] {
			t.Errorf("%s: reported slot %d (%v), the forged slots are %v", name, slot, e, victims)
		}
		if i == 0 { // the whole set's check stops there
			s, _ := OpenSet(dir)
			if err2 := s.Verify(context.Background(), VerifyOptions{Workers: 2, Memory: 1}); fmt.Sprint(err2) != fmt.Sprint(err) {
				t.Errorf("%s: Verify %v, VerifyTier %v", name, err2, err)
			}
			s.Close()
		}
		t.Log(err)
	}
}

// TestTierSetVerifySiblings: the whole set's check takes the siblings of a family (the
// placement sectors of one board) side by side, listing their children once, for the
// family's first, which the set need not hold; where a sibling's captures end the game and
// the first's do not, its children are moved to its own tiers first. A value forged in
// a sibling of either kind is found and named as when each tier is checked alone, in the
// game's order and in slot order: the first inconsistent tier in the set's order, though
// a step took its parent's siblings before it.
func TestTierSetVerifySiblings(t *testing.T) {
	t.Parallel()
	dir := millGame4(t)
	s, err := OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	var order []games.Tier
	for _, name := range s.tiers.names {
		tier, _ := s.tiers.g.ParseTier(name)
		order = append(order, tier)
	}
	var direct, moved []string // siblings read as the first's children are listed, and moved
	grouped := 0
	for _, st := range s.forwardSteps(order, 1<<40, func([]games.Tier) uint64 { return 1 }) {
		if len(st.tiers) < 2 {
			continue
		}
		grouped += len(st.tiers)
		for _, u := range st.tiers {
			if tc := newSiblingCheck[uint8](s, st.head, u, nil); tc.direct && u != st.head {
				direct = append(direct, s.tiers.g.TierName(u))
			} else if !tc.direct {
				moved = append(moved, s.tiers.g.TierName(u))
			}
		}
	}
	s.Close()
	t.Logf("%d of %d sectors checked beside siblings; read as listed: %v; moved: %v", grouped, len(order), direct, moved)
	if testing.Short() && grouped == 0 {
		t.Skip("the three-stone game (-short) has no siblings")
	}
	if len(direct) == 0 || len(moved) == 0 {
		t.Fatalf("siblings read as listed %v, moved %v: want both kinds", direct, moved)
	}
	rechecks := 0
	for _, name := range []string{direct[len(direct)-1], moved[len(moved)-1]} {
		dir := copySet(t, dir)
		var victim uint64
		forge(t, dir, name, func(codes []uint32) {
			victim = uint64(len(codes) - 1)
			switch codes[victim] {
			case values.WDLHole:
				t.Fatalf("%s: the last slot is a hole", name)
			case values.WDLDraw: // a draw has moves: it cannot be lost at once
				codes[victim] = uint32(games.GameOverCode)
			default:
				codes[victim] = values.WDLDraw
			}
		})
		err := verifyVariants(t, dir, "", []verifyVariant{{2, 0, false, false, true}, {2, 0, false, false, false}, {2, 0, true, false, false}})
		// A parent of a forged sector may be checked with its siblings before it: its
		// failure then sends the check back (counted; at least one of the two must).
		s, _ := OpenSet(dir)
		opt := VerifyOptions{Workers: 2, rechecked: func(games.Tier, []games.Tier) { rechecks++ }}
		if err2 := s.Verify(context.Background(), opt); fmt.Sprint(err2) != fmt.Sprint(err) {
			t.Errorf("%s forged: %v with the go-back counted, %v without", name, err2, err)
		}
		s.Close()
		if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "sector-"+name+".tsm") ||
			!strings.Contains(err.Error(), fmt.Sprintf("inconsistent at slot %d ", victim)) {
			t.Fatalf("%s forged at slot %d: %v", name, victim, err)
		}
		t.Log(err)
	}
	if rechecks == 0 {
		t.Error("no forged sector sent the check back to the tiers a step skipped: the go-back is untested")
	}
}

// TestTierSetVerifyDamagedBlockResealed: a sector's file with a byte of a block flipped
// and the manifest resealed to its new SHA-256 (only the block's checksum can tell) fails
// the whole set's verify, which checks a sector's blocks as the forward check first reads
// it, naming the file and the block, in every variant; and --checksums-only, which checks
// them in a pass of their own.
func TestTierSetVerifyDamagedBlockResealed(t *testing.T) {
	t.Parallel()
	child, parent := childAndParent()
	for _, name := range []string{child, parent} {
		dir := copySet(t, millGame4(t))
		file := "sector-" + name + ".tsm"
		path := filepath.Join(dir, file)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)/3] ^= 0x40 // inside the blocks: the header and metadata are at the start, the index at the end
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		settest.Reseal(t, dir, file)
		for _, v := range append(slices.Clone(verifyVariantsAll), verifyVariant{workers: 1, memory: 1, alone: true}) {
			err := verifyVariants(t, dir, "", []verifyVariant{v})
			if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "block") {
				t.Fatalf("%s damaged and resealed, verify %+v: %v", name, v, err)
			}
		}
		s, err := OpenSet(dir)
		if err != nil {
			t.Fatal(err)
		}
		err = s.Verify(context.Background(), VerifyOptions{Workers: 2, ChecksumsOnly: true})
		s.Close()
		if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), file) {
			t.Fatalf("%s damaged and resealed, --checksums-only: %v", name, err)
		}
		t.Log(err)
	}
}

// TestSiblingMap: where a sibling's own sector is among those the family's first moves
// into (2-3-6-6 is 2-3-7-6's captures' sector), the gather reads no child under it: its
// own codes hold the place that no child reads (GameOver), and the first's captures are
// read from 2-3-6-5.
func TestSiblingMap(t *testing.T) {
	t.Parallel()
	g := mill.Game{}
	tier := func(name string) games.Tier {
		x, err := g.ParseTier(name)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	head, u := tier("2-3-7-6"), tier("2-3-6-6")
	heads, mine, direct := siblingMap(g, head, u)
	if !direct || !slices.Equal(heads, []games.Tier{tier("3-3-6-6"), u}) || !slices.Equal(mine, []games.Tier{tier("3-3-6-5"), tier("2-3-6-5")}) {
		t.Fatalf("siblingMap: %v → %v (direct %v)", heads, mine, direct)
	}
	tc := &siblingCheck[uint8]{heads: heads, mine: mine, direct: direct,
		loaded: []tierCodes[uint8]{{tier: u}, {tier: tier("3-3-6-5")}, {tier: tier("2-3-6-5")}}}
	if got, want := tc.gatherTiers(), []games.Tier{games.GameOver, tier("3-3-6-6"), u}; !slices.Equal(got, want) {
		t.Fatalf("gatherTiers %v, want %v", got, want)
	}
	// A sibling whose captures end the game reads the first's children moved.
	if _, mine, direct := siblingMap(g, head, tier("2-3-1-0")); direct || mine[1] != games.GameOver {
		t.Fatalf("2-3-1-0: %v (direct %v), want its captures to end the game", mine, direct)
	}
}

// TestForwardStepsBudget: the steps of a check hold every tier once, each step siblings
// of one family in the set's order, as many as the budget allows, the first of a family
// alone where two do not fit.
func TestForwardStepsBudget(t *testing.T) {
	t.Parallel()
	s := &Set{tiers: &tierSet{g: mill.Game{}}}
	g := mill.Game{}
	order := g.Tiers()
	for _, budget := range []uint64{0, 1, 2, 3, 1 << 10} {
		steps := s.forwardSteps(order, budget, func(ts []games.Tier) uint64 { return uint64(len(ts)) })
		var all []games.Tier
		for _, st := range steps {
			family := g.TierSiblings(st.tiers[0])
			if uint64(len(st.tiers)) > max(budget, 1) {
				t.Fatalf("budget %d: a step of %d tiers", budget, len(st.tiers))
			}
			for k, u := range st.tiers {
				if !slices.Contains(family, u) || k > 0 && slices.Index(order, u) < slices.Index(order, st.tiers[k-1]) {
					t.Fatalf("budget %d: step %v holds %s out of its family's order", budget, st.tiers, g.TierName(u))
				}
			}
			if want := family[0]; len(st.tiers) == 1 && st.head != st.tiers[0] || len(st.tiers) > 1 && st.head != want {
				t.Fatalf("budget %d: step %v lists the children of %s", budget, st.tiers, g.TierName(st.head))
			}
			all = append(all, st.tiers...)
		}
		if len(all) != len(order) || len(slices.Compact(slices.Sorted(slices.Values(all)))) != len(order) {
			t.Fatalf("budget %d: the steps hold %d tiers (%d distinct) of %d", budget, len(all), len(slices.Compact(slices.Sorted(slices.Values(all)))), len(order))
		}
		t.Logf("budget %d: %d steps for %d tiers", budget, len(steps), len(order))
	}
}

// childAndParent names a moving sector and a placement sector whose moves lead into it
// (smaller ones under -short).
func childAndParent() (child, parent string) {
	if testing.Short() {
		return "3-3", "2-3-1-0"
	}
	return "4-4", "3-4-1-0"
}

// TestTierSetVerifyNamesHole: a child sector whose codes are all the hole marker
// (resealed with valid checksums) fails the forward check of a sector moving into it,
// naming the first position and a move into a hole, whatever the workers, order or memory.
func TestTierSetVerifyNamesHole(t *testing.T) {
	t.Parallel()
	child, parent := childAndParent()
	dir := copySet(t, millGame4(t))
	forge(t, dir, child, func(codes []uint32) { clear(codes) })
	// The variants name the same position; which of its moves, depends on the order the
	// game lists them in.
	for _, v := range verifyVariantsAll {
		err := verifyVariants(t, dir, parent, []verifyVariant{v})
		if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "sector-"+parent) ||
			!strings.Contains(err.Error(), "inconsistent at slot 0 ") ||
			!strings.Contains(err.Error(), "sector "+child+", which holds the hole marker") {
			t.Fatalf("verify %+v: a move into holes verified: %v", v, err)
		}
	}
}

// TestTierSetVerifyNamesOwnHole (issue 38, item 12): a hole forged at a position of the
// tier checked reads as the hole marker, not "stored outcome(0) in 0".
func TestTierSetVerifyNamesOwnHole(t *testing.T) {
	t.Parallel()
	_, parent := childAndParent()
	dir := copySet(t, millGame4(t))
	forge(t, dir, parent, func(codes []uint32) { codes[0] = 0 })
	for _, v := range verifyVariantsAll {
		err := verifyVariants(t, dir, parent, []verifyVariant{v})
		if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "inconsistent at slot 0 ") ||
			!strings.Contains(err.Error(), "stored the hole marker (code 0) where a position is") || strings.Contains(err.Error(), "outcome(") {
			t.Fatalf("verify %+v: %v", v, err)
		}
	}
}

// TestTierSetVerifyWideCodes: a sector whose codes take more than 8 bits is checked with
// its codes in two bytes (a code past 255 read into one would be refused as corrupt, not
// found inconsistent), alone and as the child of another: one such tier among those a
// check reads makes the whole check hold two bytes a code.
func TestTierSetVerifyWideCodes(t *testing.T) {
	t.Parallel()
	child, parent := childAndParent()
	dir := copySet(t, millGame4(t))
	rewriteSector(t, dir, child, func(meta *format.Metadata, _ []uint32) { meta.CodeBits = 9 })
	for _, name := range []string{child, parent} {
		if err := verifyVariants(t, dir, name, verifyVariantsAll); err != nil {
			t.Fatalf("%s, %s's codes in 9 bits: %v", name, child, err)
		}
	}
	// A win made 256 plies longer: a code past a byte, inconsistent with its moves.
	var victim uint64
	rewriteSector(t, dir, child, func(_ *format.Metadata, codes []uint32) {
		for s, c := range codes {
			if c >= 2 && c%2 == 1 {
				victim, codes[s] = uint64(s), c+256
				return
			}
		}
		t.Fatal("no win")
	})
	err := verifyVariants(t, dir, child, verifyVariantsAll)
	if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("inconsistent at slot %d ", victim)) {
		t.Fatalf("a win 256 plies too long, at slot %d: %v", victim, err)
	}
}

// BenchmarkTierSetFirstProbe opens a built set and answers one position, as a query does.
func BenchmarkTierSetFirstProbe(b *testing.B) {
	dir := millGame4(b)
	start := time.Now()
	for b.Loop() {
		s, err := OpenSet(dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Lookup("WWWW....BBBB............ W"); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "µs/open+probe")
}
