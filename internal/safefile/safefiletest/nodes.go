//go:build linux || darwin

package safefiletest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Node is one non-regular file.
type Node struct {
	Path string
	Kind string // a word the error for it must contain
}

// Nodes creates in dir one node of each kind that is not a regular file: a
// FIFO, a symbolic link to a regular file, a dangling symbolic link, a
// directory and, where mknod is permitted (as root), a character device
// like /dev/null. Names start with the kind.
func Nodes(t testing.TB, dir string) []Node {
	t.Helper()
	path := func(name string) string { return filepath.Join(dir, name) }
	target := path("target-regular")
	if err := os.WriteFile(target, []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	nodes := []Node{
		{path("fifo"), "named pipe"},
		{path("symlink"), "symbolic link"},
		{path("symlink-dangling"), "symbolic link"},
		{path("directory"), "directory"},
	}
	for _, err := range []error{
		syscall.Mkfifo(nodes[0].Path, 0o644),
		os.Symlink(target, nodes[1].Path),
		os.Symlink(path("missing"), nodes[2].Path),
		os.Mkdir(nodes[3].Path, 0o755),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var null syscall.Stat_t
	dev := path("chardev")
	if err := syscall.Stat("/dev/null", &null); err != nil {
		t.Logf("no character device case: stat /dev/null: %v", err)
	} else if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, int(null.Rdev)); err != nil {
		t.Logf("no character device case: mknod: %v", err)
	} else {
		nodes = append(nodes, Node{dev, "character device"})
	}
	return nodes
}

// Unchanged fails t unless n.Path is still a node of n's kind.
func Unchanged(t testing.TB, n Node) {
	t.Helper()
	fi, err := os.Lstat(n.Path)
	if err != nil {
		t.Fatalf("%s: %v", n.Path, err)
	}
	want := map[string]os.FileMode{
		"named pipe": os.ModeNamedPipe, "symbolic link": os.ModeSymlink,
		"directory": os.ModeDir, "character device": os.ModeDevice | os.ModeCharDevice,
	}[n.Kind]
	if fi.Mode().Type() != want {
		t.Fatalf("%s is now of type %v, want %v", n.Path, fi.Mode().Type(), want)
	}
}

// OpenFIFO makes a FIFO and calls open on it with a time limit. It fails t
// if open blocks (and then unblocks it by opening the writing end), and
// returns the FIFO's path and open's error.
func OpenFIFO(t testing.TB, open func(path string) error) (string, error) {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- open(fifo) }()
	select {
	case err := <-done:
		return fifo, err
	case <-time.After(10 * time.Second):
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		t.Fatalf("opening the FIFO %s blocked", fifo)
		return fifo, nil
	}
}
