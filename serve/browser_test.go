package serve_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

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
func artefacts(t *testing.T) string {
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
	t   *testing.T
	ctx context.Context
	dir string // screenshots
}

func newBrowser(t *testing.T) *browser {
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
