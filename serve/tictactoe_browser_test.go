package serve_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tablesmith/tablesmith/games/tictactoe"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/serve"
	"github.com/tablesmith/tablesmith/tables"
)

// tttFixture builds the whole of tic-tac-toe (`tablesmith build tictactoe`) into a set
// named ttt.
func tttFixture(t *testing.T) string {
	t.Helper()
	g := tictactoe.Game{}
	dir := filepath.Join(t.TempDir(), "ttt")
	if err := pipeline.BuildTierSet(context.Background(), g, dir, pipeline.TierPlan(g, g.Tiers()), pipeline.TierOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestTicTacToeInBrowser plays tic-tac-toe on the explorer page in a real headless
// browser: the empty board offers nine drawing moves; a typed position shows the value of
// every empty cell as the set has it, the best marked; a click on the winning cell ends
// the game with a line of three, which the page says is over by the rules; a new game
// and a computer move play from the empty board.
func TestTicTacToeInBrowser(t *testing.T) {
	b := newBrowser(t)
	dir := tttFixture(t)
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { set.Close() })
	_, ts := newServer(t, serve.Options{}, dir)

	// cells reads the board: per cell, the stone or the value written on its button.
	cells := func() string {
		return b.eval(`[...document.querySelectorAll('#board .ttt-cell')].map((c) => c.textContent || '_').join('|')`)
	}
	waitState := func(state string) {
		t.Helper()
		b.waitFor("the position "+state, fmt.Sprintf(`document.querySelector('#state-input').value === %q && document.querySelectorAll('#board .ttt-cell').length === 9`, state))
	}

	const start = "XX.OO...."
	b.do(chromedp.Navigate(ts.URL + "/#table=ttt&state=" + start))
	waitState(start)
	b.waitValue("1")
	a, ms, err := set.Moves(start)
	if err != nil || a.Outcome.String() != "win" || a.Remoteness != 1 {
		t.Fatalf("%s: %+v, %v", start, a, err)
	}
	// Every empty cell is a button with the value the set gives its move.
	for _, m := range ms {
		got := b.eval(fmt.Sprintf(`document.querySelector('#board button.ttt-cell[data-move="%s"] small')?.textContent ?? 'none'`, m.Move))
		want := map[string]string{"loss": "wins in ", "win": "loses in ", "draw": "draw"}[m.Outcome.String()]
		if m.Outcome.String() != "draw" {
			want += fmt.Sprint(m.Remoteness + 1)
		}
		if got != want {
			t.Errorf("%s: cell %s reads %q, the set says %q", start, m.Move, got, want)
		}
	}
	if best := b.eval(`document.querySelector('#board button.ttt-cell.best').dataset.move`); best != "3" {
		t.Errorf("the best cell marked is %s, want 3 (the line)", best)
	}
	b.screenshot("explorer-tictactoe-win-in-1.png")

	// The winning move: the line of three, over by the rules.
	b.do(chromedp.Click(chromedp.CSS(`#board button.ttt-cell[data-move="3"]`)))
	waitState("XXXOO....")
	b.waitFor("the game-over caption", `document.querySelector('.ttt-caption').textContent.includes('three in a row')`)
	if won := b.eval(`String(document.querySelectorAll('#board .ttt-cell.won').length)`); won != "3" {
		t.Errorf("%s cells marked as the line, want 3", won)
	}
	if note := b.eval(`document.querySelector('#verdict-note').textContent`); !strings.Contains(note, "game over") {
		t.Errorf("the verdict's note says %q", note)
	}
	if n := b.eval(`String(document.querySelectorAll('#board button.ttt-cell').length)`); n != "0" {
		t.Errorf("%s cells still playable after the game ended", n)
	}
	b.screenshot("explorer-tictactoe-over.png")

	// A new game: nine drawing moves; the computer answers with the set's first.
	b.do(chromedp.Click(chromedp.CSS("#new-game")))
	waitState(".........")
	b.waitValue("")
	if got, want := cells(), strings.Repeat("draw|", 8)+"draw"; got != want {
		t.Errorf("the empty board reads %q, want %q", got, want)
	}
	b.do(chromedp.Click(chromedp.CSS("#computer-move")))
	_, first, err := set.Moves(".........")
	if err != nil {
		t.Fatal(err)
	}
	waitState(first[0].State)
	if strip := b.eval(`[...document.querySelectorAll('#strip .ply')].map((p) => p.querySelector('.ply-move').textContent).join(' ')`); strip != "start "+first[0].Move {
		t.Errorf("the strip reads %q", strip)
	}
}
