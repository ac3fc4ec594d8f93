package pipeline

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

// millSelect lists the tiers Mühle's selection flags choose (as `build mill ARGS`).
func millSelect(t testing.TB, args ...string) []games.Tier {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	chosen := millGame.BindTierFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	out, err := chosen()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTierSetWDL: a win/draw/loss-only set of a selection of Mühle — the whole game of
// 3 stones (placement sectors included) and the moving sectors of up to 8 stones — holds
// at every slot of every sector the outcome of the full set's value, in smaller files;
// converting the full set gives the same files byte for byte; the set verifies, resumes,
// and a build of the other kind is refused in either directory.
func TestTierSetWDL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
		long bool
	}{
		{"stones-3", []string{"--stones", "3"}, false},
		{"max-stones-8", []string{"--max-stones", "8"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("builds the sectors of up to 8 stones twice (the full run has it; -short is the race pass)")
			}
			t.Parallel()
			ctx := context.Background()
			plan := TierPlan(millGame, millSelect(t, c.args...))
			full, wdl, conv := t.TempDir(), t.TempDir(), t.TempDir()
			if err := BuildTierSet(ctx, millGame, full, plan, TierOptions{Workers: 2}); err != nil {
				t.Fatal(err)
			}
			if err := BuildTierSet(ctx, millGame, wdl, plan, TierOptions{Workers: 2, Values: format.ValuesWDL}); err != nil {
				t.Fatal(err)
			}
			if err := ConvertTierSet(ctx, millGame, full, conv, ConvertOptions{Workers: 2}); err != nil {
				t.Fatal(err)
			}
			mf, err := format.ReadManifest(full)
			if err != nil {
				t.Fatal(err)
			}
			mw, err := format.ReadManifest(wdl)
			if err != nil {
				t.Fatal(err)
			}
			if mf.Values != "" || mw.Values != format.ValuesWDL || len(mw.Members) != len(mf.Members) {
				t.Fatalf("values %q and %q, %d and %d members", mf.Values, mw.Values, len(mf.Members), len(mw.Members))
			}
			var fullBytes, wdlBytes int64
			for i, x := range mf.Members {
				y := mw.Members[i]
				if y.Name != x.Name || y.File != x.File {
					t.Fatalf("member %d: %s (%s), the full set's %s (%s)", i, y.Name, y.File, x.Name, x.File)
				}
				fullBytes += x.Bytes
				wdlBytes += y.Bytes
				metaF, codesF := readTable(t, filepath.Join(full, x.File))
				metaW, codesW := readTable(t, filepath.Join(wdl, y.File))
				if values.Encoding(metaW.Encoding) != values.EncodingWDLOnly || metaW.CodeBits != values.WDLOnlyBits || values.Encoding(metaF.Encoding) != values.EncodingWDL ||
					string(metaW.Params) != string(metaF.Params) {
					t.Fatalf("%s: %s %d bits %s, full %s %s", x.Name, metaW.Encoding, metaW.CodeBits, metaW.Params, metaF.Encoding, metaF.Params)
				}
				for s, cf := range codesF {
					if want := values.OutcomeCode(cf); codesW[s] != want {
						t.Fatalf("sector %s slot %d: code %d, the full set's %d is outcome %d", x.Name, s, codesW[s], cf, want)
					}
				}
				a, _ := os.ReadFile(filepath.Join(wdl, y.File))
				b, _ := os.ReadFile(filepath.Join(conv, y.File))
				if string(a) != string(b) {
					t.Errorf("sector %s: the converted file differs from the one built", x.Name)
				}
			}
			if wdlBytes >= fullBytes {
				t.Errorf("the win/draw/loss-only files take %d bytes, the full ones %d", wdlBytes, fullBytes)
			}
			t.Logf("%s: full %d bytes, win/draw/loss-only %d (%.2f×)", c.name, fullBytes, wdlBytes, float64(fullBytes)/float64(wdlBytes))

			for _, dir := range []string{wdl, conv} {
				set, err := tables.OpenSet(dir)
				if err != nil {
					t.Fatal(err)
				}
				if set.Values() != format.ValuesWDL {
					t.Errorf("%s: values %q", dir, set.Values())
				}
				if err := set.Verify(ctx, tables.VerifyOptions{Workers: 2}); err != nil {
					t.Errorf("%s: %v", dir, err)
				}
				set.Close()
			}

			// Resuming does nothing; the other kind is refused, in both directions.
			var rebuilt []string
			opt := TierOptions{Workers: 2, Values: format.ValuesWDL, UnitDone: func(u TierUnit, _ []TierMember, skipped bool) {
				if !skipped {
					rebuilt = append(rebuilt, u.Name)
				}
			}}
			if err := BuildTierSet(ctx, millGame, wdl, plan, opt); err != nil || len(rebuilt) > 0 {
				t.Errorf("resuming a complete win/draw/loss-only set: %v, rebuilt %v", err, rebuilt)
			}
			err = BuildTierSet(ctx, millGame, wdl, plan, TierOptions{Workers: 2})
			if err == nil || !strings.Contains(err.Error(), "win/draw/loss-only set") || !strings.Contains(err.Error(), "--values wdl") {
				t.Errorf("a full build on a win/draw/loss-only set: %v", err)
			}
			err = BuildTierSet(ctx, millGame, full, plan, TierOptions{Workers: 2, Values: format.ValuesWDL})
			if err == nil || !strings.Contains(err.Error(), "holds a full set") || !strings.Contains(err.Error(), "tablesmith convert") {
				t.Errorf("a win/draw/loss-only build on a full set: %v", err)
			}
			if _, err := BuildTierUnit(ctx, millGame, wdl, plan[0], TierOptions{Workers: 2, Values: "xyz"}); err == nil {
				t.Error("values xyz accepted")
			}
			if err := ConvertTierSet(ctx, millGame, full, full, ConvertOptions{}); err == nil {
				t.Error("converting a set into itself")
			}
			if err := ConvertTierSet(ctx, millGame, wdl, t.TempDir(), ConvertOptions{}); err == nil || !strings.Contains(err.Error(), "win/draw/loss-only set already") {
				t.Errorf("converting a win/draw/loss-only set: %v", err)
			}
		})
	}
}

