package pipeline

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/builder/twobit"
	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/tables"
)

// TestTwoBitBuildKilledResumes stops a checkpointed depth-mod-3 build after a level (as
// a kill would), resumes it, and gets the 8-puzzle's distribution; a damaged checkpoint
// is refused, saying what to do; half-depth codes asked for are refused, and the engine
// and codes auto pick the checkpoint's. Not parallel: it sets the package's checkpoint
// hook.
func TestTwoBitBuildKilledResumes(t *testing.T) {
	in := instance(t, "slide", `{"rows":3,"cols":3,"goal":"blank-last"}`, "lex-half")
	out := t.TempDir() + "/eight.tsm"
	killed := errors.New("killed")
	twoBitCheckpointed = func(level int) error {
		if level == 12 {
			return killed
		}
		return nil
	}
	defer func() { twoBitCheckpointed = nil }()
	_, err := BuildPuzzle(context.Background(), in, out, PuzzleOptions{Workers: 2, Engine: EngineTwoBit, Codes: CodesDepthMod3, Checkpoint: CheckpointAlways})
	if !errors.Is(err, killed) || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("interrupted build: %v", err)
	}
	twoBitCheckpointed = nil
	_, err = BuildPuzzle(context.Background(), in, out, PuzzleOptions{Workers: 2, Resume: true, Codes: CodesHalfDepth})
	if err == nil || !strings.Contains(err.Error(), "--codes depth-mod-3") {
		t.Fatalf("half-depth codes resuming a depth-mod-3 checkpoint: %v", err)
	}
	ckpt := TwoBitCheckpointPath(out)
	good, err := os.ReadFile(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(good)
	bad[len(bad)/2] ^= 1
	os.WriteFile(ckpt, bad, 0o644)
	_, err = BuildPuzzle(context.Background(), in, out, PuzzleOptions{Workers: 2, Resume: true})
	if !errors.Is(err, twobit.ErrCheckpoint) || !strings.Contains(err.Error(), "delete it") {
		t.Fatalf("damaged checkpoint: %v", err)
	}
	os.WriteFile(ckpt, good, 0o644)
	var notices []string
	res, err := BuildPuzzle(context.Background(), in, out, PuzzleOptions{Workers: 2, Resume: true, Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Engine != EngineTwoBit || res.Codes != CodesDepthMod3 || res.SearchBits != 3 || !strings.Contains(strings.Join(notices, "\n"), "after level 12") {
		t.Fatalf("engine %s, codes %s, %d bits, notices %q", res.Engine, res.Codes, res.SearchBits, notices)
	}
	tab, err := tables.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if !slices.Equal(tab.Info().Counts, slide.EightPuzzleCounts) {
		t.Fatalf("counts %v", tab.Info().Counts)
	}
	if _, err := os.Stat(ckpt); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("checkpoint left behind: %v", err)
	}
	if err := RecomputeTwoBit(context.Background(), in, tab.Reader(), 2); err != nil {
		t.Fatal(err)
	}
}

// TestEngineRefusesTooBig: a board whose search cannot fit is refused before any work,
// with the memory it needs and what to do instead.
func TestEngineRefusesTooBig(t *testing.T) {
	t.Parallel()
	in := instance(t, "slide", `{"rows":4,"cols":4,"goal":"blank-last"}`, "lex-half")
	sp := in.Space.(twobit.Space)
	for _, engine := range []string{EngineAuto, EngineTwoBit, EngineBytes} {
		_, err := ChooseEngine(sp, engine, CodesAuto, 0, 2, true, false, t.TempDir()+"/x.tsm")
		if err == nil || !strings.Contains(err.Error(), "GiB") {
			t.Fatalf("%s: %v", engine, err)
		}
		if engine != EngineBytes && !strings.Contains(err.Error(), "plan") {
			t.Fatalf("%s: %v", engine, err)
		}
	}
	if _, err := ChooseEngine(sp, "quads", CodesAuto, 0, 2, false, false, "x"); err == nil {
		t.Fatal("unknown engine accepted")
	}
}

// TestConvertRoundTrip converts a byte table of 2×4 to two bits (half-depth by auto or by
// name, depth-mod-3 by name) and back: the same counts, every state's answer the same,
// the byte table's codes identical; a half-depth conversion equals a half-depth build.
func TestConvertRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ scheme, codes, want string }{
		{"lex", CodesAuto, CodesHalfDepth},
		{"lex-half", CodesHalfDepth, CodesHalfDepth},
		{"lex", CodesDepthMod3, CodesDepthMod3},
		{"mr", "", CodesHalfDepth}, // a small board: its few mixed chunks fit
	} {
		t.Run(tc.scheme+"-"+tc.codes, func(t *testing.T) {
			t.Parallel()
			convertRoundTrip(t, tc.scheme, tc.codes, tc.want)
		})
	}
}

