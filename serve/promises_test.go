package serve_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/serve"
)

// The set of the promise tests: Mühle's sectors 3-3, 3-4 and 4-3 (a position of 3-4 moves
// into 4-3), built once with a build record that names a host and a command line with
// the building machine's directories, as a real build's does.
var (
	promOnce sync.Once
	promDir  string
	promErr  error
)

// posIn34 is a position of sector 3-4 (White, to move, has 3 stones, Black 4): every
// move leads into sector 4-3.
const posIn34 = "WWW.....BBB.B........... W"

// promiseSet returns a fresh copy of the set under a deep absolute directory of t's.
func promiseSet(t *testing.T) string {
	t.Helper()
	promOnce.Do(func() {
		if promDir, promErr = os.MkdirTemp("", "tablesmith-serve-promises-*"); promErr != nil {
			return
		}
		g := mill.Game{}
		tier, _ := g.ParseTier("4-3")
		b := pipeline.Stamp(2, []string{"build", "mill", "-o", "/home/secret-user/tables/mill"})
		b.Host = "secret-host.example"
		promErr = pipeline.BuildTierSet(context.Background(), g, filepath.Join(promDir, "mill"),
			pipeline.TierPlan(g, []games.Tier{tier}), pipeline.TierOptions{Workers: 2, Build: b})
	})
	if promErr != nil {
		t.Fatal(promErr)
	}
	dst := filepath.Join(t.TempDir(), "deep", "server-side", "mill")
	copyDir(t, filepath.Join(promDir, "mill"), dst)
	return dst
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	des, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		b, err := os.ReadFile(filepath.Join(src, de.Name()))
		if err == nil {
			err = os.WriteFile(filepath.Join(dst, de.Name()), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// noServerSide fails when an answer names a server-side directory, the building host or
// its command line.
func noServerSide(t *testing.T, what, body string, dirs ...string) {
	t.Helper()
	for _, bad := range append(dirs, "secret-host", "secret-user", `"host"`, `"command"`, os.TempDir()) {
		if strings.Contains(body, bad) {
			t.Errorf("%s names %q: %s", what, bad, body)
		}
	}
}

// dropMember removes member name of the set in dir, file and manifest entry.
func dropMember(t *testing.T, dir, name string) {
	t.Helper()
	m, err := format.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var keep []format.Member
	for _, x := range m.Members {
		if x.Name == name {
			os.Remove(filepath.Join(dir, x.File))
			continue
		}
		keep = append(keep, x)
	}
	m.Members = keep
	b, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, format.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// damageBlocks overwrites every compressed block of a table file, leaving its
// header, metadata, block index and footer whole: the damage shows on a read of values.
func damageBlocks(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// Every block: from the header's end (52 bytes) to the metadata, whose offset is the
	// footer's first field.
	meta := binary.LittleEndian.Uint64(b[len(b)-64:])
	for i := uint64(52); i < meta; i++ {
		b[i] ^= 0x5a
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNoServerPathsInAnswers (issue 38, item 1): no answer of the API carries a
// server-side path, the building host or its command line — not the list, not a table's
// page, not a damaged member's 500, not a win/draw/loss-only set's refusal of a line.
func TestNoServerPathsInAnswers(t *testing.T) {
	t.Parallel()
	dir := promiseSet(t)
	wdl := filepath.Join(filepath.Dir(dir), "mill-wdl")
	if err := pipeline.ConvertTierSet(context.Background(), mill.Game{}, dir, wdl, pipeline.ConvertOptions{Workers: 2,
		Build: format.Build{Tool: "tablesmith", Host: "secret-host.example", Command: "tablesmith convert -o /home/secret-user/x"}}); err != nil {
		t.Fatal(err)
	}
	// Served through a symbolic link too: its resolved spelling is hidden as well.
	link := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(filepath.Dir(dir), link); err != nil {
		t.Fatal(err)
	}
	_, ts := newServer(t, serve.Options{}, dir, wdl, filepath.Join(link, "mill"))
	parent := filepath.Dir(filepath.Dir(dir))
	for _, u := range []string{"/api/v1/tables", "/api/v1/tables/mill", "/api/v1/tables/mill-wdl", "/api/v1/tables/mill-2"} {
		code, _, body := get(t, ts.URL+u)
		if code != 200 || !strings.Contains(body, "sector-3-4.tsm") {
			t.Fatalf("%s: %d %s", u, code, body)
		}
		noServerSide(t, u, body, parent, link)
	}
	code, _, body := get(t, probeURL(ts.URL, "mill-wdl", posIn34, "path=1"))
	if code != 400 || !strings.Contains(body, "win/draw/loss-only") {
		t.Errorf("path=1 on the win/draw/loss-only set: %d %s", code, body)
	}
	noServerSide(t, "path=1 on the win/draw/loss-only set", body, parent, link)

	// A member damaged while served: its 500 names the file by its base name.
	damageBlocks(t, filepath.Join(dir, "sector-4-3.tsm")) // mill-2's too: the same file
	for _, name := range []string{"mill", "mill-2"} {
		code, _, body = get(t, probeURL(ts.URL, name, posIn34))
		if code != 500 || !strings.Contains(body, "sector-4-3.tsm") {
			t.Errorf("%s, damaged: %d %s", name, code, body)
		}
		noServerSide(t, name+", damaged", body, parent, link)
	}
}

// TestMovesZeroReadsOwnTier (issue 38, item 2): moves=0 answers from the position's own
// sector alone: a sector its moves lead into may be damaged or missing.
func TestMovesZeroReadsOwnTier(t *testing.T) {
	t.Parallel()
	damaged, missing := promiseSet(t), promiseSet(t)
	dropMember(t, missing, "4-3")
	_, ts := newServer(t, serve.Options{}, damaged, missing)
	damageBlocks(t, filepath.Join(damaged, "sector-4-3.tsm")) // after the server opened it
	for _, name := range []string{"mill", "mill-2"} {
		code, _, body := get(t, probeURL(ts.URL, name, posIn34, "moves=0"))
		var p millProbe
		if err := json.Unmarshal([]byte(body), &p); code != 200 || err != nil || p.Value == "" || p.Moves != nil {
			t.Errorf("%s, moves=0: %d %v %s", name, code, err, body)
		}
		code, _, body = do(t, "POST", probeURL(ts.URL, name, "", "moves=0"), strings.NewReader(posIn34+"\n"+posIn34+"\n"))
		if code != 200 || strings.Count(body, `"value"`) != 2 || strings.Contains(body, "error") {
			t.Errorf("%s, POST moves=0: %d %s", name, code, body)
		}
	}
}

// TestIncompleteSetIsServerSide (issue 38, item 7): a valid position whose move leads
// into a sector the set lacks is no bad request: the answer says the set is incomplete,
// with a server-side status.
func TestIncompleteSetIsServerSide(t *testing.T) {
	t.Parallel()
	dir := promiseSet(t)
	dropMember(t, dir, "4-3")
	_, ts := newServer(t, serve.Options{}, dir)
	code, _, body := get(t, probeURL(ts.URL, "mill", posIn34))
	if code != 500 || !strings.Contains(body, "incomplete set") || !strings.Contains(body, "sector 4-3") || strings.Contains(body, "invalid state") {
		t.Errorf("a move into a missing sector: %d %s", code, body)
	}
	// A position of a sector the set does not hold is still the question's fault.
	code, _, body = get(t, probeURL(ts.URL, "mill", "WWWW....BBB............. W"))
	if code != 400 || !strings.Contains(body, "invalid state") {
		t.Errorf("a position of a sector not in the set: %d %s", code, body)
	}
}

// TestPathOnLoneTierFileRefused (issue 38, item 5, in the API): path=1 on one sector's
// file of a set is refused (400) rather than silently ignored; without it the file answers.
func TestPathOnLoneTierFileRefused(t *testing.T) {
	t.Parallel()
	dir := promiseSet(t)
	_, ts := newServer(t, serve.Options{}, filepath.Join(dir, "sector-3-4.tsm"))
	code, _, body := get(t, probeURL(ts.URL, "sector-3-4", posIn34, "path=1"))
	if code != 400 || !strings.Contains(body, "line crosses tiers") {
		t.Errorf("path=1: %d %s", code, body)
	}
	if code, _, body := get(t, probeURL(ts.URL, "sector-3-4", posIn34)); code != 200 || !strings.Contains(body, `"value"`) {
		t.Errorf("without path: %d %s", code, body)
	}
}

// TestRelativePathsHidden (issue 38, item 1): a set served by a relative path is named in
// errors by its files' base names too; the state field of an answer is never rewritten.
func TestRelativePathsHidden(t *testing.T) {
	dir := promiseSet(t)
	t.Chdir(filepath.Dir(dir)) // not parallel: the working directory is the process's
	_, ts := newServer(t, serve.Options{}, "mill")
	damageBlocks(t, filepath.Join(dir, "sector-4-3.tsm"))
	code, _, body := get(t, probeURL(ts.URL, "mill", posIn34))
	if code != 500 || !strings.Contains(body, `sector-4-3.tsm`) || strings.Contains(body, "mill/") {
		t.Errorf("damaged, served as mill: %d %s", code, body)
	}
	code, _, body = get(t, probeURL(ts.URL, "mill", "mill/ mill/x W"))
	if code != 400 || !strings.Contains(body, `"state":"mill/ mill/x W"`) {
		t.Errorf("a state holding the name: %d %s", code, body)
	}
}
