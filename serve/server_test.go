package serve_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tablesmith/tablesmith/serve"
	"github.com/tablesmith/tablesmith/tables"
)

func TestList(t *testing.T) {
	t.Parallel()
	_, ts := newServer(t, serve.Options{})
	code, ctype, body := get(t, ts.URL+"/api/v1/tables")
	if code != 200 || !strings.HasPrefix(ctype, "application/json") {
		t.Fatalf("%d %s: %s", code, ctype, body)
	}
	var list struct {
		Tables []struct {
			Name, Kind, Game string
			Params           map[string]any
			Set              bool
			Info             map[string]any
		}
	}
	if err := json.Unmarshal([]byte(body), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list.Tables {
		names = append(names, e.Name)
	}
	if want := []string{"eight", "hanoi", "hanoi3", "pdb8"}; !slices.Equal(names, want) {
		t.Fatalf("names %v, want %v", names, want)
	}
	for _, e := range list.Tables {
		switch e.Name {
		case "eight":
			if e.Kind != "puzzle" || e.Game != "slide" || e.Set || e.Info["states"] != 181440.0 || e.Info["file"] != "eight.tsm" {
				t.Errorf("eight: %+v", e)
			}
			if counts, _ := e.Info["counts"].([]any); len(counts) != 32 {
				t.Errorf("eight: %d counts, want 32", len(counts))
			}
			if _, ok := e.Info["win_counts"]; ok {
				t.Errorf("eight: a puzzle with win counts: %v", e.Info)
			}
		case "hanoi":
			if e.Game != "hanoi" || e.Params["pegs"] != 4.0 || e.Params["disks"] != 5.0 {
				t.Errorf("hanoi: %+v", e)
			}
		case "pdb8":
			members, _ := e.Info["members"].([]any)
			if e.Kind != "pdb" || e.Game != "slide-pdb" || !e.Set || len(members) != 2 || e.Params["rows"] != 3.0 || e.Params["tiles"] != nil {
				t.Errorf("pdb8: %+v", e)
			}
		}
	}
	// No answer names a path of the server's file system.
	if strings.Contains(body, fixtures(t)) || strings.Contains(body, string(filepath.Separator)+"served") {
		t.Errorf("the list shows server paths: %s", body)
	}
	code, _, body = get(t, ts.URL+"/api/v1/tables/hanoi3")
	if m := decode(t, body); code != 200 || m["name"] != "hanoi3" || m["game"] != "hanoi" {
		t.Errorf("one table: %d %s", code, body)
	}
}

// probeURL is the GET probe of state in table name.
func probeURL(ts string, name, state string, extra ...string) string {
	u := ts + "/api/v1/tables/" + name + "/probe?state=" + url.QueryEscape(state)
	for _, e := range extra {
		u += "&" + e
	}
	return u
}

// direct looks state up in the table file, for comparison.
func direct(t *testing.T, file, state string) tables.Answer {
	t.Helper()
	src, err := serve.OpenSource(filepath.Join(fixtures(t), file))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	a, err := src.Lookup(state)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestProbe(t *testing.T) {
	t.Parallel()
	_, ts := newServer(t, serve.Options{})
	cases := []struct {
		name, table, file, state string
		extra                    []string
		code                     int
		want                     string // JSON fields that must match, as an object
		moves                    int    // -1: none expected
	}{
		{"goal", "eight", "eight.tsm", "123456780", nil, 200, `{"state":"123456780","remoteness":0}`, 2},
		{"spaced", "eight", "eight.tsm", " 1 2 3 / 4 5 6 / 7 0 8 ", nil, 200, `{"state":"123456708","remoteness":1}`, 3},
		{"farthest", "eight", "eight.tsm", "867254301", nil, 200, `{"state":"867254301","remoteness":31}`, 3},
		{"unreachable", "eight", "eight.tsm", "213456780", nil, 200, `{"state":"213456780","reachable":false}`, 2},
		{"no moves", "eight", "eight.tsm", "867254301", []string{"moves=0"}, 200, `{"state":"867254301","remoteness":31}`, -1},
		{"hanoi", "hanoi", "hanoi.tsm", "01230", nil, 200, `{"state":"01230","remoteness":10}`, 6},
		{"hanoi relabelled", "hanoi", "hanoi.tsm", "10230", nil, 200, `{"state":"10230","remoteness":10}`, 6},
		{"pdb set", "pdb8", "pdb8", "867254301", nil, 200, `{"state":"867254301","bound":29}`, 3},
		{"bad state", "eight", "eight.tsm", "12345678", nil, 400, `{"state":"12345678"}`, -1},
		{"repeated tile", "eight", "eight.tsm", "113456780", nil, 400, `{"state":"113456780"}`, -1},
		{"hanoi bad peg", "hanoi", "hanoi.tsm", "01239", nil, 400, `{"state":"01239"}`, -1},
		{"empty state", "eight", "eight.tsm", "", nil, 400, `{"state":""}`, -1},
		{"overlong state", "eight", "eight.tsm", strings.Repeat("1", serve.MaxStateLine+1), nil, 400, `{}`, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, ctype, body := get(t, probeURL(ts.URL, c.table, c.state, c.extra...))
			if code != c.code || !strings.HasPrefix(ctype, "application/json") {
				t.Fatalf("%d %s, want %d: %s", code, ctype, c.code, body)
			}
			got := decode(t, body)
			for k, v := range decode(t, c.want) {
				if fmt.Sprint(got[k]) != fmt.Sprint(v) {
					t.Errorf("%s = %v, want %v: %s", k, got[k], v, body)
				}
			}
			if c.code != 200 {
				if e, _ := got["error"].(string); e == "" {
					t.Errorf("no error: %s", body)
				}
				return
			}
			moves, _ := got["moves"].([]any)
			if c.moves < 0 {
				if got["moves"] != nil {
					t.Errorf("moves given: %s", body)
				}
				return
			}
			if len(moves) != c.moves {
				t.Fatalf("%d moves, want %d: %s", len(moves), c.moves, body)
			}
			// Every move is a state one move away, answered as the table answers it,
			// best first.
			prev := -1
			for _, mv := range moves {
				m := mv.(map[string]any)
				a := direct(t, c.file, m["state"].(string))
				v, ok := m["remoteness"].(float64)
				if b, isBound := m["bound"].(float64); isBound {
					v, ok = b, true
				}
				switch {
				case !ok && m["reachable"] != false:
					t.Errorf("move %v has no value", m)
				case !ok:
					if a.Reachable {
						t.Errorf("move %v: the table says %+v", m, a)
					}
					prev = 1 << 30
				case int(v) != a.Remoteness:
					t.Errorf("move %v: the table says %+v", m, a)
				case int(v) < prev:
					t.Errorf("moves not best first: %s", body)
				default:
					prev = int(v)
				}
			}
		})
	}
}

func TestProbePath(t *testing.T) {
	t.Parallel()
	_, ts := newServer(t, serve.Options{})
	code, _, body := get(t, probeURL(ts.URL, "eight", "867254301", "path=1"))
	m := decode(t, body)
	path, _ := m["path"].([]any)
	if code != 200 || len(path) != 32 || path[0] != "867254301" || path[31] != "123456780" {
		t.Fatalf("%d: %s", code, body)
	}
	// A server with a path limit refuses longer paths, and answers shorter ones.
	_, small := newServer(t, serve.Options{MaxPath: 10})
	if code, _, body := get(t, probeURL(small.URL, "eight", "867254301", "path=1")); code != 400 || !strings.Contains(body, "limit of 10") {
		t.Errorf("over the limit: %d %s", code, body)
	}
	if code, _, body := get(t, probeURL(small.URL, "eight", "123456708", "path=true")); code != 200 || !strings.Contains(body, `"path":["123456708","123456780"]`) {
		t.Errorf("under the limit: %d %s", code, body)
	}
	for _, bad := range []string{"path=yes", "moves=2", "path="} {
		if code, _, body := get(t, probeURL(ts.URL, "eight", "123456708", bad)); code != 400 || decode(t, body)["error"] == nil {
			t.Errorf("%s: %d %s", bad, code, body)
		}
	}
	if code, _, body := get(t, ts.URL+"/api/v1/tables/eight/probe"); code != 400 || !strings.Contains(body, "missing parameter state") {
		t.Errorf("no state: %d %s", code, body)
	}
	if code, _, body := get(t, probeURL(ts.URL, "nosuch", "123456780")); code != 404 || !strings.Contains(body, `"error"`) {
		t.Errorf("unknown table: %d %s", code, body)
	}
}

// ndjson splits a body into JSON objects, one per line.
func ndjson(t *testing.T, body string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		out = append(out, decode(t, l))
	}
	return out
}

