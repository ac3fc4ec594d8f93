// Package sysmem tells how much memory this process may still use, so that builds and
// checks that would not fit are refused (or shrunk) before anything is allocated.
//
// The machine's available memory (MemAvailable of /proc/meminfo) is only one bound: in a
// container or a batch job (Slurm) the process's control group may allow far less
// (cgroup v2 memory.max, cgroup v1 memory.limit_in_bytes, of its own group or any group
// above it), and `ulimit -v` (RLIMIT_AS) bounds its address space. Past the first the
// kernel kills the process; past the second the Go runtime dies with "fatal error: out
// of memory". Available is the least of them.
package sysmem

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Limit is the memory this process may still use and what sets it.
type Limit struct {
	Bytes  uint64 // 0: unknown (then callers make no check)
	Source string // what bounds it, for messages: "MemAvailable of /proc/meminfo", …
}

// String says how much is available and why: "1.50 GiB (the cgroup's memory.max)".
func (l Limit) String() string {
	return fmt.Sprintf("%s (%s)", human(l.Bytes), l.Source)
}

// Available is Current's bytes.
func Available() uint64 { return Current().Bytes }

// Current returns the least of the machine's available memory, what the process's
// control groups leave (limit less usage, less the page cache they could reclaim), and
// what its address-space limit leaves.
func Current() Limit { return sys.limit() }

// probe is where the limits are read; the tests point it at files of their own.
type probe struct {
	meminfo    string // /proc/meminfo
	selfCgroup string // /proc/self/cgroup
	cgroupRoot string // /sys/fs/cgroup
	selfStatus string // /proc/self/status (VmSize)
	rlimitAS   func() (uint64, bool)
}

var sys = probe{meminfo: "/proc/meminfo", selfCgroup: "/proc/self/cgroup", cgroupRoot: "/sys/fs/cgroup",
	selfStatus: "/proc/self/status", rlimitAS: rlimitAS}

// unlimited: a cgroup v1 limit this large means none (the kernel writes 2^63 rounded
// down to a page).
const unlimited = 1 << 62

func (p probe) limit() Limit {
	best := Limit{}
	consider := func(bytes uint64, source string) {
		if best.Bytes == 0 || bytes < best.Bytes {
			best = Limit{bytes, source}
		}
	}
	if kb, ok := field(p.meminfo, "MemAvailable:"); ok {
		consider(kb<<10, "MemAvailable of /proc/meminfo")
	}
	for _, c := range p.cgroups() {
		consider(c.Bytes, c.Source)
	}
	if lim, ok := p.rlimitAS(); ok {
		used := uint64(0)
		if kb, ok := field(p.selfStatus, "VmSize:"); ok {
			used = kb << 10
		}
		left := uint64(1) // never 0: 0 means unknown
		if lim > used {
			left = lim - used
		}
		consider(left, fmt.Sprintf("the address-space limit, ulimit -v %d, less the %s mapped", lim>>10, human(used)))
	}
	return best
}

// cgroups returns what each memory control group of the process, and each above it,
// leaves: its limit less its usage, less the inactive page cache it could reclaim.
func (p probe) cgroups() []Limit {
	b, err := os.ReadFile(p.selfCgroup)
	if err != nil {
		return nil
	}
	var out []Limit
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		// hierarchy-ID:controller-list:path
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "": // v2, the unified hierarchy
			root := p.cgroupRoot
			if _, err := os.Stat(filepath.Join(root, "cgroup.controllers")); err != nil {
				root = filepath.Join(root, "unified") // a hybrid layout
			}
			out = append(out, walk(root, parts[2], "memory.max", "memory.current", "inactive_file", "cgroup v2 memory.max")...)
		case hasController(parts[1], "memory"): // v1
			root := filepath.Join(p.cgroupRoot, parts[1])
			if _, err := os.Stat(root); err != nil {
				root = filepath.Join(p.cgroupRoot, "memory")
			}
			out = append(out, walk(root, parts[2], "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file", "cgroup v1 memory.limit_in_bytes")...)
		}
	}
	return out
}

func hasController(list, name string) bool {
	for c := range strings.SplitSeq(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// walk reads the limit of the group at path under root and of every group above it. In
// a container the path may be the host's while root is the container's own group: then
// root alone is read.
func walk(root, path, limitFile, usageFile, inactiveKey, what string) []Limit {
	dir := filepath.Join(root, filepath.FromSlash(path))
	if _, err := os.Stat(dir); err != nil {
		dir = root
	}
	var out []Limit
	for {
		if l, ok := groupLimit(dir, limitFile, usageFile, inactiveKey); ok {
			rel, _ := filepath.Rel(root, dir)
			out = append(out, Limit{l.Bytes, fmt.Sprintf("%s of /%s, %s", what, filepath.ToSlash(strings.TrimPrefix(rel, ".")), l.Source)})
		}
		if dir == root || len(dir) <= len(root) {
			return out
		}
		dir = filepath.Dir(dir)
	}
}

// groupLimit reads what one group leaves: ok false where it has no limit.
func groupLimit(dir, limitFile, usageFile, inactiveKey string) (Limit, bool) {
	b, err := os.ReadFile(filepath.Join(dir, limitFile))
	if err != nil {
		return Limit{}, false
	}
	s := strings.TrimSpace(string(b))
	limit, err := strconv.ParseUint(s, 10, 64)
	if s == "max" || err != nil || limit >= unlimited {
		return Limit{}, false
	}
	var usage uint64
	if b, err := os.ReadFile(filepath.Join(dir, usageFile)); err == nil {
		usage, _ = strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	}
	if inactive, ok := field(filepath.Join(dir, "memory.stat"), inactiveKey); ok && inactive <= usage {
		usage -= inactive
	}
	left := uint64(1)
	if limit > usage {
		left = limit - usage
	}
	return Limit{left, fmt.Sprintf("%s less %s in use", human(limit), human(usage))}, true
}

// field returns the number after key at the start of a line of file (the first word
// after it; kB in /proc files).
func field(file, key string) (uint64, bool) {
	f, err := os.Open(file)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == key {
			n, err := strconv.ParseUint(fields[1], 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// human writes a byte count with a binary unit.
func human(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
