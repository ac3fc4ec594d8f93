package sysmem

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeRoot writes files (path → content) under a new directory and returns it.
func fakeRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func fakeProbe(root string, as uint64) probe {
	return probe{meminfo: filepath.Join(root, "proc/meminfo"), selfCgroup: filepath.Join(root, "proc/self/cgroup"),
		cgroupRoot: filepath.Join(root, "sys/fs/cgroup"), selfStatus: filepath.Join(root, "proc/self/status"),
		rlimitAS: func() (uint64, bool) { return as, as > 0 }}
}

const (
	gib      = 1 << 30
	meminfo  = "MemTotal:       65536000 kB\nMemAvailable:   33554432 kB\n" // 32 GiB available
	vmStatus = "Name:\tts\nVmSize:\t 1048576 kB\n"                          // 1 GiB mapped
)

// TestLimits (issue 38, item 10): the memory available is the least of MemAvailable, what
// each memory cgroup of the process (v1 or v2, its own or one above it) leaves, and what
// ulimit -v leaves; the source is named.
func TestLimits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		files map[string]string
		as    uint64
		want  uint64
		src   string
	}{
		{"meminfo alone", map[string]string{"proc/meminfo": meminfo}, 0, 32 * gib, "MemAvailable"},
		{"cgroup v2, own group", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/job/step\n",
			"sys/fs/cgroup/cgroup.controllers": "memory\n", "sys/fs/cgroup/job/step/memory.max": "4294967296\n",
			"sys/fs/cgroup/job/step/memory.current": "1073741824\n", "sys/fs/cgroup/job/step/memory.stat": "anon 1\ninactive_file 536870912\n"},
			0, 4*gib - gib + gib/2, "cgroup v2 memory.max of /job/step"},
		{"cgroup v2, the group above", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/job/step\n",
			"sys/fs/cgroup/cgroup.controllers": "memory\n", "sys/fs/cgroup/job/step/memory.max": "max\n",
			"sys/fs/cgroup/job/memory.max": "2147483648\n", "sys/fs/cgroup/job/memory.current": "0\n"},
			0, 2 * gib, "cgroup v2 memory.max of /job"},
		{"cgroup v2, a container's own root", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/\n",
			"sys/fs/cgroup/cgroup.controllers": "memory\n", "sys/fs/cgroup/memory.max": "3221225472\n"},
			0, 3 * gib, "cgroup v2 memory.max"},
		{"cgroup v1 (Slurm)", map[string]string{"proc/meminfo": meminfo,
			"proc/self/cgroup": "5:cpu,cpuacct:/slurm/uid_1/job_7\n4:memory:/slurm/uid_1/job_7/step_0\n",
			"sys/fs/cgroup/memory/slurm/uid_1/job_7/step_0/memory.limit_in_bytes": "9223372036854771712\n",
			"sys/fs/cgroup/memory/slurm/uid_1/job_7/memory.limit_in_bytes":        "8589934592\n",
			"sys/fs/cgroup/memory/slurm/uid_1/job_7/memory.usage_in_bytes":        "2147483648\n",
			"sys/fs/cgroup/memory/slurm/uid_1/job_7/memory.stat":                  "cache 5\ntotal_inactive_file 1073741824\n"},
			0, 8*gib - gib, "cgroup v1 memory.limit_in_bytes of /slurm/uid_1/job_7"},
		{"cgroup v1, a container (the host's path absent)", map[string]string{"proc/meminfo": meminfo,
			"proc/self/cgroup": "4:memory:/docker/abc\n", "sys/fs/cgroup/memory/memory.limit_in_bytes": "1073741824\n"},
			0, gib, "cgroup v1 memory.limit_in_bytes"},
		{"ulimit -v", map[string]string{"proc/meminfo": meminfo, "proc/self/status": vmStatus}, 5 * gib, 4 * gib, "ulimit -v"},
		{"unlimited everywhere", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/\n",
			"sys/fs/cgroup/cgroup.controllers": "memory\n", "sys/fs/cgroup/memory.max": "max\n"}, 0, 32 * gib, "MemAvailable"},
		{"nothing readable", nil, 0, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := fakeProbe(fakeRoot(t, c.files), c.as).limit()
			if got.Bytes != c.want || !strings.Contains(got.Source, c.src) {
				t.Errorf("%d (%s), want %d (%s…)", got.Bytes, got.Source, c.want, c.src)
			}
		})
	}
}
