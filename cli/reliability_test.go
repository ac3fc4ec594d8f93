//go:build linux || darwin

package cli

// The findings of issue 27's hostile test, each pinned: unbounded worker counts, a '%' in
// a Slurm log directory, --time-scale NaN/Inf, lost standard output (a closed pipe,
// /dev/full), disk-full errors naming temporary files, and the usage texts.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// tablesmithBinary builds the real binary once for the tests that run it.
func tablesmithBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "tablesmith-bin-*"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "tablesmith")
		if out, err := exec.Command("go", "build", "-o", binPath, "../cmd/tablesmith").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// TestWorkerCountsBounded: every --workers and --jobs refuses a count above maxWorkers
// with exit 2 and a message naming the flag, before any work (50,000,000 workers grew
// ~0.5 GB/s; 2,000,000,000 turned a 0.7 s build into more than 10 minutes).
func TestWorkerCountsBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	table := eightTable(t)
	huge := []string{"50000000", "2000000000", fmt.Sprint(maxWorkers() + 1)}
	for _, n := range huge {
		for _, args := range [][]string{
			{"build", "eight", "--workers", n, "-o", filepath.Join(dir, "e.tsm")},
			{"build", "hanoi", "--disks", "3", "--workers", n, "-o", filepath.Join(dir, "h.tsm")},
			{"build", "pdb", "--rows", "2", "--cols", "3", "--groups", "1,2/3", "--workers", n, "-o", filepath.Join(dir, "pdb")},
			{"build", "mill", "--sectors", "3-3", "--workers", n, "-o", filepath.Join(dir, "mill")},
			{"build", "mill", "--sectors", "3-3", "--jobs", n, "-o", filepath.Join(dir, "mill")},
			{"verify", "--workers", n, table},
			{"bench", "eight", "--workers", n},
			{"bench", "hanoi", "--disks", "3", "--workers", n},
			{"bench", "korf", "--first", "1", "--workers", n},
		} {
			start := time.Now()
			code, _, stderr := runCmd(t, "", args...)
			var flagName string
			for i, a := range args {
				if a == n {
					flagName = args[i-1]
				}
			}
			if code != exitUsage || !strings.Contains(stderr, flagName+" "+n+" is too many: at most") {
				t.Errorf("%q: exit %d, stderr %q; want 2 and %s %s refused", args, code, stderr, flagName, n)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("%q took %v to refuse", args, d)
			}
		}
	}
	for _, args := range [][]string{{"build", "mill", "--sectors", "3-3", "--jobs", "0", "-o", filepath.Join(dir, "mill")}, {"bench", "korf", "--workers", "0"}} {
		if code, _, stderr := runCmd(t, "", args...); code != exitUsage || !strings.Contains(stderr, "must be at least 1") {
			t.Errorf("%q: exit %d, %q", args, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "mill")); err == nil {
		t.Errorf("a refused build made its directory")
	}
	// The largest count allowed still builds.
	if code, _, stderr := runCmd(t, "", "build", "eight", "--workers", fmt.Sprint(maxWorkers()), "-o", filepath.Join(dir, "max.tsm")); code != exitOK {
		t.Errorf("--workers %d: exit %d: %s", maxWorkers(), code, stderr)
	}
}

// TestBuildStopsOnSignals: the real binary, sent SIGTERM while a build runs, stops
// within seconds with a non-zero status, and leaves no table behind.
func TestBuildStopsOnSignals(t *testing.T) {
	t.Parallel()
	bin := tablesmithBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		out := filepath.Join(t.TempDir(), "h.tsm")
		cmd := exec.Command(bin, "build", "hanoi", "--pegs", "4", "--disks", "15", "--workers", fmt.Sprint(maxWorkers()), "-o", out)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		sent := time.Now()
		cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%v: the build finished before the signal; make it larger", sig)
			}
			if d := time.Since(sent); d > 10*time.Second {
				t.Errorf("%v: exit %d after %v", sig, cmd.ProcessState.ExitCode(), d)
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Fatalf("%v ignored for 30 s: %s", sig, errb.String())
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: a table was left at %s", sig, out)
		}
		// It says it was interrupted and how to go on, not "context canceled" (issue 38).
		if msg := errb.String(); !strings.Contains(msg, "interrupted; run the same command again to resume") || strings.Contains(msg, "context canceled") {
			t.Errorf("%v: %q", sig, msg)
		}
	}
}

