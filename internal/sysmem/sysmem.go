// Package sysmem tells how much memory the machine has available, so that builds and
// checks that would not fit are refused before anything is allocated.
package sysmem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// Available reads MemAvailable from /proc/meminfo (0 when it cannot be read, e.g. on
// another OS: then callers make no check).
func Available() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kb, err := strconv.ParseUint(fields[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
