package pipeline

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/builder/levellog"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/games/registry"
)

func instance(t *testing.T, game, params, index string) *games.Instance {
	t.Helper()
	in, err := registry.Open(game, []byte(params), index)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// interruptedBuild runs a checkpointed build of in into out and stops it after a few
// levels, leaving out.ckpt behind.
func interruptedBuild(t *testing.T, in *games.Instance, out string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := PuzzleOptions{Workers: 2, Checkpoint: CheckpointAlways, Search: func(p builder.Progress) {
		if p.Level >= 6 {
			cancel()
		}
	}}
	_, err := BuildPuzzle(ctx, in, out, opt)
	if err == nil {
		t.Fatal("the build was not interrupted")
	}
	if _, err := os.Stat(out + ".ckpt"); err != nil {
		t.Fatal(err)
	}
}

// rewriteHeader changes the key, width and slot count of a level log's header and
// recomputes its CRC, as a forger would.
func rewriteHeader(t *testing.T, path string, edit func(key string, width uint32, slots uint64) (string, uint32, uint64)) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	klen := binary.LittleEndian.Uint32(raw[8:])
	key := string(raw[12 : 12+klen])
	width := binary.LittleEndian.Uint32(raw[12+klen:])
	slots := binary.LittleEndian.Uint64(raw[16+klen:])
	rest := raw[28+klen:]
	key, width, slots = edit(key, width, slots)
	hdr := append([]byte(nil), raw[:8]...)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(key)))
	hdr = append(hdr, key...)
	hdr = binary.LittleEndian.AppendUint32(hdr, width)
	hdr = binary.LittleEndian.AppendUint64(hdr, slots)
	hdr = binary.LittleEndian.AppendUint32(hdr, crc32.Checksum(hdr, crc32.MakeTable(crc32.Castagnoli)))
	if err := os.WriteFile(path, append(hdr, rest...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResumeRefusesForeignCheckpoints: a checkpoint is checked against the build's own
// parameters and memory before anything is allocated, and against its moves after the
// replay, so a forged header can neither exhaust memory nor yield a wrong table.
func TestResumeRefusesForeignCheckpoints(t *testing.T) {
	t.Parallel()
	in25 := instance(t, "slide", `{"rows":2,"cols":5,"goal":"blank-last"}`, "lex-half")
	in52 := instance(t, "slide", `{"rows":5,"cols":2,"goal":"blank-last"}`, "lex-half")
	for _, c := range []struct {
		name string
		edit func(string, uint32, uint64) (string, uint32, uint64)
		into *games.Instance // the build that resumes from the forged 2×5 checkpoint
		want string
	}{
		{"2^40 slots", func(k string, w uint32, s uint64) (string, uint32, uint64) { return k, w, 1 << 40 }, in25, "1099511627776 slots"},
		{"other width", func(k string, w uint32, s uint64) (string, uint32, uint64) { return k, 2, s }, in25, "without --resume"},
		{"key of 5×2", func(k string, w uint32, s uint64) (string, uint32, uint64) { return in52.Key(), w, s }, in52, "not a search of this space"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out25 := filepath.Join(dir, "2x5.tsm")
			interruptedBuild(t, in25, out25)
			out := filepath.Join(dir, "resumed.tsm")
			if err := os.Rename(out25+".ckpt", out+".ckpt"); err != nil {
				t.Fatal(err)
			}
			rewriteHeader(t, out+".ckpt", c.edit)
			_, err := BuildPuzzle(context.Background(), c.into, out, PuzzleOptions{Workers: 2, Resume: true})
			if !errors.Is(err, levellog.ErrCheckpoint) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("resume: %v; want ErrCheckpoint mentioning %q", err, c.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Fatalf("a table was written: %v", err)
			}
		})
	}
}

// TestResumeCompletes: an interrupted build resumed gives the same table as one run.
func TestResumeCompletes(t *testing.T) {
	t.Parallel()
	in := instance(t, "slide", `{"rows":2,"cols":5,"goal":"blank-last"}`, "lex-half")
	dir := t.TempDir()
	out := filepath.Join(dir, "resumed.tsm")
	interruptedBuild(t, in, out)
	if _, err := BuildPuzzle(context.Background(), in, out, PuzzleOptions{Workers: 2, Resume: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out + ".ckpt"); !os.IsNotExist(err) {
		t.Fatalf("the checkpoint is left behind: %v", err)
	}
	whole := filepath.Join(dir, "whole.tsm")
	if _, err := BuildPuzzle(context.Background(), in, whole, PuzzleOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	a, b := readCodes(t, out), readCodes(t, whole)
	if len(a) != len(b) {
		t.Fatal("sizes differ")
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("slot %d: resumed %d, whole %d", i, a[i], b[i])
		}
	}
}

// TestResumeHeaderOnlyCheckpoint (issue 27, item 3): a build killed within milliseconds
// leaves a checkpoint of its header alone, or of its header and part of level 0. A
// resume starts from the goal, as without a checkpoint, logs its levels again and
// gives the same table as a build run at once.
func TestResumeHeaderOnlyCheckpoint(t *testing.T) {
	t.Parallel()
	in := instance(t, "slide", `{"rows":2,"cols":5,"goal":"blank-last"}`, "lex-half")
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.tsm")
	if _, err := BuildPuzzle(context.Background(), in, whole, PuzzleOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "src.tsm")
	interruptedBuild(t, in, src)
	raw, err := os.ReadFile(src + ".ckpt")
	if err != nil {
		t.Fatal(err)
	}
	header := 28 + int(binary.LittleEndian.Uint32(raw[8:])) // magic, key length, key, width, slots, CRC
	for _, keep := range []int{header, header + 5} {
		out := filepath.Join(dir, fmt.Sprintf("resumed-%d.tsm", keep))
		if err := os.WriteFile(out+".ckpt", raw[:keep], 0o644); err != nil {
			t.Fatal(err)
		}
		var notices []string
		opt := PuzzleOptions{Workers: 2, Resume: true, Notice: func(s string) { notices = append(notices, s) },
			Search: func(p builder.Progress) {
				if p.Base != 0 {
					t.Errorf("%d bytes: the search starts with %d states known", keep, p.Base)
				}
			}}
		if _, err := BuildPuzzle(context.Background(), in, out, opt); err != nil {
			t.Fatalf("%d bytes of checkpoint: %v", keep, err)
		}
		if !strings.Contains(strings.Join(notices, "\n"), "starting from the goal") {
			t.Errorf("%d bytes: notices %q", keep, notices)
		}
		a, b := readCodes(t, out), readCodes(t, whole)
		if !slices.Equal(a, b) {
			t.Fatalf("%d bytes: the resumed table differs from the whole one", keep)
		}
	}
}

func readCodes(t *testing.T, path string) []uint32 {
	t.Helper()
	_, codes := readTable(t, path)
	return codes
}

// readTable reads a table file's metadata and every code.
func readTable(t *testing.T, path string) (format.Metadata, []uint32) {
	t.Helper()
	r, err := format.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	meta := r.Meta()
	codes := make([]uint32, meta.Slots)
	if err := r.Codes(codes, 0); err != nil {
		t.Fatal(err)
	}
	return meta, codes
}

// TestStaleCheckpointRemoved: a build without --resume that completes removes the
// checkpoint a killed build of the same output left behind.
func TestStaleCheckpointRemoved(t *testing.T) {
	t.Parallel()
	in := instance(t, "slide", `{"rows":2,"cols":5,"goal":"blank-last"}`, "lex-half")
	out := filepath.Join(t.TempDir(), "t.tsm")
	interruptedBuild(t, in, out)
	if _, err := BuildPuzzle(context.Background(), in, out, PuzzleOptions{Workers: 2, Checkpoint: CheckpointNever}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out + ".ckpt"); !os.IsNotExist(err) {
		t.Fatalf("stale checkpoint kept: %v", err)
	}
}