func TestProbeStream(t *testing.T) {
	t.Parallel()
	_, ts := newServer(t, serve.Options{})
	in := "123456780\n\n  867254301  \r\nnot-a-state\n" + strings.Repeat("7", serve.MaxStateLine+10) + "\n213456780"
	code, ctype, body := do(t, "POST", ts.URL+"/api/v1/tables/eight/probe?moves=0", strings.NewReader(in))
	if code != 200 || ctype != "application/x-ndjson" {
		t.Fatalf("%d %s: %s", code, ctype, body)
	}
	want := []string{
		`{"state":"123456780","remoteness":0}`,
		`{"state":"867254301","remoteness":31}`,
		``, // an error
		``, // a line too long
		`{"state":"213456780","reachable":false}`,
	}
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), body)
	}
	for i, w := range want {
		if w != "" && lines[i] != w {
			t.Errorf("line %d: %s, want %s", i+1, lines[i], w)
		}
	}
	got := ndjson(t, body)
	if got[2]["state"] != "not-a-state" || !strings.Contains(got[2]["error"].(string), "invalid state") {
		t.Errorf("bad line: %v", got[2])
	}
	if !strings.HasPrefix(got[3]["state"].(string), "7777") || got[3]["error"] != serve.ErrLineTooLong.Error() {
		t.Errorf("long line: %v", got[3])
	}
	// With moves (the default) every line has them.
	_, _, body = do(t, "POST", ts.URL+"/api/v1/tables/hanoi/probe", strings.NewReader("01230\n00000\n"))
	for _, m := range ndjson(t, body) {
		if moves, _ := m["moves"].([]any); len(moves) == 0 {
			t.Errorf("no moves: %v", m)
		}
	}
}

