package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/format"
)

// TestQueryPathOnLoneSectorFile (issue 38, item 5): --path on one sector's file of a set
// is refused as a usage error (a line crosses sectors), not silently ignored; a set's
// manifest given for its directory says to give the directory (item 12).
func TestQueryPathOnLoneSectorFile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "m")
	if code, _, stderr := runCmd(t, "", "build", "mill", "--max-stones", "6", "--workers", "2", "-o", dir); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	const pos = "WWW.....BBB............. W"
	file := filepath.Join(dir, "sector-3-3.tsm")
	code, out, stderr := runCmd(t, "", "query", "--path", file, pos)
	if code != exitUsage || out != "" || !strings.Contains(stderr, "--path") || !strings.Contains(stderr, "query the set's directory") {
		t.Errorf("query --path FILE: exit %d: %s%s", code, out, stderr)
	}
	if code, out, _ := runCmd(t, "", "query", file, pos); code != exitOK || !strings.HasPrefix(out, pos+": ") {
		t.Errorf("query FILE: exit %d: %s", code, out)
	}
	if code, out, _ := runCmd(t, "", "query", "--path", dir, pos); code != exitOK || !strings.Contains(out, "; line ") {
		t.Errorf("query --path DIR: exit %d: %s", code, out)
	}
	code, _, stderr = runCmd(t, "", "query", filepath.Join(dir, "manifest.json"), pos)
	if code == exitOK || !strings.Contains(stderr, "give the set's directory, "+dir) {
		t.Errorf("query DIR/manifest.json: exit %d: %s", code, stderr)
	}
}

// TestVerifyLegacyManifestSaysWhatWasNotChecked (issue 38, item 6): verify of a set whose
// manifest (of an earlier format) records no SHA-256 never claims the SHA-256 matched: it
// says they were not checked.
func TestVerifyLegacyManifestSaysWhatWasNotChecked(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "m")
	if code, _, stderr := runCmd(t, "", "build", "mill", "--max-stones", "6", "--workers", "2", "-o", dir); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	m, err := format.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	type sector struct {
		Sector string `json:"sector"`
		File   string `json:"file"`
		Bytes  int64  `json:"bytes"`
	}
	old := struct {
		Format  string   `json:"format"`
		Version int      `json:"version"`
		Game    string   `json:"game"`
		Rules   string   `json:"rules"`
		Sectors []sector `json:"sectors"`
	}{Format: "tablesmith-sector-set", Version: 1, Game: m.Game, Rules: m.Rules}
	for _, x := range m.Members {
		old.Sectors = append(old.Sectors, sector{x.Name, x.File, x.Bytes})
	}
	b, _ := json.Marshal(old)
	if err := os.WriteFile(filepath.Join(dir, format.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"verify", dir}, {"verify", "--checksums-only", dir}, {"verify", "--tier", "3-3", dir}} {
		code, out, stderr := runCmd(t, "", args...)
		if code != exitOK || strings.Contains(out, "SHA-256 match") || strings.Contains(out, "SHA-256 and") ||
			!strings.Contains(out, "SHA-256 not checked") {
			t.Errorf("%q: exit %d: %s%s", args, code, out, stderr)
		}
	}
}

// TestPlanVerifyRefusesOtherRules (issue 38, item 8): plan verify refuses a set built
// under other rules, as verify (and every other command) does.
func TestPlanVerifyRefusesOtherRules(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "m")
	if code, _, stderr := runCmd(t, "", "build", "mill", "--max-stones", "6", "--workers", "2", "-o", dir); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	if code, out, stderr := runCmd(t, "", "plan", "verify", dir); code != exitOK {
		t.Fatalf("plan verify: exit %d: %s%s", code, out, stderr)
	}
	m, err := format.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.Rules = "mill-v1-0000000000000000"
	b, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, format.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"verify", dir}, {"plan", "verify", dir}} {
		code, out, stderr := runCmd(t, "", args...)
		if code != exitFail || strings.Count(out+stderr, "built under other rules") != 1 {
			t.Errorf("%q: exit %d: %s%s", args, code, out, stderr)
		}
	}
}

// TestBuildChecksEveryOutputPathFirst (issue 38, item 9): a symbolic link at the output
// path of the last unit of a build is refused before the first unit is built.
func TestBuildChecksEveryOutputPathFirst(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "m")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// 4-3 and 3-4 are built after 3-3, which their captures lead into.
	if err := os.Symlink(filepath.Join(t.TempDir(), "elsewhere.tsm"), filepath.Join(dir, "sector-4-3.tsm")); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd(t, "", "build", "mill", "--max-stones", "7", "--workers", "2", "-o", dir)
	if code != exitFail || !strings.Contains(stderr, "sector-4-3.tsm is a symbolic link") {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "sector-3-3.tsm")); err == nil {
		t.Error("sector 3-3 was built before the refusal")
	}
}

// TestServeStopCutsStalledStream (issue 38, item 12): serve stopped while a stream is in
// flight past the grace period cuts it and exits 0, saying so, not 1 with "context
// deadline exceeded". Not parallel: it shortens the grace period and signals the process.
func TestServeStopCutsStalledStream(t *testing.T) {
	old := shutdownTimeout
	shutdownTimeout = 300 * time.Millisecond
	defer func() { shutdownTimeout = old }()
	pr, pw := io.Pipe()
	var stderr syncBuffer
	e := &env{stdin: strings.NewReader(""), stdout: pw, stderr: &stderr}
	exit := make(chan int, 1)
	go func() { exit <- run(e, []string{"serve", "--addr", "127.0.0.1:0", eightTable(t)}); pw.Close() }()
	first, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no startup line: %v (exit %v, stderr %s)", err, <-exit, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	base := strings.TrimSpace(first[strings.Index(first, "http://"):])
	body, send := io.Pipe()
	defer send.Close()
	resc := make(chan *http.Response, 1)
	go func() {
		res, err := http.Post(base+"api/v1/tables/eight/probe?moves=0", "text/plain", body)
		if err != nil {
			t.Error(err)
		}
		resc <- res
	}()
	send.Write([]byte("123456780\n"))
	res := <-resc
	if res == nil {
		t.FailNow()
	}
	defer res.Body.Close()
	if line, err := bufio.NewReader(res.Body).ReadString('\n'); err != nil || !strings.Contains(line, `"remoteness":0`) {
		t.Fatalf("first answer %q, %v", line, err)
	}
	terminateSelf(t) // and the stream sends nothing more
	select {
	case code := <-exit:
		if code != exitOK || !strings.Contains(stderr.String(), "were cut off") || strings.Contains(stderr.String(), "deadline") {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop after SIGTERM")
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestSbatchFlagRefusesEmpty (issue 38, item 12): --sbatch-flag ” (or a word that is no
// option) is a usage error, not a job script whose sbatch reads an empty script name.
func TestSbatchFlagRefusesEmpty(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "p")
	for _, v := range []string{"", " ", "long"} {
		code, _, stderr := runCmd(t, "", "plan", "mill", "--max-stones", "7", "-o", dir, "--emit", "slurm", "--sbatch-flag", v)
		if code != exitUsage || !strings.Contains(stderr, "want one sbatch option") {
			t.Errorf("--sbatch-flag %q: exit %d: %s", v, code, stderr)
		}
	}
	if code, out, stderr := runCmd(t, "", "plan", "mill", "--max-stones", "7", "-o", dir, "--emit", "slurm", "--sbatch-flag", "--qos=long"); code != exitOK || !strings.Contains(out, "--qos=long") {
		t.Errorf("--sbatch-flag --qos=long: exit %d: %s", code, stderr)
	}
}
