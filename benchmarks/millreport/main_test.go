package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/pipeline"
)

// TestReportThreeStones reports the whole game of three stones a side, whose value the
// independent solver (internal/milloracle) finds: White wins in 23 plies.
func TestReportThreeStones(t *testing.T) {
	g := mill.Game{}
	start, err := g.ParseTier("0-0-3-3")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := pipeline.BuildTierSet(context.Background(), g, dir, pipeline.TierPlan(g, []games.Tier{start}), pipeline.TierOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := report(&out, dir, 6); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"The empty board, White to place: **win in 23 plies**.",
		"| 0 | White | 0-0-3-3 (0/0, 3/3) | 1 |",
		// One stone on the board: four classes under the 16 symmetries (the corners and
		// the midpoints of the outer and inner squares, those of the middle square).
		"| 1 | 4 | 0 | 4 | 0 | — | 26 |",
		"first moves that win in 23 plies: 12",
		"| 0 | 1 | 1 | 0 | 0 | 23 | — |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	// Ply 5 is the last with a stone in hand (2·3 − 1).
	if strings.Contains(text, "\n| 6 |") {
		t.Errorf("the report goes past the placement phase:\n%s", text)
	}
}

func TestReportNotASet(t *testing.T) {
	if err := report(&bytes.Buffer{}, t.TempDir(), 6); err == nil {
		t.Fatal("a directory without a set was reported")
	}
}
