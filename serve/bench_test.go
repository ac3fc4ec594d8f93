package serve_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"slices"
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
func BenchmarkServeProbe(b *testing.B) {
	const benchClients = 8
	_, ts := newServer(b, serve.Options{}, filepath.Join(fixtures(b), "eight.tsm"))
	r := rand.New(rand.NewPCG(1, 2))
	urls := make([]string, 4096)
	for i := range urls {
		state := make([]byte, 9)
		for j, x := range r.Perm(9) {
			state[j] = byte('0' + x)
		}
		urls[i] = ts.URL + "/api/v1/tables/eight/probe?state=" + string(state)
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		MaxIdleConns: benchClients, MaxIdleConnsPerHost: benchClients, MaxConnsPerHost: benchClients,
	}}
	defer client.CloseIdleConnections()

	var next, failed atomic.Int64
	latencies := make([][]time.Duration, benchClients)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for c := range benchClients {
		wg.Go(func() {
			var body bytes.Buffer
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				t0 := time.Now()
				res, err := client.Get(urls[i%int64(len(urls))])
				if err != nil {
					failed.Add(1)
					continue
				}
				body.Reset()
				_, err = io.Copy(&body, res.Body)
				res.Body.Close()
				if err != nil || res.StatusCode != http.StatusOK || !bytes.Contains(body.Bytes(), []byte(`"moves":[`)) {
					failed.Add(1)
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
		b.Fatalf("%d of %d requests failed", n, b.N)
	}
	all := slices.Concat(latencies...)
	slices.Sort(all)
	ms := func(q float64) float64 { return float64(all[int(q*float64(len(all)-1))]) / 1e6 }
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}
