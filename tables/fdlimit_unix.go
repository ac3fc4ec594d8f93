//go:build unix

package tables

import "syscall"

// nofileLimit is the soft limit on open files (RLIMIT_NOFILE; Go raises it to the hard
// limit at start).
func nofileLimit() (uint64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil || r.Cur == ^uint64(0) {
		return 0, false
	}
	return uint64(r.Cur), true
}
