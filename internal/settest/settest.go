// Package settest forges members of table sets for the tests of the packages that read
// and build them (tables, pipeline): a file rewritten with valid checksums and its
// manifest entry made to match, which only a check of the values themselves can tell.
package settest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tablesmith/tablesmith/format"
)

// Rewrite rewrites the table file called file of the set in dir through change (its
// metadata and every code), resealed with valid checksums, and the manifest's entry for
// it to match (size and SHA-256).
func Rewrite(tb testing.TB, dir, file string, change func(meta *format.Metadata, codes []uint32)) {
	tb.Helper()
	path := filepath.Join(dir, file)
	r, err := format.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	meta := r.Meta()
	codes := make([]uint32, meta.Slots)
	err = r.Codes(codes, 0)
	r.Close()
	if err != nil {
		tb.Fatal(err)
	}
	change(&meta, codes)
	if _, err := format.WriteFile(context.Background(), path, meta, func(dst []uint32, start uint64) { copy(dst, codes[start:]) },
		format.WriteOptions{Workers: 1, Reproducible: true}); err != nil {
		tb.Fatal(err)
	}
	Reseal(tb, dir, file)
}

// Reseal sets the manifest's entry for the table file called file of the set in dir to
// the file's size and SHA-256, as they are now: only what is inside the file can then
// tell it was changed.
func Reseal(tb testing.TB, dir, file string) {
	tb.Helper()
	path := filepath.Join(dir, file)
	m, err := format.ReadManifest(dir)
	if err != nil {
		tb.Fatal(err)
	}
	found := false
	for i, x := range m.Members {
		if x.File == file {
			st, err := os.Stat(path)
			if err != nil {
				tb.Fatal(err)
			}
			m.Members[i].Bytes = st.Size()
			if m.Members[i].SHA256, err = format.FileSHA256(path); err != nil {
				tb.Fatal(err)
			}
			found = true
		}
	}
	if !found {
		tb.Fatalf("settest: %s lists no member in %s", dir, file)
	}
	if err := format.WriteManifest(dir, m); err != nil {
		tb.Fatal(err)
	}
}