func convertRoundTrip(t *testing.T, scheme, codes, wantCodes string) {
	in := instance(t, "slide", `{"rows":2,"cols":4,"goal":"blank-last"}`, scheme)
	dir := t.TempDir()
	if _, err := BuildPuzzle(context.Background(), in, dir+"/b.tsm", PuzzleOptions{Workers: 2, Engine: EngineBytes, Checkpoint: CheckpointNever}); err != nil {
		t.Fatal(err)
	}
	meta, err := ConvertPuzzleTable(context.Background(), dir+"/b.tsm", dir+"/t.tsm", codes, 2, Stamp(2, nil))
	if err != nil || meta.Encoding != wantCodes {
		t.Fatalf("to two bits: %s %v, want %s", meta.Encoding, err, wantCodes)
	}
	if _, err := ConvertPuzzleTable(context.Background(), dir+"/t.tsm", dir+"/x.tsm", CodesDepthMod3, 2, Stamp(2, nil)); err == nil {
		t.Fatal("codes accepted for a two-bit source")
	}
	if _, err := ConvertPuzzleTable(context.Background(), dir+"/t.tsm", dir+"/b2.tsm", CodesAuto, 2, Stamp(2, nil)); err != nil {
		t.Fatal(err)
	}
	res, err := BuildPuzzle(context.Background(), in, dir+"/built.tsm", PuzzleOptions{Workers: 2, Engine: EngineTwoBit, Codes: wantCodes, Checkpoint: CheckpointNever})
	if err != nil || res.Codes != wantCodes {
		t.Fatalf("two-bit build: %+v %v", res, err)
	}
	if a, b := tableCodes(t, dir+"/b.tsm"), tableCodes(t, dir+"/b2.tsm"); !slices.Equal(a, b) {
		t.Fatal("the byte table converted there and back has other codes")
	}
	if a, b := tableCodes(t, dir+"/t.tsm"), tableCodes(t, dir+"/built.tsm"); !slices.Equal(a, b) {
		t.Fatal("the converted two-bit table has other codes than the built one")
	}
	var tabs []*tables.Table
	for _, f := range []string{"b", "t", "b2"} {
		tab, err := tables.Open(dir + "/" + f + ".tsm")
		if err != nil {
			t.Fatal(err)
		}
		defer tab.Close()
		tabs = append(tabs, tab)
	}
	if !slices.Equal(tabs[0].Info().Counts, tabs[1].Info().Counts) || !slices.Equal(tabs[0].Info().Counts, tabs[2].Info().Counts) {
		t.Fatal("counts differ")
	}
	dom := tabs[0].Domain()
	for s := uint64(0); s < dom.Slots(); s += 7 {
		st, _ := dom.StateOf(s)
		a, _ := tabs[0].Lookup(st)
		b, err := tabs[1].Lookup(st)
		c, _ := tabs[2].Lookup(st)
		if err != nil || a != b || a != c {
			t.Fatalf("%s: %+v %+v %+v (%v)", st, a, b, c, err)
		}
	}
}

// tableCodes reads every code of a table.
func tableCodes(t *testing.T, path string) []uint32 {
	t.Helper()
	tab, err := tables.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	r := tab.Reader()
	codes := make([]uint32, r.Meta().Slots)
	if err := r.Codes(codes, 0); err != nil {
		t.Fatal(err)
	}
	return codes
}

// TestPlanTwoBit: units fit their memory, the traffic is zero for one unit and the
// expansions' CPU does not depend on the cut.
func TestPlanTwoBit(t *testing.T) {
	t.Parallel()
	const slots = 653837184000 // 3×5
	base := TwoBitPlanOptions{UnitCores: 16, NetworkBps: 1.25e9, Levels: 85, PeakLevel: 0.09, Branching: GridBranching(3, 5),
		CellsCount: 15, Rates: MeasuredTwoBitRates, StatesCount: slots}
	var cpu float64
	for _, gib := range []uint64{16, 64, 256, 1024} {
		opt := base
		opt.UnitMemory = gib << 30
		p, err := PlanTwoBit(slots, opt)
		if err != nil {
			t.Fatal(err)
		}
		if p.UnitMemBytes > opt.UnitMemory || uint64(p.Units)*p.UnitSlots < slots {
			t.Fatalf("%d GiB: %+v", gib, p)
		}
		if (p.Units == 1) != (p.TrafficBytes == 0) || p.WallSeconds < p.ComputeSeconds {
			t.Fatalf("%d GiB: %+v", gib, p)
		}
		if cpu != 0 && p.CPUCoreSeconds != cpu {
			t.Fatalf("CPU %v, then %v", cpu, p.CPUCoreSeconds)
		}
		cpu = p.CPUCoreSeconds
	}
	if g := GridBranching(4, 4); g != 3 {
		t.Fatalf("4×4 branching %v", g)
	}
	if _, err := PlanTwoBit(slots, TwoBitPlanOptions{UnitMemory: 1, UnitCores: 16}); err == nil {
		t.Fatal("a unit smaller than its buffers accepted")
	}
}

