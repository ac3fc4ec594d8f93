package serve_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/serve"
)

// BenchmarkServeProbe is the load test: benchClients keep-alive clients on loopback send
// GET probes (with moves, the default) of random 8-puzzle states, b.N requests in all,
// and it reports requests per second and the median and 99th-percentile latency. Any
// failed request fails the benchmark. `make bench-serve` runs it.
//
// Two clients: "wire" writes each request on its connection and reads the response's
// status line, headers and Content-Length body itself, as load generators such as wrk
// do, so that on a 2-core machine most of the CPU goes to the server being measured;
// "net-http" is Go's own http.Client, whose work per request is about the server's.
func BenchmarkServeProbe(b *testing.B) {
	const benchClients = 8
	_, ts := newServer(b, serve.Options{}, filepath.Join(fixtures(b), "eight.tsm"))
	r := rand.New(rand.NewPCG(1, 2))
	paths := make([]string, 4096)
	for i := range paths {
		state := make([]byte, 9)
		for j, x := range r.Perm(9) {
			state[j] = byte('0' + x)
		}
		paths[i] = "/api/v1/tables/eight/probe?state=" + string(state)
	}
	u, err := url.Parse(ts.URL)
	if err != nil {
		b.Fatal(err)
	}

	b.Run("wire", func(b *testing.B) {
		loadTest(b, benchClients, func() (func(path string) ([]byte, error), func(), error) {
			c, err := net.Dial("tcp", u.Host)
			if err != nil {
				return nil, nil, err
			}
			wc := &wireClient{host: u.Host, conn: c, r: bufio.NewReaderSize(c, 16<<10)}
			return wc.get, func() { c.Close() }, nil
		}, paths)
	})
	b.Run("net-http", func(b *testing.B) {
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
			MaxIdleConns: benchClients, MaxIdleConnsPerHost: benchClients, MaxConnsPerHost: benchClients,
		}}
		defer client.CloseIdleConnections()
		loadTest(b, benchClients, func() (func(path string) ([]byte, error), func(), error) {
			var body bytes.Buffer
			return func(path string) ([]byte, error) {
				res, err := client.Get(ts.URL + path)
				if err != nil {
					return nil, err
				}
				defer res.Body.Close()
				body.Reset()
				if _, err := io.Copy(&body, res.Body); err != nil {
					return nil, err
				}
				if res.StatusCode != http.StatusOK {
					return nil, fmt.Errorf("status %d", res.StatusCode)
				}
				return body.Bytes(), nil
			}, func() {}, nil
		}, paths)
	})
}

// loadTest runs b.N GETs of paths (in turn) from clients concurrent clients, each made by
// dial, and reports req/s, p50-ms and p99-ms. A request that fails or whose body has no
// moves fails the benchmark.
func loadTest(b *testing.B, clients int, dial func() (get func(path string) ([]byte, error), close func(), err error), paths []string) {
	gets := make([]func(string) ([]byte, error), clients)
	for c := range gets {
		get, closeConn, err := dial()
		if err != nil {
			b.Fatal(err)
		}
		defer closeConn()
		gets[c] = get
	}
	var next, failed atomic.Int64
	var firstErr atomic.Pointer[error] // a Value would panic on errors of two types
	latencies := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for c := range clients {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				t0 := time.Now()
				body, err := gets[c](paths[i%int64(len(paths))])
				if err == nil && !bytes.Contains(body, []byte(`"moves":[`)) {
					err = fmt.Errorf("no moves in %q", body)
				}
				if err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, &err)
					continue
				}
				latencies[c] = append(latencies[c], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if n := failed.Load(); n > 0 {
		b.Fatalf("%d of %d requests failed, the first: %v", n, b.N, *firstErr.Load())
	}
	all := slices.Concat(latencies...)
	slices.Sort(all)
	ms := func(q float64) float64 { return float64(all[int(q*float64(len(all)-1))]) / 1e6 }
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}

// wireClient is a minimal HTTP/1.1 keep-alive client for the load test: a GET per call,
// the response read by its Content-Length (the server sends no chunked probe answers).
type wireClient struct {
	host string
	conn net.Conn
	r    *bufio.Reader
	req  []byte
	body []byte
}

func (c *wireClient) get(path string) ([]byte, error) {
	c.req = append(append(append(append(c.req[:0], "GET "...), path...), " HTTP/1.1\r\nHost: "...), c.host...)
	c.req = append(c.req, "\r\n\r\n"...)
	if _, err := c.conn.Write(c.req); err != nil {
		return nil, err
	}
	status, err := c.r.ReadSlice('\n')
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(status, []byte("HTTP/1.1 200 ")) {
		return nil, fmt.Errorf("status line %q", status)
	}
	length := -1
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		if k, v, ok := bytes.Cut(line, []byte(":")); ok && bytes.EqualFold(k, []byte("Content-Length")) {
			if length, err = strconv.Atoi(string(bytes.TrimSpace(v))); err != nil {
				return nil, err
			}
		}
	}
	if length < 0 {
		return nil, errors.New("response without Content-Length")
	}
	c.body = slices.Grow(c.body[:0], length)[:length]
	_, err = io.ReadFull(c.r, c.body)
	return c.body, err
}