func TestProbeStreamTooLarge(t *testing.T) {
	t.Parallel()
	_, ts := newServer(t, serve.Options{MaxBodyBytes: 1000})
	big := strings.Repeat("123456780\n", 200) // 2000 bytes
	// A declared length over the cap: 413 before anything is read.
	code, _, body := do(t, "POST", ts.URL+"/api/v1/tables/eight/probe", strings.NewReader(big))
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(decode(t, body)["error"].(string), "larger than 1000 bytes") {
		t.Fatalf("declared: %d %s", code, body)
	}
	// A chunked body over the cap: the lines within it are answered, the last line says
	// the rest was refused.
	pr, pw := io.Pipe()
	go func() { pw.Write([]byte(big)); pw.Close() }()
	code, _, body = do(t, "POST", ts.URL+"/api/v1/tables/eight/probe?moves=0", pr)
	lines := ndjson(t, body)
	last := lines[len(lines)-1]
	if code != 200 || len(lines) < 50 || len(lines) > 101 || !strings.Contains(fmt.Sprint(last["error"]), "larger than 1000 bytes") {
		t.Fatalf("chunked: %d, %d lines, last %v", code, len(lines), last)
	}
	for _, l := range lines[:len(lines)-1] {
		if l["remoteness"] != 0.0 {
			t.Fatalf("line %v", l)
		}
	}
}

// TestProbeStreamCutLine: a chunked body over the cap that ends in the middle of a line
// answers every whole line, then the error, never the cut line: here the cap leaves
// "123456780" of "1234567800", a valid state that was not sent (issue 27).
func TestProbeStreamCutLine(t *testing.T) {
	t.Parallel()
	const line, whole = "1234567800\n", 50
	_, ts := newServer(t, serve.Options{MaxBodyBytes: int64(whole*len(line) + 9)})
	pr, pw := io.Pipe()
	go func() { pw.Write([]byte(strings.Repeat(line, 200))); pw.Close() }()
	code, _, body := do(t, "POST", ts.URL+"/api/v1/tables/eight/probe?moves=0", pr)
	lines := ndjson(t, body)
	if code != 200 || len(lines) != whole+1 {
		t.Fatalf("%d, %d lines, want %d answers and the error:\n%s", code, len(lines), whole, body)
	}
	for _, l := range lines[:whole] {
		if l["state"] != "1234567800" || l["error"] == nil || l["remoteness"] != nil {
			t.Fatalf("a whole line answered %v", l)
		}
	}
	if last := lines[whole]; last["state"] != nil || !strings.Contains(fmt.Sprint(last["error"]), "larger than") {
		t.Fatalf("the last line is %v, want the body's error", last)
	}
}

