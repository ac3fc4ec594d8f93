package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/serve"
)

// The tables the tests serve, built once per test binary into one directory:
//
//	eight.tsm        the 8-puzzle, every state (lex)
//	hanoi.tsm        Towers of Hanoi, 4 pegs × 5 disks
//	hanoi3.tsm       Towers of Hanoi, 3 pegs × 6 disks
//	pdb8/            a pattern-database set of the 8-puzzle, tiles 1-4 / 5-8
//
// and beside it, never named to a server, hidden/secret.tsm (a copy of eight.tsm): the
// path-traversal tests check no request ever reaches it.
var (
	fixOnce sync.Once
	fixDir  string
	fixErr  error

	millOnce sync.Once
	millDir  string
	millErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range []string{fixDir, millDir, promDir, morrisDir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// millFixture returns a Mühle sector set of every sector with at most 7 stones (3-3,
// 3-4, 4-3), built once per test binary (apart from fixtures: the other tests list those);
// with -short (the race detector's runs) sector 3-3 alone, a tenth of the work.
func millFixture(t testing.TB) string {
	t.Helper()
	millOnce.Do(func() {
		if millDir, millErr = os.MkdirTemp("", "tablesmith-serve-mill-*"); millErr == nil {
			g := mill.Game{}
			want := []string{"4-3"}
			if testing.Short() {
				want = []string{"3-3"}
			}
			var tiers []games.Tier
			for _, name := range want {
				tier, _ := g.ParseTier(name)
				tiers = append(tiers, tier)
			}
			millErr = pipeline.BuildTierSet(context.Background(), g, filepath.Join(millDir, "mill"), pipeline.TierPlan(g, tiers), pipeline.TierOptions{Workers: 2})
		}
	})
	if millErr != nil {
		t.Fatal(millErr)
	}
	return filepath.Join(millDir, "mill")
}

// fixtures returns the directory of the served tables (see above).
func fixtures(t testing.TB) string {
	t.Helper()
	fixOnce.Do(func() { fixDir, fixErr = buildFixtures() })
	if fixErr != nil {
		t.Fatal(fixErr)
	}
	return filepath.Join(fixDir, "served")
}

func buildFixtures() (string, error) {
	root, err := os.MkdirTemp("", "tablesmith-serve-test-*")
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "served")
	if err := errors.Join(os.MkdirAll(dir, 0o755), os.MkdirAll(filepath.Join(root, "hidden"), 0o755)); err != nil {
		return root, err
	}
	ctx := context.Background()
	for _, p := range []struct{ file, game, params, index string }{
		{"eight.tsm", "slide", `{"rows":3,"cols":3,"goal":"blank-last"}`, "lex"},
		{"hanoi.tsm", "hanoi", `{"pegs":4,"disks":5}`, ""},
		{"hanoi3.tsm", "hanoi", `{"pegs":3,"disks":6}`, ""},
	} {
		in, err := registry.Open(p.game, json.RawMessage(p.params), p.index)
		if err != nil {
			return root, err
		}
		if _, err := pipeline.BuildPuzzle(ctx, in, filepath.Join(dir, p.file), pipeline.PuzzleOptions{Workers: 2}); err != nil {
			return root, err
		}
	}
	set, err := slide.PDBSpec{Rows: 3, Cols: 3, Groups: [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}}.Set()
	if err != nil {
		return root, err
	}
	spec := pipeline.PDBBuildSpec{Family: slide.PDBGame{}, PDBSetSpec: set}
	if _, err := pipeline.BuildPDBSet(ctx, filepath.Join(dir, "pdb8"), spec, pipeline.PDBOptions{Workers: 2}); err != nil {
		return root, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "eight.tsm"))
	if err == nil {
		err = os.WriteFile(filepath.Join(root, "hidden", "secret.tsm"), b, 0o644)
	}
	return root, err
}

// newServer serves paths (default: the fixtures directory) on a loopback test server.
func newServer(t testing.TB, opt serve.Options, paths ...string) (*serve.Server, *httptest.Server) {
	t.Helper()
	if len(paths) == 0 {
		paths = []string{fixtures(t)}
	}
	s, err := serve.New(paths, opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); s.Close() })
	return s, ts
}

// get fetches url and returns the status, the Content-Type and the body.
func get(t testing.TB, url string) (int, string, string) {
	t.Helper()
	return do(t, http.MethodGet, url, nil)
}

func do(t testing.TB, method, url string, body io.Reader) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Content-Type"), string(b)
}

// decode parses one JSON object.
func decode(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(s)), &m); err != nil {
		t.Fatalf("not a JSON object: %v: %q", err, s)
	}
	return m
}

// TestServerPreload decodes every table file served before any request (the set of
// pattern databases is left alone), reporting each by its URL name, and the probes
// answer as before.
func TestServerPreload(t *testing.T) {
	t.Parallel()
	s, ts := newServer(t, serve.Options{})
	_, _, before := get(t, ts.URL+"/api/v1/tables/eight/probe?state=867254301&path=1")
	var mu sync.Mutex
	seen := map[string]uint64{}
	err := s.Preload(context.Background(), 2, func(name string, done, total uint64) {
		mu.Lock()
		defer mu.Unlock()
		if done > total {
			t.Errorf("%s: %d of %d blocks", name, done, total)
		}
		seen[name] = max(seen[name], done)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 3 || seen["eight"] == 0 || seen["hanoi"] == 0 || seen["hanoi3"] == 0 {
		t.Fatalf("preloaded %v, want the three table files", seen)
	}
	if _, _, after := get(t, ts.URL+"/api/v1/tables/eight/probe?state=867254301&path=1"); after != before || !strings.Contains(after, `"remoteness":31`) {
		t.Fatalf("probe after preload %s, before %s", after, before)
	}
}
