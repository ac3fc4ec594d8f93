//go:build !unix

package pipeline

// freeDisk is the space free in dir: unknown (0) where the system offers no statfs.
func freeDisk(string) uint64 { return 0 }
