package sysmem

import (
	"runtime"
	"testing"
)

func TestAvailable(t *testing.T) {
	got := Available()
	if runtime.GOOS == "linux" && got < 1<<20 {
		t.Fatalf("Available() = %d on Linux, want at least 1 MiB", got)
	}
}
