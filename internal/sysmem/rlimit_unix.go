//go:build unix

package sysmem

import "syscall"

// rlimitAS is the soft limit on the address space (ulimit -v), if there is one.
func rlimitAS() (uint64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == ^uint64(0) {
		return 0, false
	}
	return uint64(r.Cur), true
}
