package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablesmith/tablesmith/format"
)

// writeTable writes a table of slots 4-bit codes (code(i) for slot i), built at the
// given time, and returns its path.
func writeTable(t *testing.T, slots uint64, created time.Time, code func(uint64) uint32) string {
	t.Helper()
	meta := format.Metadata{Game: "test", Params: json.RawMessage(`{}`), Index: "identity", Encoding: "raw",
		Slots: slots, CodeBits: 4, Build: format.Build{Tool: "samecodes-test", Created: created, Command: created.String()}}
	path := filepath.Join(t.TempDir(), "t.tsm")
	src := func(dst []uint32, start uint64) {
		for i := range dst {
			dst[i] = code(start + uint64(i))
		}
	}
	if _, err := format.WriteFile(context.Background(), path, meta, src, format.WriteOptions{SlotsPerBlock: 1000}); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCompare: tables that differ only in their metadata are the same codes; one code
// changed past the first chunk, or another slot count, is reported with the slot.
func TestCompare(t *testing.T) {
	t.Parallel()
	const slots = 1<<20 + 12345 // more than one chunk
	code := func(i uint64) uint32 { return uint32(i*2654435761>>7) & 15 }
	t0, t1 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 2, 2, 0, 0, 0, 0, time.UTC)
	a := writeTable(t, slots, t0, code)
	for _, c := range []struct {
		name, path, want string
	}{
		{"other metadata", writeTable(t, slots, t1, code), "same codes"},
		{"one slot", writeTable(t, slots, t0, func(i uint64) uint32 {
			if i == slots-3 {
				return code(i) ^ 1
			}
			return code(i)
		}), "slot 1060918:"},
		{"other size", writeTable(t, slots-1, t0, code), "slot counts differ"},
	} {
		got, err := compare(a, c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want %q…", c.name, got, c.want)
		}
	}
	if _, err := compare(a, filepath.Join(t.TempDir(), "missing.tsm")); err == nil {
		t.Error("a missing table compared without an error")
	}
}
