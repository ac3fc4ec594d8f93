package cli

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/serve"
)

// fetch GETs url and returns the status and body.
func fetch(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b)
}

// TestServeProbeIsQueryJSON: for the same states the API's probe is, byte for byte, the
// line `query --json` prints (without moves), and with moves that line plus "moves" last.
func TestServeProbeIsQueryJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	hanoi, pdb := filepath.Join(dir, "hanoi.tsm"), filepath.Join(dir, "pdb")
	if code, _, stderr := runCmd(t, "", "build", "hanoi", "--pegs", "4", "--disks", "5", "-o", hanoi); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := runCmd(t, "", "build", "pdb", "--rows", "3", "--cols", "3", "--groups", "1,2,3,4/5,6,7,8", "-o", pdb); code != 0 {
		t.Fatal(stderr)
	}
	s, err := serve.New([]string{eightTable(t), hanoi, pdb}, serve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

	for _, c := range []struct {
		name, file string
		states     []string
	}{
		{"eight", eightTable(t), []string{"123456780", "123456708", "867254301", "1 2 3/4 5 6/7 0 8", "213456780", "12345678", "113456780", "", "x<>&"}},
		{"hanoi", hanoi, []string{"01230", "10230", "33333", "00000", "0123", "01239"}},
		{"pdb", pdb, []string{"867254301", "123456780", "213456780", "12345678"}},
	} {
		_, out, _ := runCmd(t, "", append([]string{"query", "--json", "--path", c.file}, c.states...)...)
		lines := strings.SplitAfter(out, "\n")
		if len(lines) != len(c.states)+1 {
			t.Fatalf("%s: %d lines for %d states: %q", c.name, len(lines)-1, len(c.states), out)
		}
		for i, state := range c.states {
			cli := lines[i]
			u := ts.URL + "/api/v1/tables/" + c.name + "/probe?path=1&state=" + url.QueryEscape(state)
			if _, body := fetch(t, u+"&moves=0"); body != cli {
				t.Errorf("%s %q:\n api %s\n cli %s", c.name, state, body, cli)
			}
			_, body := fetch(t, u)
			if strings.Contains(cli, `"error"`) {
				if body != cli {
					t.Errorf("%s %q with moves:\n api %s\n cli %s", c.name, state, body, cli)
				}
				continue
			}
			prefix := strings.TrimSuffix(cli, "}\n") + `,"moves":[{`
			if !strings.HasPrefix(body, prefix) || !strings.HasSuffix(body, "}]}\n") {
				t.Errorf("%s %q with moves:\n api %s\n cli %s", c.name, state, body, cli)
			}
		}
	}
}

// TestServeCommand runs `tablesmith serve` in-process, plain and with --preload: it prints
// its URL, answers, and on SIGTERM lets a request in flight finish before it exits 0.
func TestServeCommand(t *testing.T) {
	for _, flags := range [][]string{nil, {"--preload"}} {
		serveCommand(t, flags)
	}
}

