package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/tablesmith/tablesmith/internal/humanize"
	"os"
	"path/filepath"
	"time"

	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/builder/levellog"
	"github.com/tablesmith/tablesmith/builder/twobit"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/sysmem"
	"github.com/tablesmith/tablesmith/values"
)

// The engines a puzzle build can run (PuzzleOptions.Engine).
const (
	EngineAuto   = "auto"    // bytes when its search fits the memory available, else two-bit
	EngineBytes  = "bytes"   // builder/bfs: a byte (or more) a slot, exact remoteness stored
	EngineTwoBit = "two-bit" // builder/twobit: 2 bits a slot stored (3 while searching, or 2 when lean or half-depth)
)

// The codes a two-bit table stores (PuzzleOptions.Codes): its value encoding.
const (
	CodesAuto      = "auto"                           // half-depth where the space allows it (twobit.CheckHalf), else depth-mod-3
	CodesDepthMod3 = string(values.EncodingDepthMod3) // d mod 3: a search of 3 bits a slot, or 2 when lean
	CodesHalfDepth = string(values.EncodingHalfDepth) // ⌊d/2⌋ mod 2: a half-depth search, 2 bits a slot, each state expanded once
)

// EngineChoice is the engine a build runs: for the two-bit engine, whether its search is
// lean (2 bits a slot, no recent bits: builder/twobit Options.Lean) or half-depth (2 bits
// a slot, codes ⌊d/2⌋ mod 2: Options.Half).
type EngineChoice struct {
	Engine string
	Lean   bool
	Half   bool
}

// Codes is the encoding of the table the choice writes ("" for the byte engine).
func (c EngineChoice) Codes() string {
	switch {
	case c.Engine != EngineTwoBit:
		return ""
	case c.Half:
		return CodesHalfDepth
	}
	return CodesDepthMod3
}

// TwoBitCheckpointPath is where a two-bit build of out keeps its checkpoint.
func TwoBitCheckpointPath(out string) string { return out + ".2bit.ckpt" }

// EngineMemory is what each engine's search of sp needs, in bytes (the byte engine with
// its level log when logged; the two-bit engine's with recent bits and lean, which is
// also the half-depth search's).
func EngineMemory(sp bfs.Space, workers int, logged bool) (bytes, twoBit, lean uint64, err error) {
	bytes, err = bfs.MemoryEstimate(sp)
	if err != nil {
		return 0, 0, 0, err
	}
	if logged {
		bytes += levellog.MemoryEstimate(sp.Slots())
	}
	n := sp.Slots()
	return bytes, twobit.MemoryEstimate(n, workers, false) + writerMemory(workers),
		twobit.MemoryEstimate(n, workers, true) + writerMemory(workers), nil
}

// writerMemory is what the table writer holds beside the values: about three blocks
// and their codes per worker.
func writerMemory(workers int) uint64 { return uint64(max(workers, 1)) * (8 << 20) }

// ChooseEngine resolves engine (auto, bytes or two-bit), codes (auto, depth-mod-3 or
// half-depth: the two-bit table's encoding) and searchBits (0: auto, 2 or 3, a
// depth-mod-3 search's bits a slot) for a build of sp into out, and refuses, before any
// work, a search that does not fit the memory available, saying what it needs and what to
// do instead. The two-bit engine runs the half-depth search (2 bits a slot, each state
// expanded once) wherever twobit.CheckHalf allows it, unless codes or searchBits ask for
// depth-mod-3 codes; those are searched with recent bits (3 bits a slot) where they fit,
// else lean (2). A resumed auto build takes the engine whose checkpoint is there (and
// buildTwoBit the checkpoint's codes).
func ChooseEngine(sp bfs.Space, engine, codes string, searchBits, workers int, logged, resume bool, out string) (EngineChoice, error) {
	return chooseEngine(sp, engine, codes, searchBits, workers, logged, resume, out, sysmem.Available())
}

