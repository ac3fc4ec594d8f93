//go:build unix

package pipeline

import "syscall"

// freeDisk is the space free for an unprivileged writer in dir (0 when unknown).
func freeDisk(dir string) uint64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0
	}
	return uint64(st.Bavail) * uint64(st.Bsize)
}
