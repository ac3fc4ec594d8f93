package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// runCmd runs the CLI in-process and returns its exit code and outputs.
func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}
	code := run(e, args)
	return code, out.String(), errb.String()
}

var (
	eightOnce sync.Once
	eightDir  string
	binDir    string // the real binary's directory, if a test built it
)

// eightTable builds the 8-puzzle table once for the tests of this package.
func eightTable(t *testing.T) string {
	t.Helper()
	eightOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tablesmith-cmd-test-*")
		if err != nil {
			t.Fatal(err)
		}
		eightDir = dir
		if code, _, stderr := runCmd(t, "", "build", "eight", "--workers", "2", "-o", filepath.Join(dir, "eight.tsm")); code != 0 {
			t.Fatalf("build eight: exit %d: %s", code, stderr)
		}
	})
	return filepath.Join(eightDir, "eight.tsm")
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range []string{eightDir, binDir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

func TestQueryJSON(t *testing.T) {
	path := eightTable(t)
	code, out, _ := runCmd(t, "", "query", "--json", "--path", path,
		"123456780", "123456708", "213456780", "12345678", "1234567800", "12345678x", "113456780")
	if code != exitFail {
		t.Fatalf("exit %d, want 1 because some lines are malformed", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 {
		t.Fatalf("got %d lines, want 7:\n%s", len(lines), out)
	}
	var got []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q is not JSON: %v", l, err)
		}
		got = append(got, m)
	}
	if got[0]["remoteness"] != 0.0 || got[0]["state"] != "123456780" {
		t.Fatalf("goal: %v", got[0])
	}
	if got[1]["remoteness"] != 1.0 {
		t.Fatalf("one move from the goal: %v", got[1])
	}
	path1, _ := got[1]["path"].([]any)
	if len(path1) != 2 || path1[0] != "123456708" || path1[1] != "123456780" {
		t.Fatalf("path: %v", got[1]["path"])
	}
	if got[2]["reachable"] != false || got[2]["remoteness"] != nil {
		t.Fatalf("odd permutation: %v", got[2])
	}
	for _, m := range got[3:] {
		if m["error"] == nil || m["error"] == "" {
			t.Fatalf("malformed state answered without error: %v", m)
		}
	}
}

func TestQueryStdinText(t *testing.T) {
	path := eightTable(t)
	code, out, _ := runCmd(t, "867254301\n\n123456780\n", "query", path)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	want := "867254301: remoteness 31\n123456780: remoteness 0\n"
	if out != want {
		t.Fatalf("got %q, want %q", out, want)
	}
}

func TestInfoJSONKeys(t *testing.T) {
	path := eightTable(t)
	code, out, _ := runCmd(t, "", "info", "--json", path)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"game", "params", "index", "slots", "states", "unreachable", "holes",
		"max_remoteness", "counts", "bytes", "bits_per_state"} {
		if _, ok := m[k]; !ok {
			t.Errorf("info --json lacks %q", k)
		}
	}
	if m["states"] != 181440.0 || m["unreachable"] != 181440.0 || m["max_remoteness"] != 31.0 || m["slots"] != 362880.0 {
		t.Fatalf("info: %v", m)
	}
}