// chooseEngine is ChooseEngine with avail bytes of memory available (0: unknown).
func chooseEngine(sp bfs.Space, engine, codes string, searchBits, workers int, logged, resume bool, out string, avail uint64) (EngineChoice, error) {
	need, need3, need2, err := EngineMemory(sp, workers, logged)
	if err != nil {
		return EngineChoice{}, err
	}
	fits := func(n uint64) bool { return avail == 0 || n <= avail }
	n := sp.Slots()
	if searchBits != 0 && searchBits != 2 && searchBits != 3 {
		return EngineChoice{}, fmt.Errorf("build: the two-bit search holds 2 or 3 bits a slot, not %d", searchBits)
	}
	explicitCodes := codes != "" && codes != CodesAuto
	switch {
	case codes != "" && codes != CodesAuto && codes != CodesDepthMod3 && codes != CodesHalfDepth:
		return EngineChoice{}, fmt.Errorf("build: unknown codes %q (want auto, %s or %s)", codes, CodesDepthMod3, CodesHalfDepth)
	case explicitCodes && engine == EngineBytes:
		return EngineChoice{}, fmt.Errorf("build: the codes (%s) are the two-bit engine's: the byte engine stores the exact remoteness", codes)
	case codes == CodesHalfDepth && searchBits == 3:
		return EngineChoice{}, errors.New("build: the half-depth search holds 2 bits a slot, not 3: 3 bits a slot are for depth-mod-3 codes")
	}
	halfErr := twobit.CheckHalf(sp)
	if codes == CodesHalfDepth && halfErr != nil {
		return EngineChoice{}, fmt.Errorf("build: half-depth codes cannot be searched here (use --codes depth-mod-3): %w", halfErr)
	}
	// Half-depth wherever it can be, but where depth-mod-3 codes are asked for: by name, or
	// by a search's bits a slot (the flag's meaning before half-depth codes).
	half := codes == CodesHalfDepth || !explicitCodes && searchBits == 0 && halfErr == nil
	needHalf := need2
	if half {
		needHalf += twobit.SideMaskBytes(sp)
	}
	twoBit := func() (EngineChoice, error) {
		switch {
		case half && fits(needHalf):
			return EngineChoice{Engine: EngineTwoBit, Half: true}, nil
		case half:
			return EngineChoice{}, tooBig(n, needHalf, avail)
		case searchBits != 2 && fits(need3):
			return EngineChoice{Engine: EngineTwoBit}, nil
		case searchBits == 3:
			return EngineChoice{}, fmt.Errorf("build: the two-bit search with recent bits (3 bits a slot) of %s slots needs about %s of memory; this machine has %s available: "+
				"a lean search (--search-bits 2) needs %s", groupDigits(n), humanize.Bytes(need3), humanize.Bytes(avail), humanize.Bytes(need2))
		case fits(need2):
			return EngineChoice{Engine: EngineTwoBit, Lean: true}, nil
		}
		return EngineChoice{}, tooBig(n, need2, avail)
	}
	switch engine {
	case EngineBytes:
		if !fits(need) {
			return EngineChoice{}, fmt.Errorf("build: the byte engine's search needs about %s of memory for %d slots; this machine has %s available (the two-bit engine needs %s: --engine two-bit)",
				humanize.Bytes(need), n, humanize.Bytes(avail), humanize.Bytes(min(need3, need2)))
		}
		return EngineChoice{Engine: engine}, nil
	case EngineTwoBit:
		return twoBit()
	case EngineAuto, "":
		if resume {
			if _, err := os.Stat(TwoBitCheckpointPath(out)); err == nil {
				return twoBit()
			}
			if _, err := os.Stat(out + ".ckpt"); err == nil {
				return EngineChoice{Engine: EngineBytes}, nil
			}
		}
		if fits(need) && searchBits == 0 && !explicitCodes {
			return EngineChoice{Engine: EngineBytes}, nil
		}
		return twoBit()
	}
	return EngineChoice{}, fmt.Errorf("build: unknown engine %q (want auto, bytes or two-bit)", engine)
}

func tooBig(slots, need, avail uint64) error {
	return fmt.Errorf("build: even the two-bit search of %s slots in 2 bits a slot (half-depth or lean) needs about %s of memory; this machine has %s available: "+
		"free memory, build on a machine with more, or split the search into units (tablesmith plan slide models that)",
		groupDigits(slots), humanize.Bytes(need), humanize.Bytes(avail))
}

// twoBitCheckpointed, if set (tests), is called after every checkpoint written, with its
// last level; an error stops the search as a kill would.
var twoBitCheckpointed func(level int) error