// TestPlanTimeScaleBounded: --time-scale takes a number from 1 to 1000; NaN, ±Inf and
// huge factors are usage errors like -1.
func TestPlanTimeScaleBounded(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "set")
	for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "1e308", "1e15", "1000.5", "-1", "0.5", "0"} {
		code, _, stderr := runCmd(t, "", "plan", "mill", "--max-stones", "7", "-o", dir, "--emit", "json", "--time-scale", v)
		if code != exitUsage || !strings.Contains(stderr, "--time-scale must be a number from 1 to 1000") {
			t.Errorf("--time-scale %s: exit %d, %q", v, code, stderr)
		}
	}
	for _, v := range []string{"1", "2.5", "1000"} {
		if code, _, stderr := runCmd(t, "", "plan", "mill", "--max-stones", "7", "-o", dir, "--emit", "json", "--time-scale", v); code != exitOK {
			t.Errorf("--time-scale %s: exit %d, %q", v, code, stderr)
		}
	}
}

// expandSlurmPattern expands a Slurm filename pattern as sbatch does for the codes the
// scripts use: %x the job name, %j the job id, %% one '%'.
func expandSlurmPattern(t *testing.T, p, name, id string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] != '%' {
			b.WriteByte(p[i])
			continue
		}
		if i++; i == len(p) {
			t.Fatalf("pattern %q ends in a lone %%", p)
		}
		switch p[i] {
		case '%':
			b.WriteByte('%')
		case 'x':
			b.WriteString(name)
		case 'j':
			b.WriteString(id)
		default:
			t.Fatalf("pattern %q: %%%c would be replaced by Slurm", p, p[i])
		}
	}
	return b.String()
}

// TestPlanSlurmPercentInDir: a set directory whose path holds '%' (and '%x', '%j' as
// text) gets its jobs' logs in DIR/logs: the script writes each literal '%' as "%%" in
// the --output pattern. A backslash, which turns the pattern off in sbatch, is refused.
func TestPlanSlurmPercentInDir(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "100% of %x-%j")
	code, script, stderr := runCmd(t, "", "plan", "mill", "--max-stones", "7", "-o", dir, "--emit", "slurm")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	bin, calls := fakeSbatch(t)
	cmd := exec.Command("bash", "-c", script)
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	jobs := calls()
	if len(jobs) != 2 {
		t.Fatalf("sbatch calls:\n%s", strings.Join(jobs, "----\n"))
	}
	for i, job := range jobs {
		var pattern, name string
		for _, arg := range strings.Split(job, "\n") {
			if v, ok := strings.CutPrefix(arg, "--output="); ok {
				pattern = v
			}
			if v, ok := strings.CutPrefix(arg, "--job-name="); ok {
				name = v
			}
		}
		got := expandSlurmPattern(t, pattern, name, fmt.Sprint(101+i))
		if want := filepath.Join(dir, "logs", fmt.Sprintf("%s-%d.out", name, 101+i)); got != want {
			t.Errorf("--output=%s writes %s, want %s", pattern, got, want)
		}
	}
	if st, err := os.Stat(filepath.Join(dir, "logs")); err != nil || !st.IsDir() {
		t.Errorf("the script made no log directory %s: %v", filepath.Join(dir, "logs"), err)
	}
	code, _, stderr = runCmd(t, "", "plan", "mill", "--max-stones", "7", "-o", filepath.Join(t.TempDir(), `back\slash`), "--emit", "slurm")
	if code != exitUsage || !strings.Contains(stderr, "backslash") {
		t.Errorf("a backslash in DIR: exit %d, %q", code, stderr)
	}
}

// lostOutput runs the real binary with stdout on w and returns its exit status and
// standard error.
func lostOutput(t *testing.T, w *os.File, stdin string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(tablesmithBinary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Stdout = w
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), errb.String()
}

