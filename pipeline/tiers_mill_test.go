package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/tables"
)

// TestMillSector33Published: sector 3-3 against the published figures (Gasser 1996 for the
// longest loss; the rest agrees with two independent databases).
func TestMillSector33Published(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 42 s")
	t.Parallel()
	dir := t.TempDir()
	if _, err := buildMillUnit(t, dir, "3-3", 2); err != nil {
		t.Fatal(err)
	}
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	info := set.Info()
	if len(info.Tiers) != 1 || info.Tiers[0].Name != "3-3" {
		t.Fatalf("the set holds %+v, want sector 3-3", info.Tiers)
	}
	s := info.Tiers[0]
	if s.Classes != 169626 || s.Wins != 140621 || s.Losses != 28736 || s.Draws != 269 || *s.MaxWin != 25 || *s.MaxLoss != 26 {
		t.Fatalf("sector 3-3: %+v\nwant 169,626 classes: 140,621 wins, 28,736 losses, 269 draws, longest win 25, loss 26", s)
	}
}

// TestMillPairUnit: one pair is one idempotent unit of work: a missing dependency is a
// clear error, a complete pair is a no-op, a corrupt dependency fails, files are
// reproducible, and a manifest under other rules or pointing outside is refused.
func TestMillPairUnit(t *testing.T) {
	racetest.SkipSlow(t, "builds Mühle sectors, slow")
	if testing.Short() {
		t.Skip("builds pairs 3-3 and 4-3 several times (the full run has it; -short is the race pass)")
	}
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	opt := TierOptions{Workers: 2}
	if _, err := buildMillUnit(t, dir, "4-3", 2); err == nil || !strings.Contains(err.Error(), "needs sector 3-3") ||
		!strings.Contains(err.Error(), "--tier 3-3") {
		t.Fatalf("missing dependency: %v", err)
	}
	if built, err := buildMillUnit(t, dir, "3-3", 2); err != nil || !built {
		t.Fatalf("3-3: %v, %v", built, err)
	}
	first, _ := os.ReadFile(filepath.Join(dir, "sector-3-3.tsm"))
	if built, err := buildMillUnit(t, dir, "3-3", 2); err != nil || built {
		t.Fatalf("a complete pair was rebuilt: %v, %v", built, err)
	}
	if built, err := buildMillUnit(t, dir, "3-4", 2); err != nil || !built {
		t.Fatalf("4-3: %v, %v", built, err)
	}
	// The same build elsewhere, with another worker count, gives the same bytes.
	other := t.TempDir()
	if _, err := buildMillUnit(t, other, "3-3", 1); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(filepath.Join(other, "sector-3-3.tsm"))
	if !bytes.Equal(first, again) {
		t.Fatal("sector 3-3 is not byte-identical across builds")
	}
	// A dependency whose file changed fails the dependent pair; the damaged pair is rebuilt.
	path := filepath.Join(dir, "sector-3-3.tsm")
	b, _ := os.ReadFile(path)
	b[len(b)/2] ^= 1
	os.WriteFile(path, b, 0o644)
	os.Remove(filepath.Join(dir, "sector-4-3.tsm"))
	if _, err := buildMillUnit(t, dir, "4-3", 2); err == nil || !strings.Contains(err.Error(), "rebuild 3-3") {
		t.Fatalf("corrupt dependency: %v", err)
	}
	if built, err := buildMillUnit(t, dir, "3-3", 2); err != nil || !built {
		t.Fatalf("the damaged pair was not rebuilt: %v, %v", built, err)
	}
	if err := BuildTierSet(ctx, millGame, dir, TierPlan(millGame, millTiers(t, "4-3")), opt); err != nil {
		t.Fatal(err)
	}
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := set.Verify(ctx, tables.VerifyOptions{Workers: 2}); err != nil {
		t.Fatalf("verify: %v", err)
	}
	set.Close()
	// Manifests that lie.
	editManifest := func(t *testing.T, f func(m *format.Manifest)) string {
		d := t.TempDir()
		for _, name := range []string{"sector-3-3.tsm", "sector-4-3.tsm", "sector-3-4.tsm"} {
			b, _ := os.ReadFile(filepath.Join(dir, name))
			os.WriteFile(filepath.Join(d, name), b, 0o644)
		}
		m, err := format.ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		os.WriteFile(filepath.Join(d, "manifest.json"), b, 0o644)
		return d
	}
	for _, c := range []struct {
		name string
		edit func(m *format.Manifest)
		is   error
	}{
		{"other rules", func(m *format.Manifest) { m.Rules = "mill-v1-0000000000000000" }, tables.ErrOtherRules},
		{"outside", func(m *format.Manifest) { m.Members[0].File = "../sector-3-3.tsm" }, format.ErrCorrupt},
		{"absolute", func(m *format.Manifest) { m.Members[0].File = "/etc/passwd" }, format.ErrCorrupt},
		{"swapped", func(m *format.Manifest) {
			m.Members[1].File, m.Members[2].File = m.Members[2].File, m.Members[1].File
		}, format.ErrCorrupt},
		{"missing", func(m *format.Manifest) { m.Members[1].File = "sector-9-9.tsm" }, os.ErrNotExist},
		{"bytes", func(m *format.Manifest) { m.Members[0].Bytes++ }, format.ErrCorrupt},
		// Another spelling of a sector already listed would count it twice.
		{"a sector twice", func(m *format.Manifest) {
			dup := m.Members[0]
			dup.Name = "3-3-0-0"
			m.Members = append(m.Members, dup)
		}, format.ErrCorrupt},
		{"leading zero", func(m *format.Manifest) { m.Members[0].Name = "03-3" }, format.ErrCorrupt},
		{"no member", func(m *format.Manifest) { m.Members = nil }, format.ErrCorrupt},
		{"game", func(m *format.Manifest) { m.Game = "hanoi" }, format.ErrCorrupt},
	} {
		d := editManifest(t, c.edit)
		if s, err := tables.OpenSet(d); !errors.Is(err, c.is) {
			if s != nil {
				s.Close()
			}
			t.Errorf("%s: OpenSet = %v, want %v", c.name, err, c.is)
		}
	}
	// A forged SHA-256 opens (the file itself is whole) but fails verification.
	d := editManifest(t, func(m *format.Manifest) { m.Members[0].SHA256 = strings.Repeat("0", 64) })
	forged, err := tables.OpenSet(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := forged.Verify(ctx, tables.VerifyOptions{Workers: 2, ChecksumsOnly: true}); !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("a forged SHA-256 verified: %v", err)
	}
	forged.Close()
	// A manifest of the format before, with forged counts: what info reports comes from
	// the files, never from the manifest.
	legacy := editManifest(t, func(*format.Manifest) {})
	var sectors []map[string]any
	m, _ := format.ReadManifest(legacy)
	for _, x := range m.Members {
		sectors = append(sectors, map[string]any{"sector": x.Name, "file": x.File, "sha256": x.SHA256, "bytes": x.Bytes,
			"classes": 1, "wins": 999, "max_win": 77})
	}
	old, _ := json.Marshal(map[string]any{"format": "tablesmith-sector-set", "version": 1, "game": "mill", "rules": m.Rules, "sectors": sectors})
	os.WriteFile(filepath.Join(legacy, format.ManifestName), old, 0o644)
	ls, err := tables.OpenSet(legacy)
	if err != nil {
		t.Fatal(err)
	}
	if info := ls.Info(); info.Tiers[0].Name != "3-3" || info.Tiers[0].Wins != 140621 || info.Tiers[0].Classes != 169626 || *info.Tiers[0].MaxWin != 25 {
		t.Errorf("info of a legacy manifest with forged counts: %+v", info.Tiers[0])
	}
	ls.Close()
}

