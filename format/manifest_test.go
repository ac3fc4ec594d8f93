package format

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readManifestSeed reads a real manifest from testdata/manifests.
func readManifestSeed(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "manifests", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParseManifestReal: the manifests of real sets, of this format and of the two
// before it, read as one Manifest.
func TestParseManifestReal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file, kind, game, first string
		members                 int
	}{
		{"tier-set.json", SetTiers, "mill", "3-3", 10},
		{"wdl-tier-set.json", SetTiers, "mill", "3-3", 7},
		{"legacy-sector-set.json", SetTiers, "mill", "3-3", 10},
		{"legacy-pdb-set.json", SetPDB, "slide-pdb", "1,2,3,4", 2},
		{"pdb-set.json", SetPDB, "slide-pdb", "1,2,3,4", 2},
	} {
		m, err := ParseManifest(readManifestSeed(t, c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if m.Format != ManifestFormat || m.Kind != c.kind || m.Game != c.game || len(m.Members) != c.members || m.Members[0].Name != c.first {
			t.Errorf("%s: %+v", c.file, m)
		}
		for _, x := range m.Members {
			if x.File == "" || x.Bytes <= 0 || len(x.SHA256) != 64 {
				t.Errorf("%s: member %+v", c.file, x)
			}
		}
	}
}

// TestLegacyPDBMemberParams: upgrading a pattern-database manifest of the earlier format
// gives each group the parameters its file's metadata states, byte for byte (the board,
// the goal and the tiles, in the order the game marshals them), and the set the board,
// goal and encoding; the counts the old format stated about groups are gone.
func TestLegacyPDBMemberParams(t *testing.T) {
	t.Parallel()
	m, err := ParseManifest(readManifestSeed(t, "legacy-pdb-set.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(m.Params), `{"rows":3,"cols":3,"goal":"blank-last","encoding":"pdb-md-excess"}`; got != want {
		t.Errorf("set params %s, want %s", got, want)
	}
	for i, want := range []string{
		`{"rows":3,"cols":3,"goal":"blank-last","tiles":[1,2,3,4]}`,
		`{"rows":3,"cols":3,"goal":"blank-last","tiles":[5,6,7,8]}`,
	} {
		if got := string(m.Members[i].Params); got != want {
			t.Errorf("member %d params %s, want %s", i+1, got, want)
		}
		if m.Members[i].Build == nil || m.Members[i].Build.Seconds <= 0 {
			t.Errorf("member %d: build %+v, want its seconds", i+1, m.Members[i].Build)
		}
	}
	// The same set written by this version states the same parameters.
	now, err := ParseManifest(readManifestSeed(t, "pdb-set.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(now.Params) != string(m.Params) || len(now.Members) != len(m.Members) {
		t.Errorf("params %s, the upgraded legacy manifest's %s", now.Params, m.Params)
	}
	for i := range now.Members {
		if string(now.Members[i].Params) != string(m.Members[i].Params) || now.Members[i].SHA256 != m.Members[i].SHA256 {
			t.Errorf("member %d: %s, the upgraded legacy manifest's %s", i+1, now.Members[i].Params, m.Members[i].Params)
		}
	}
	b, _ := json.Marshal(m)
	for _, gone := range []string{"max_value", "counts", "code_bits", "entries"} {
		if strings.Contains(string(b), gone) {
			t.Errorf("the upgraded manifest states %s: %s", gone, b)
		}
	}
	// A written manifest keeps the params and reads back the same.
	dir := t.TempDir()
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	back, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Members {
		if string(back.Members[i].Params) != string(m.Members[i].Params) {
			t.Errorf("member %d params read back as %s", i+1, back.Members[i].Params)
		}
	}
}

// TestParseManifestRefuses: every malformed or forged manifest is an error of the right
// kind, never a panic.
func TestParseManifestRefuses(t *testing.T) {
	t.Parallel()
	good := readManifestSeed(t, "tier-set.json")
	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	member := func(m map[string]any, i int) map[string]any { return m["members"].([]any)[i].(map[string]any) }
	for _, c := range []struct {
		name string
		b    []byte
		is   error
	}{
		{"not JSON", []byte("{"), ErrCorrupt},
		{"empty", nil, ErrCorrupt},
		{"other format", edit(func(m map[string]any) { m["format"] = "zip" }), ErrCorrupt},
		{"newer version", edit(func(m map[string]any) { m["version"] = 2 }), ErrVersion},
		{"version 0", edit(func(m map[string]any) { m["version"] = 0 }), ErrCorrupt},
		{"unknown kind", edit(func(m map[string]any) { m["kind"] = "chess" }), ErrCorrupt},
		{"no game", edit(func(m map[string]any) { m["game"] = "" }), ErrCorrupt},
		{"outside", edit(func(m map[string]any) { member(m, 0)["file"] = "../x.tsm" }), ErrCorrupt},
		{"absolute", edit(func(m map[string]any) { member(m, 0)["file"] = "/etc/passwd" }), ErrCorrupt},
		{"the manifest", edit(func(m map[string]any) { member(m, 0)["file"] = ManifestName }), ErrCorrupt},
		{"twice", edit(func(m map[string]any) { member(m, 1)["name"] = member(m, 0)["name"] }), ErrCorrupt},
		{"no name", edit(func(m map[string]any) { member(m, 0)["name"] = "" }), ErrCorrupt},
		{"negative size", edit(func(m map[string]any) { member(m, 0)["bytes"] = -1 }), ErrCorrupt},
		{"short sum", edit(func(m map[string]any) { member(m, 0)["sha256"] = "abc" }), ErrCorrupt},
		{"upper-case sum", edit(func(m map[string]any) {
			member(m, 0)["sha256"] = strings.ToUpper(member(m, 0)["sha256"].(string))
		}), ErrCorrupt},
		{"members not a list", edit(func(m map[string]any) { m["members"] = 7 }), ErrCorrupt},
		{"params not JSON", edit(func(m map[string]any) { member(m, 0)["params"] = 7 }), nil},
		{"pdb member without params", edit(func(m map[string]any) { m["kind"] = SetPDB }), ErrCorrupt},
		{"pdb member with params", edit(func(m map[string]any) {
			m["kind"] = SetPDB
			for i := range m["members"].([]any) {
				member(m, i)["params"] = map[string]any{"tiles": []int{i + 1}}
			}
		}), nil},
	} {
		if c.is == nil {
			if _, err := ParseManifest(c.b); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if _, err := ParseManifest(c.b); !errors.Is(err, c.is) {
			t.Errorf("%s: %v, want %v", c.name, err, c.is)
		}
	}
}

// TestReadManifestFile: a missing manifest names itself, an oversized one is refused
// before it is read whole, and a written one reads back.
func TestReadManifestFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := ReadManifest(dir); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), ManifestName+" is missing") {
		t.Errorf("missing: %v", err)
	}
	big := make([]byte, MaxManifestBytes+10)
	for i := range big {
		big[i] = ' '
	}
	os.WriteFile(filepath.Join(dir, ManifestName), big, 0o644)
	if _, err := ReadManifest(dir); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "no manifest is this large") {
		t.Errorf("oversized: %v", err)
	}
	m, err := ParseManifest(readManifestSeed(t, "tier-set.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	back, err := ReadManifest(dir)
	if err != nil || len(back.Members) != len(m.Members) || back.Members[3].SHA256 != m.Members[3].SHA256 || back.Members[3].File != m.Members[3].File {
		t.Fatalf("round trip: %v, %+v", err, back)
	}
	m.Members[0].File = "../escape"
	if err := WriteManifest(dir, m); !errors.Is(err, ErrCorrupt) {
		t.Errorf("writing a bad manifest: %v", err)
	}
	if err := os.Symlink(filepath.Join(dir, ManifestName), filepath.Join(t.TempDir(), "x")); err == nil {
		link := t.TempDir()
		os.Symlink(filepath.Join(dir, ManifestName), filepath.Join(link, ManifestName))
		if err := CheckManifestPath(link); err == nil {
			t.Error("a symlinked manifest passed CheckManifestPath")
		}
	}
}

// FuzzParseManifest: any bytes give a manifest that passes its own checks, or an error;
// never a panic. A manifest that parses writes and reads back the same.
func FuzzParseManifest(f *testing.F) {
	for _, name := range []string{"tier-set.json", "wdl-tier-set.json", "legacy-sector-set.json", "legacy-pdb-set.json", "pdb-set.json"} {
		f.Add(readManifestSeed(f, name))
	}
	f.Add([]byte(`{"format":"tablesmith-set","version":1,"kind":"pdb","game":"g","members":[]}`))
	f.Add([]byte(`{"format":"tablesmith-set","version":1,"kind":"pdb","game":"slide-pdb","params":{"rows":3,"cols":3,"goal":"blank-last","encoding":"pdb-md-excess"},` +
		`"members":[{"name":"1,2,3,4","file":"group1-94fe3e88.tsm","bytes":1262,"sha256":"d18c5b83cdb214c8be95c2a37cd7919eabe4f460882f70ed68ce152a4c699a4c",` +
		`"params":{"rows":3,"cols":3,"goal":"blank-last","tiles":[1,2,3,4]},"build":{"seconds":0.5}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseManifest(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVersion) {
				t.Fatalf("an error of no kind: %v", err)
			}
			return
		}
		for _, x := range m.Members {
			if CheckMemberFile(x.File) != nil {
				t.Fatalf("member file %q passed", x.File)
			}
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseManifest(again); err != nil && !m.legacy {
			t.Fatalf("a parsed manifest does not parse again: %v\n%s", err, again)
		}
	})
}

// TestManifestValues: a tiered set states what it stores — nothing for a full set (as
// sets built before win/draw/loss-only sets), "wdl" for one of those; any other word, or
// values in a pattern-database set, is corrupt.
func TestManifestValues(t *testing.T) {
	t.Parallel()
	full, err := ParseManifest(readManifestSeed(t, "tier-set.json"))
	if err != nil {
		t.Fatal(err)
	}
	wdl, err := ParseManifest(readManifestSeed(t, "wdl-tier-set.json"))
	if err != nil {
		t.Fatal(err)
	}
	if full.Values != "" || full.ValueKind() != ValuesFull || wdl.Values != ValuesWDL || wdl.ValueKind() != ValuesWDL {
		t.Fatalf("values %q (%s) and %q (%s)", full.Values, full.ValueKind(), wdl.Values, wdl.ValueKind())
	}
	b, err := json.Marshal(full)
	if err != nil || strings.Contains(string(b), `"values"`) {
		t.Errorf("a full set's manifest writes %s", b)
	}
	for _, c := range []struct{ seed, values string }{
		{"tier-set.json", "remoteness"}, {"tier-set.json", "WDL"}, {"pdb-set.json", "wdl"}, {"pdb-set.json", "full"},
	} {
		var raw map[string]any
		if err := json.Unmarshal(readManifestSeed(t, c.seed), &raw); err != nil {
			t.Fatal(err)
		}
		raw["values"] = c.values
		b, _ := json.Marshal(raw)
		if _, err := ParseManifest(b); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "values") {
			t.Errorf("%s with values %q: %v", c.seed, c.values, err)
		}
	}
	ok := *full
	ok.Values = ValuesFull
	b, _ = json.Marshal(&ok)
	if m, err := ParseManifest(b); err != nil || m.ValueKind() != ValuesFull {
		t.Errorf(`values "full" stated: %v`, err)
	}
}