// buildTwoBit is BuildPuzzle with the two-bit engine.
func buildTwoBit(ctx context.Context, in *games.Instance, sp puzzleSpace, out string, opt PuzzleOptions, choice EngineChoice, checkpointing bool) (*PuzzleResult, error) {
	lean, half := choice.Lean, choice.Half
	ckptPath := TwoBitCheckpointPath(out)
	params, notice, err := prepareBuild(in, opt, out, ckptPath)
	if err != nil {
		return nil, err
	}
	n := sp.Slots()
	// The disk: the table (2-bit codes do not compress) is refused before any work where
	// it cannot fit; checkpoints (the one on disk and its replacement) are left out,
	// with a warning, where they cannot.
	if free := freeDisk(filepath.Dir(out)); free > 0 {
		table := twobit.CodesBytes(n) + n/2048*16 + 64<<10 // codes, block index, metadata
		if free < table {
			return nil, fmt.Errorf("build: the table needs about %s of disk, %s has %s free: make room, or write it elsewhere with -o",
				humanize.Bytes(table), filepath.Dir(out), humanize.Bytes(free))
		}
		if ck := 2 * twobit.CheckpointBytes(n, 256, lean || half); checkpointing && free < table+ck {
			notice(fmt.Sprintf("warning: %s free in %s holds the table (%s) but not checkpoints too (%s): building without checkpoints",
				humanize.Bytes(free), filepath.Dir(out), humanize.Bytes(table), humanize.Bytes(ck)))
			checkpointing = false
		}
	}
	topt := twobit.Options{Workers: opt.Workers, Progress: opt.Search}
	if opt.Resume {
		read := twobit.ReadCheckpoint
		if lean {
			read = twobit.ReadCheckpointLean // memory was checked for 2 bits a slot
		}
		cp, err := read(ckptPath, in.Key(), n)
		refuse := func(msg string, a ...any) (*PuzzleResult, error) {
			cp.Codes.Release()
			cp.Release()
			return nil, fmt.Errorf(msg, a...)
		}
		switch {
		case err == nil && cp.Half && (opt.Codes == CodesDepthMod3 || opt.SearchBits == 3):
			return refuse("build: the checkpoint %s is a half-depth search's (codes ⌊d/2⌋ mod 2, 2 bits a slot): resume it with --codes half-depth or auto, without --search-bits 3", ckptPath)
		case err == nil && !cp.Half && opt.Codes == CodesHalfDepth:
			return refuse("build: the checkpoint %s is a depth-mod-3 search's: resume it with --codes depth-mod-3 or auto", ckptPath)
		case err == nil && cp.Lean() && !lean && opt.SearchBits == 3:
			return refuse("build: the checkpoint %s is a lean search's (2 bits a slot): resume it with --search-bits 2 or auto", ckptPath)
		case err == nil:
			// Where the codes were left to auto, the checkpoint decides them.
			switch {
			case cp.Half && !half:
				notice("the checkpoint is a half-depth search's: the search goes on half-depth (codes ⌊d/2⌋ mod 2, 2 bits a slot)")
				half, lean = true, false
			case !cp.Half && half:
				notice("the checkpoint is a depth-mod-3 search's: the search goes on with codes d mod 3")
				half, lean = false, cp.Lean()
			case cp.Lean() && !lean:
				notice("the checkpoint is a lean search's: the search goes on lean (2 bits a slot)")
				lean = true
			}
			topt.Resume = cp
			notice(fmt.Sprintf("resuming from %s after level %d", ckptPath, len(cp.Counts)-1))
		case errors.Is(err, os.ErrNotExist):
			notice(fmt.Sprintf("no checkpoint %s: starting from the goal", ckptPath))
		case errors.Is(err, twobit.ErrCheckpoint):
			return nil, fmt.Errorf("build: %w; delete it to start over without --resume", err)
		default:
			return nil, fmt.Errorf("build: reading the checkpoint: %w", err)
		}
	}
	saved := -1 // the last level the checkpoint on disk holds
	if checkpointing {
		every := opt.CheckpointEvery
		last, lastWrite := time.Now(), time.Duration(0)
		failed := false // a write failed: try again only when due by time
		topt.AfterLevel = func(cp *twobit.Checkpoint) error {
			due := (opt.Checkpoint == CheckpointAlways && !failed) ||
				time.Since(last) >= max(every, 5*lastWrite)
			if !due {
				return nil
			}
			start := time.Now()
			if err := twobit.WriteCheckpoint(ckptPath, in.Key(), cp); err != nil {
				// The search goes on: a checkpoint lost costs a resume, not the build.
				notice(fmt.Sprintf("warning: checkpoint after level %d not written (%v); the search goes on, the next try in %v",
					len(cp.Counts)-1, err, max(every, 5*lastWrite)))
				last, failed = time.Now(), true
				return nil
			}
			saved = len(cp.Counts) - 1
			last, lastWrite = time.Now(), time.Since(start)
			if twoBitCheckpointed != nil {
				return twoBitCheckpointed(saved)
			}
			return nil
		}
	}
	// Every level's count as it is known, for the user (and the log of a long build).
	levelStart := time.Now()
	way := "" // a lean level's: pushed or pulled
	reportLevel := func(d int, k uint64) {
		notice(fmt.Sprintf("level %d: %s states (%.1fs%s)", d, groupDigits(k), time.Since(levelStart).Seconds(), way))
		levelStart = time.Now()
	}
	topt.LeanLevel = func(_ uint64, pull bool) {
		way = map[bool]string{false: ", pushed", true: ", pulled"}[pull]
	}
	ckpt := topt.AfterLevel
	topt.AfterLevel = func(cp *twobit.Checkpoint) error {
		reportLevel(len(cp.Counts)-1, cp.Counts[len(cp.Counts)-1])
		if ckpt != nil {
			return ckpt(cp)
		}
		return nil
	}
	switch {
	case half:
		notice("a half-depth search: 2 bits a slot, each state expanded once (the table stores ⌊d/2⌋ mod 2: half-depth codes)")
	case lean:
		notice("a lean search: 2 bits a slot and no recent bits, so older states are expanded again or unreached ones pull (slower)")
	}
	topt.Lean, topt.Half = lean, half
	res, err := twobit.Search(ctx, sp, topt)
	if err == nil && len(res.Counts) > 0 {
		reportLevel(len(res.Counts)-1, res.Counts[len(res.Counts)-1])
	}
	if err != nil {
		if saved >= 0 || topt.Resume != nil {
			return nil, fmt.Errorf("%w (run the same command with --resume to continue from the checkpoint %s)", err, ckptPath)
		}
		return nil, err
	}
	defer res.Codes.Release()
	meta := format.Metadata{Game: in.Game.Name(), Params: params, Index: in.Index, Build: opt.Build}
	meta.Build.Seconds = res.Elapsed.Seconds()
	if opt.Workers > 0 {
		meta.Build.Workers = opt.Workers
	}
	writeStart := time.Now()
	meta, err = WriteDepthMod3(ctx, out, res, meta, format.WriteOptions{Workers: opt.Workers, Progress: opt.Write, Level: 1, SlotsPerBlock: TwoBitSlotsPerBlock})
	if err != nil {
		if saved >= 0 {
			return nil, fmt.Errorf("%w (the checkpoint %s after level %d is kept: make room and run the same command with --resume)", err, ckptPath, saved)
		}
		return nil, fmt.Errorf("%w (the search is lost: make room and build again)", err)
	}
	if st, err := os.Lstat(ckptPath); err == nil && st.Mode().IsRegular() {
		os.Remove(ckptPath)
	}
	r := &PuzzleResult{Meta: meta, SearchSeconds: res.Elapsed.Seconds(), WriteSeconds: time.Since(writeStart).Seconds(),
		Search: &bfs.Result{Counts: res.Counts, Reached: res.Reached, Unreachable: res.Unreachable, Holes: res.Holes, Elapsed: res.Elapsed},
		Engine: EngineTwoBit, SearchBits: 3, Codes: EngineChoice{Engine: EngineTwoBit, Half: half}.Codes()}
	if lean || half {
		r.SearchBits = 2
	}
	return r, nil
}