// TestMillCorruptSectorNeverAnswersWrong flips bits of a sector file: every lookup either
// answers as the intact file does or fails with ErrCorrupt.
func TestMillCorruptSectorNeverAnswersWrong(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 43 s")
	t.Parallel()
	dir := t.TempDir()
	if _, err := buildMillUnit(t, dir, "3-3", 2); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sector-3-3.tsm")
	good, err := tables.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	raw, _ := os.ReadFile(path)
	probe := []uint64{0, 1, 777, 50000, 169625}
	want := make([]tables.Answer, len(probe))
	for i, s := range probe {
		if want[i], err = good.SlotAnswer(s); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.tsm")
	for off := 0; off < len(raw); off += max(1, len(raw)/150) {
		b := bytes.Clone(raw)
		b[off] ^= 1 << (off % 8)
		os.WriteFile(bad, b, 0o644)
		tab, err := tables.Open(bad)
		if err != nil {
			if !errors.Is(err, format.ErrCorrupt) {
				t.Fatalf("flip at %d: %v", off, err)
			}
			continue
		}
		for i, s := range probe {
			a, err := tab.SlotAnswer(s)
			if err != nil && !errors.Is(err, format.ErrCorrupt) || err == nil && a != want[i] {
				t.Fatalf("flip at %d: slot %d answered %+v, %v; intact %+v", off, s, a, err, want[i])
			}
		}
		tab.Close()
	}
}

// tempDirOutsideTest makes a directory that outlives one test (for benchmarks sharing a
// built set).
func tempDirOutsideTest(prefix string) (string, error) { return os.MkdirTemp("", prefix+"-*") }

// TestTierSetRefusesBadManifestPathFirst: a manifest path that could not be written at
// the end (a symbolic link, a directory) is refused before any work: no tier file is
// written.
func TestTierSetRefusesBadManifestPathFirst(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		make func(path string) error
	}{
		{"symlink", func(path string) error { return os.Symlink(filepath.Join(t.TempDir(), "elsewhere.json"), path) }},
		{"directory", func(path string) error { return os.Mkdir(path, 0o755) }},
	} {
		dir := t.TempDir()
		if err := c.make(filepath.Join(dir, format.ManifestName)); err != nil {
			t.Fatal(err)
		}
		_, err := buildMillUnit(t, dir, "3-3", 1)
		if err == nil || !strings.Contains(err.Error(), format.ManifestName) {
			t.Errorf("%s: %v, want an error naming %s", c.name, err, format.ManifestName)
		}
		if files, _ := filepath.Glob(filepath.Join(dir, "*.tsm")); len(files) > 0 {
			t.Errorf("%s: files written before the refusal: %v", c.name, files)
		}
	}
}