func serveCommand(t *testing.T, flags []string) {
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: pw, stderr: &stderr}
	exit := make(chan int, 1)
	go func() {
		exit <- run(e, append(append([]string{"serve", "--addr", "127.0.0.1:0"}, flags...), eightTable(t)))
		pw.Close()
	}()
	first, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no startup line: %v (exit %v, stderr %s)", err, <-exit, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	base := strings.TrimSpace(first[strings.Index(first, "http://"):])
	if !strings.HasPrefix(first, "serving eight at http://127.0.0.1:") || !strings.HasSuffix(base, "/") {
		t.Fatalf("startup line %q", first)
	}
	if code, body := fetch(t, base+"api/v1/tables/eight/probe?state=867254301&moves=0"); code != 200 || body != `{"state":"867254301","remoteness":31}`+"\n" {
		t.Fatalf("%d %s", code, body)
	}
	if code, _ := fetch(t, base); code != 200 {
		t.Fatalf("page: %d", code)
	}

	// A stream in flight: one answer read, then SIGTERM, then the rest of the body.
	body, send := io.Pipe()
	resc := make(chan *http.Response, 1)
	go func() {
		res, err := http.Post(base+"api/v1/tables/eight/probe?moves=0", "text/plain", body)
		if err != nil {
			t.Error(err)
		}
		resc <- res
	}()
	send.Write([]byte("123456780\n"))
	res := <-resc
	if res == nil {
		t.FailNow()
	}
	defer res.Body.Close()
	answers := bufio.NewReader(res.Body)
	if line, err := answers.ReadString('\n'); err != nil || !strings.Contains(line, `"remoteness":0`) {
		t.Fatalf("first answer %q, %v", line, err)
	}
	terminateSelf(t)                   // SIGTERM to this process (skipped where there is none)
	time.Sleep(200 * time.Millisecond) // the server is shutting down, the stream still open
	send.Write([]byte("867254301\n"))
	send.Close()
	if rest, err := io.ReadAll(answers); err != nil || string(rest) != `{"state":"867254301","remoteness":31}`+"\n" {
		t.Fatalf("the rest of the stream: %q, %v", rest, err)
	}
	select {
	case code := <-exit:
		if code != exitOK || !strings.Contains(stderr.String(), "shutting down") {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop after SIGTERM")
	}
	if _, err := http.Get(base); err == nil {
		t.Error("still serving after shutdown")
	}
}

func TestServeUsage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"serve"}, exitUsage, "name at least one table"},
		{[]string{"serve", "--addr"}, exitUsage, "flag needs an argument"},
		{[]string{"serve", filepath.Join(t.TempDir(), "missing.tsm")}, exitFail, "no such file"},
		{[]string{"serve", t.TempDir()}, exitFail, "holds no table file"},
		{[]string{"serve", "--addr", "256.0.0.1:http", eightTable(t)}, exitFail, "listen"},
	} {
		code, _, stderr := runCmd(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.msg)
		}
	}
}

// svgBars parses an SVG and counts its bars and panels.
func svgBars(t *testing.T, svg []byte) (bars, panels int) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not a valid SVG: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				switch {
				case a.Name.Local != "class":
				case a.Value == "bar":
					bars++
				case a.Value == "panel":
					panels++
				}
			}
		}
	}
}

func TestInfoPlot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "eight.svg")
	code, stdout, stderr := runCmd(t, "", "info", "--plot", out, eightTable(t))
	if code != exitOK || !strings.Contains(stdout, "max remoteness  31") {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	svg, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if bars, panels := svgBars(t, svg); bars != 32 || panels != 1 {
		t.Errorf("%d bars in %d panels, want one per remoteness 0..31 in one", bars, panels)
	}
	// To stdout: the chart only, the same one.
	code, stdout, _ = runCmd(t, "", "info", "--plot", "-", eightTable(t))
	if code != exitOK || stdout != string(svg) {
		t.Errorf("--plot -: exit %d, %d bytes, want the file's %d", code, len(stdout), len(svg))
	}
	// A set: a panel per group.
	pdb := filepath.Join(dir, "pdb")
	if code, _, stderr := runCmd(t, "", "build", "pdb", "--rows", "3", "--cols", "3", "--groups", "1,2,3,4/5,6,7,8", "-o", pdb); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, _ = runCmd(t, "", "info", "--plot", "-", pdb)
	if bars, panels := svgBars(t, []byte(stdout)); code != exitOK || panels != 2 || bars < 2 {
		t.Errorf("set: exit %d, %d bars in %d panels", code, bars, panels)
	}
	// Never onto something that is not a regular file, nor through a symbolic link.
	link := filepath.Join(dir, "link.svg")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"/dev/null", link, dir} {
		if code, _, stderr := runCmd(t, "", "info", "--plot", bad, eightTable(t)); code != exitFail || !strings.Contains(stderr, "not a regular file") {
			t.Errorf("--plot %s: exit %d, %s", bad, code, stderr)
		}
	}
}