// TwoBitSlotsPerBlock is the block of a two-bit table: 8 KiB of codes, so that a descent
// that misses the cache decodes little per step.
const TwoBitSlotsPerBlock = 1 << 15

// WriteDepthMod3 writes the codes of a two-bit search as a table of the search's
// encoding (values.EncodingHalfDepth for a half-depth search, else EncodingDepthMod3)
// with the states per remoteness in the metadata's extra.
func WriteDepthMod3(ctx context.Context, path string, res *twobit.Result, meta format.Metadata, opt format.WriteOptions) (format.Metadata, error) {
	extra, err := json.Marshal(values.DepthMod3Extra{Counts: res.Counts, Unreachable: res.Unreachable, Holes: res.Holes, Engine: EngineTwoBit})
	if err != nil {
		return meta, err
	}
	meta.Encoding = string(values.EncodingDepthMod3)
	if res.Half {
		meta.Encoding = string(values.EncodingHalfDepth)
	}
	meta.Slots = res.Codes.Len()
	meta.CodeBits = values.DepthMod3Bits
	meta.Extra = extra
	opt.Packed2 = res.Codes.Bytes() // the search's array is the file's packing: no code by code
	written, err := format.WriteFile(ctx, path, meta, TwoBitCodes(res.Codes.Words), opt)
	if err != nil {
		return written, fmt.Errorf("build: writing %s: %w", path, err)
	}
	return written, nil
}