// TestTierSetForgedValuesFail: a sector file whose values were changed and resealed with
// valid checksums, under a manifest updated to match, is caught by the forward check,
// which names the first inconsistent position.
func TestTierSetForgedValuesFail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := buildMillUnit(t, dir, "3-3", 2); err != nil {
		t.Fatal(err)
	}
	const victim = 1000
	// The same outcome, two plies further: only the forward check can tell.
	set := forgeSetCode(t, dir, "sector-3-3.tsm", victim, func(c uint32) uint32 { return c + 2 })
	defer set.Close()
	if err := set.Verify(ctx, tables.VerifyOptions{Workers: 2, ChecksumsOnly: true}); err != nil {
		t.Fatalf("the resealed set fails even its checksums: %v", err)
	}
	err := set.Verify(ctx, tables.VerifyOptions{Workers: 2})
	if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "inconsistent at slot") {
		t.Fatalf("forged values verified: %v", err)
	}
	t.Log(err)
}

// TestTierSetRulesBeforePlacement: a set of moving-phase sectors built before the
// placement phase was modelled names the moving phase's rules fingerprint; its sectors
// are the same under the whole game's rules, so it is read and built on (and then names
// the new fingerprint), while a placement sector under the old fingerprint is refused.
func TestTierSetRulesBeforePlacement(t *testing.T) {
	t.Parallel()
	const oldRules = "mill-v1-d5f54b789016574e" // what sets built before 2026-11-26 carry
	dir := t.TempDir()
	if _, err := buildMillUnit(t, dir, "3-3", 2); err != nil {
		t.Fatal(err)
	}
	relabel := func(rules string) {
		m, err := format.ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		m.Rules = rules
		if err := format.WriteManifest(dir, m); err != nil {
			t.Fatal(err)
		}
	}
	relabel(oldRules)
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatalf("a moving-phase set under the old fingerprint: %v", err)
	}
	set.Close()
	if _, err := buildMillUnit(t, dir, "2-3-1-0", 2); err != nil {
		t.Fatalf("building a placement sector onto it: %v", err)
	}
	if m, _ := format.ReadManifest(dir); m.Rules != millGame.RulesID() {
		t.Errorf("after a build the set names %q, want %q", m.Rules, millGame.RulesID())
	}
	relabel(oldRules) // now holding a placement sector: not built under those rules
	if s, err := tables.OpenSet(dir); !errors.Is(err, tables.ErrOtherRules) {
		if s != nil {
			s.Close()
		}
		t.Fatalf("a placement sector under the old fingerprint: %v", err)
	}
	if _, err := buildMillUnit(t, dir, "2-2-1-1", 2); err == nil || !strings.Contains(err.Error(), "other rules") {
		t.Fatalf("building onto it: %v", err)
	}
}

