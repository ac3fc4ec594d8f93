package serve_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/serve"
	"github.com/tablesmith/tablesmith/tables"
)

// mill3Start is the empty board of the game of 3 stones a side.
const mill3Start = "........................ W W:3 B:3"

// mill3Fixture builds the whole game of 3 stones a side (`tablesmith build mill --stones 3`:
// its empty board's sector 0-0-3-3 and every sector it leads to) into a set named m3.
func mill3Fixture(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "m3")
	if err := buildMorris(mill.Nine, 3, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// buildMorris builds the whole game of stones a side under the rule set r into the set
// dir: `tablesmith build mill --rules NAME --stones N -o DIR`.
func buildMorris(r *mill.Rules, stones int, dir string) error {
	g := mill.ForRules(r)
	start, err := g.ParseTier(fmt.Sprintf("0-0-%d-%d", stones, stones))
	if err != nil {
		return err
	}
	return pipeline.BuildTierSet(context.Background(), g, dir, pipeline.TierPlan(g, []games.Tier{start}), pipeline.TierOptions{Workers: 2})
}

// millPage drives the explorer's board of a Morris set and checks it against the set.
type millPage struct {
	*browser
	t      *testing.T
	set    *tables.Set
	points int // the board's
}

func (p *millPage) state() string { return p.eval(`document.querySelector('#state-input').value`) }

// waitState waits until the page shows state (probed and drawn).
func (p *millPage) waitState(state string) {
	p.t.Helper()
	p.waitFor("the position "+state, fmt.Sprintf(`document.querySelector('#state-input').value === %q && document.querySelectorAll('#board .mill-hit').length === %d`, state, p.points))
}

// splitMove splits a move of the notation: the stone moved ("" for a placement), the
// point it goes to, the stone removed ("" for none).
func splitMove(move string) (from, to, remove string) {
	from, to, slide := strings.Cut(move, "-")
	if !slide {
		from, to = "", from
	}
	to, remove, _ = strings.Cut(to, "x")
	return from, to, remove
}

// clickMove plays move at state by clicking the board: the stone (a slide or a flight),
// its target, then the stone to remove when the set's captures there leave a choice.
func (p *millPage) clickMove(state, move string) {
	p.t.Helper()
	from, to, remove := splitMove(move)
	if from != "" {
		p.click(atoi(p.t, from))
		p.waitFor("the stone selected", fmt.Sprintf(`!!document.querySelector('#board circle.stone.selected[data-point="%s"]')`, from))
	}
	p.click(atoi(p.t, to))
	if remove == "" {
		return
	}
	_, ms := p.moves(state)
	head, _, _ := strings.Cut(move, "x")
	if slices.IndexFunc(ms, func(m tables.MoveAnswer) bool { return m.Move != move && strings.HasPrefix(m.Move, head+"x") }) >= 0 {
		p.waitFor("the choice of a stone to remove", `document.querySelector('.mill-caption').textContent.includes('Click the stone to remove.')`)
		p.click(atoi(p.t, remove))
	}
}

// click clicks a point of the board.
func (p *millPage) click(point int) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board .mill-hit[data-point="%d"]`, point))))
}

// button clicks a button of the page.
func (p *millPage) button(id string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS("#" + id)))
}

// moves returns the set's moves of state.
func (p *millPage) moves(state string) (tables.Answer, []tables.MoveAnswer) {
	p.t.Helper()
	a, ms, err := p.set.Moves(state)
	if err != nil {
		p.t.Fatalf("%s: %v", state, err)
	}
	return a, ms
}

// after returns the position a move of the set leads to, or "" for a move that ends the game.
func (p *millPage) after(state, move string) string {
	p.t.Helper()
	_, ms := p.moves(state)
	for _, m := range ms {
		if m.Move == move {
			return m.State
		}
	}
	p.t.Fatalf("%s: %s is no move of the set", state, move)
	return ""
}

// valueText is a position's value as the strip shows it.
func (p *millPage) valueText(state string) string {
	p.t.Helper()
	a, _ := p.moves(state)
	if a.Outcome.String() == "draw" {
		return "draw"
	}
	return fmt.Sprintf("%s %d", a.Outcome, a.Remoteness)
}

// strip reads the value strip: "move:value" per ply ("start" first), the current one
// marked *, those after it (undone) ~, the computer's moves @.
func (p *millPage) strip() string {
	return p.eval(`[...document.querySelectorAll('#strip .ply')].map((b) => b.querySelector('.ply-move').textContent + ':' +
		b.querySelector('.ply-value').textContent + (b.classList.contains('current') ? '*' : '') +
		(b.classList.contains('future') ? '~' : '') + (b.classList.contains('computer') ? '@' : '')).join(' ')`)
}

// hands reads the stones in hand beside the board: "W:n B:m", counting the stones drawn
// and checking them against the counts written.
func (p *millPage) hands() string {
	p.t.Helper()
	got := p.eval(`['W', 'B'].map((c) => { const h = document.querySelector('#board .hand[data-side="' + c + '"]');
		return h ? c + ':' + h.querySelectorAll('.hand-stones .dot').length + '/' + h.querySelector('.hand-count').textContent : c + ':none'; }).join(' ')`)
	var out []string
	for _, f := range strings.Fields(strings.ReplaceAll(got, " in hand", "_in_hand")) {
		side, rest, _ := strings.Cut(f, ":")
		drawn, written, _ := strings.Cut(rest, "/")
		if written != drawn+"_in_hand" {
			p.t.Errorf("%s's hand: %s stones drawn, the count says %q", side, drawn, written)
		}
		out = append(out, side+":"+drawn)
	}
	return strings.Join(out, " ")
}

// handsOf is the hands of a position as the page shows them.
func handsOf(state string) string {
	f := strings.Fields(state)
	if len(f) < 4 {
		return "W:0 B:0"
	}
	return f[2] + " " + f[3]
}

// TestMillGameInBrowser plays the whole game of 3 stones a side on the explorer page in a
// real headless browser, from the empty board: it starts a new game, checks the board
// drawn (Nine's 24 points and 32 lines, laid out as the notation numbers them) and the
// value of every placement against the set, places stones by
// clicking empty points, checks the stones in hand and the strip of values after every ply
// against the set, asks the computer for a move (the set's best), undoes it, plays until a
// placement closes a mill and removes a stone by clicking it (the stones offered are the
// set's captures), checks the game-over text, jumps back on the strip, lets the computer
// answer automatically through the placement phase, and slides a stone in the moving phase.
func TestMillGameInBrowser(t *testing.T) {
	racetest.SkipSlow(t, "builds Mühle sets, slow")
	b := newBrowser(t)
	dir := mill3Fixture(t)
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { set.Close() })
	_, ts := newServer(t, serve.Options{}, dir)
	p := &millPage{browser: b, t: t, set: set, points: 24}

	// Typed: a moving-phase position; then the new game's button shows the empty board.
	b.do(chromedp.Navigate(ts.URL + "/#table=m3&state=" + strings.ReplaceAll(millWin, " ", "+")))
	p.waitState(millWin)
	b.waitFor("the game's controls", `!document.querySelector('#game').hidden && !document.querySelector('#new-game').hidden`)
	if hidden := b.eval(`String(document.querySelector('#stones').hidden)`); hidden != "true" {
		t.Errorf("the stones picker shows with one whole game in the set")
	}
	p.button("new-game")
	p.waitState(mill3Start)
	if h := b.eval(`location.hash`); h != "#table=m3&state=........................+W+W%3A3+B%3A3" {
		t.Errorf("the new game's URL hash is %q", h)
	}
	b.waitValue("23")
	if got := p.hands(); got != "W:3 B:3" {
		t.Errorf("at the start the hands are %s", got)
	}
	if got, want := p.strip(), "start:win 23*"; got != want {
		t.Errorf("the strip says %q, want %q", got, want)
	}
	p.checkBoard(mill.Nine.Board)
	p.checkValues(mill3Start) // the 24 placements
	if c := b.eval(`document.querySelector('.mill-caption').textContent`); !strings.HasPrefix(c, " White to place.") {
		t.Errorf("the caption says %q", c)
	}
	b.screenshot("explorer-mill-new-game.png")

	// play clicks a placement (or a move's stone and target) and checks the page against the set.
	wantStrip := []string{"start:win 23"}
	stripNow := func(cur int) string {
		out := make([]string, len(wantStrip))
		for i, s := range wantStrip {
			s, cpu := strings.CutSuffix(s, "@")
			out[i] = s
			if i == cur {
				out[i] += "*"
			}
			if i > cur {
				out[i] += "~"
			}
			if cpu {
				out[i] += "@"
			}
		}
		return strings.Join(out, " ")
	}
	play := func(move string) string {
		t.Helper()
		from := p.state()
		next := p.after(from, move)
		if next == "" {
			t.Fatalf("%s: %s ends the game", from, move)
		}
		p.clickMove(from, move)
		p.waitState(next)
		wantStrip = append(wantStrip, move+":"+p.valueText(next))
		if got := p.hands(); got != handsOf(next) {
			t.Errorf("%s: the hands show %s, want %s", next, got, handsOf(next))
		}
		return next
	}

	// White places on 1: the hands and the strip follow.
	s1 := play("1")
	if got, want := p.strip(), stripNow(1); got != want {
		t.Errorf("after 1 the strip says %q, want %q", got, want)
	}

	// The computer answers with the set's best move; undo takes it back.
	_, ms := p.moves(s1)
	p.button("computer-move")
	p.waitState(ms[0].State)
	if got, want := p.strip(), stripNow(1)[:len(stripNow(1))-1]+" "+ms[0].Move+":"+p.valueText(ms[0].State)+"*@"; got != want {
		t.Errorf("after the computer's move the strip says %q, want %q", got, want)
	}
	p.button("undo")
	p.waitState(s1)
	if got := p.strip(); !strings.HasSuffix(got, "~@") || !strings.Contains(got, "*") {
		t.Errorf("after undo the strip says %q, want the computer's move kept after the current ply", got)
	}

	// Black 9, White 2, Black 10 (a move other than the computer's drops its ply), then
	// White 3 closes the mill 1-2-3: the page offers exactly the set's captures.
	for _, mv := range []string{"9", "2", "10"} {
		play(mv)
	}
	if got, want := p.strip(), stripNow(len(wantStrip)-1); got != want {
		t.Errorf("before the mill the strip says %q, want %q", got, want)
	}
	before := p.state()
	_, ms = p.moves(before)
	var captures []string
	for _, m := range ms {
		if strings.HasPrefix(m.Move, "3x") {
			captures = append(captures, m.Move)
		}
	}
	if len(captures) < 2 {
		t.Fatalf("%s: captures %v, want a choice", before, captures)
	}
	p.click(3)
	b.waitFor("the stone placed, waiting for a capture", `!!document.querySelector('#board circle.stone.ghost[data-point="3"]')`)
	if got := b.eval(`[...document.querySelectorAll('#board path.capture')].map((c) => c.dataset.move).sort().join(' ')`); got != strings.Join(slices.Sorted(slices.Values(captures)), " ") {
		t.Errorf("the page offers the captures %q, the set %v", got, captures)
	}
	if c := b.eval(`document.querySelector('.mill-caption').textContent`); !strings.Contains(c, "Click the stone to remove.") {
		t.Errorf("the caption says %q", c)
	}
	b.screenshot("explorer-mill-remove.png")
	p.click(10)
	over := "WWW" + strings.Repeat(".", 5) + "B" + strings.Repeat(".", 15) + " B W:0 B:1"
	p.waitState(over)
	if got := b.eval(`document.querySelector('#value-label').textContent + ' ' + document.querySelector('#verdict-note').textContent`); got != "loss game over: Black has 2 stones left: White wins" {
		t.Errorf("after the mill the page says %q", got)
	}
	if c := b.eval(`document.querySelector('.mill-caption').textContent`); c != "Game over — Black has 2 stones left: White wins." {
		t.Errorf("the caption says %q", c)
	}
	wantStrip = append(wantStrip, "3x10:loss 0")
	if got, want := p.strip(), stripNow(len(wantStrip)-1); got != want {
		t.Errorf("at the end the strip says %q, want %q", got, want)
	}
	if d := b.eval(`String(document.querySelector('#computer-move').disabled)`); d != "true" {
		t.Errorf("the computer may move after the end")
	}
	b.screenshot("explorer-mill-won.png")

	// Back to the start on the strip; the computer answers every placement of White's (the
	// first listed that captures nothing), into the moving phase, where a stone slides.
	b.do(chromedp.Click(chromedp.CSS(`#strip .ply[data-ply="0"]`)))
	p.waitState(mill3Start)
	if got := p.strip(); !strings.HasPrefix(got, "start:win 23* 1:") || !strings.HasSuffix(got, "3x10:loss 0~") {
		t.Errorf("back at the start the strip says %q", got)
	}
	b.do(chromedp.Click(chromedp.CSS("#auto")))
	state := mill3Start
	for ply := 0; ply < 3; ply++ {
		_, ms := p.moves(state)
		move := ""
		for _, m := range ms {
			if !strings.Contains(m.Move, "x") {
				move = m.Move
				break
			}
		}
		mine := play(move)
		_, answers := p.moves(mine)
		state = answers[0].State
		if state == "" {
			t.Fatalf("%s: the computer's answer %s ends the game", mine, answers[0].Move)
		}
		p.waitState(state)
		wantStrip = append(wantStrip, answers[0].Move+":"+p.valueText(state)+"@")
	}
	b.do(chromedp.Click(chromedp.CSS("#auto")))
	wantStrip = append(wantStrip[:1], wantStrip[len(wantStrip)-6:]...)
	if got, want := p.strip(), stripNow(len(wantStrip)-1); got != want {
		t.Errorf("after the placement phase the strip says %q, want %q", got, want)
	}
	if handsOf(state) != "W:0 B:0" {
		t.Fatalf("%s: still in the placement phase", state)
	}
	if c := b.eval(`document.querySelector('.mill-caption').textContent`); !strings.HasPrefix(c, " White to move.") {
		t.Errorf("in the moving phase the caption says %q", c)
	}
	b.screenshot("explorer-mill-moving.png")
	_, ms = p.moves(state)
	i := slices.IndexFunc(ms, func(m tables.MoveAnswer) bool { return !strings.Contains(m.Move, "x") })
	if i < 0 {
		t.Fatalf("%s: every move captures", state)
	}
	play(ms[i].Move)
	if got, want := p.strip(), stripNow(len(wantStrip)-1); got != want {
		t.Errorf("after a slide the strip says %q, want %q", got, want)
	}
	if e := b.eval(`document.querySelector('#error').hidden ? '' : document.querySelector('#error').textContent`); e != "" {
		t.Errorf("the page shows an error: %s", e)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