// TestLeanTwoBitBuildKilledResumes: a lean build (--search-bits 2) killed after a level
// leaves a lean checkpoint; resuming with auto goes on lean and gives the 8-puzzle's
// distribution, the same codes as a build with recent bits; resuming with 3 bits a slot
// is refused, saying how to go on. Not parallel: it sets the package's checkpoint hook.
func TestLeanTwoBitBuildKilledResumes(t *testing.T) {
	in := instance(t, "slide", `{"rows":3,"cols":3,"goal":"blank-last"}`, "lex-half")
	dir := t.TempDir()
	full := dir + "/full.tsm"
	res, err := BuildPuzzle(context.Background(), in, full, PuzzleOptions{Workers: 2, Engine: EngineTwoBit, SearchBits: 3})
	if err != nil || res.SearchBits != 3 {
		t.Fatalf("full build: %v (%d bits)", err, res.SearchBits)
	}
	out := dir + "/lean.tsm"
	killed := errors.New("killed")
	twoBitCheckpointed = func(level int) error {
		if level == 20 {
			return killed
		}
		return nil
	}
	defer func() { twoBitCheckpointed = nil }()
	_, err = BuildPuzzle(context.Background(), in, out, PuzzleOptions{Workers: 2, Engine: EngineTwoBit, SearchBits: 2, Checkpoint: CheckpointAlways})
	if !errors.Is(err, killed) {
		t.Fatalf("interrupted build: %v", err)
	}
	twoBitCheckpointed = nil
	_, err = BuildPuzzle(context.Background(), in, out, PuzzleOptions{Workers: 2, Resume: true, SearchBits: 3, Engine: EngineTwoBit})
	if err == nil || !strings.Contains(err.Error(), "--search-bits 2") {
		t.Fatalf("3 bits resuming a lean checkpoint: %v", err)
	}
	var notices []string
	res, err = BuildPuzzle(context.Background(), in, out, PuzzleOptions{Workers: 2, Resume: true, Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Engine != EngineTwoBit || res.SearchBits != 2 || !strings.Contains(strings.Join(notices, "\n"), "after level 20") {
		t.Fatalf("engine %s %d bits, notices %q", res.Engine, res.SearchBits, notices)
	}
	var codes [2][]byte
	for i, path := range []string{full, out} {
		tab, err := tables.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(tab.Info().Counts, slide.EightPuzzleCounts) {
			t.Fatalf("%s: counts %v", path, tab.Info().Counts)
		}
		r := tab.Reader()
		for b := range r.Blocks() {
			packed, err := r.PackedBlock(b, nil)
			if err != nil {
				t.Fatal(err)
			}
			codes[i] = append(codes[i], packed...)
		}
		tab.Close()
	}
	if len(codes[0]) == 0 || !slices.Equal(codes[0], codes[1]) {
		t.Fatal("the lean build's codes differ from the full build's")
	}
}

// TestEngineGoesLeanWhereRecentBitsDoNotFit: on a board of two sides, the two-bit engine
// runs the half-depth search in the lean search's memory unless depth-mod-3 codes are
// asked for (--codes, or --search-bits); with memory for the depth-mod-3 search's codes
// but not its recent bits, it goes lean; --search-bits 3 is refused, naming the lean
// search's need; with less than the codes, every choice is refused, naming the 2-bit
// need (the half-depth search's with its side masks); with plenty, 3 bits a slot. Bad combinations of codes, engine and bits are
// refused.
func TestEngineGoesLeanWhereRecentBitsDoNotFit(t *testing.T) {
	t.Parallel()
	in := instance(t, "slide", `{"rows":2,"cols":6,"goal":"blank-last"}`, "lex-half")
	sp := in.Space.(twobit.Space)
	bytes, need3, need2, err := EngineMemory(sp, 2, false)
	if err != nil || !(need2 < need3 && need3 < bytes) {
		t.Fatalf("needs: bytes %d, 3 bits %d, 2 bits %d, %v", bytes, need3, need2, err)
	}
	// A half-depth search also holds the side masks of the chunks where one blank
	// cell's run of slots ends and the next begins (11!/2 slots a run, not whole chunks).
	needHalf := need2 + twobit.SideMaskBytes(sp)
	if needHalf <= need2 || needHalf >= need3 {
		t.Fatalf("half-depth needs %d, 2 bits %d, 3 bits %d", needHalf, need2, need3)
	}
	const auto, mod3, half = CodesAuto, CodesDepthMod3, CodesHalfDepth
	for _, tc := range []struct {
		engine, codes string
		bits          int
		avail         uint64
		want          EngineChoice
		errHas        string
	}{
		{EngineAuto, auto, 0, bytes, EngineChoice{Engine: EngineBytes}, ""},
		{EngineAuto, "", 0, need3, EngineChoice{Engine: EngineTwoBit, Half: true}, ""},
		{EngineAuto, auto, 0, needHalf, EngineChoice{Engine: EngineTwoBit, Half: true}, ""},
		{EngineAuto, half, 0, bytes, EngineChoice{Engine: EngineTwoBit, Half: true}, ""},
		{EngineTwoBit, auto, 0, bytes, EngineChoice{Engine: EngineTwoBit, Half: true}, ""},
		{EngineAuto, mod3, 0, bytes, EngineChoice{Engine: EngineTwoBit}, ""},
		{EngineAuto, mod3, 0, need3, EngineChoice{Engine: EngineTwoBit}, ""},
		{EngineAuto, mod3, 0, need3 - 1, EngineChoice{Engine: EngineTwoBit, Lean: true}, ""},
		{EngineTwoBit, mod3, 0, need2, EngineChoice{Engine: EngineTwoBit, Lean: true}, ""},
		{EngineTwoBit, auto, 2, bytes, EngineChoice{Engine: EngineTwoBit, Lean: true}, ""},
		{EngineAuto, auto, 2, bytes, EngineChoice{Engine: EngineTwoBit, Lean: true}, ""},
		{EngineTwoBit, mod3, 2, bytes, EngineChoice{Engine: EngineTwoBit, Lean: true}, ""},
		{EngineTwoBit, auto, 3, bytes, EngineChoice{Engine: EngineTwoBit}, ""},
		{EngineTwoBit, half, 2, needHalf, EngineChoice{Engine: EngineTwoBit, Half: true}, ""},
		{EngineTwoBit, auto, 3, need3 - 1, EngineChoice{}, "--search-bits 2"},
		{EngineAuto, auto, 0, needHalf - 1, EngineChoice{}, "2 bits a slot (half-depth or lean)"},
		{EngineTwoBit, half, 0, needHalf - 1, EngineChoice{}, "2 bits a slot (half-depth or lean)"},
		{EngineTwoBit, auto, 2, need2 - 1, EngineChoice{}, "2 bits a slot (half-depth or lean)"},
		{EngineTwoBit, auto, 4, bytes, EngineChoice{}, "2 or 3 bits"},
		{EngineTwoBit, half, 3, bytes, EngineChoice{}, "not 3"},
		{EngineBytes, half, 0, bytes, EngineChoice{}, "two-bit engine's"},
		{EngineBytes, mod3, 0, bytes, EngineChoice{}, "two-bit engine's"},
		{EngineTwoBit, "nibbles", 0, bytes, EngineChoice{}, "unknown codes"},
	} {
		got, err := chooseEngine(sp, tc.engine, tc.codes, tc.bits, 2, false, false, t.TempDir()+"/x.tsm", tc.avail)
		if tc.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("%s, codes %s, %d bits, %d available: %v, want an error with %q", tc.engine, tc.codes, tc.bits, tc.avail, err, tc.errHas)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s, codes %s, %d bits, %d available: %+v %v, want %+v", tc.engine, tc.codes, tc.bits, tc.avail, got, err, tc.want)
		}
	}
}

// TestEngineHalfDepthWhereSidesInterleave: under a scheme that interleaves the sides
// (mr on 2×6), auto gives depth-mod-3 codes and half-depth asked for is refused before
// any work, quoting twobit.CheckHalf's reason.
func TestEngineHalfDepthWhereSidesInterleave(t *testing.T) {
	t.Parallel()
	in := instance(t, "slide", `{"rows":2,"cols":6,"goal":"blank-last"}`, "mr")
	sp := in.Space.(twobit.Space)
	reason := twobit.CheckHalf(sp)
	if reason == nil {
		t.Fatal("CheckHalf allows mr on 2×6")
	}
	got, err := chooseEngine(sp, EngineTwoBit, CodesAuto, 0, 2, false, false, t.TempDir()+"/x.tsm", 0)
	if err != nil || got != (EngineChoice{Engine: EngineTwoBit}) {
		t.Fatalf("auto: %+v %v", got, err)
	}
	_, err = chooseEngine(sp, EngineTwoBit, CodesHalfDepth, 0, 2, false, false, t.TempDir()+"/x.tsm", 0)
	if err == nil || !strings.Contains(err.Error(), reason.Error()) || !strings.Contains(err.Error(), "--codes depth-mod-3") {
		t.Fatalf("half-depth: %v", err)
	}
}

// TestHalfTwoBitBuildKilledResumes: a half-depth build killed after a level leaves a
// half-depth checkpoint (version 3); resuming it with depth-mod-3 codes or 3 bits a slot
// is refused, saying how to go on; with auto it goes on half-depth (with no lean notice
// and no pushed or pulled levels) and gives the 8-puzzle's distribution, the codes of
// an uninterrupted half-depth build, and a table verify recomputes. Not parallel: it
// sets the package's checkpoint hook.
func TestHalfTwoBitBuildKilledResumes(t *testing.T) {
	in := instance(t, "slide", `{"rows":3,"cols":3,"goal":"blank-last"}`, "lex")
	dir := t.TempDir()
	whole := dir + "/whole.tsm"
	res, err := BuildPuzzle(context.Background(), in, whole, PuzzleOptions{Workers: 2, Engine: EngineTwoBit})
	if err != nil || res.SearchBits != 2 || res.Codes != CodesHalfDepth {
		t.Fatalf("whole build: %+v %v", res, err)
	}
	out := dir + "/half.tsm"
	killed := errors.New("killed")
	twoBitCheckpointed = func(level int) error {
		if level == 17 {
			return killed
		}
		return nil
	}
	defer func() { twoBitCheckpointed = nil }()
	_, err = BuildPuzzle(context.Background(), in, out, PuzzleOptions{Workers: 2, Engine: EngineTwoBit, Codes: CodesHalfDepth, Checkpoint: CheckpointAlways})
	if !errors.Is(err, killed) || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("interrupted build: %v", err)
	}
	twoBitCheckpointed = nil
	cp, err := twobit.ReadCheckpoint(TwoBitCheckpointPath(out), in.Key(), in.Space.(twobit.Space).Slots())
	if err != nil || !cp.Half || cp.Lean() || len(cp.Counts) != 18 {
		t.Fatalf("checkpoint: %v", err)
	}
	cp.Codes.Release()
	for _, opt := range []PuzzleOptions{
		{Workers: 2, Resume: true, Codes: CodesDepthMod3},
		{Workers: 2, Resume: true, Engine: EngineTwoBit, SearchBits: 3},
	} {
		if _, err := BuildPuzzle(context.Background(), in, out, opt); err == nil || !strings.Contains(err.Error(), "--codes half-depth or auto") {
			t.Fatalf("%+v resuming a half-depth checkpoint: %v", opt, err)
		}
	}
	var notices []string
	res, err = BuildPuzzle(context.Background(), in, out, PuzzleOptions{Workers: 2, Resume: true, SearchBits: 2, Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	said := strings.Join(notices, "\n")
	if res.Engine != EngineTwoBit || res.SearchBits != 2 || res.Codes != CodesHalfDepth || !strings.Contains(said, "after level 17") ||
		!strings.Contains(said, "a half-depth search") || strings.Contains(said, "lean search") || strings.Contains(said, "pushed") || strings.Contains(said, "pulled") {
		t.Fatalf("engine %s %d bits, codes %s, notices %q", res.Engine, res.SearchBits, res.Codes, notices)
	}
	tab, err := tables.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if !slices.Equal(tab.Info().Counts, slide.EightPuzzleCounts) || tab.Info().Encoding != CodesHalfDepth {
		t.Fatalf("info %+v", tab.Info())
	}
	if err := RecomputeTwoBit(context.Background(), in, tab.Reader(), 2); err != nil {
		t.Fatal(err)
	}
	if a, b := tableCodes(t, whole), tableCodes(t, out); !slices.Equal(a, b) {
		t.Fatal("the resumed build's codes differ from the whole build's")
	}
}
