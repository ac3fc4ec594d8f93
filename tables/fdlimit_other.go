//go:build !unix

package tables

func nofileLimit() (uint64, bool) { return 0, false }
