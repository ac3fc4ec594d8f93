package twobit_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/builder/twobit"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/internal/racetest"
)

// TestSlideMatchesByteEngine builds small sliding-tile puzzles under every scheme with
// both engines, the two-bit one with recent bits, lean and half-depth: the same states
// per level, and every slot's code is its remoteness modulo 3, or ⌊d/2⌋ mod 2 when
// half-depth (3 where the byte engine reached nothing).
func TestSlideMatchesByteEngine(t *testing.T) {
	t.Parallel()
	boards := []struct {
		rows, cols int
		schemes    []string
	}{
		{2, 3, []string{"lex-half", "lex", "mr"}},
		{2, 4, []string{"lex-half", "lex", "mr"}},
		{3, 3, []string{"lex-half", "lex", "mr", "branch767359"}},
		{2, 5, []string{"lex-half", "lex"}}, // runs of whole chunks: the horizontal moves by shifts
	}
	for _, b := range boards {
		for _, scheme := range b.schemes {
			for _, run := range []struct {
				goal       string
				lean, half bool
			}{{"blank-last", false, false}, {"blank-first", false, false}, {"blank-last", true, false}, {"blank-first", true, false},
				{"blank-last", false, true}, {"blank-first", false, true}} {
				goal := run.goal
				t.Run(fmt.Sprintf("%dx%d-%s-%s-lean=%v-half=%v", b.rows, b.cols, scheme, goal, run.lean, run.half), func(t *testing.T) {
					t.Parallel()
					if b.cols == 5 {
						racetest.SkipSlow(t, "2×5 (1.8 million slots), each engine")
					}
					sp, err := slide.NewSpace(slide.Params{Rows: b.rows, Cols: b.cols, Goal: goal, Index: scheme})
					if err != nil {
						t.Fatal(err)
					}
					want, err := bfs.Search(context.Background(), sp, bfs.Options{Workers: 1})
					if err != nil {
						t.Fatal(err)
					}
					got, err := twobit.Search(context.Background(), sp, twobit.Options{Workers: 2, Batch: 100, Lean: run.lean, Half: run.half})
					if err != nil {
						t.Fatal(err)
					}
					defer got.Codes.Release()
					if !slices.Equal(got.Counts, want.Counts) || got.Holes != want.Holes || got.Unreachable != want.Unreachable {
						t.Fatalf("counts %v holes %d unreachable %d, want %v %d %d",
							got.Counts, got.Holes, got.Unreachable, want.Counts, want.Holes, want.Unreachable)
					}
					v := want.Values
					for s := range sp.Slots() {
						x, c := v.Get(s), got.Codes.Get(s)
						if x == v.Unset() || x == v.Hole() {
							if c != twobit.NotReached {
								t.Fatalf("slot %d: code %d, want not reached", s, c)
							}
						} else if run.half && uint64(c) != x/2%2 || !run.half && uint64(c) != x%3 {
							t.Fatalf("slot %d: code %d, remoteness %d", s, c, x)
						}
					}
					if b.rows == 3 && b.cols == 3 && !slices.Equal(got.Counts, slide.EightPuzzleCounts) && goal == "blank-last" {
						t.Fatalf("8-puzzle counts %v", got.Counts)
					}
				})
			}
		}
	}
}

// TestExpander2x7Runs: the 2×7 expander over runs of close slots (a frontier's, which
// share the unrank's cached prefix) lists what a fresh expander lists for each slot alone.
func TestExpander2x7Runs(t *testing.T) {
	t.Parallel()
	sp, err := slide.NewSpace(slide.Params{Rows: 2, Cols: 7, Index: "lex-half"})
	if err != nil {
		t.Fatal(err)
	}
	expand := sp.NewExpander()
	var src, got, want []uint64
	for start := uint64(0); start < sp.Slots(); start += sp.Slots() / 97 {
		src = src[:0]
		for i := range uint64(3000) {
			if s := start + i*i%1013 + i*7; s < sp.Slots() {
				src = append(src, s)
			}
		}
		slices.Sort(src)
		got = expand(got[:0], src)
		want = want[:0]
		for _, s := range src {
			want = sp.NewExpander()(want, []uint64{s})
		}
		if !slices.Equal(got, want) {
			t.Fatalf("run from %d: the expander's neighbours differ from a fresh one's", start)
		}
	}
}
