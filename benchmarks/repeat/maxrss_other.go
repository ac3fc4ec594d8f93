//go:build !unix

package main

import "os"

// maxRSS is 0 where the system reports no peak resident set through os.ProcessState.
func maxRSS(*os.ProcessState) int64 { return 0 }
