package serve_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/serve"
	"github.com/tablesmith/tablesmith/tables"
)

// findBrowser returns a Chromium or Chrome binary, or "".
func findBrowser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

// artefacts is where screenshots go: $TABLESMITH_ARTIFACTS, or a temporary directory.
func artefacts(t testing.TB) string {
	if dir := os.Getenv("TABLESMITH_ARTIFACTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	return t.TempDir()
}

// browser is a headless browser tab and the test's helpers on it.
type browser struct {
	t   testing.TB
	ctx context.Context
	dir string // screenshots
}

func newBrowser(t testing.TB) *browser {
	if testing.Short() {
		t.Skip("the browser test does not run in -short mode")
	}
	exe := findBrowser()
	if exe == "" {
		t.Skip("NO BROWSER INSTALLED: the explorer page was NOT tested in a browser. " +
			"Install one (apt-get install chromium; CI does) or put chromium, chromium-browser or google-chrome on PATH.")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	t.Cleanup(cancelAlloc)
	bctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	return &browser{t: t, ctx: bctx, dir: artefacts(t)}
}

func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) eval(js string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return s
}

// waitFor polls the JavaScript predicate until it holds (10 s at most). A poll that
// starts while a navigation replaces the document loses its context: it is started again.
func (b *browser) waitFor(what, predicate string) {
	b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var err error
	for time.Now().Before(deadline) {
		_, err = chromedp.Run(b.ctx, chromedp.Poll[bool](predicate, chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil || !strings.Contains(err.Error(), "Cannot find context") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		b.t.Fatalf("waiting for %s: %v (the page shows %q, error %q)", what, err,
			b.eval(`document.querySelector('#verdict')?.textContent ?? ''`), b.eval(`document.querySelector('#error')?.textContent ?? ''`))
	}
}

// waitValue waits until the position's headline value reads want.
func (b *browser) waitValue(want string) {
	b.t.Helper()
	b.waitFor("value "+want, fmt.Sprintf(`document.querySelector('#value')?.textContent === %q`, want))
}

func (b *browser) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(b.dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", path)
}

// stateAt finds a solvable 8-puzzle state at remoteness d.
func stateAt(t *testing.T, tab *tables.Table, d int) string {
	r := rand.New(rand.NewPCG(uint64(d), 7))
	for {
		var b strings.Builder
		for _, x := range r.Perm(9) {
			b.WriteByte(byte('0' + x))
		}
		if a, err := tab.Lookup(b.String()); err == nil && a.Reachable && a.Remoteness == d {
			return b.String()
		}
	}
}

// TestExplorerInBrowser drives the explorer page in a real headless browser: it picks
// the 8-puzzle, enters a state 10 moves from the goal and plays the best move until the
// goal, clicking the board and the move list in turn and checking that the remoteness
// shown falls by one each time and agrees with the table; it checks the chart, a shared
// link, and a Towers of Hanoi move made by clicking two pegs.
func TestExplorerInBrowser(t *testing.T) {
	b := newBrowser(t)
	_, ts := newServer(t, serve.Options{})
	tab, err := tables.Open(filepath.Join(fixtures(t), "eight.tsm"))
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()

	b.do(chromedp.Navigate(ts.URL + "/"))
	b.do(chromedp.WaitVisible(chromedp.CSS(`nav#tables a[data-name="eight"]`)), chromedp.Click(chromedp.CSS(`nav#tables a[data-name="eight"]`)))
	b.waitFor("the chart", `document.querySelectorAll('#chart svg rect.bar').length > 0`)
	if n := b.eval(`String(document.querySelectorAll('#chart svg rect.bar').length)`); n != "32" {
		t.Errorf("the chart has %s bars, want 32", n)
	}
	b.waitValue("0") // the goal, by default
	b.waitFor("the page to show the table picked", `document.body.dataset.shown === '#table=eight'`)

	start := stateAt(t, tab, 10)
	b.eval(`document.querySelector('#state-input').value = ''`)
	b.do(chromedp.SendKeys(chromedp.CSS("#state-input"), start+"\r")) // typed, then Enter
	b.waitValue("10")
	b.waitFor("the chart's bar of 10", `document.querySelector('#chart rect.bar.current')?.dataset.lo === '10'`)
	b.screenshot("explorer-eight.png")
	if n := b.eval(`String(document.querySelectorAll('#board button.tile').length)`); n == "0" {
		t.Fatal("no movable tile on the board")
	}

	var shared string
	for d := 10; d > 0; d-- {
		state := b.eval(`document.querySelector('#state-input').value`)
		// Click the board on odd steps, the move list on even ones.
		target := chromedp.CSS(`#moves button.best`)
		if d%2 == 1 {
			target = chromedp.CSS(`#board button.tile.best`)
		}
		b.do(chromedp.Click(target))
		b.waitValue(strconv.Itoa(d - 1))
		next := b.eval(`document.querySelector('#state-input').value`)
		if a, err := tab.Lookup(next); err != nil || a.Remoteness != d-1 || !a.Reachable {
			t.Fatalf("%s -> %s: the table says %+v, %v; the page %d", state, next, a, err, d-1)
		}
		if nbrs, _ := tab.Domain().(tables.PuzzleDomain).Neighbors(state); !contains(nbrs, next) {
			t.Fatalf("%s -> %s is not a move", state, next)
		}
		if d == 5 {
			shared = b.eval(`location.href`)
		}
	}
	if note := b.eval(`document.querySelector('#verdict-note').textContent`); note != "the goal" {
		t.Errorf("at the goal the page says %q", note)
	}
	b.screenshot("explorer-eight-goal.png")

	// The position is in the URL: opening the link shows it again.
	if !strings.Contains(shared, "#table=eight&state=") {
		t.Fatalf("the URL %q does not hold the position", shared)
	}
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(shared))
	b.waitValue("4")

	// Towers of Hanoi: click the source peg, then the target peg, of the best move.
	b.do(chromedp.Navigate(ts.URL + "/#table=hanoi&state=01230"))
	b.waitValue("10")
	b.waitFor("the pegs", `document.querySelectorAll('#board svg.hanoi rect.disk').length === 5`)
	best := b.eval(`document.querySelector('#moves button.best').dataset.state`)
	from, to := pegMove("01230", best)
	b.screenshot("explorer-hanoi.png")
	b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board rect.peg-hit[data-peg="%d"]`, from))),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board rect.peg-hit[data-peg="%d"]`, to))))
	b.waitValue("9")
	if got := b.eval(`document.querySelector('#state-input').value`); got != best {
		t.Errorf("after clicking pegs %d and %d the state is %s, want %s", from, to, got, best)
	}
	if e := b.eval(`document.querySelector('#error').hidden ? '' : document.querySelector('#error').textContent`); e != "" {
		t.Errorf("the page shows an error: %s", e)
	}
}

