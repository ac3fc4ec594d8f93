//go:build !unix

package safefile

import "os"

// OpenRegular opens path for reading if it is a regular file, and returns an
// error naming path and what it is (wrapping ErrNotRegular) otherwise.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = notRegular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func openNoFollow(path string) (*os.File, error) { return OpenRegular(path) }

// syncDirectory does nothing: directories cannot be synced here.
func syncDirectory(string) error { return nil }
