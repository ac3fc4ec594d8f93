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
	if err := checkOpened(f, path); err != nil {
		return nil, err
	}
	return f, nil
}

func openNoFollow(path string) (*os.File, error) { return OpenRegular(path) }

// syncDirectory does nothing: directories cannot be synced here.
func syncDirectory(string) error { return nil }
