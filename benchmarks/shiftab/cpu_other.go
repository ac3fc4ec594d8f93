//go:build !unix

package main

import "time"

// cpu is not measured here (no getrusage): the figures show 0 s of CPU.
func cpu() time.Duration { return 0 }
