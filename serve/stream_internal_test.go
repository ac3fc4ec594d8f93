package serve

import (
	"bufio"
	"fmt"
	"io"
	"log"
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
type slowSource struct{ n atomic.Int64 }

func (s *slowSource) Lookup(state string) (tables.Answer, error) {
	if s.n.Add(1)%30 == 0 {
		time.Sleep(time.Millisecond)
	}
	return tables.Answer{State: state, Outcome: values.Remoteness, Remoteness: 1, Reachable: true}, nil
}

func (s *slowSource) Close() error { return nil }

// slowServer serves a slowSource as "slow" under an http.Server whose read and write
// timeouts are far shorter than the work of the streams below.
func slowServer(t *testing.T, idle time.Duration) *httptest.Server {
	t.Helper()
	s := &Server{opt: Options{MaxBodyBytes: 8 << 20, MaxPath: 1000, ErrorLog: log.New(io.Discard, "", 0), StreamIdle: idle},
		byName: map[string]*entry{}}
	s.insert(&entry{Name: "slow", src: &slowSource{}})
	ts := httptest.NewUnstartedServer(s.Handler())
	ts.Config.ReadTimeout, ts.Config.WriteTimeout = 200*time.Millisecond, 200*time.Millisecond
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
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
