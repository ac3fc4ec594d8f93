package scorch_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// The command line with the game added: this module's main package (cli.Main with
// package scorch imported), built once with go build and run as a user would.

var binary = sync.OnceValues(func() (string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "customgame-cli-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "customgame")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command(goTool, "build", "-o", bin, "example.com/customgame")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", errors.New("go build: " + err.Error() + "\n" + string(out))
	}
	return bin, nil
})

// runCLI runs the binary and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bin, err := binary(); err == nil {
		os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}

// TestCLI: build, query, info, verify and serve the game through the command line, and
// see a damaged set refused.
func TestCLI(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "scorch")
	expect := func(wantCode int, wantOut string, args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, args...)
		if code != wantCode || !strings.Contains(out+errOut, wantOut) {
			t.Fatalf("customgame %s: exit %d, want %d, output wanted %q:\n%s%s", strings.Join(args, " "), code, wantCode, wantOut, out, errOut)
		}
		return out
	}
	expect(0, "scorch", "help")
	expect(0, "8 units complete", "build", "scorch", "--workers", "2", "-o", dir)
	expect(0, "already complete", "build", "scorch", "--workers", "2", "-o", dir)
	expect(0, "tier 0: 72 classes", "build", "scorch", "--workers", "2", "-o", dir)

	// query: text and JSON, each answer the brute-force solver's.
	states := []string{"X.......O", "#X.#O#...", "O..X..#..", "XO#######", ".O.#X#..."}
	for _, s := range states {
		w := bruteForce()[s]
		want := s + ": " + w.outcome()
		if !w.draw {
			want += " in "
		}
		expect(0, want, "query", dir, s)
	}
	out := expect(0, "", append([]string{"query", "--json", dir}, states...)...)
	sc := bufio.NewScanner(strings.NewReader(out))
	for i := 0; sc.Scan(); i++ {
		var r struct {
			State, Value string
			Remoteness   *int
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		w := bruteForce()[states[i]]
		if r.State != states[i] || r.Value != w.outcome() || !w.draw && (r.Remoteness == nil || *r.Remoteness != w.remoteness) {
			t.Errorf("query --json line %d: %s", i, sc.Text())
		}
	}
	expect(1, "want one X and one O", "query", dir, "XX.......")
	expect(2, "unknown table kind", "build", "scorch2", "-o", dir)

	expect(0, "OK", "verify", dir)
	expect(0, "9,216", "info", dir)
	var info struct {
		Manifest struct{ Game string }
		Slots    uint64
	}
	if err := json.Unmarshal([]byte(expect(0, "", "info", "--json", dir)), &info); err != nil || info.Manifest.Game != "scorch" || info.Slots != 9216 {
		t.Errorf("info --json: game %q, %d slots (%v)", info.Manifest.Game, info.Slots, err)
	}

	// Only the endgame: the tiers of at least 5 scorched cells.
	end := filepath.Join(t.TempDir(), "end")
	expect(0, "3 units complete", "build", "scorch", "--min-scorched", "5", "-o", end)

	// A damaged file fails verify with exit 1, and no query answers from it.
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.CopyFS(bad, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(bad, "tier-3.tsm")
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x40
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	expect(1, "tier-3.tsm", "verify", bad)

	if runtime.GOOS != "windows" {
		testCLIServe(t, dir)
	}
}

// testCLIServe runs `serve` on a free loopback port, probes a position, and stops the
// server with SIGINT.
func testCLIServe(t *testing.T, dir string) {
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n') // serving NAME at http://ADDR/
	if err != nil {
		t.Fatalf("serve printed %q: %v", line, err)
	}
	base := strings.TrimSpace(line[strings.Index(line, "http://"):])
	resp, err := http.Get(base + "api/v1/tables/scorch/probe?" + url.Values{"state": {"X.......O"}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Value string }
	err = json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	if w := bruteForce()["X.......O"]; err != nil || r.Value != w.outcome() {
		t.Errorf("served probe: %q (%v), want %s", r.Value, err, w.outcome())
	}
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after SIGINT: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Error("serve did not stop after SIGINT")
	}
}
