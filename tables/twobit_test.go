package tables_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/builder/twobit"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

// buildTwoBit builds a depth-mod-3 sliding-tile table, writes it with mutate applied to
// the codes (nil: none) and returns the search and the file.
func buildTwoBit(t *testing.T, rows, cols int, scheme, goal string, mutate func(*twobit.Result)) (*twobit.Result, string) {
	t.Helper()
	return buildTwoBitCodes(t, rows, cols, scheme, goal, false, mutate)
}

// buildTwoBitCodes is buildTwoBit with a half-depth search (half) or a depth-mod-3 one.
func buildTwoBitCodes(t *testing.T, rows, cols int, scheme, goal string, half bool, mutate func(*twobit.Result)) (*twobit.Result, string) {
	t.Helper()
	sp, err := slide.NewSpace(slide.Params{Rows: rows, Cols: cols, Goal: goal, Index: scheme})
	if err != nil {
		t.Fatal(err)
	}
	res, err := twobit.Search(context.Background(), sp, twobit.Options{Workers: 2, Half: half})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(res.Codes.Release)
	if mutate != nil {
		mutate(res)
	}
	path := filepath.Join(t.TempDir(), "twobit.tsm")
	params, _ := json.Marshal(map[string]any{"rows": rows, "cols": cols, "goal": goal})
	meta := format.Metadata{Game: "slide", Params: params, Index: scheme}
	if _, err := pipeline.WriteDepthMod3(context.Background(), path, res, meta, format.WriteOptions{SlotsPerBlock: 4096}); err != nil {
		t.Fatal(err)
	}
	return res, path
}

// TestTwoBitEightEveryState answers every 8-puzzle state from a two-bit table by
// descent and from a byte table: the same remoteness, paths of that length, the same
// best moves; info, verify and the per-depth counts agree.
func TestTwoBitEightEveryState(t *testing.T) {
	t.Parallel()
	for _, scheme := range []string{"lex-half", "branch767359"} {
		_, bytesTab := buildEight(t, scheme, "blank-last", 2)
		_, path := buildTwoBit(t, 3, 3, scheme, "blank-last", nil)
		tab, err := tables.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer tab.Close()
		info := tab.Info()
		if !slices.Equal(info.Counts, slide.EightPuzzleCounts) || info.States != 181440 || info.MaxRemoteness != 31 || values.Encoding(info.Encoding) != values.EncodingDepthMod3 {
			t.Fatalf("%s: info %+v", scheme, info)
		}
		if err := tab.Verify(context.Background(), tables.VerifyOptions{}); err != nil {
			t.Fatalf("%s: verify: %v", scheme, err)
		}
		step := uint64(1)
		if testing.Short() {
			step = 13 // every state takes a minute under the race detector
		}
		sameAsBytes(t, scheme, tab, bytesTab, step, 97)
	}
}

// TestTwoBitForgedCodes changes codes and re-seals the file with valid checksums (and
// counts that match): verify names the inconsistency, and a lookup whose descent meets
// it reports corruption rather than a wrong answer.
func TestTwoBitForgedCodes(t *testing.T) {
	t.Parallel()
	sp, _ := slide.NewSpace(slide.Params{Rows: 3, Cols: 3, Index: "lex-half"})
	state := "867254301"
	slot, _, _ := sp.Slot(state)
	swap := func(res *twobit.Result) { swapWithOtherCode(res, slot) }
	_, path := buildTwoBit(t, 3, 3, "lex-half", "blank-last", swap)
	tab, err := tables.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if err := tab.Verify(context.Background(), tables.VerifyOptions{}); !errors.Is(err, format.ErrCorrupt) {
		t.Fatalf("verify of forged codes: %v", err)
	}
	if _, err := tab.Lookup(state); err != nil && !errors.Is(err, format.ErrCorrupt) {
		t.Fatalf("lookup: %v", err)
	}
}

// TestTwoBitDescentTreeCaps: the descent's look-ahead tree, capped anywhere from 1 node
// (a step of one move) to more than a step ever holds, walks the same line: the same
// remoteness and the same path for 1,500 slots spread over the 3×3 (depth-mod-3 codes,
// lex-half and the branch hash, whose holes the tree meets) and over the 2×5 (half-depth
// codes). The cap is a package variable, so this test does not run in parallel.
func TestTwoBitDescentTreeCaps(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		scheme     string
		half       bool
	}{{3, 3, "lex-half", false}, {3, 3, "branch767359", false}, {2, 5, "lex-half", true}} {
		_, path := buildTwoBitCodes(t, tc.rows, tc.cols, tc.scheme, "blank-last", tc.half, nil)
		tab, err := tables.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer tab.Close()
		pz := tab.Domain().(tables.PuzzleDomain)
		type walk struct {
			remoteness int
			path       []string
		}
		walks := func(cap int) []walk {
			defer tables.SetDescentTreeNodes(cap)()
			var out []walk
			for slot := uint64(0); slot < pz.Slots(); slot += pz.Slots()/1500 + 1 {
				state, ok := pz.StateOf(slot)
				if !ok {
					continue
				}
				a, err := tab.Lookup(state)
				if err != nil {
					t.Fatalf("cap %d: %s: %v", cap, state, err)
				}
				p, err := tab.Path(state)
				if err != nil || (a.Reachable && len(p) != a.Remoteness+1) {
					t.Fatalf("cap %d: %s: path %v (%v), remoteness %d", cap, state, p, err, a.Remoteness)
				}
				out = append(out, walk{a.Remoteness, p})
			}
			return out
		}
		one := walks(1)
		for _, cap := range []int{2, 3, 6, 24, 200} {
			got := walks(cap)
			for i := range one {
				if got[i].remoteness != one[i].remoteness || !slices.Equal(got[i].path, one[i].path) {
					t.Fatalf("%d×%d %s: a tree of %d nodes walks %v (%d), one move at a time %v (%d)",
						tc.rows, tc.cols, tc.scheme, cap, got[i].path, got[i].remoteness, one[i].path, one[i].remoteness)
				}
			}
		}
	}
}