func TestVerifyDetectsCorruption(t *testing.T) {
	path := eightTable(t)
	if code, out, _ := runCmd(t, "", "verify", path); code != exitOK || !strings.Contains(out, "OK") {
		t.Fatalf("intact table: exit %d, %s", code, out)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.tsm")
	raw[len(raw)/3] ^= 0x04 // inside a block
	if err := os.WriteFile(bad, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCmd(t, "", "verify", bad)
	if code != exitFail || !strings.Contains(out, "CORRUPT") || !strings.Contains(out, "block") {
		t.Fatalf("corrupt table: exit %d, %s", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{}, {"nonsense"}, {"build"}, {"build", "eight"}, {"build", "nine", "-o", "x"},
		{"build", "eight", "--index", "nope", "-o", "x"}, {"query"}, {"info"}, {"info", "a", "b"},
		{"build", "eight", "--bogus", "-o", "x"}, {"build", "eight", "--rows", "4", "-o", "x"},
		{"build", "hanoi", "--disks", "3", "--goal", "blank-first", "-o", "x"}, {"build", "eight", "--workers", "0", "-o", "x"},
		{"bench", "hanoi", "--workers", "-3"}, {"bench", "hanoi", "--pegs", "9"}, {"bench", "nine"},
		{"bench", "mill", "--sector", "2-4"}, {"bench", "mill", "--sector", "54"}, {"bench", "mill", "--bits", "64,0"},
		{"solve", "--timeout", "-1s", "123456780"}, {"verify", "--workers", "0", "x"},
	} {
		code, _, stderr := runCmd(t, "", args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
		// One usage line, not the flag package's usage and ours.
		if n := strings.Count(stderr, "usage:"); len(args) > 1 && n > 2 || strings.Count(stderr, "\n  -") > 0 {
			t.Errorf("%q: usage printed more than once:\n%s", args, stderr)
		}
	}
	if code, _, stderr := runCmd(t, "", "info", filepath.Join(t.TempDir(), "missing.tsm")); code != exitFail || stderr == "" {
		t.Errorf("missing file: exit %d, stderr %q", code, stderr)
	}
}

// failWriter fails every write, as /dev/full or a full disk does.
type failWriter struct{}

func (failWriter) Write(p []byte) (int, error) { return 0, syscall.ENOSPC }

// TestStdoutWriteErrors: a command whose output cannot be written exits non-zero and says
// so, whatever the command.
func TestStdoutWriteErrors(t *testing.T) {
	t.Parallel()
	table := eightTable(t)
	for _, args := range [][]string{
		{"query", table, "123456780"},
		{"query", "--json", table, "123456780"},
		{"info", table},
		{"info", "--json", table},
		{"verify", table},
		{"solve", "123456780"},
		{"build", "eight", "-o", filepath.Join(t.TempDir(), "x.tsm")},
	} {
		var errb bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: failWriter{}, stderr: &errb}
		if code := run(e, args); code != exitFail || !strings.Contains(errb.String(), "standard output") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// TestCPUProfileWriteError: a profile that cannot be written fails the build or the
// check, naming it.
// Not parallel: a process has one CPU profile at a time.
func TestCPUProfileWriteError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	for _, args := range [][]string{
		{"build", "eight", "--cpuprofile", "/dev/full", "-o", filepath.Join(t.TempDir(), "x.tsm")},
		{"verify", "--cpuprofile", "/dev/full", eightTable(t)},
		{"build", "mill", "--tier", "3-3", "--workers", "1", "--cpuprofile", "/dev/full", "-o", t.TempDir()},
	} {
		code, _, stderr := runCmd(t, "", args...)
		if code != exitFail || !strings.Contains(stderr, "--cpuprofile /dev/full") || !strings.Contains(stderr, "no space left") {
			t.Fatalf("%s: exit %d, stderr %q", args[0], code, stderr)
		}
	}
}

// TestDevFull runs the real binary with stdout on /dev/full.
func TestDevFull(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	bin := filepath.Join(t.TempDir(), "tablesmith")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/tablesmith").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	cmd := exec.Command(bin, "query", eightTable(t))
	cmd.Stdin = strings.NewReader(strings.Repeat("123456780\n867254301\n", 20000))
	cmd.Stdout = full
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitFail || !strings.Contains(errb.String(), "no space left") {
		t.Fatalf("query > /dev/full: %v, stderr %q", err, errb.String())
	}
}

// TestLongInputLine: a runaway stdin line is answered with an error of its own that
// repeats at most a short prefix, costs no more memory than the cap, and the next line
// is still answered.
func TestLongInputLine(t *testing.T) { // not parallel: it measures allocation
	table := eightTable(t)
	in := strings.Repeat("1", 1<<20) + "\n123456780\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	code, out, _ := runCmd(t, in, "query", "--json", table)
	runtime.ReadMemStats(&after)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitFail || len(lines) != 2 || !strings.Contains(lines[0], "longer than 4096 bytes") ||
		len(lines[0]) > 300 || !strings.Contains(lines[1], `"remoteness":0`) {
		t.Fatalf("exit %d:\n%.400s", code, out)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("a 1 MB line allocated %d bytes", grew)
	}
}
