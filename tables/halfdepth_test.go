package tables_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/builder/twobit"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/hanoi"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

// buildSlideBytes builds the byte (remoteness) table of a sliding-tile board and opens it.
func buildSlideBytes(t *testing.T, rows, cols int, scheme string) *tables.Table {
	t.Helper()
	_, tab := buildSlide(t, rows, cols, scheme, "blank-last", 2)
	return tab
}

// sameAsBytes answers every step-th state of a two-bit table tab and of the byte table of
// the same space: the same answer; every pathEvery-th slot's path is a shortest one
// (each step a neighbour, as many steps as the remoteness, a goal at the end), and its
// best moves are the byte table's.
func sameAsBytes(t *testing.T, name string, tab, bytesTab *tables.Table, step, pathEvery uint64) {
	t.Helper()
	pz := tab.Domain().(tables.PuzzleDomain)
	for slot := uint64(0); slot < pz.Slots(); slot += step {
		state, ok := pz.StateOf(slot)
		if !ok {
			continue
		}
		want, err := bytesTab.Lookup(state)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tab.Lookup(state)
		if err != nil || got != want {
			t.Fatalf("%s %s: %+v (%v), want %+v", name, state, got, err, want)
		}
		if slot%pathEvery != 0 {
			continue
		}
		p, err := tab.Path(state)
		if err != nil {
			t.Fatal(err)
		}
		if !want.Reachable {
			if p != nil {
				t.Fatalf("%s %s cannot reach the goal, but has the path %v", name, state, p)
			}
			continue
		}
		if len(p) != want.Remoteness+1 || p[0] != want.State {
			t.Fatalf("%s %s: path %v, want %d moves", name, state, p, want.Remoteness)
		}
		for i := 1; i < len(p); i++ {
			nbrs, err := pz.Neighbors(p[i-1])
			if err != nil || !slices.Contains(nbrs, p[i]) {
				t.Fatalf("%s %s: path %v: %s is no neighbour of %s (%v)", name, state, p, p[i], p[i-1], err)
			}
		}
		if goal, err := pz.IsGoal(p[len(p)-1]); err != nil || !goal {
			t.Fatalf("%s %s: path %v ends off the goal (%v)", name, state, p, err)
		}
		bm1, err1 := tab.BestMoves(state)
		bm2, err2 := bytesTab.BestMoves(state)
		if err1 != nil || err2 != nil || !slices.Equal(bm1, bm2) {
			t.Fatalf("%s %s: best moves %v (%v), want %v (%v)", name, state, bm1, err1, bm2, err2)
		}
	}
}

// TestHalfDepthEveryState answers every state of 2×4, 3×3 and 2×5 under lex-half and lex
// from a half-depth table by descent and from a byte table: the same remoteness; every
// path asked for is a shortest one (each step a neighbour, as many steps as the
// remoteness, a goal at the end); the same best moves; info and verify agree.
func TestHalfDepthEveryState(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rows, cols int
		scheme     string
	}{
		{2, 4, "lex-half"}, {2, 4, "lex"}, {3, 3, "lex-half"}, {3, 3, "lex"}, {2, 5, "lex-half"}, {2, 5, "lex"},
	} {
		t.Run(fmt.Sprintf("%dx%d-%s", tc.rows, tc.cols, tc.scheme), func(t *testing.T) {
			t.Parallel()
			bytesTab := buildSlideBytes(t, tc.rows, tc.cols, tc.scheme)
			res, path := buildTwoBitCodes(t, tc.rows, tc.cols, tc.scheme, "blank-last", true, nil)
			if !res.Half {
				t.Fatal("a half-depth search's result is not Half")
			}
			tab, err := tables.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer tab.Close()
			info, want := tab.Info(), bytesTab.Info()
			if values.Encoding(info.Encoding) != values.EncodingHalfDepth || !slices.Equal(info.Counts, want.Counts) ||
				info.States != want.States || info.MaxRemoteness != want.MaxRemoteness || info.Unreachable != want.Unreachable {
				t.Fatalf("info %+v, want the counts of %+v", info, want)
			}
			if err := tab.Verify(context.Background(), tables.VerifyOptions{Workers: 2}); err != nil {
				t.Fatalf("verify: %v", err)
			}
			step := uint64(1)
			if testing.Short() || racetest.Enabled {
				step = 13 + tab.Info().Slots/50000 // every state of 2×5 takes many minutes under the race detector
			}
			sameAsBytes(t, tc.scheme, tab, bytesTab, step, 61)
		})
	}
}