// endless is a stdin that never ends: a stream of states.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	const line = "123456780\n867254301\n"
	n := 0
	for n+len(line) <= len(p) {
		n += copy(p[n:], line)
	}
	return n, nil
}

// TestLostStdout: output to a pipe whose reader has closed it, or to /dev/full, makes
// every command that writes to stdout exit 1 with one line naming standard output and
// the cause — not death by SIGPIPE (status 141, no word), not two lines. A query of an
// endless stdin stops.
func TestLostStdout(t *testing.T) {
	t.Parallel()
	table := eightTable(t)
	commands := [][]string{
		{"query", table, "123456780"},
		{"query", "--json", table},
		{"info", table},
		{"info", "--json", table},
		{"verify", table},
		{"solve", "123456780"},
		{"plan", "mill", "--max-stones", "7", "-o", filepath.Join(t.TempDir(), "set"), "--emit", "slurm"},
		{"build", "hanoi", "--disks", "3", "-o", filepath.Join(t.TempDir(), "h.tsm")},
	}
	stdin := strings.Repeat("123456780\n867254301\n", 20000)
	closedPipe := func(t *testing.T) *os.File {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		t.Cleanup(func() { w.Close() })
		return w
	}
	check := func(t *testing.T, args []string, code int, stderr, cause string) {
		t.Helper()
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		want := "tablesmith " + args[0] + ": writing to standard output: " + cause
		if code != exitFail || len(lines) != 1 || lines[0] != want {
			t.Errorf("%q: exit %d, stderr %q; want 1 and the one line %q", args, code, stderr, want)
		}
	}
	for _, args := range commands {
		code, stderr := lostOutput(t, closedPipe(t), stdin, args...)
		check(t, args, code, stderr, "broken pipe")
	}
	if full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		defer full.Close()
		for _, args := range commands {
			code, stderr := lostOutput(t, full, stdin, args...)
			check(t, args, code, stderr, "no space left on device")
		}
	}
	// An endless stdin: the query stops at the lost output instead of reading forever.
	cmd := exec.Command(tablesmithBinary(t), "query", table)
	cmd.Stdin, cmd.Stdout = endless{}, closedPipe(t)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		check(t, []string{"query"}, cmd.ProcessState.ExitCode(), errb.String(), "broken pipe")
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("query of an endless stdin into a closed pipe still runs after 30 s")
	}
}

// TestDiskFullNamesTheFile: a table that does not fit (here: the file size limit, which
// fails a write with EFBIG as a full disk fails it with ENOSPC) is reported naming the
// table being written, not the temporary file it is written to first.
func TestDiskFullNamesTheFile(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := tablesmithBinary(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "eight.tsm")
	cmd := exec.Command("bash", "-c", `ulimit -f 32 && exec "$0" build eight --workers 2 -o "$1"`, bin, out)
	b, err := cmd.CombinedOutput()
	msg := string(b)
	if err == nil || cmd.ProcessState.ExitCode() != exitFail || !strings.Contains(msg, "write "+out+": file too large") || strings.Contains(msg, ".ts-") {
		t.Fatalf("%v: %q; want exit 1 naming %s", err, msg, out)
	}
	if des, _ := os.ReadDir(dir); len(des) != 0 {
		t.Errorf("left behind: %v", des)
	}
}

// TestDiskFullNamesTheCheckpoint: a checkpoint that cannot be written names itself (not
// the /proc path of the descriptor it is written through), and the build says how to go
// on.
func TestDiskFullNamesTheCheckpoint(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := tablesmithBinary(t)
	out := filepath.Join(t.TempDir(), "eight.tsm")
	cmd := exec.Command("bash", "-c", `ulimit -f 32 && exec "$0" build eight --workers 2 --checkpoint always -o "$1"`, bin, out)
	b, err := cmd.CombinedOutput()
	msg := string(b)
	if err == nil || cmd.ProcessState.ExitCode() != exitFail || !strings.Contains(msg, "write "+out+".ckpt: file too large") ||
		strings.Contains(msg, "/proc/") || !strings.Contains(msg, "--resume") {
		t.Fatalf("%v: %q; want exit 1 naming %s.ckpt", err, msg, out)
	}
}

