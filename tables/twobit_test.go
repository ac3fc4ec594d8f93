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
// remoteness, path and error for 1,500 slots spread over the 3×3 (depth-mod-3 codes,
// lex-half and the branch hash, whose holes the tree meets), over the 2×5 (half-depth
// codes) and over a 3×3 table with 40 codes forged (counts kept: it opens), whose dead
// ends every cap must report where a walk of single moves meets them. The cap is a
// package variable, so this test does not run in parallel.
func TestTwoBitDescentTreeCaps(t *testing.T) {
	forge := func(res *twobit.Result) {
		for i := range uint64(40) {
			swapWithOtherCode(res, (i*7919+1013)%res.Codes.Len())
		}
	}
	for _, tc := range []struct {
		rows, cols int
		scheme     string
		half       bool
		mutate     func(*twobit.Result)
	}{{3, 3, "lex-half", false, nil}, {3, 3, "branch767359", false, nil}, {2, 5, "lex-half", true, nil}, {3, 3, "lex-half", false, forge}} {
		_, path := buildTwoBitCodes(t, tc.rows, tc.cols, tc.scheme, "blank-last", tc.half, tc.mutate)
		tab, err := tables.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer tab.Close()
		pz := tab.Domain().(tables.PuzzleDomain)
		type walk struct {
			remoteness int
			path       []string
			err        string
		}
		walks := func(cap int) (out []walk, failed int) {
			defer tables.SetDescentTreeNodes(cap)()
			for slot := uint64(0); slot < pz.Slots(); slot += pz.Slots()/1500 + 1 {
				state, ok := pz.StateOf(slot)
				if !ok {
					continue
				}
				var w walk
				a, err := tab.Lookup(state)
				if err == nil {
					w.remoteness = a.Remoteness
					w.path, err = tab.Path(state)
				}
				if err != nil {
					if tc.mutate == nil || !errors.Is(err, format.ErrCorrupt) {
						t.Fatalf("cap %d: %s: %v", cap, state, err)
					}
					w.err = err.Error()
					failed++
				} else if a.Reachable && len(w.path) != a.Remoteness+1 {
					t.Fatalf("cap %d: %s: path %v, remoteness %d", cap, state, w.path, a.Remoteness)
				}
				out = append(out, w)
			}
			return out, failed
		}
		one, failed := walks(1)
		if tc.mutate != nil && failed == 0 {
			t.Fatal("the forged table: no walk met a forged code")
		}
		for _, cap := range []int{2, 3, 6, 24, 200} {
			got, _ := walks(cap)
			for i := range one {
				if got[i].remoteness != one[i].remoteness || !slices.Equal(got[i].path, one[i].path) || got[i].err != one[i].err {
					t.Fatalf("%d×%d %s: a tree of %d nodes walks %v (%d, %q), one move at a time %v (%d, %q)",
						tc.rows, tc.cols, tc.scheme, cap, got[i].path, got[i].remoteness, got[i].err, one[i].path, one[i].remoteness, one[i].err)
				}
			}
		}
	}
}

// TestLookupPath: one call gives the answer and the path, from a two-bit table (one walk)
// and a byte table alike; a path over the limit is ErrPathTooLong with the answer and no
// path; a state of the other parity class has neither path nor error.
func TestLookupPath(t *testing.T) {
	t.Parallel()
	_, bytesPath := buildEight(t, "lex-half", "blank-last", 2)
	_, twoBitPath := buildTwoBit(t, 3, 3, "lex-half", "blank-last", nil)
	for _, file := range []string{bytesPath.File(), twoBitPath} {
		tab, err := tables.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer tab.Close()
		a, p, err := tab.LookupPath("8 6 7 2 5 4 3 0 1", 31)
		if err != nil || a.State != "867254301" || a.Remoteness != 31 || !a.Reachable || len(p) != 32 || p[0] != a.State || p[31] != "123456780" {
			t.Fatalf("%s: %+v %v %v", file, a, p, err)
		}
		a, p, err = tab.LookupPath("867254301", 30)
		if !errors.Is(err, tables.ErrPathTooLong) || p != nil || a.Remoteness != 31 || a.State != "867254301" {
			t.Fatalf("%s over the limit: %+v %v %v", file, a, p, err)
		}
		a, p, err = tab.LookupPath("213456780", 0)
		if err != nil || p != nil || a.Reachable || a.State != "213456780" || a.Outcome != values.Unreachable {
			t.Fatalf("%s, the other class: %+v %v %v", file, a, p, err)
		}
		if _, _, err = tab.LookupPath("21345678", 0); !errors.Is(err, tables.ErrBadState) {
			t.Fatalf("%s, a bad state: %v", file, err)
		}
	}
}
