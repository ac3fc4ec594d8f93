package twobit

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tablesmith/tablesmith/builder/internal/bfstoys"
)

// FuzzReadCheckpoint feeds the checkpoint reader altered files, seeded from a real
// checkpoint of a small search: anything it accepts resumes to the right result or
// fails cleanly, and everything it refuses is ErrCheckpoint.
func FuzzReadCheckpoint(f *testing.F) {
	sp := bfstoys.Cube{Dim: 8}
	dir := f.TempDir()
	seed := filepath.Join(dir, "seed.ckpt")
	stop := errors.New("stop")
	Search(context.Background(), sp, Options{Workers: 1, AfterLevel: func(cp *Checkpoint) error {
		if len(cp.Counts) == 3 {
			if err := WriteCheckpoint(seed, "k", cp); err != nil {
				return err
			}
			return stop
		}
		return nil
	}})
	good, err := os.ReadFile(seed)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:60])
	f.Add([]byte("TS2BITCK"))
	f.Fuzz(func(t *testing.T, b []byte) {
		cp, err := readCheckpoint(bytes.NewReader(b), "fuzz.ckpt", "k", sp.Slots(), len(b)%2 == 1)
		if err != nil {
			if !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("not ErrCheckpoint: %v", err)
			}
			return
		}
		res, err := Search(context.Background(), sp, Options{Workers: 1, Resume: cp})
		if err != nil {
			return // e.g. a forged level beyond the depth bound
		}
		res.Codes.Release()
	})
}