// pegMove returns the pegs a Hanoi move takes a disk from and to.
func pegMove(from, to string) (int, int) {
	for i := range from {
		if from[i] != to[i] {
			return int(from[i] - '0'), int(to[i] - '0')
		}
	}
	return -1, -1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestMillExplorerInBrowser plays Nine Men's Morris on the explorer page in a real
// headless browser: it picks the Mühle set, types a position won in 9 to 15 plies (Black
// to move; its line captures into another sector), and plays the best move until the game
// is over — clicking the board (the stone, its target, the stone to remove when there is a
// choice) and the move list in turn — checking at every ply that the value shown
// alternates win/loss, the plies fall by one and agree with the set, and the chart marks
// the position's bar in its sector's panel.
func TestMillExplorerInBrowser(t *testing.T) {
	racetest.SkipSlow(t, "shares the Mühle set of ≤ 7 stones, slow")
	b := newBrowser(t)
	set := openMill(t)
	_, ts := newServer(t, serve.Options{}, fixtures(t), millFixture(t))
	start := millLongWin(t, set)
	first, _ := set.Lookup(start)

	b.do(chromedp.Navigate(ts.URL + "/"))
	b.do(chromedp.WaitVisible(chromedp.CSS(`nav#tables a[data-name="mill"]`)), chromedp.Click(chromedp.CSS(`nav#tables a[data-name="mill"]`)))
	b.waitFor("the chart's panels", `document.querySelectorAll('#chart g.panel').length === 4`)
	b.waitFor("the default position", `document.body.dataset.shown === '#table=mill' && document.querySelectorAll('#board .mill-point').length === 24`)
	b.eval(`document.querySelector('#state-input').value = ''`)
	b.do(chromedp.SendKeys(chromedp.CSS("#state-input"), start+"\r"))
	b.waitValue(strconv.Itoa(first.Remoteness))
	if n := b.eval(`String(document.querySelectorAll('#board circle.stone').length)`); n != "7" {
		t.Errorf("%s stones on the board, want 7", n)
	}
	if c := b.eval(`document.querySelector('.mill-caption').textContent`); !strings.HasPrefix(c, " Black to move.") {
		t.Errorf("the caption says %q", c)
	}
	b.screenshot("explorer-mill.png")

	// The chart's marked bar: the position's sector, value and plies.
	marked := `(() => { const b = document.querySelector('#chart rect.bar.current'); return b ? b.closest('g.panel').dataset.key + ' ' + b.dataset.value + ' ' + b.dataset.lo : ''; })()`
	state := start
	for d := first.Remoteness; d > 0; d-- {
		value := map[bool]string{true: "win", false: "loss"}[(first.Remoteness-d)%2 == 0]
		if got := b.eval(`document.querySelector('#value-label').textContent`); got != value {
			t.Fatalf("%s at %d plies: the page says %s, want %s", state, d, got, value)
		}
		sector := millSector(state)
		if got, want := b.eval(marked), fmt.Sprintf("%s %s %d", sector, value, d); got != want {
			t.Errorf("%s: the chart marks %q, want %q", state, got, want)
		}
		move := b.eval(`document.querySelector('#moves button.best').dataset.move`)
		wantText := map[string]string{"win": "wins in ", "loss": "loses in "}[value] + strconv.Itoa(d)
		if got := b.eval(`document.querySelector('#moves button.best .val').textContent`); got != wantText {
			t.Errorf("%s: the best move %s says %q, want %q", state, move, got, wantText)
		}
		if d%2 == 1 { // the board: the stone, its target, and the stone to remove if there is a choice
			from, rest, _ := strings.Cut(move, "-")
			to, remove, capture := strings.Cut(rest, "x")
			b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board .mill-hit[data-point="%s"]`, from))))
			b.waitFor("the stone selected", fmt.Sprintf(`!!document.querySelector('#board circle.stone.selected[data-point="%s"]')`, from))
			if d == first.Remoteness {
				b.screenshot("explorer-mill-selected.png")
			}
			b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board .mill-hit[data-point="%s"]`, to))))
			choices := b.eval(fmt.Sprintf(`String([...document.querySelectorAll('#moves button')].filter((x) => x.dataset.move.startsWith('%s-%sx')).length)`, from, to))
			if capture && choices != "1" {
				b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board .mill-hit[data-point="%s"]`, remove))))
			}
		} else {
			if d == first.Remoteness-1 {
				b.screenshot("explorer-mill-loss.png")
			}
			b.do(chromedp.Click(chromedp.CSS(`#moves button.best`)))
		}
		b.waitValue(strconv.Itoa(d - 1))
		next := b.eval(`document.querySelector('#state-input').value`)
		_, moves, err := set.Moves(state)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(moves, func(m tables.MoveAnswer) bool { return m.Move == move })
		if i < 0 || moves[i].Remoteness != d-1 || moves[i].Outcome.String() == value || moves[i].State != "" && moves[i].State != next {
			t.Fatalf("%s: %s led to %s, the set says %+v", state, move, next, moves)
		}
		state = next
	}
	if got := b.eval(`document.querySelector('#value-label').textContent + ' ' + document.querySelector('#verdict-note').textContent`); !strings.HasPrefix(got, "loss game over") {
		t.Errorf("at the end the page says %q", got)
	}
	if n := b.eval(`String(document.querySelectorAll('#moves li').length)`); n != "0" {
		t.Errorf("%s moves after the end", n)
	}
	b.screenshot("explorer-mill-over.png")
	if e := b.eval(`document.querySelector('#error').hidden ? '' : document.querySelector('#error').textContent`); e != "" {
		t.Errorf("the page shows an error: %s", e)
	}

	// The position is in the URL: the start's link shows it again.
	b.do(chromedp.Navigate(ts.URL + "/#table=mill&state=" + url.QueryEscape(start)))
	b.waitValue(strconv.Itoa(first.Remoteness))
}

