package serve_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/serve"
	"github.com/tablesmith/tablesmith/tables"
)

// morrisBoards are the boards of the Morris family beside Nine's (which the Mühle tests
// play), each with a whole game of a set built from its empty board: Three Men's Morris
// whole, and the 3-stone games of Five's board (Five and Six Men's Morris), Seven's,
// Twelve's (Eleven's too, with the diagonals) and Lasker Morris's merged phases on Six's. userMoves are the moves the browser test
// plays through the page, the computer answering each.
var morrisBoards = []struct {
	name      string
	rules     *mill.Rules
	stones    int
	userMoves int
}{
	{"three", mill.Three, 3, 5}, // best play from both sides: White's fifth move closes a mill and wins
	{"five", mill.Five, 3, 3},
	{"seven", mill.Seven, 3, 3},
	{"twelve", mill.Twelve, 3, 3},
	{"lasker-six", mill.LaskerSix, 3, 4}, // merged phases: from White's second turn it may place or move
}

var (
	morrisOnce sync.Once
	morrisDir  string
	morrisErr  error
)

// morrisSets returns a directory holding a set per entry of morrisBoards, named as the
// entry, built once per test binary (0.2 to 0.6 s each).
func morrisSets(t testing.TB) string {
	t.Helper()
	morrisOnce.Do(func() {
		if morrisDir, morrisErr = os.MkdirTemp("", "tablesmith-serve-morris-*"); morrisErr != nil {
			return
		}
		for _, c := range morrisBoards {
			if morrisErr = buildMorris(c.rules, c.stones, filepath.Join(morrisDir, c.name)); morrisErr != nil {
				return
			}
		}
	})
	if morrisErr != nil {
		t.Fatal(morrisErr)
	}
	return morrisDir
}

// TestMorrisBoardsInAPI checks the board every Morris table's entry carries: the board of
// the rules the set was built under (a member's file alone: the rules its parameters
// name), points, lines and mills numbered as the notation numbers them.
func TestMorrisBoardsInAPI(t *testing.T) {
	racetest.SkipSlow(t, "builds Morris sets, 12 s")
	dir := morrisSets(t)
	_, ts := newServer(t, serve.Options{}, dir, filepath.Join(dir, "seven", "sector-3-3.tsm"))
	_, body := getOK(t, ts.URL+"/api/v1/tables")
	var list struct {
		Tables []struct {
			Name  string       `json:"name"`
			Set   bool         `json:"set"`
			Board *games.Board `json:"board"`
		} `json:"tables"`
	}
	if err := json.Unmarshal([]byte(body), &list); err != nil {
		t.Fatal(err)
	}
	want := map[string]*mill.Rules{"sector-3-3": mill.Seven}
	for _, c := range morrisBoards {
		want[c.name] = c.rules
	}
	if len(list.Tables) != len(want) {
		t.Fatalf("%d tables served, want %d", len(list.Tables), len(want))
	}
	for _, e := range list.Tables {
		r := want[e.Name]
		if r == nil || e.Board == nil {
			t.Fatalf("%s: board %+v, want the board of %v", e.Name, e.Board, r)
		}
		b := *e.Board
		if b.Rules != r.Name || b.Title != r.Title || b.Name != r.Board.Name || b.Points != r.Board.Points || b.Stones != r.Stones ||
			b.MillWins != r.MillWins || b.FullBoardDraw != r.FullBoardDraw || b.Flying != (r.Flying != mill.FlyNever) ||
			b.FlyingInTotal != (r.Flying == mill.FlyAtThreeInTotal) || b.Merged != r.Merged {
			t.Errorf("%s: board %+v, the rules %s", e.Name, b, r.Name)
		}
		if len(b.Lines) != len(r.Board.Lines) || len(b.Mills) != len(r.Board.Mills) {
			t.Fatalf("%s: %d lines and %d mills, the board has %d and %d", e.Name, len(b.Lines), len(b.Mills), len(r.Board.Lines), len(r.Board.Mills))
		}
		for i, l := range r.Board.Lines {
			if b.Lines[i] != [2]int{l[0] + 1, l[1] + 1} {
				t.Errorf("%s: line %d is %v, the board's %v (0-based)", e.Name, i, b.Lines[i], l)
			}
		}
		for i, m := range r.Board.Mills {
			if b.Mills[i] != [3]int{m[0] + 1, m[1] + 1, m[2] + 1} {
				t.Errorf("%s: mill %d is %v, the board's %v (0-based)", e.Name, i, b.Mills[i], m)
			}
		}
	}
	// Nine's board, for the Mühle set of the other tests; no board for a puzzle.
	_, body = getOK(t, newServerURL(t, mill3Fixture(t))+"/api/v1/tables/m3")
	var nine struct{ Board games.Board }
	if err := json.Unmarshal([]byte(body), &nine); err != nil {
		t.Fatal(err)
	}
	if b := nine.Board; b.Rules != "nine" || b.Points != 24 || len(b.Lines) != 32 || len(b.Mills) != 16 || !b.Flying || b.MillWins {
		t.Errorf("Nine Men's Morris's board: %+v", b)
	}
	if _, body := getOK(t, newServerURL(t, filepath.Join(fixtures(t), "eight.tsm"))+"/api/v1/tables/eight"); strings.Contains(body, `"board"`) {
		t.Errorf("the 8-puzzle's entry has a board: %s", body)
	}
}

