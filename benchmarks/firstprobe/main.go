// Command firstprobe times what a fresh process pays before its first answer from a
// set: opening the set (the manifest, and a stat of every member's file: a tiered game's
// members are opened on first use) and the first lookup of one position (its member's
// header, metadata and block index, its ranking tables, its first block), then a warm
// lookup of the same position.
//
//	go run ./benchmarks/firstprobe [-json] DIR POSITION
//
// Run it once per measurement: the point is the cold process (caches of the file system
// aside: run it twice to see a warm page cache).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/tablesmith/tablesmith/tables"
)

func main() {
	asJSON := flag.Bool("json", false, "print one JSON object")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: firstprobe [-json] DIR POSITION")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	dir, state := flag.Arg(0), flag.Arg(1)
	start := time.Now()
	set, err := tables.OpenSet(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "firstprobe:", err)
		os.Exit(1)
	}
	defer set.Close()
	opened := time.Since(start)
	start = time.Now()
	ans, err := set.Lookup(state)
	if err != nil {
		fmt.Fprintln(os.Stderr, "firstprobe:", err)
		os.Exit(1)
	}
	first := time.Since(start)
	const warmRuns = 1000
	start = time.Now()
	for range warmRuns {
		if _, err := set.Lookup(state); err != nil {
			fmt.Fprintln(os.Stderr, "firstprobe:", err)
			os.Exit(1)
		}
	}
	warm := time.Since(start) / warmRuns
	if *asJSON {
		out := map[string]any{"members": len(set.Manifest().Members), "open_ms": ms(opened), "first_lookup_ms": ms(first),
			"first_probe_ms": ms(opened + first), "warm_lookup_us": float64(warm.Nanoseconds()) / 1e3, "answer": ans}
		if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
			fmt.Fprintln(os.Stderr, "firstprobe:", err)
			os.Exit(1)
		}
		return
	}
	if _, err := fmt.Printf("%d members: open %.1f ms, first lookup %.1f ms (first probe %.1f ms), warm lookup %.2f µs\n",
		len(set.Manifest().Members), ms(opened), ms(first), ms(opened+first), float64(warm.Nanoseconds())/1e3); err != nil {
		fmt.Fprintln(os.Stderr, "firstprobe:", err)
		os.Exit(1)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