// TwoBitCodes is the table writer's source of packed 2-bit codes (32 a word).
func TwoBitCodes(words []uint64) format.CodeSource {
	return func(dst []uint32, start uint64) {
		i := 0
		for i < len(dst) && (start+uint64(i))&31 != 0 {
			s := start + uint64(i)
			dst[i] = uint32(words[s>>5] >> (s & 31 * 2) & 3)
			i++
		}
		for ; i+32 <= len(dst); i += 32 {
			w := words[(start+uint64(i))>>5]
			d := dst[i : i+32 : i+32]
			for k := range d {
				d[k] = uint32(w & 3)
				w >>= 2
			}
		}
		for ; i < len(dst); i++ {
			s := start + uint64(i)
			dst[i] = uint32(words[s>>5] >> (s & 31 * 2) & 3)
		}
	}
}

// RecomputeLimit is the largest two-bit table whose search `verify` recomputes.
const RecomputeLimit = 1 << 28

// RecomputeTwoBit searches the space of a two-bit table again, in the table's mode (a
// half-depth search for a half-depth table), and compares every code and the per-depth
// counts with the file's: the check a forged table cannot pass (the
// local checks of tables.Verify cannot see a cycle of codes that never meets a goal).
// The error wraps format.ErrCorrupt and names the first slot that differs.
func RecomputeTwoBit(ctx context.Context, in *games.Instance, r *format.Reader, workers int) error {
	sp, ok := in.Space.(twobit.Space)
	if !ok {
		return fmt.Errorf("verify: %s is not a puzzle the two-bit search builds", in.Game.Name())
	}
	meta := r.Meta()
	enc := values.Encoding(meta.Encoding)
	x, err := values.ParseTwoBitExtra(enc, meta.Extra, meta.CodeCounts)
	if err != nil {
		return fmt.Errorf("verify: %w: %w", err, format.ErrCorrupt)
	}
	res, err := twobit.Search(ctx, sp, twobit.Options{Workers: workers, Half: enc == values.EncodingHalfDepth})
	if err != nil {
		return err
	}
	defer res.Codes.Release()
	if !slicesEqual(res.Counts, x.Counts) {
		return fmt.Errorf("verify: the search finds %v states per remoteness, the file says %v: %w", res.Counts, x.Counts, format.ErrCorrupt)
	}
	buf := make([]uint32, 1<<16)
	src := TwoBitCodes(res.Codes.Words)
	want := make([]uint32, len(buf))
	for start := uint64(0); start < meta.Slots; start += uint64(len(buf)) {
		k := min(uint64(len(buf)), meta.Slots-start)
		if err := r.Codes(buf[:k], start); err != nil {
			return err
		}
		src(want[:k], start)
		for i := range k {
			if buf[i] != want[i] {
				return fmt.Errorf("verify: slot %d holds code %d, the search gives %d: %w", start+i, buf[i], want[i], format.ErrCorrupt)
			}
		}
	}
	return nil
}

func slicesEqual(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// groupDigits writes n with thousands separators.
func groupDigits(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