// TestUsageTexts: build pdb -h names --group's argument K (a backquoted word in a flag's
// usage is its argument name), and no usage line repeats the command's last word.
func TestUsageTexts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"build", "pdb", "-h"}, "  -group K\n", "-group tablesmith"},
		{[]string{"build", "mill", "-h"}, "usage: tablesmith build mill [--tier NAME", "mill mill"},
		{[]string{"plan", "mill", "-h"}, "usage: tablesmith plan mill [flags] (-o DIR | DIR)", "mill mill"},
		{[]string{"plan", "pdb", "-h"}, "usage: tablesmith plan pdb [flags]", "pdb mill|pdb"},
		{[]string{"plan", "verify", "-h"}, "usage: tablesmith plan verify [flags]", "verify mill|pdb"},
	} {
		code, _, stderr := runCmd(t, "", tc.args...)
		if code != exitOK || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, tc.not) {
			t.Errorf("%q: exit %d, want %q and not %q in:\n%s", tc.args, code, tc.want, tc.not, stderr)
		}
	}
}

// TestBuildPDBGroupZero: --group 0 is refused like -1 (it used to build the whole set).
func TestBuildPDBGroupZero(t *testing.T) {
	t.Parallel()
	for _, g := range []string{"0", "-1"} {
		dir := filepath.Join(t.TempDir(), "pdb")
		code, _, stderr := runCmd(t, "", "build", "pdb", "--rows", "2", "--cols", "3", "--groups", "1,2/3", "--group", g, "-o", dir)
		if code != exitUsage || !strings.Contains(stderr, "--group K takes K from 1") {
			t.Errorf("--group %s: exit %d, %q", g, code, stderr)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("--group %s made %s", g, dir)
		}
	}
}

// TestNotASet: info, verify and query of a directory without manifest.json name the
// missing manifest, not "is a directory, not a regular file".
func TestNotASet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	want := dir + " is not a table set: " + filepath.Join(dir, "manifest.json") + " is missing"
	for _, args := range [][]string{{"info", dir}, {"verify", dir}, {"query", dir, "123456780"}, {"verify", "--json", dir}} {
		code, stdout, stderr := runCmd(t, "", args...)
		if code != exitFail || !strings.Contains(stdout+stderr, want) || strings.Contains(stdout+stderr, "regular file") {
			t.Errorf("%q: exit %d, %q %q; want %q", args, code, stdout, stderr, want)
		}
	}
}

// TestTwoBitDiskFull: a two-bit build, full or lean, whose disk fills (the file size
// limit fails a write with EFBIG as a full disk fails it with ENOSPC) warns that a
// checkpoint was not written and goes on, then fails naming the table, leaving nothing
// behind; an old table at the output path is kept whole.
func TestTwoBitDiskFull(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := tablesmithBinary(t)
	for _, bits := range []string{"2", "3"} {
		dir := t.TempDir()
		out := filepath.Join(dir, "eight.tsm")
		old := []byte("the old table, kept until a new one is whole")
		if err := os.WriteFile(out, old, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "-c", `ulimit -f 16 && exec "$0" build eight --engine two-bit --search-bits "$2" --checkpoint always --workers 2 -o "$1"`, bin, out, bits)
		b, err := cmd.CombinedOutput()
		msg := string(b)
		if err == nil || cmd.ProcessState.ExitCode() != exitFail || !strings.Contains(msg, "write "+out+": file too large") ||
			!strings.Contains(msg, "warning: checkpoint after level 0 not written") || strings.Contains(msg, ".ts-") {
			t.Fatalf("--search-bits %s: %v: %q; want exit 1 naming %s, and a checkpoint warning", bits, err, msg, out)
		}
		if lean := strings.Contains(msg, "a lean search"); lean != (bits == "2") {
			t.Fatalf("--search-bits %s: lean %v: %q", bits, lean, msg)
		}
		if got, _ := os.ReadFile(out); !bytes.Equal(got, old) {
			t.Errorf("--search-bits %s: the old table was not kept: %q", bits, got)
		}
		if des, _ := os.ReadDir(dir); len(des) != 1 {
			t.Errorf("--search-bits %s: left behind: %v", bits, des)
		}
	}
}