// millSector is a position's sector: the stones of the side to move, then the opponent's.
func millSector(state string) string {
	board, side, _ := strings.Cut(state, " ")
	other := map[string]string{"W": "B", "B": "W"}[side]
	return fmt.Sprintf("%d-%d", strings.Count(board, side), strings.Count(board, other))
}

// BenchmarkExplorerLoad is the page's load time in a real browser: from navigating to a
// deep link (an 8-puzzle position) until its value, board, moves and chart are drawn.
// `make bench-serve` runs it. cold-ms is the first load of a fresh browser profile (no
// cache, scripts not yet compiled), measured once before the loop; ms/load is the mean of
// the loads after it and max-ms the slowest of them.
func BenchmarkExplorerLoad(b *testing.B) {
	br := newBrowser(b)
	_, ts := newServer(b, serve.Options{}, filepath.Join(fixtures(b), "eight.tsm"))
	link := ts.URL + "/#table=eight&state=867254301"
	drawn := `document.querySelector('#value')?.textContent === '31' &&
		document.querySelectorAll('#board button.tile').length > 0 &&
		document.querySelectorAll('#moves button').length > 0 &&
		document.querySelector('#chart rect.bar.current')?.dataset.lo === '31'`
	load := func() time.Duration {
		br.do(chromedp.Navigate("about:blank"))
		t0 := time.Now()
		br.do(chromedp.Navigate(link))
		br.waitFor("the position drawn", drawn)
		return time.Since(t0)
	}
	cold := load()
	var total, slowest time.Duration
	n := 0
	for b.Loop() {
		d := load()
		total += d
		slowest = max(slowest, d)
		n++
	}
	b.ReportMetric(float64(cold.Microseconds())/1000, "cold-ms")
	b.ReportMetric(float64(total.Microseconds())/1000/float64(n), "ms/load")
	b.ReportMetric(float64(slowest.Microseconds())/1000, "max-ms")
	b.ReportMetric(0, "ns/op")
}
