package tables_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/registry"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/tables"
	"github.com/tablesmith/tablesmith/values"
)

// TestCorruptTableNeverAnswersWrong flips one bit at a spread of offsets in a real
// 8-puzzle table: each damaged file must fail to open, fail to verify, or answer every
// sampled state exactly as the intact table does — and every failure is ErrCorrupt.
func TestCorruptTableNeverAnswersWrong(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 10 s")
	t.Parallel()
	_, good := buildEight(t, "lex", "blank-last", 2)
	path := filepath.Join(t.TempDir(), "good.tsm")
	raw, err := os.ReadFile(goodPath(t, good))
	if err != nil {
		t.Fatal(err)
	}
	states := []string{"123456780", "867254301", "123456708", "213456780", "087654321", "471506238"}
	want := make([]tables.Answer, len(states))
	for i, s := range states {
		if want[i], err = good.Lookup(s); err != nil {
			t.Fatal(err)
		}
	}
	step := max(1, len(raw)/200)
	for off := 0; off < len(raw); off += step {
		bad := append([]byte(nil), raw...)
		bad[off] ^= 1 << (off % 8)
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		tab, err := tables.Open(path)
		if err != nil {
			if !errors.Is(err, format.ErrCorrupt) {
				t.Fatalf("flip at %d: open error %v is not ErrCorrupt", off, err)
			}
			continue
		}
		for i, s := range states {
			a, err := tab.Lookup(s)
			if err != nil {
				if !errors.Is(err, format.ErrCorrupt) {
					t.Fatalf("flip at %d: lookup error %v is not ErrCorrupt", off, err)
				}
				continue
			}
			if a != want[i] {
				t.Fatalf("flip at %d: %s answered %+v, intact table %+v", off, s, a, want[i])
			}
		}
		if err := tab.Verify(context.Background(), tables.VerifyOptions{}); !errors.Is(err, format.ErrCorrupt) {
			t.Fatalf("flip at %d: verify returned %v, want ErrCorrupt", off, err)
		}
		tab.Close()
	}
	for _, n := range []int{0, 10, 40, len(raw) / 2, len(raw) - 1} {
		if err := os.WriteFile(path, raw[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := tables.Open(path); !errors.Is(err, format.ErrCorrupt) {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
}

// goodPath finds the file of an open table built by buildEight.
func goodPath(t *testing.T, tab *tables.Table) string {
	t.Helper()
	return tab.File()
}

func TestOpenRejectsForeignMetadata(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, meta := range map[string]format.Metadata{
		"unknown game":  {Game: "chess", Encoding: string(values.EncodingRemoteness)},
		"bad params":    {Game: "slide", Index: "lex", Params: []byte(`{"rows":"x"}`), Encoding: string(values.EncodingRemoteness)},
		"wrong slots":   {Game: "slide", Index: "lex", Params: []byte(`{"rows":2,"cols":2}`), Encoding: string(values.EncodingRemoteness)},
		"bad encoding":  {Game: "slide", Index: "lex", Params: []byte(`{"rows":2,"cols":2}`), Encoding: "wdl"},
		"unknown index": {Game: "slide", Index: "nope", Params: []byte(`{"rows":2,"cols":2}`), Encoding: string(values.EncodingRemoteness)},
	} {
		meta.CodeBits = 4
		meta.Slots = 7
		path := filepath.Join(dir, "x.tsm")
		src := func(dst []uint32, start uint64) {
			for i := range dst {
				dst[i] = 1
			}
		}
		if _, err := format.WriteFile(context.Background(), path, meta, src, format.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := tables.Open(path); err == nil {
			t.Errorf("%s: opened without error", name)
		}
	}
}

// TestNeighborsAreNormalized pins the Domain contract the path walk relies on: every
// neighbour a game returns is already in Normalize's spelling.
func TestNeighborsAreNormalized(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		meta  format.Metadata
		state string
	}{
		{format.Metadata{Game: "slide", Index: "lex", Params: []byte(`{"rows":3,"cols":3}`)}, "1 2 3 / 4 0 5 / 6 7 8"},
		{format.Metadata{Game: "slide", Index: "lex-half", Params: []byte(`{"rows":3,"cols":4}`)}, "1,2,3,4,5,6,7,8,9,10,0,11"},
		{format.Metadata{Game: "hanoi", Index: "classes", Params: []byte(`{"pegs":4,"disks":6}`)}, "0, 1, 2, 3, 1, 0"},
	} {
		in, err := registry.Open(c.meta.Game, c.meta.Params, c.meta.Index)
		if err != nil {
			t.Fatal(err)
		}
		dom := in.Space.(tables.PuzzleDomain)
		nbrs, err := dom.Neighbors(c.state)
		if err != nil || len(nbrs) == 0 {
			t.Fatalf("%s: %v, %v", c.state, nbrs, err)
		}
		for _, n := range nbrs {
			if norm, err := dom.Normalize(n); err != nil || norm != n {
				t.Errorf("%s: neighbour %q normalises to %q (%v)", c.meta.Game, n, norm, err)
			}
		}
	}
}
