package twobit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tablesmith/tablesmith/builder/internal/bfstoys"
)

// TestCheckpointFileResume stops a search (with recent bits, and lean) after a level,
// writes its checkpoint file, reads it back and resumes: the result is the whole
// search's. A damaged, cut or foreign file is refused with ErrCheckpoint.
func TestCheckpointFileResume(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"full", "lean", "half"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			checkpointFileResume(t, mode)
		})
	}
}

func checkpointFileResume(t *testing.T, mode string) {
	lean, half := mode == "lean", mode == "half"
	var sp bfstoys.Space = bfstoys.Cube{Dim: 15, Hole: func(s uint64) bool { return s%9 == 2 }}
	if half {
		sp = bfstoys.SidedCube{Dim: 15}
	}
	path := filepath.Join(t.TempDir(), "t.ckpt")
	const key = "cube 15"
	stop := errors.New("stop")
	_, err := Search(context.Background(), sp, Options{Workers: 2, Lean: lean, Half: half, AfterLevel: func(cp *Checkpoint) error {
		if len(cp.Counts) == 6 {
			if err := WriteCheckpoint(path, key, cp); err != nil {
				return err
			}
			return stop
		}
		return nil
	}})
	if !errors.Is(err, stop) {
		t.Fatal(err)
	}
	cp, err := ReadCheckpoint(path, key, sp.Slots())
	if err != nil {
		t.Fatal(err)
	}
	if cp.Lean() != lean || cp.Half != half {
		t.Fatalf("read back lean=%v half=%v", cp.Lean(), cp.Half)
	}
	if st, _ := os.Stat(path); uint64(st.Size()) != CheckpointBytes(sp.Slots(), len(cp.Counts), lean || half) {
		t.Fatalf("%d bytes, CheckpointBytes says %d", st.Size(), CheckpointBytes(sp.Slots(), len(cp.Counts), lean || half))
	}
	res, err := Search(context.Background(), sp, Options{Workers: 2, Resume: cp, Lean: lean, Half: half})
	if err != nil {
		t.Fatal(err)
	}
	check(t, sp, res)

	if _, err := ReadCheckpoint(path, "another build", sp.Slots()); !errors.Is(err, ErrCheckpoint) {
		t.Fatalf("foreign key: %v", err)
	}
	if _, err := ReadCheckpoint(filepath.Join(t.TempDir(), "none"), key, sp.Slots()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, off := range []int{0, 13, 30, 70, 100, len(good) / 2, len(good) - 5, len(good) - 1} {
		bad := append([]byte{}, good...)
		bad[off] ^= 0x10
		os.WriteFile(path, bad, 0o644)
		if _, err := ReadCheckpoint(path, key, sp.Slots()); !errors.Is(err, ErrCheckpoint) {
			t.Fatalf("byte %d flipped: %v", off, err)
		}
	}
	for _, n := range []int{0, 10, 60, len(good) - 1} {
		os.WriteFile(path, good[:n], 0o644)
		if _, err := ReadCheckpoint(path, key, sp.Slots()); !errors.Is(err, ErrCheckpoint) {
			t.Fatalf("cut at %d: %v", n, err)
		}
	}
	os.WriteFile(path, append(good, 0), 0o644)
	if _, err := ReadCheckpoint(path, key, sp.Slots()); !errors.Is(err, ErrCheckpoint) {
		t.Fatalf("trailing byte: %v", err)
	}
}
