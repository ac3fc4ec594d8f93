package tables

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
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

// TestTierSetOpensLazily: opening a tiered set builds no tier's instance; a lookup builds
// its tier's only, once, however many goroutines ask at once; Info needs none.
func TestTierSetOpensLazily(t *testing.T) {
	t.Parallel()
	s, err := OpenSet(millGame4(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := built(s); n != 0 {
		t.Fatalf("after OpenSet %d of %d sectors built, want none", n, len(s.members))
	}
	info := s.Info()
	if n := built(s); n != 0 || len(info.Tiers) != len(s.members) || info.Totals.Classes == 0 {
		t.Fatalf("Info built %d sectors (want none) and lists %d of %d", n, len(info.Tiers), len(s.members))
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

// TestTierSetLazyErrorRemembered: a sector whose instance cannot be built fails every
// use, naming its file, and is built once.
func TestTierSetLazyErrorRemembered(t *testing.T) {
	t.Parallel()
	s, err := OpenSet(millGame4(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tab, _ := s.Tier("3-3")
	var calls atomic.Int32
	tab.lazy.build = func() (*games.Instance, error) {
		calls.Add(1)
		return nil, fmt.Errorf("no such scheme: %w", format.ErrCorrupt)
	}
	for range 3 {
		_, err := s.Lookup("WWW.....BBB............. W")
		if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), tab.File()) {
			t.Fatalf("lookup in a sector that cannot be built: %v, want an error naming %s", err, tab.File())
		}
	}
	if calls.Load() != 1 || tab.Domain() != nil {
		t.Errorf("built %d times (want once); domain %v", calls.Load(), tab.Domain())
	}
}

// TestTierSetOpenChecksMembers: a member missing, or of another size than the manifest
// says, fails OpenSet (naming it); so does one whose header is damaged.
func TestTierSetOpenChecksMembers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		damage func(path string) error
		is     error
	}{
		{"missing", os.Remove, os.ErrNotExist},
		{"truncated", func(p string) error { return os.Truncate(p, 100) }, format.ErrCorrupt},
		{"header", func(p string) error {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b[0] ^= 0xFF
			return os.WriteFile(p, b, 0o644)
		}, format.ErrCorrupt},
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
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), "3-3") {
			t.Errorf("%s: OpenSet: %v, want %v naming sector 3-3", c.name, err, c.is)
		}
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

// forge rewrites the codes of sector name of the set in dir (and its manifest entry)
// through change.
func forge(t *testing.T, dir, name string, change func(codes []uint32)) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(dir, "sector-"+name+".tsm")
	r, err := format.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	meta := r.Meta()
	codes := make([]uint32, meta.Slots)
	if err := r.Codes(codes, 0); err != nil {
		t.Fatal(err)
	}
	r.Close()
	change(codes)
	if _, err := format.WriteFile(ctx, path, meta, func(dst []uint32, start uint64) { copy(dst, codes[start:]) },
		format.WriteOptions{Workers: 1, Reproducible: true}); err != nil {
		t.Fatal(err)
	}
	m, err := format.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range m.Members {
		if x.Name == name {
			st, _ := os.Stat(path)
			m.Members[i].Bytes = st.Size()
			m.Members[i].SHA256, _ = format.FileSHA256(path)
		}
	}
	if err := format.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
}

// verifyVariant is one way to run the forward check: workers, the memory budget, and
// whether the positions are visited in slot order rather than the game's.
type verifyVariant struct {
	workers   int
	memory    uint64
	unordered bool
}

var verifyVariantsAll = []verifyVariant{{2, 0, false}, {2, 1, true}, {3, 1, false}}

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
		opt := VerifyOptions{Workers: v.workers, Memory: v.memory}
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
	variants := []verifyVariant{{2, 1, false}, {2, 0, true}}
	if testing.Short() {
		variants = variants[:1] // slot order: see TestTierSetVerifyNamesFirstFailure
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

// TestTierSetVerifyNamesHole: a child sector whose codes are all the hole marker
// (resealed with valid checksums) fails the forward check of a sector moving into it,
// naming the first position and a move into a hole, whatever the workers, order or memory.
func TestTierSetVerifyNamesHole(t *testing.T) {
	t.Parallel()
	child, parent := "4-4", "3-4-1-0"
	if testing.Short() {
		child, parent = "3-3", "2-3-1-0"
	}
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
