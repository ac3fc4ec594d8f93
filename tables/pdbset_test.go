package tables_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/internal/pdbtest"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

// TestLegacyPDBSetOpens: a pattern-database set written before the one set manifest
// (testdata/pdb8-v1, manifest format tablesmith-pdb-set) opens, answers and verifies,
// its members' SHA-256 checked.
func TestLegacyPDBSetOpens(t *testing.T) {
	t.Parallel()
	set, err := tables.OpenSet(filepath.Join("testdata", "pdb8-v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	if err := set.Verify(context.Background(), tables.VerifyOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if err := set.CheckMembers(); err != nil {
		t.Fatal(err)
	}
	for state, want := range map[string]int{"867254301": 29, "087654321": 26, "123456780": 0} {
		if a, err := set.Lookup(state); err != nil || a.Remoteness != want || a.Outcome != values.Bound {
			t.Errorf("%s: %+v, %v; want a bound of %d", state, a, err, want)
		}
	}
	m := set.Manifest()
	if m.Kind != format.SetPDB || len(m.Members) != 2 || string(m.Members[1].Params) != `{"rows":3,"cols":3,"goal":"blank-last","tiles":[5,6,7,8]}` {
		t.Errorf("manifest %+v", m)
	}
}

// TestOpenSetChecksPDBMembers: OpenSet checks each group file against its member through
// the game alone — the game, the parameters (compared as the game reads them), a
// pattern-database encoding shared by every group, and the size — and Verify and
// CheckMembers the SHA-256.
func TestOpenSetChecksPDBMembers(t *testing.T) {
	t.Parallel()
	build := func(t *testing.T, enc string) string {
		dir := t.TempDir()
		spec := pdbtest.SlideSpec(t, slide.PDBSpec{Rows: 2, Cols: 3, Groups: [][]uint8{{1, 2, 3}, {4, 5}}}, enc)
		if _, err := pipeline.BuildPDBSet(context.Background(), dir, spec, pipeline.PDBOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	edit := func(t *testing.T, dir string, f func(m *format.Manifest)) {
		m, err := format.ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		f(m)
		if err := format.WriteManifest(dir, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name    string
		damage  func(t *testing.T, dir string)
		mention string // "" when OpenSet succeeds
	}{
		{"intact", func(*testing.T, string) {}, ""},
		{"params respelled", func(t *testing.T, dir string) {
			edit(t, dir, func(m *format.Manifest) {
				m.Members[0].Params = json.RawMessage(`{"tiles":[1,2,3], "goal":"blank-last","cols":3,"rows":2}`)
			})
		}, ""},
		{"other tiles", func(t *testing.T, dir string) {
			edit(t, dir, func(m *format.Manifest) {
				m.Members[1].Params = json.RawMessage(`{"rows":2,"cols":3,"goal":"blank-last","tiles":[4]}`)
			})
		}, "the manifest says"},
		{"unknown parameter", func(t *testing.T, dir string) {
			edit(t, dir, func(m *format.Manifest) {
				m.Members[1].Params = json.RawMessage(`{"rows":2,"cols":3,"goal":"blank-last","tiles":[4,5],"max_value":3}`)
			})
		}, "max_value"},
		{"files swapped", func(t *testing.T, dir string) {
			edit(t, dir, func(m *format.Manifest) {
				m.Members[0].File, m.Members[1].File = m.Members[1].File, m.Members[0].File
				m.Members[0].Bytes, m.Members[1].Bytes = m.Members[1].Bytes, m.Members[0].Bytes
			})
		}, "the manifest says"},
		{"other game", func(t *testing.T, dir string) {
			edit(t, dir, func(m *format.Manifest) { m.Game = "slide" })
		}, "no pattern-database family"},
		{"other set encoding", func(t *testing.T, dir string) {
			edit(t, dir, func(m *format.Manifest) {
				m.Params = json.RawMessage(`{"rows":2,"cols":3,"goal":"blank-last","encoding":"pdb-value"}`)
			})
		}, "encoding"},
		{"size", func(t *testing.T, dir string) {
			edit(t, dir, func(m *format.Manifest) { m.Members[1].Bytes++ })
		}, "the manifest says"},
		// A whole group listed twice (under another name): each file is intact, but the
		// bounds would add up to more than a state needs.
		{"a group twice", func(t *testing.T, dir string) {
			edit(t, dir, func(m *format.Manifest) {
				dup := m.Members[0]
				dup.Name = "again"
				m.Members = append(m.Members, dup)
			})
		}, "do not form one set"},
		{"misnamed group", func(t *testing.T, dir string) {
			edit(t, dir, func(m *format.Manifest) { m.Members[0].Name = "1,2" })
		}, "holds the group 1,2,3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := build(t, "")
			c.damage(t, dir)
			set, err := tables.OpenSet(dir)
			if c.mention == "" {
				if err != nil {
					t.Fatal(err)
				}
				set.Close()
				return
			}
			if err == nil {
				set.Close()
				t.Fatal("opened")
			}
			if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), c.mention) {
				t.Fatalf("%v: want a corrupt set mentioning %q", err, c.mention)
			}
		})
	}

	// A group of the other encoding in the set: refused.
	t.Run("mixed encodings", func(t *testing.T) {
		t.Parallel()
		dir, other := build(t, ""), build(t, string(values.EncodingPDBValue))
		mo, err := format.ReadManifest(other)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(other, mo.Members[1].File))
		os.WriteFile(filepath.Join(dir, mo.Members[1].File), b, 0o644)
		edit(t, dir, func(m *format.Manifest) {
			m.Params = nil
			m.Members[1] = mo.Members[1]
		})
		if set, err := tables.OpenSet(dir); err == nil || !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "encoding") {
			if set != nil {
				set.Close()
			}
			t.Fatalf("%v: want mixed encodings refused", err)
		}
	})

	// A member's SHA-256 is checked by Verify and CheckMembers, not on open.
	t.Run("sha256", func(t *testing.T) {
		t.Parallel()
		dir := build(t, "")
		edit(t, dir, func(m *format.Manifest) { m.Members[0].SHA256 = strings.Repeat("0", 64) })
		set, err := tables.OpenSet(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer set.Close()
		if err := set.CheckMembers(); !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "SHA-256") {
			t.Errorf("CheckMembers: %v", err)
		}
		if err := set.Verify(context.Background(), tables.VerifyOptions{Workers: 1}); !errors.Is(err, format.ErrCorrupt) {
			t.Errorf("Verify: %v", err)
		}
	})
}