func getOK(t *testing.T, url string) (string, string) {
	t.Helper()
	code, ctype, body := get(t, url)
	if code != 200 {
		t.Fatalf("GET %s: %d %s", url, code, body)
	}
	return ctype, body
}

func newServerURL(t *testing.T, paths ...string) string {
	t.Helper()
	_, ts := newServer(t, serve.Options{}, paths...)
	return ts.URL
}

// TestMorrisBoardsInBrowser plays every board of the Morris family but Nine's (which
// TestMillGameInBrowser plays) on the explorer page in a real headless browser. For each:
// the page opens on the empty board of the set's game; it draws the board's points and
// exactly its lines, each between the right points, the points laid out as the notation
// numbers them (nested squares clockwise from the top-left corner, a centre last); it
// shows the value of every legal move, on the board and in the list, as the set has it;
// then a game is played from the empty board by clicking — the player's moves the set's
// best, the computer answering each — checking the headline value and the strip of values
// after every ply against the set. On Three Men's Morris the game goes to its end: White's
// fifth move closes a mill, and the page says White has won.
func TestMorrisBoardsInBrowser(t *testing.T) {
	racetest.SkipSlow(t, "builds Morris sets")
	b := newBrowser(t)
	dir := morrisSets(t)
	_, ts := newServer(t, serve.Options{}, dir)
	for _, c := range morrisBoards {
		set, err := tables.OpenSet(filepath.Join(dir, c.name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { set.Close() })
		p := &millPage{browser: b, t: t, set: set, points: c.rules.Board.Points}
		start := strings.Repeat(".", p.points) + fmt.Sprintf(" W W:%d B:%d", c.stones, c.stones)

		b.do(chromedp.Navigate(ts.URL + "/#table=" + c.name))
		p.waitState(start) // the default position: the empty board of the set's game
		p.checkBoard(c.rules.Board)
		if got, want := b.eval(`document.querySelector('#meta').textContent`), c.rules.Title+" ("+c.name+")"; !strings.Contains(got, want) {
			t.Errorf("%s: the table's metadata %q does not name %q", c.name, got, want)
		}
		p.checkValues(start)
		b.screenshot("explorer-morris-" + c.name + ".png")

		b.do(chromedp.Click(chromedp.CSS("#auto"))) // the computer answers
		strip := []string{"start:" + p.valueText(start)}
		state := start
		for i := range c.userMoves {
			_, ms := p.moves(state)
			mine := ms[0] // the set's best
			p.clickMove(state, mine.Move)
			if mine.State == "" { // the move ends the game
				if i != c.userMoves-1 {
					t.Fatalf("%s: %s ends the game at the player's move %d", state, mine.Move, i+1)
				}
				state = p.afterEnd(state, mine.Move)
				p.waitState(state)
				strip = append(strip, mine.Move+":loss 0*")
				break
			}
			p.waitState(mine.State)
			_, answers := p.moves(mine.State)
			if answers[0].State == "" {
				t.Fatalf("%s: the computer's answer %s ends the game", mine.State, answers[0].Move)
			}
			state = answers[0].State
			p.waitState(state)
			p.checkValues(state)
			strip = append(strip, mine.Move+":"+p.valueText(mine.State), answers[0].Move+":"+p.valueText(state)+"@")
			if got, want := p.strip(), strings.Join(strip, " ")+"*"; got != strings.Replace(want, "@*", "*@", 1) {
				t.Errorf("%s: after %d plies the strip says %q, want %q", c.name, len(strip)-1, got, want)
			}
		}
		b.do(chromedp.Click(chromedp.CSS("#auto")))
		if c.rules.MillWins {
			if got, want := p.strip(), strings.Join(strip, " "); got != want {
				t.Errorf("%s: at the end the strip says %q, want %q", c.name, got, want)
			}
			note := b.eval(`document.querySelector('#value-label').textContent + ' ' + document.querySelector('#verdict-note').textContent`)
			if !strings.HasPrefix(note, "loss game over: White closed the mill ") || !strings.HasSuffix(note, ": White wins") {
				t.Errorf("%s: at the end the page says %q", c.name, note)
			}
			if n := b.eval(`String(document.querySelectorAll('#board circle.stone.white.in-mill').length)`); n != "3" {
				t.Errorf("%s: %s white stones marked in a mill at the end, want 3", c.name, n)
			}
			if d := b.eval(`String(document.querySelector('#computer-move').disabled)`); d != "true" {
				t.Errorf("%s: the computer may move after the end", c.name)
			}
		}
		b.screenshot("explorer-morris-" + c.name + "-played.png")
		if e := b.eval(`document.querySelector('#error').hidden ? '' : document.querySelector('#error').textContent`); e != "" {
			t.Errorf("%s: the page shows an error: %s", c.name, e)
		}
	}
}

// checkBoard checks the board drawn: board's points and exactly its lines, each line
// from point to point, and the points where the notation puts them — ring s (points
// 8s+1..8s+8) a square inside ring s−1 about one centre, its corners clockwise from the
// top left (8s+1, 8s+3, 8s+5, 8s+7) and its midpoints halfway between them, a centre
// point (the last, on a board of 8k+1) at the centre.
func (p *millPage) checkBoard(board *mill.Board) {
	p.t.Helper()
	t := p.t
	var pts []struct{ P, X, Y float64 }
	if err := json.Unmarshal([]byte(p.eval(`JSON.stringify([...document.querySelectorAll('#board circle.mill-point')].map((c) =>
		({P: Number(c.dataset.point), X: Number(c.getAttribute('cx')), Y: Number(c.getAttribute('cy'))})))`)), &pts); err != nil {
		t.Fatal(err)
	}
	if len(pts) != board.Points {
		t.Fatalf("%s: %d points drawn, want %d", board.Name, len(pts), board.Points)
	}
	at := map[int][2]float64{}
	for i, q := range pts {
		if int(q.P) != i+1 {
			t.Fatalf("%s: the points drawn are %v, want 1..%d", board.Name, pts, board.Points)
		}
		at[i+1] = [2]float64{q.X, q.Y}
	}
	rings := board.Points / 8
	var lo, hi, mid float64
	for s := range rings {
		c := func(j int) [2]float64 { return at[8*s+j%8+1] }
		l, h := c(0)[0], c(4)[0]
		if s == 0 {
			mid = (l + h) / 2
		}
		if s > 0 && !(l > lo && h < hi) || h <= l || (l+h)/2 != mid {
			t.Errorf("%s: ring %d spans %v..%v, not inside the ring before (%v..%v) about %v", board.Name, s+1, l, h, lo, hi, mid)
		}
		lo, hi = l, h
		for j, want := range [][2]float64{{l, l}, {h, l}, {h, h}, {l, h}} {
			if c(2*j) != want {
				t.Errorf("%s: corner %d of ring %d (point %d) at %v, want %v", board.Name, j+1, s+1, 8*s+2*j+1, c(2*j), want)
			}
			if m := c(2*j + 1); m != [2]float64{(c(2 * j)[0] + c(2*j + 2)[0]) / 2, (c(2 * j)[1] + c(2*j + 2)[1]) / 2} {
				t.Errorf("%s: midpoint %d of ring %d (point %d) at %v, not halfway", board.Name, j+1, s+1, 8*s+2*j+2, m)
			}
		}
	}
	if board.Points%8 == 1 && at[board.Points] != [2]float64{mid, mid} {
		t.Errorf("%s: the centre (point %d) at %v, want (%v, %v)", board.Name, board.Points, at[board.Points], mid, mid)
	}
	// The lines: the board's, each drawn from one of its points to the other.
	var lines []struct {
		Line           string
		X1, Y1, X2, Y2 float64
	}
	if err := json.Unmarshal([]byte(p.eval(`JSON.stringify([...document.querySelectorAll('#board line.mill-line')].map((l) =>
		({Line: l.dataset.line, X1: Number(l.getAttribute('x1')), Y1: Number(l.getAttribute('y1')), X2: Number(l.getAttribute('x2')), Y2: Number(l.getAttribute('y2'))})))`)), &lines); err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, l := range board.Lines {
		want = append(want, fmt.Sprintf("%d-%d", l[0]+1, l[1]+1))
	}
	for _, l := range lines {
		got = append(got, l.Line)
		a, b, _ := strings.Cut(l.Line, "-")
		if at[atoi(t, a)] != [2]float64{l.X1, l.Y1} || at[atoi(t, b)] != [2]float64{l.X2, l.Y2} {
			t.Errorf("%s: line %s drawn from (%v, %v) to (%v, %v), its points at %v and %v", board.Name, l.Line, l.X1, l.Y1, l.X2, l.Y2, at[atoi(t, a)], at[atoi(t, b)])
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("%s: lines drawn %v, the board's %v", board.Name, got, want)
	}
}

// checkValues checks the values the page shows at state against the set: the headline,
// every legal move in the list, and in the placement phase the ring of every placement
// on the board.
func (p *millPage) checkValues(state string) {
	p.t.Helper()
	t := p.t
	a, ms := p.moves(state)
	headline := p.eval(`document.querySelector('#value-label').textContent + ' ' + document.querySelector('#value').textContent`)
	if want := a.Outcome.String() + " " + map[bool]string{true: "", false: strconv.Itoa(a.Remoteness)}[a.Outcome.String() == "draw"]; headline != want {
		t.Errorf("%s: the page says %q, the set %q", state, headline, want)
	}
	got := p.eval(`JSON.stringify(Object.fromEntries([...document.querySelectorAll('#moves button')].map((b) => [b.dataset.move, b.querySelector('.val').textContent])))`)
	var list map[string]string
	if err := json.Unmarshal([]byte(got), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != len(ms) {
		t.Errorf("%s: %d moves listed, the set has %d", state, len(list), len(ms))
	}
	rings := 0
	for _, m := range ms {
		want := map[string]string{"loss": "wins in ", "win": "loses in ", "draw": "draw"}[m.Outcome.String()]
		if m.Outcome.String() != "draw" {
			want += strconv.Itoa(m.Remoteness + 1)
		}
		if list[m.Move] != want {
			t.Errorf("%s: move %s listed as %q, the set says %q", state, m.Move, list[m.Move], want)
		}
		if strings.ContainsAny(m.Move, "-x") {
			continue
		}
		rings++
		title := p.eval(fmt.Sprintf(`document.querySelector('#board circle.place[data-move="%s"] title')?.textContent ?? 'none'`, m.Move))
		if title != m.Move+": "+want {
			t.Errorf("%s: the board's ring on %s says %q, the set %q", state, m.Move, title, want)
		}
	}
	if n := p.eval(`String(document.querySelectorAll('#board circle.place').length)`); n != strconv.Itoa(rings) {
		t.Errorf("%s: %s placements drawn on the board, the set has %d", state, n, rings)
	}
}

// afterEnd is the position the page shows after a move that ends the game (one the set
// gives no position): the move played on the board, the other side to move.
func (p *millPage) afterEnd(state, move string) string {
	p.t.Helper()
	f := strings.Fields(state)
	board, side := []byte(f[0]), f[1]
	from, to, remove := splitMove(move)
	if from != "" {
		board[atoi(p.t, from)-1] = '.'
	} else {
		hand := map[string]int{"W": 2, "B": 3}[side]
		n := atoi(p.t, strings.TrimPrefix(f[hand], side+":"))
		f[hand] = fmt.Sprintf("%s:%d", side, n-1)
	}
	board[atoi(p.t, to)-1] = side[0]
	if remove != "" {
		board[atoi(p.t, remove)-1] = '.'
	}
	f[0], f[1] = string(board), map[string]string{"W": "B", "B": "W"}[side]
	if len(f) == 4 && f[2] == "W:0" && f[3] == "B:0" {
		f = f[:2]
	}
	return strings.Join(f, " ")
}