// setCode sets slot's code in a search's codes.
// swapWithOtherCode exchanges slot's code with that of the first reached slot of another
// code: the counts per code stay, so only the neighbour checks can see it.
func swapWithOtherCode(res *twobit.Result, slot uint64) {
	c := res.Codes.Get(slot)
	for s := range res.Codes.Len() {
		if o := res.Codes.Get(s); o != c && o != twobit.NotReached {
			setCode(res, slot, o)
			setCode(res, s, c)
			return
		}
	}
}

func setCode(res *twobit.Result, s uint64, v uint8) {
	res.Codes.Words[s>>5] = res.Codes.Words[s>>5]&^(3<<(s&31*2)) | uint64(v)<<(s&31*2)
}

// TestHalfDepthForgedCodes: codes changed and the file re-sealed with valid checksums.
// Where the per-code counts still match (two slots' codes 0 and 1 exchanged), verify
// names the inconsistency and a lookup reports corruption or the right answer; where
// they do not (one code flipped, a code 2), the table is refused at open.
func TestHalfDepthForgedCodes(t *testing.T) {
	t.Parallel()
	sp, _ := slide.NewSpace(slide.Params{Rows: 3, Cols: 3, Index: "lex-half"})
	state := "867254301"
	slot, _, _ := sp.Slot(state)
	swap := func(res *twobit.Result) { swapWithOtherCode(res, slot) }
	_, path := buildTwoBitCodes(t, 3, 3, "lex-half", "blank-last", true, swap)
	tab, err := tables.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if err := tab.Verify(context.Background(), tables.VerifyOptions{}); !errors.Is(err, format.ErrCorrupt) {
		t.Fatalf("verify of exchanged codes: %v", err)
	}
	if a, err := tab.Lookup(state); err != nil && !errors.Is(err, format.ErrCorrupt) || err == nil && a.Remoteness != 31 {
		t.Fatalf("lookup: %+v %v", a, err)
	}
	for name, mutate := range map[string]func(*twobit.Result){
		"flip":   func(res *twobit.Result) { setCode(res, slot, 1-res.Codes.Get(slot)) },
		"code 2": func(res *twobit.Result) { setCode(res, slot, 2) },
	} {
		_, path := buildTwoBitCodes(t, 3, 3, "lex-half", "blank-last", true, mutate)
		if tab, err := tables.Open(path); !errors.Is(err, format.ErrCorrupt) {
			if err == nil {
				tab.Close()
			}
			t.Errorf("%s: open: %v", name, err)
		}
	}
}

// TestHalfDepthNeedsSides: a half-depth table of a space without sides (Hanoi) is refused
// at open, saying why: its codes cannot be descended.
func TestHalfDepthNeedsSides(t *testing.T) {
	t.Parallel()
	sp, err := hanoi.NewSpace(hanoi.Params{Pegs: 3, Disks: 4, Index: hanoi.SchemeNames()[0]})
	if err != nil {
		t.Fatal(err)
	}
	res, err := twobit.Search(context.Background(), sp, twobit.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Codes.Release()
	res.Half = true // as a forger would label it
	path := filepath.Join(t.TempDir(), "hanoi.tsm")
	params, _ := json.Marshal(map[string]any{"pegs": 3, "disks": 4})
	meta := format.Metadata{Game: "hanoi", Params: params, Index: hanoi.SchemeNames()[0]}
	if _, err := pipeline.WriteDepthMod3(context.Background(), path, res, meta, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = tables.Open(path)
	if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "no sides") {
		t.Fatalf("open: %v", err)
	}
}
