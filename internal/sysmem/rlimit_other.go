//go:build !unix

package sysmem

func rlimitAS() (uint64, bool) { return 0, false }
