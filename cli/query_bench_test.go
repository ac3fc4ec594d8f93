package cli

import (
	"bytes"
	"io"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// BenchmarkQueryStdin is `tablesmith query [--json] TABLE < states` on a warm 8-puzzle
// table (lex: every permutation has a slot), 2^16 random permutations per pass;
// states/s is the figure benchmarks/RESULTS.md quotes.
func BenchmarkQueryStdin(b *testing.B) {
	table := filepath.Join(b.TempDir(), "eight.tsm")
	var stderr bytes.Buffer
	e := &env{stdin: bytes.NewReader(nil), stdout: io.Discard, stderr: &stderr}
	if code := run(e, []string{"build", "eight", "--index", "lex", "-o", table}); code != exitOK {
		b.Fatalf("build: exit %d: %s", code, stderr.String())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var in bytes.Buffer
	const states = 1 << 16
	perm := []byte("012345678")
	for range states {
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		in.Write(perm)
		in.WriteByte('\n')
	}
	for _, mode := range []struct {
		name string
		args []string
	}{{"text", nil}, {"json", []string{"--json"}}} {
		b.Run(mode.name, func(b *testing.B) {
			args := append(append([]string{"query"}, mode.args...), table)
			for b.Loop() {
				e := &env{stdin: bytes.NewReader(in.Bytes()), stdout: io.Discard, stderr: io.Discard}
				if code := run(e, args); code != exitOK {
					b.Fatalf("query: exit %d", code)
				}
			}
			b.ReportMetric(float64(b.N)*states/b.Elapsed().Seconds(), "states/s")
		})
	}
}