// TestMillWorkerCountsOnce: Mühle's worker has the fast path Expand asks for (a games.CountingTierWorker);
// without it the moving phase would still be solved right, but ranking every child.
func TestMillWorkerCountsOnce(t *testing.T) {
	racetest.SkipSlow(t, "builds Mühle sectors, slow")
	if _, ok := millGame.NewTierWorker().(games.CountingTierWorker); !ok {
		t.Fatalf("%T is no games.CountingTierWorker", millGame.NewTierWorker())
	}
}

// faultyOnceGame is Mühle with one bogus move added to the last position of every batch
// its workers count once (games.CountingTierWorker): a move into sector to, at slot.
type faultyOnceGame struct {
	mill.Game
	to   games.Tier
	slot uint64
}

func (g faultyOnceGame) NewTierWorker() games.TierWorker {
	return faultyOnceWorker{g.Game.NewTierWorker(), g}
}

type faultyOnceWorker struct {
	games.TierWorker
	g faultyOnceGame
}

func (w faultyOnceWorker) ChildrenOnce(t games.Tier, lo, hi uint64, once games.Tier, b *games.ChildBatch, counts []uint32) []uint32 {
	counts = w.TierWorker.(games.CountingTierWorker).ChildrenOnce(t, lo, hi, once, b, counts)
	b.Pos = append(b.Pos, games.TierPosition{Tier: w.g.to, Slot: w.g.slot})
	b.Off[len(b.Off)-1]++
	return counts
}

// TestMillOnceFaultyMoveNamed: in a sector pair's first pass, where the children counted
// once are counted apart and the others read at once as exits, a move into a sector the
// pair does not lead into, or past the end of one it does, fails the build naming it
// (the chunk goes back to being summarised move by move), rather than reading a code
// from elsewhere.
func TestMillOnceFaultyMoveNamed(t *testing.T) {
	racetest.SkipSlow(t, "builds Mühle sectors, slow")
	t.Parallel()
	dir := t.TempDir()
	if err := buildMillUpTo(context.Background(), dir, 7, TierOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	exit := millTiers(t, "3-4")[0]
	for _, c := range []struct {
		to   games.Tier
		slot uint64
		want string
	}{
		{millTiers(t, "5-5")[0], 0, "a move of sector 4-4 leads into sector 5-5, which it does not declare as a child"},
		{exit, millGame.TierSize(exit), fmt.Sprintf("a move leads to slot %d of sector 3-4, which has %d", millGame.TierSize(exit), millGame.TierSize(exit))},
	} {
		g := faultyOnceGame{millGame, c.to, c.slot}
		_, err := BuildTierUnit(context.Background(), g, dir, millUnit(t, "4-4"), TierOptions{Workers: 2})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("a bogus move to %s slot %d: %v, want %q", millGame.TierName(c.to), c.slot, err, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "sector-4-4.tsm")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("a bogus move to %s: sector 4-4 written (%v)", millGame.TierName(c.to), err)
		}
	}
}