// TestProbeStreamIsIncremental sends one state at a time and reads its answer before
// sending the next: the server answers as the body arrives.
func TestProbeStreamIsIncremental(t *testing.T) {
	t.Parallel()
	_, ts := newServer(t, serve.Options{})
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", ts.URL+"/api/v1/tables/eight/probe?moves=0", pr)
	resc := make(chan *http.Response, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			pw.CloseWithError(err)
		}
		resc <- res
	}()
	pw.Write([]byte("123456780\n"))
	res := <-resc
	if res == nil {
		t.FailNow()
	}
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	for _, s := range []string{"123456708", "867254301"} {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("answer: %s", strings.TrimSpace(line))
		pw.Write([]byte(s + "\n"))
	}
	pw.Close()
	rest, _ := io.ReadAll(r)
	if !strings.Contains(string(rest), `"remoteness":31`) {
		t.Errorf("last answer: %q", rest)
	}
}

func TestRoutes(t *testing.T) {
	t.Parallel()
	_, ts := newServer(t, serve.Options{})
	cases := []struct {
		method, path string
		code         int
		allow        string
	}{
		{"GET", "/api/v1/nothing", 404, ""},
		{"GET", "/api/v2/tables", 404, ""},
		{"GET", "/api/v1/tables/eight/probe/more", 404, ""},
		{"GET", "/api/v1/tables/eight/nothing", 404, ""},
		{"GET", "/nothing.html", 404, ""},
		{"GET", "/static.go", 404, ""},
		{"DELETE", "/api/v1/tables/eight/probe", 405, "HEAD, GET, POST"},
		{"PUT", "/api/v1/tables", 405, "HEAD, GET"},
		{"POST", "/api/v1/tables/eight", 405, "HEAD, GET"},
		{"POST", "/api/v1/tables/eight/chart.svg", 405, "HEAD, GET"},
		{"POST", "/", 405, "HEAD, GET"},
		{"DELETE", "/app.js", 405, "HEAD, GET"},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, ts.URL+c.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.code || res.Header.Get("Allow") != c.allow || decode(t, string(b))["error"] == nil {
			t.Errorf("%s %s: %d Allow %q: %s; want %d Allow %q", c.method, c.path, res.StatusCode, res.Header.Get("Allow"), b, c.code, c.allow)
		}
	}
	// The page and its files.
	for path, ctype := range map[string]string{"/": "text/html", "/app.js": "text/javascript", "/style.css": "text/css"} {
		code, ct, body := get(t, ts.URL+path)
		if code != 200 || !strings.HasPrefix(ct, ctype) || len(body) < 100 {
			t.Errorf("%s: %d %s", path, code, ct)
		}
	}
}

