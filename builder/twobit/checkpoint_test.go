package twobit

import (
	"context"
	"errors"
	"math/bits"
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
	// A lean search resumes any depth-mod-3 checkpoint without holding its recent bits.
	readers := []func(path, key string, slots uint64) (*Checkpoint, error){ReadCheckpoint}
	if !half {
		cp, err := ReadCheckpointLean(path, key, sp.Slots())
		if err != nil {
			t.Fatal(err)
		}
		if !cp.Lean() || cp.recentBuf != nil {
			t.Fatalf("ReadCheckpointLean kept recent bits")
		}
		res, err := Search(context.Background(), sp, Options{Workers: 2, Resume: cp, Lean: true})
		if err != nil {
			t.Fatal(err)
		}
		check(t, sp, res)
		readers = append(readers, ReadCheckpointLean)
	}

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
	for ri, read := range readers {
		for _, off := range []int{0, 13, 30, 70, 100, len(good) / 2, len(good) - 5, len(good) - 1} {
			bad := append([]byte{}, good...)
			bad[off] ^= 0x10
			os.WriteFile(path, bad, 0o644)
			if _, err := read(path, key, sp.Slots()); !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("reader %d, byte %d flipped: %v", ri, off, err)
			}
		}
		for _, n := range []int{0, 10, 60, len(good) - 1} {
			os.WriteFile(path, good[:n], 0o644)
			if _, err := read(path, key, sp.Slots()); !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("reader %d, cut at %d: %v", ri, n, err)
			}
		}
		os.WriteFile(path, append(good, 0), 0o644)
		if _, err := read(path, key, sp.Slots()); !errors.Is(err, ErrCheckpoint) {
			t.Fatalf("reader %d, trailing byte: %v", ri, err)
		}
	}
}

// TestHalfResumeChecksSides: a half-depth checkpoint whose code 2 (the next level) is
// on the wrong side for it, in a one-side chunk or a chunk of both, is refused with
// ErrCheckpoint before any level runs, as a damaged file would be.
func TestHalfResumeChecksSides(t *testing.T) {
	t.Parallel()
	// SidedCube keeps each side in one half of the slots (one-side chunks), parityCube
	// interleaves them slot by slot (chunks of both, with side masks).
	for _, sp := range []Space{bfstoys.SidedCube{Dim: 19}, parityCube{bfstoys.Cube{Dim: 19}}} {
		halfResumeChecksSides(t, sp)
	}
}

// parityCube is the hypercube sided by the parity of a slot's bits, which every move
// (one bit flipped) changes: its sides alternate slot by slot.
type parityCube struct{ bfstoys.Cube }

func (c parityCube) RunSide(lo, hi uint64) (uint8, bool) {
	if hi != lo+1 || hi > c.Slots() {
		return 0, false
	}
	return uint8(bits.OnesCount64(lo) & 1), true
}

func halfResumeChecksSides(t *testing.T, sp Space) {
	stop := errors.New("stop")
	var saved *Checkpoint
	_, err := Search(context.Background(), sp, Options{Workers: 2, Half: true, AfterLevel: func(cp *Checkpoint) error {
		if len(cp.Counts) == 5 {
			codes := NewCodes(cp.Codes.Len())
			copy(codes.Words, cp.Codes.Words)
			saved = &Checkpoint{Codes: codes, Counts: append([]uint64(nil), cp.Counts...), Half: true}
			return stop
		}
		return nil
	}})
	if !errors.Is(err, stop) {
		t.Fatal(err)
	}
	wrong := uint8(len(saved.Counts)+1) % 2
	var oneSide, mixed uint64 = ^uint64(0), ^uint64(0) // an unreached slot on the wrong side of each kind
	sd := sp.(Sided)
	for s := uint64(0); s < sp.Slots() && (oneSide == ^uint64(0) || mixed == ^uint64(0)); s++ {
		lo := s &^ (chunkSize - 1)
		_, whole := sd.RunSide(lo, min(lo+chunkSize, sp.Slots()))
		if side, _ := sd.RunSide(s, s+1); side != wrong || saved.Codes.Get(s) != NotReached {
			continue
		}
		if whole && oneSide == ^uint64(0) {
			oneSide = s
		} else if !whole && mixed == ^uint64(0) {
			mixed = s
		}
	}
	for _, s := range []uint64{oneSide, mixed} {
		if s == ^uint64(0) {
			continue // the toy has no chunk of that kind
		}
		cp := &Checkpoint{Codes: NewCodes(saved.Codes.Len()), Counts: saved.Counts, Half: true}
		copy(cp.Codes.Words, saved.Codes.Words)
		cp.Codes.Words[s>>5] &^= 1 << (s & 31 * 2) // code 3 → 2
		if _, err := Search(context.Background(), sp, Options{Workers: 2, Half: true, Resume: cp}); !errors.Is(err, ErrCheckpoint) {
			t.Fatalf("code 2 at slot %d on side %d: %v", s, wrong, err)
		}
	}
	if oneSide == ^uint64(0) && mixed == ^uint64(0) {
		t.Fatal("no slot to damage")
	}
	res, err := Search(context.Background(), sp, Options{Workers: 2, Half: true, Resume: saved})
	if err != nil {
		t.Fatal(err)
	}
	check(t, sp, res)
}
