package serve

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

// slowSource answers every state as remoteness 1, pausing a millisecond every 30 states:
// a server that is the stream's bottleneck.
type slowSource struct {
	n    atomic.Int64
	fast bool // no pauses
}

func (s *slowSource) Lookup(state string) (tables.Answer, error) {
	if s.n.Add(1)%30 == 0 && !s.fast {
		time.Sleep(time.Millisecond)
	}
	return tables.Answer{State: state, Outcome: values.Remoteness, Remoteness: 1, Reachable: true}, nil
}

func (s *slowSource) Close() error { return nil }

// slowServer serves a slowSource as "slow" under an http.Server whose read and write
// timeouts are far shorter than the work of the streams below.
func slowServer(t *testing.T, idle time.Duration) *httptest.Server {
	t.Helper()
	ts, _ := sourceServer(t, idle, &slowSource{})
	return ts
}

// sourceServer serves src as "slow" (see slowServer).
func sourceServer(t *testing.T, idle time.Duration, src *slowSource) (*httptest.Server, *slowSource) {
	t.Helper()
	s := &Server{opt: Options{MaxBodyBytes: 8 << 20, MaxPath: 1000, ErrorLog: log.New(io.Discard, "", 0), StreamIdle: idle},
		byName: map[string]*entry{}}
	s.insert(&entry{Name: "slow", src: src})
	ts := httptest.NewUnstartedServer(s.Handler())
	ts.Config.ReadTimeout, ts.Config.WriteTimeout = 200*time.Millisecond, 200*time.Millisecond
	ts.Start()
	t.Cleanup(ts.Close)
	return ts, src
}

// TestStreamDeadlineCountsOnlyWaits (issue 38, item 3): a POST whose answering takes far
// longer than the server's read and write timeouts is answered whole: the deadlines
// count only the waits on the client.
func TestStreamDeadlineCountsOnlyWaits(t *testing.T) {
	t.Parallel()
	ts := slowServer(t, 10*time.Second)
	const n = 40_000 // 240 KB: many reads of the body; 1,300 pauses, well over 200 ms
	var body strings.Builder
	for i := range n {
		fmt.Fprintf(&body, "s%04d\n", i%10000)
	}
	start := time.Now()
	res, err := http.Post(ts.URL+"/api/v1/tables/slow/probe", "text/plain", strings.NewReader(body.String()))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	lines, last := 0, ""
	for sc.Scan() {
		lines++
		last = sc.Text()
	}
	if took := time.Since(start); took < 300*time.Millisecond {
		t.Logf("the stream took %v: not longer than the timeouts, the test proves little", took)
	}
	if res.StatusCode != 200 || lines != n || strings.Contains(last, "error") {
		t.Fatalf("status %d, %d lines of %d, the last %s (read error %v)", res.StatusCode, lines, n, last, sc.Err())
	}
}

// TestStreamStalledClient (issue 38, item 3): a client that stops sending its body is cut
// after StreamIdle, and the last line says so plainly — how many lines were answered,
// and no socket addresses.
func TestStreamStalledClient(t *testing.T) {
	t.Parallel()
	ts := slowServer(t, 300*time.Millisecond)
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write([]byte("a\nb\nc\n")) // then nothing more
	res, err := http.Post(ts.URL+"/api/v1/tables/slow/probe", "text/plain", pr)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	last := lines[len(lines)-1]
	if len(lines) != 4 || !strings.Contains(last, "stopped arriving") || !strings.Contains(last, "3 lines were answered") ||
		strings.Contains(last, "127.0.0.1") || strings.Contains(last, "tcp") {
		t.Fatalf("%q", b)
	}
}

// TestStreamStopsForAGoneReader: a client that sends a long body and never reads the
// answers stops the stream once a write waits StreamIdle: the rest of the body is
// neither read nor answered. (net/http also fails the body's reads once a write has
// failed; the handler's own stop makes it not depend on that.)
func TestStreamStopsForAGoneReader(t *testing.T) {
	t.Parallel()
	ts, src := sourceServer(t, 200*time.Millisecond, &slowSource{fast: true})
	const n = 1_000_000 // 7 MB of states, 30 MB of answers: far more than the sockets buffer
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() {
		fmt.Fprintf(conn, "POST /api/v1/tables/slow/probe?moves=0 HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", n*7)
		line := []byte("s00000\n")
		w := bufio.NewWriterSize(conn, 64<<10)
		for range n {
			if _, err := w.Write(line); err != nil {
				return
			}
		}
		w.Flush()
	}()
	// Wait until the server stops answering, then see how far it got.
	last := int64(-1)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		cur := src.n.Load()
		if cur == last && cur > 0 {
			break
		}
		last = cur
	}
	if got := src.n.Load(); got >= n {
		t.Fatalf("all %d states answered to a client that reads nothing", got)
	}
}