// rawGet sends target as the request line verbatim (no client-side cleaning or
// escaping) and returns the status and body.
func rawGet(t *testing.T, addr, target string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n", target)
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%s: %v", target, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestPathTraversal: no request reaches a file that was not named at startup. The
// tables are served from a copy of the fixtures which is deleted once the server has
// opened it: every answer comes from the open tables, and a request that tried to open a
// file by a path would find nothing to read.
func TestPathTraversal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"eight.tsm", "hanoi.tsm"} {
		b, err := os.ReadFile(filepath.Join(fixtures(t), f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, ts := newServer(t, serve.Options{}, filepath.Join(dir, "eight.tsm"), filepath.Join(dir, "hanoi.tsm"))
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if code, body := rawGet(t, ts.Listener.Addr().String(), "/api/v1/tables/eight/probe?state=867254301&moves=0"); code != 200 || !strings.Contains(body, `"remoteness":31`) {
		t.Fatalf("served table after its file was removed: %d %s", code, body)
	}
	secret := filepath.Join(filepath.Dir(fixtures(t)), "hidden", "secret.tsm")
	targets := []string{
		"/api/v1/tables/..%2f..%2fetc%2fpasswd/probe?state=123456780",
		"/api/v1/tables/..%2F..%2Fhidden%2Fsecret/probe?state=123456780",
		"/api/v1/tables/%2e%2e/probe?state=123456780",
		"/api/v1/tables/%2e%2e%2fhidden%2fsecret/probe?state=123456780",
		"/api/v1/tables/../../etc/passwd",
		"/api/v1/tables/./eight/probe?state=123456780",
		"/api/v1/tables//etc/passwd/probe?state=123456780",
		"/api/v1/tables/%2Fetc%2Fpasswd/probe?state=123456780",
		"/api/v1/tables/" + url.PathEscape(secret) + "/probe?state=123456780",
		"/api/v1/tables/" + url.PathEscape(strings.TrimSuffix(secret, ".tsm")) + "/probe?state=123456780",
		"/api/v1/tables/secret/probe?state=123456780",
		"/api/v1/tables/eight.tsm/probe?state=123456780",
		"/api/v1/tables/eight%00/probe?state=123456780",
		"/api/v1/tables/C:%5cWindows%5cwin.ini/probe?state=1",
		"/api/v1/tables/%5c..%5c..%5chidden/probe?state=1",
		"/api/v1/tables/secret/chart.svg",
		"/../../../../etc/passwd",
		"/%2e%2e/%2e%2e/etc/passwd",
		"/..%2f..%2fetc%2fpasswd",
		"/static/index.html",
		"/app.js/../../go.mod",
		"/serve.go",
		"/etc/passwd",
		"//etc/passwd",
	}
	for _, target := range targets {
		code, body := rawGet(t, ts.Listener.Addr().String(), target)
		if code != 400 && code != 404 {
			t.Errorf("%s: status %d, want 400 or 404: %s", target, code, body)
		}
		if m := decode(t, body); m["error"] == nil || len(m) != 1 {
			t.Errorf("%s: not a JSON error: %s", target, body)
		}
		if strings.Contains(body, "root:") || strings.Contains(body, "remoteness") {
			t.Errorf("%s: answered: %s", target, body)
		}
	}
	// The list names the two tables, and nothing else.
	_, _, body := get(t, ts.URL+"/api/v1/tables")
	var list struct{ Tables []struct{ Name string } }
	json.Unmarshal([]byte(body), &list)
	if len(list.Tables) != 2 || list.Tables[0].Name != "eight" || list.Tables[1].Name != "hanoi" || strings.Contains(body, "secret") {
		t.Errorf("list: %s", body)
	}
}

func TestNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(fixtures(t), "eight.tsm"))
	if err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(dir, "my table?#1.tsm")
	if err := os.WriteFile(odd, b, 0o644); err != nil {
		t.Fatal(err)
	}
	eight := filepath.Join(fixtures(t), "eight.tsm")
	s, err := serve.New([]string{eight, eight, odd, filepath.Join(fixtures(t), "pdb8")}, serve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, want := s.Names(), []string{"eight", "eight-2", "my-table--1", "pdb8"}; !slices.Equal(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
	for _, bad := range [][]string{nil, {filepath.Join(dir, "missing.tsm")}, {t.TempDir()}, {filepath.Join(fixtures(t), "..", "hidden", "none")}} {
		if s, err := serve.New(bad, serve.Options{}); err == nil {
			s.Close()
			t.Errorf("New(%q) did not fail", bad)
		}
	}
}

func TestChartEndpoint(t *testing.T) {
	t.Parallel()
	_, ts := newServer(t, serve.Options{})
	for name, want := range map[string]int{"eight": 32, "hanoi": 14, "pdb8": -1} {
		code, ctype, body := get(t, ts.URL+"/api/v1/tables/"+name+"/chart.svg")
		if code != 200 || ctype != "image/svg+xml" {
			t.Fatalf("%s: %d %s", name, code, ctype)
		}
		n := len(bars(t, []byte(body)))
		if want > 0 && n != want || n == 0 {
			t.Errorf("%s: %d bars, want %d", name, n, want)
		}
	}
}

// TestConcurrentClients probes from several clients at once (under -race in make test)
// and checks every answer against the table itself.
func TestConcurrentClients(t *testing.T) {
	t.Parallel()
	_, ts := newServer(t, serve.Options{})
	tab, err := tables.Open(filepath.Join(fixtures(t), "eight.tsm"))
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	n := 100
	if testing.Short() {
		n = 25
	}
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(c), 1))
			for range n {
				perm := r.Perm(9)
				state := fmt.Sprint(perm[0], perm[1], perm[2], perm[3], perm[4], perm[5], perm[6], perm[7], perm[8])
				a, err := tab.Lookup(state)
				if err != nil {
					t.Error(err)
					return
				}
				res, err := http.Get(probeURL(ts.URL, "eight", state))
				if err != nil {
					t.Error(err)
					return
				}
				var m map[string]any
				err = json.NewDecoder(res.Body).Decode(&m)
				res.Body.Close()
				if err != nil || res.StatusCode != 200 || m["state"] != a.State || a.Reachable && m["remoteness"] != float64(a.Remoteness) || !a.Reachable && m["reachable"] != false {
					t.Errorf("%s: %d %v %v; the table says %+v", state, res.StatusCode, m, err, a)
					return
				}
			}
		})
	}
	wg.Wait()
}
