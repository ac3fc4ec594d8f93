package tables

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// fdSpare is the file descriptors a set leaves to everything else of its process while
// every member is held open: standard streams, a server's listener and connections, a
// check's reads of whole files.
const fdSpare = 6

// fdLimit returns the process's limit on open files and how many it has open now; ok is
// false where either is unknown (then no check is made). A variable for the tests.
var fdLimit = func() (limit, open uint64, ok bool) {
	lim, ok := nofileLimit()
	if !ok {
		return 0, 0, false
	}
	des, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0, 0, false
	}
	return lim, uint64(len(des)), true
}

// checkFDs refuses to open n more members of the set when they would not fit the limit
// on open files: every member is held open once opened (each read is one pread, never an
// open), so a set of more members than the limit allows fails part way with "too many
// open files" otherwise.
func (s *Set) checkFDs(n int) error {
	limit, open, ok := fdLimit()
	if !ok || open+uint64(n)+fdSpare <= limit {
		return nil
	}
	return fmt.Errorf("tables: %s: the set has %d members, each held open once opened: opening the %d not open yet needs %d file descriptors beside the %d open now, and the limit on open files is %d; raise it (ulimit -n %d) and run again",
		s.dir, len(s.members), n, n, open, limit, open+uint64(n)+fdSpare)
}

// fdHint adds to the error of a member's open that ran out of file descriptors what
// the set needs.
func (s *Set) fdHint(err error) error {
	if !errors.Is(err, syscall.EMFILE) && !errors.Is(err, syscall.ENFILE) {
		return err
	}
	limit, _ := nofileLimit()
	return fmt.Errorf("%w (the set has %d members, each held open once opened, and the limit on open files is %d: raise it, ulimit -n %d)",
		err, len(s.members), limit, len(s.members)+fdSpare)
}