// TestTierSetWDLQueries: a win/draw/loss-only set answers every position with the full
// set's outcome and no remoteness, lists the same moves with the same outcomes, ranked by
// value alone (wins, draws, losses; the moves that end the game first; else in the game's
// order), and refuses a line rather than follow one.
func TestTierSetWDLQueries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	plan := TierPlan(millGame, millSelect(t, "--stones", "3"))
	full, wdl := t.TempDir(), t.TempDir()
	if err := BuildTierSet(ctx, millGame, full, plan, TierOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if err := BuildTierSet(ctx, millGame, wdl, plan, TierOptions{Workers: 2, Values: format.ValuesWDL}); err != nil {
		t.Fatal(err)
	}
	fs, err := tables.OpenSet(full)
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	ws, err := tables.OpenSet(wdl)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	rank := func(a tables.Answer) int {
		switch {
		case a.Outcome == values.Loss && a.State == "":
			return 0
		case a.Outcome == values.Loss:
			return 1
		case a.Outcome == values.Draw:
			return 2
		}
		return 3
	}
	positions, lines := 0, 0
	for _, name := range ws.TierNames() {
		tab, _ := ws.Tier(name)
		sp := tab.Domain().(games.TierSpace)
		n := tab.Meta().Slots
		for slot := uint64(0); slot < n; slot += max(1, n/300) {
			state, ok := tab.Domain().StateOf(slot)
			if !ok {
				continue // a hole
			}
			fa, fm, err := fs.Moves(state)
			if err != nil {
				t.Fatal(err)
			}
			wa, wm, err := ws.Moves(state)
			if err != nil {
				t.Fatal(err)
			}
			if wa.Outcome != fa.Outcome || !wa.NoRemoteness || wa.Remoteness != 0 || wa.State != fa.State || len(wm) != len(fm) {
				t.Fatalf("%s: %+v with %d moves, the full set's %+v with %d", state, wa, len(wm), fa, len(fm))
			}
			if a, err := ws.Lookup(state); err != nil || a != wa {
				t.Fatalf("%s: Lookup %+v, %v; Moves %+v", state, a, err, wa)
			}
			fullOf := map[string]tables.MoveAnswer{}
			for _, m := range fm {
				fullOf[m.Move] = m
			}
			list, _, err := sp.Moves(wa.State)
			if err != nil {
				t.Fatal(err)
			}
			var order []string
			for _, m := range list {
				order = append(order, m.Name)
			}
			for i, m := range wm {
				f, ok := fullOf[m.Move]
				if !ok || f.Outcome != m.Outcome || f.State != m.State || !m.NoRemoteness {
					t.Fatalf("%s: move %s %+v, the full set's %+v", state, m.Move, m.Answer, f)
				}
				if i > 0 {
					p := wm[i-1]
					if c := cmp.Compare(rank(p.Answer), rank(m.Answer)); c > 0 || c == 0 && slices.Index(order, p.Move) > slices.Index(order, m.Move) {
						t.Fatalf("%s: move %s ranked before %s", state, p.Move, m.Move)
					}
				}
			}
			// The best move keeps the value: a win leads to a loss, a draw to a draw.
			if len(wm) > 0 && wa.Outcome != values.Loss && map[values.Outcome]values.Outcome{values.Win: values.Loss, values.Draw: values.Draw}[wa.Outcome] != wm[0].Outcome {
				t.Fatalf("%s: %v, but the best move %s leads to %v", state, wa.Outcome, wm[0].Move, wm[0].Outcome)
			}
			if wa.Outcome != values.Draw {
				if _, _, err := ws.Line(state); !errors.Is(err, tables.ErrNoRemoteness) {
					t.Fatalf("%s: Line of a win/draw/loss-only set: %v", state, err)
				}
				lines++
			}
			positions++
		}
	}
	if positions < 1000 || lines == 0 {
		t.Fatalf("checked %d positions, %d lines", positions, lines)
	}
	info := ws.Info()
	if info.Values != format.ValuesWDL || info.Totals.MaxWin != nil || info.Totals.MaxLoss != nil || info.Tiers[0].MaxWin != nil {
		t.Errorf("info: values %q, totals %+v", info.Values, info.Totals)
	}
	if fs.Info().Values != format.ValuesFull {
		t.Errorf("the full set's values %q", fs.Info().Values)
	}
	// A lone file says what it holds.
	tab, err := tables.Open(filepath.Join(wdl, "sector-3-3.tsm"))
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	ti := tab.Info()
	if values.Encoding(ti.Encoding) != values.EncodingWDLOnly || ti.MaxWin != nil || ti.MaxLoss != nil || ti.WinCounts != nil || ti.Wins != 140621 || ti.Draws != 269 {
		t.Errorf("sector 3-3 alone: %+v", ti)
	}
	if a, err := tab.SlotAnswer(0); err != nil || !a.NoRemoteness || a.Remoteness != 0 {
		t.Errorf("slot 0 of sector 3-3 alone: %+v, %v", a, err)
	}
}

