package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/tablesmith/tablesmith/builder"
)

// availableMemory reads MemAvailable from /proc/meminfo (0 when it cannot be read, e.g.
// on another OS: then no check is made).
func availableMemory() uint64 {
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

// planMemory refuses a build that cannot fit in memory before anything is allocated.
// (The value array lives outside the Go heap, see builder.allocBytes, so the collector's
// pacing needs no memory limit.)
func planMemory(sp builder.Space) error {
	need, err := builder.MemoryEstimate(sp)
	if err != nil {
		return err
	}
	if avail := availableMemory(); avail > 0 && need > avail {
		return fmt.Errorf("the search needs about %s of memory for %s slots; this machine has %s available",
			humanBytes(int64(min(need, 1<<62))), commas(sp.Slots()), humanBytes(int64(avail)))
	}
	return nil
}
