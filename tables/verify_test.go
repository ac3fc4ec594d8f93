package tables_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/internal/pdbtest"
	"github.com/tablesmith/tablesmith/internal/racetest"
	"github.com/tablesmith/tablesmith/pipeline"
	"github.com/tablesmith/tablesmith/solver"
	"github.com/tablesmith/tablesmith/tables"
)

// reseal writes a copy of tab's file whose codes were changed by alter and whose
// metadata by meta, with every checksum and count valid: a lying file that only a check
// of the values themselves can catch.
func reseal(t *testing.T, tab *tables.Table, alter func(codes []uint32), meta func(*format.Metadata)) string {
	t.Helper()
	m := tab.Meta()
	codes := make([]uint32, m.Slots)
	if err := tab.Reader().Codes(codes, 0); err != nil {
		t.Fatal(err)
	}
	alter(codes)
	m.CodeCounts = nil
	if meta != nil {
		meta(&m)
	}
	path := filepath.Join(t.TempDir(), "forged.tsm")
	src := func(dst []uint32, start uint64) { copy(dst, codes[start:]) }
	if _, err := format.WriteFile(context.Background(), path, m, src, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return path
}

// mustFailVerify checks that the file at path is refused on open or fails Verify with
// ErrCorrupt, while passing the checksum-only check when it opens.
func mustFailVerify(t *testing.T, name, path string) {
	t.Helper()
	tab, err := tables.Open(path)
	if err != nil {
		if !errors.Is(err, format.ErrCorrupt) {
			t.Errorf("%s: open error %v is not ErrCorrupt", name, err)
		}
		return
	}
	defer tab.Close()
	if err := tab.Verify(context.Background(), tables.VerifyOptions{ChecksumsOnly: true}); err != nil {
		t.Errorf("%s: the resealed file fails even its checksums: %v", name, err)
	}
	err = tab.Verify(context.Background(), tables.VerifyOptions{Workers: 2})
	if !errors.Is(err, format.ErrCorrupt) || !strings.Contains(err.Error(), "state ") {
		t.Errorf("%s: Verify = %v, want ErrCorrupt naming a state", name, err)
	}
}

func TestVerifyCatchesLyingRemotenessTables(t *testing.T) {
	t.Parallel()
	_, tab := buildEight(t, "lex", "blank-last", 2)
	if err := tab.Verify(context.Background(), tables.VerifyOptions{Workers: 2}); err != nil {
		t.Fatalf("intact table: %v", err)
	}
	unreach := uint32(1<<tab.Meta().CodeBits) - 2
	reachable := func(codes []uint32) []int {
		var out []int
		for i, c := range codes {
			if c != unreach && c > 0 {
				out = append(out, i)
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		name  string
		alter func([]uint32)
		meta  func(*format.Metadata)
	}{
		{"one value plus two", func(c []uint32) { i := reachable(c)[1000]; c[i] += 2 }, nil},
		{"one value minus one", func(c []uint32) { i := reachable(c)[5000]; c[i]-- }, nil},
		{"unreachable made reachable", func(c []uint32) { c[slices.Index(c, unreach)] = 5 }, nil},
		{"reachable made unreachable", func(c []uint32) { c[reachable(c)[77]] = unreach }, nil},
		{"two values swapped", func(c []uint32) {
			r := reachable(c)
			for i := range r {
				if c[r[i]] != c[r[0]] {
					c[r[0]], c[r[i]] = c[r[i]], c[r[0]]
					return
				}
			}
		}, nil},
		{"codes shuffled in a block", func(c []uint32) {
			b := c[4096:8192]
			rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
		}, nil},
		{"blocks swapped", func(c []uint32) {
			a, b := slices.Clone(c[0:4096]), slices.Clone(c[8192:12288])
			copy(c[0:], b)
			copy(c[8192:], a)
		}, nil},
		{"index relabelled lex to mr", func([]uint32) {}, func(m *format.Metadata) { m.Index = "mr" }},
		{"goal relabelled", func([]uint32) {}, func(m *format.Metadata) { m.Params = []byte(`{"rows":3,"cols":3,"goal":"blank-first"}`) }},
	} {
		mustFailVerify(t, c.name, reseal(t, tab, c.alter, c.meta))
	}
}

func TestVerifyCatchesLyingHanoiAndSlideShapes(t *testing.T) {
	racetest.SkipSlow(t, "takes up to 17 s")
	t.Parallel()
	dir := t.TempDir()
	// 2×5 relabelled 5×2: the same slot count, another game.
	in := mustInstance(t, "slide", `{"rows":2,"cols":5,"goal":"blank-last"}`, "lex-half")
	path := filepath.Join(dir, "2x5.tsm")
	if _, err := pipeline.BuildPuzzle(context.Background(), in, path, pipeline.PuzzleOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	tab, err := tables.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if err := tab.Verify(context.Background(), tables.VerifyOptions{}); err != nil {
		t.Fatalf("intact 2×5: %v", err)
	}
	mustFailVerify(t, "2×5 relabelled 5×2", reseal(t, tab, func([]uint32) {}, func(m *format.Metadata) {
		m.Params = []byte(`{"rows":5,"cols":2,"goal":"blank-last"}`)
	}))

	hin := mustInstance(t, "hanoi", `{"pegs":4,"disks":7}`, "classes")
	hpath := filepath.Join(dir, "hanoi.tsm")
	if _, err := pipeline.BuildPuzzle(context.Background(), hin, hpath, pipeline.PuzzleOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	htab, err := tables.Open(hpath)
	if err != nil {
		t.Fatal(err)
	}
	defer htab.Close()
	if err := htab.Verify(context.Background(), tables.VerifyOptions{}); err != nil {
		t.Fatalf("intact hanoi: %v", err)
	}
	mustFailVerify(t, "hanoi value changed", reseal(t, htab, func(c []uint32) { c[len(c)/2] ^= 1 }, nil))
}

func TestVerifyCatchesLyingPDBGroups(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spec := pdbtest.SlideSpec(t, slide.PDBSpec{Rows: 3, Cols: 3, Groups: [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}}, "")
	m, err := pipeline.BuildPDBSet(context.Background(), dir, spec, pipeline.PDBOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	if err := set.Verify(context.Background(), tables.VerifyOptions{}); err != nil {
		t.Fatalf("intact set: %v", err)
	}
	g := set.Tables()[0]
	if g.File() != filepath.Join(dir, m.Members[0].File) {
		t.Fatalf("member %s", g.File())
	}
	for _, c := range []struct {
		name  string
		alter func([]uint32)
	}{
		{"one excess plus one", func(c []uint32) { c[1234]++ }},
		{"one excess zeroed", func(c []uint32) {
			for i := range c {
				if c[i] > 1 {
					c[i] = 0
					return
				}
			}
		}},
		{"codes shuffled", func(c []uint32) {
			rng := rand.New(rand.NewPCG(1, 1))
			rng.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
		}},
	} {
		mustFailVerify(t, c.name, reseal(t, g, c.alter, nil))
	}
}

func TestSetRoutesStates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spec := pdbtest.SlideSpec(t, slide.PDBSpec{Rows: 3, Cols: 3, Groups: [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}}, "")
	if _, err := pipeline.BuildPDBSet(context.Background(), dir, spec, pipeline.PDBOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if !tables.IsSet(dir) || tables.IsSet(filepath.Join(dir, "manifest.json")) {
		t.Fatal("IsSet")
	}
	set, err := tables.OpenSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	packed, err := solver.OpenPDBSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	geo, _ := slide.NewGeometry(3, 3)
	for _, s := range []string{"123456780", "867254301", "087654321"} {
		a, err := set.Lookup(s)
		if err != nil {
			t.Fatal(err)
		}
		board, _ := geo.Parse(s)
		pos := make([]uint8, 9)
		for c, tile := range board {
			pos[tile] = uint8(c)
		}
		if a.Outcome.String() != "bound" || a.Remoteness != packed.H(pos) {
			t.Errorf("%s: set says %+v, the packed set %d", s, a, packed.H(pos))
		}
	}
	if _, err := set.Lookup("12345678"); !errors.Is(err, tables.ErrBadState) {
		t.Errorf("bad state: %v", err)
	}
	info := set.Info()
	if len(info.Members) != 2 || info.Members[0].Kind != "pdb" || info.Slots != 2*3024 {
		t.Errorf("info %+v", info)
	}
}

func TestTypedProbe(t *testing.T) {
	t.Parallel()
	_, tab := buildEight(t, "lex-half", "blank-last", 2)
	a, err := tables.Probe(tab, slide.Board{1, 2, 3, 4, 5, 6, 7, 0, 8})
	if err != nil || a.Remoteness != 1 || !a.Reachable || a.State != "123456708" {
		t.Fatalf("Probe = %+v, %v", a, err)
	}
	if _, err := tables.Probe(tab, slide.Board{1, 1, 3, 4, 5, 6, 7, 0, 8}); !errors.Is(err, tables.ErrBadState) {
		t.Errorf("bad board: %v", err)
	}
	if _, err := tables.Probe(tab, []int{1, 2}); !errors.Is(err, tables.ErrBadState) {
		t.Errorf("foreign type: %v", err)
	}
}
