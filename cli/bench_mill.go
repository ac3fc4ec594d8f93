package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tablesmith/tablesmith/benchmarks"
	"github.com/tablesmith/tablesmith/games/mill"
)

const benchMillArgs = "[--sector W-B] [--bits 64,32] [--json]"

// runBenchMill is `tablesmith bench mill`: the ways to key the symmetry classes of a Nine
// Men's Morris sector (class rank, exact and additive signatures, mill.Canonical).
func runBenchMill(e *env, args []string) error {
	fs := newFlags(e, "bench mill", benchMillArgs)
	sector := fs.String("sector", "5-4", "the sector W-B: W stones for the side to move, B for the opponent")
	bitsList := fs.String("bits", "64,32", "the additive signature's moduli 2^k: comma-separated k, 1..64")
	asJSON := fs.Bool("json", false, "print the rows as JSON")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	opt := benchmarks.MillOptions{}
	a, b, ok := strings.Cut(*sector, "-")
	w, err1 := strconv.Atoi(a)
	v, err2 := strconv.Atoi(b)
	if _, err := mill.NewSector(w, v); !ok || err1 != nil || err2 != nil || err != nil {
		return fmt.Errorf("%w: --sector %q: want W-B with %d ≤ W, B ≤ %d", errUsage, *sector, mill.MinStones, mill.MaxStones)
	}
	opt.W, opt.B = w, v
	for _, f := range strings.Split(*bitsList, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 || k > 64 {
			return fmt.Errorf("%w: --bits %q: want comma-separated k, 1 ≤ k ≤ 64", errUsage, *bitsList)
		}
		opt.AdditiveBits = append(opt.AdditiveBits, k)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rows, err := benchmarks.MillSchemes(ctx, opt)
	if err != nil {
		return err
	}
	if *asJSON {
		type jsonRow struct {
			Scheme        string   `json:"scheme"`
			CanonNs       float64  `json:"canonical_ns"`
			RankNs        *float64 `json:"rank_ns"`
			Keys          uint64   `json:"keys"`
			KeysPerClass  float64  `json:"keys_per_class"`
			VisitedBytes  uint64   `json:"visited_bytes"`
			BytesPerClass float64  `json:"bytes_per_class"`
			EnumerateMs   float64  `json:"enumerate_ms"`
			Positions     uint64   `json:"positions"`
			ModBits       int      `json:"modulus_bits,omitempty"`
			Collisions    uint64   `json:"collisions"`
			Expected      *float64 `json:"expected_collisions,omitempty"`
		}
		var out []jsonRow
		for _, r := range rows {
			out = append(out, jsonRow{r.Scheme, r.CanonNs, nilIfNaN(r.RankNs), r.Keys, r.KeysPerClass, r.VisitedBytes,
				r.BytesPerClass, float64(r.Enumerate.Microseconds()) / 1000, r.Positions, r.ModBits, r.Collisions,
				nilIfNaN(r.ExpectedCollisions)})
		}
		return json.NewEncoder(e.stdout).Encode(out)
	}
	fmt.Fprintf(e.stdout, "Nine Men's Morris class keys, sector %d-%d: %s classes, %s positions enumerated per scheme (one thread), %s %s/%s\n",
		opt.W, opt.B, commas(mill.ClassCount(opt.W, opt.B)), commas(rows[0].Positions), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scheme\tn\tns/canonical\tns/rank\tkeys\tkeys/class\tvisited bytes\tbytes/class\tenumerate s\tcollisions\texpected\t")
	for _, r := range rows {
		n, rank, expected := "-", "-", "-"
		if r.ModBits > 0 {
			n, expected = fmt.Sprintf("2^%d", r.ModBits), fmt.Sprintf("%.3g", r.ExpectedCollisions)
		}
		if !math.IsNaN(r.RankNs) {
			rank = fmt.Sprintf("%.1f", r.RankNs)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%s\t%s\t%.3f\t%s\t%.3f\t%.1f\t%s\t%s\t\n", r.Scheme, n, r.CanonNs, rank, commas(r.Keys),
			r.KeysPerClass, commas(r.VisitedBytes), r.BytesPerClass, r.Enumerate.Seconds(), commas(r.Collisions), expected)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintln(e.stdout, "class rank: Sector.Canonical and Rank, visited = a bitset of the slots; the others: a hash set of 64-bit keys (open addressing, load ≤ 1/2);",
		"collisions = classes − distinct keys; expected: for keys each the smallest of 16 independent uniform values mod n")
	return err
}
