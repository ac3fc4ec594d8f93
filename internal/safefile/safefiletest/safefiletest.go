// Package safefiletest helps the tests of packages that write files through
// safefile: it lists directories and makes the file system nodes that a
// program must neither read as a table nor replace by one.
package safefiletest

import (
	"os"
	"testing"
)

// DirNames lists the names in dir, sorted.
func DirNames(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