// TestTierSetWDLForgedValueFails: a win/draw/loss-only sector whose one value was changed
// to another outcome and resealed with valid checksums, under a manifest updated to match,
// fails the forward check, which names the position.
func TestTierSetWDLForgedValueFails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := BuildTierUnit(ctx, millGame, dir, millUnit(t, "3-3"), TierOptions{Workers: 2, Values: format.ValuesWDL}); err != nil {
		t.Fatal(err)
	}
	const victim = 1000
	set := forgeSetCode(t, dir, "sector-3-3.tsm", victim, func(c uint32) uint32 {
		return map[uint32]uint32{values.WDLDraw: values.WDLOnlyWin, values.WDLOnlyWin: values.WDLOnlyLoss, values.WDLOnlyLoss: values.WDLOnlyWin}[c]
	})
	defer set.Close()
	if err := set.Verify(ctx, tables.VerifyOptions{Workers: 2, ChecksumsOnly: true}); err != nil {
		t.Fatalf("the resealed set fails even its checksums: %v", err)
	}
	// The first inconsistent position is the forged one or a parent of it before it in
	// the sector; either way it is named.
	err := set.Verify(ctx, tables.VerifyOptions{Workers: 2})
	if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "inconsistent at slot") || !strings.Contains(err.Error(), "(position ") ||
		!strings.Contains(err.Error(), "its moves make it a ") {
		t.Fatalf("a forged value verified: %v", err)
	}
	t.Log(err)
}
