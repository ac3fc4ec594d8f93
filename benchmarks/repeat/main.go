// Command repeat runs a command N times and reports the minimum, median and maximum of
// its wall time, user and system CPU time and peak resident memory (the kernel's
// maximum resident set of the child, as /usr/bin/time -v reports it), together with the
// load average before the first run and after the last: on a shared machine one wall
// time says little, the spread of several does.
//
//	go run ./benchmarks/repeat [-n 5] [-label NAME] [-json] -- COMMAND [ARG ...]
//
// The standard output of the last run is printed before the report; the other runs'
// output is discarded (a run's stderr is shown when it fails, which stops the series with
// exit status 1). The peak memory is measured where the system reports it (Unix:
// getrusage); elsewhere (Windows) it reads 0.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/tablesmith/tablesmith/internal/benchreport"
)

// run is one measured run.
type run struct {
	Wall, User, Sys float64 // seconds
	MaxRSS          int64   // bytes
}

func main() {
	n := flag.Int("n", 5, "number of runs")
	label := flag.String("label", "", "name of the series in the report (default: the command)")
	asJSON := flag.Bool("json", false, "print the report as JSON")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: repeat [-n N] [-label NAME] [-json] -- COMMAND [ARG ...]")
		os.Exit(2)
	}
	if *label == "" {
		*label = strings.Join(args, " ")
	}
	loadBefore := loadavg()
	var runs []run
	var lastOut []byte
	for i := range *n {
		r, out, err := once(args)
		lastOut = out
		if err != nil {
			fmt.Fprintf(os.Stderr, "repeat: run %d: %v\n", i+1, err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "repeat: run %d/%d: %.2f s wall, %.2f s user, %.2f s sys, %.0f MiB peak\n",
			i+1, *n, r.Wall, r.User, r.Sys, float64(r.MaxRSS)/(1<<20))
		runs = append(runs, r)
	}
	pick := func(f func(run) float64) benchreport.Stat {
		var xs []float64
		for _, r := range runs {
			xs = append(xs, f(r))
		}
		return benchreport.Summarize(xs)
	}
	rep := benchreport.Report{
		Label: *label, Date: time.Now().UTC().Format(time.RFC3339), Runs: len(runs),
		LoadBefore: loadBefore, LoadAfter: loadavg(),
		Wall:    pick(func(r run) float64 { return r.Wall }),
		User:    pick(func(r run) float64 { return r.User }),
		Sys:     pick(func(r run) float64 { return r.Sys }),
		PeakMiB: pick(func(r run) float64 { return float64(r.MaxRSS) / (1 << 20) }),
	}
	rep.Spread = rep.Wall.Max / rep.Wall.Min
	_, err := os.Stdout.Write(lastOut)
	if err == nil && *asJSON {
		b, _ := json.Marshal(rep)
		_, err = fmt.Println(string(b))
	} else if err == nil {
		err = rep.Write(os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "repeat: the report:", err)
		os.Exit(1)
	}
}

// once runs the command and measures it; it returns the command's standard output too.
func once(args []string) (run, []byte, error) {
	cmd := exec.Command(args[0], args[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start).Seconds()
	if err != nil {
		return run{}, nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	r := run{Wall: wall, User: cmd.ProcessState.UserTime().Seconds(), Sys: cmd.ProcessState.SystemTime().Seconds()}
	r.MaxRSS = maxRSS(cmd.ProcessState)
	return r, stdout.Bytes(), nil
}

// loadavg returns the 1-minute load average, or "?" where /proc is missing.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "?"
}
