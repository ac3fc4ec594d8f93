package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/tablesmith/tablesmith/builder"
	"github.com/tablesmith/tablesmith/builder/bfs"
	"github.com/tablesmith/tablesmith/builder/levellog"
	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/internal/safefile"
	"github.com/tablesmith/tablesmith/values"
)

// Checkpointing says when a puzzle build logs every completed level to OUT.ckpt.
type Checkpointing int

const (
	CheckpointAuto   Checkpointing = iota // builds of 16M slots or more
	CheckpointAlways                      // every build
	CheckpointNever                       // no build
)

// PuzzleOptions tune Puzzle. The zero value is usable.
type PuzzleOptions struct {
	Workers    int  // 0: GOMAXPROCS
	Resume     bool // continue from OUT.ckpt when it exists
	Checkpoint Checkpointing
	Build      format.Build // recorded in the file (Seconds is filled in)
	// Search and Write, if set, report progress.
	Search func(builder.Progress)
	Write  func(done, total uint64)
	// Notice, if set, receives one-line messages for the user (e.g. "resuming from …").
	Notice func(string)
	// Engine is EngineAuto (""), EngineBytes or EngineTwoBit (see ChooseEngine).
	Engine string
	// Codes is the two-bit table's encoding: CodesAuto (""), CodesDepthMod3 or
	// CodesHalfDepth (see ChooseEngine).
	Codes string
	// SearchBits is what a depth-mod-3 search holds a slot: 3 (recent bits: every state
	// expanded once), 2 (lean: less memory, more expansions) or 0 (3 where it fits). With
	// Codes auto, 2 or 3 ask for depth-mod-3 codes.
	SearchBits int
	// CheckpointEvery is the least time between two checkpoints of a two-bit build with
	// CheckpointAuto (0: 10 minutes; and at least five times the last one's write).
	CheckpointEvery time.Duration
}

// PuzzleResult is what a finished puzzle build reports.
type PuzzleResult struct {
	Meta          format.Metadata // as written
	Search        *bfs.Result     // Values are released: only the counts remain
	SearchSeconds float64
	WriteSeconds  float64
	Engine        string // EngineBytes or EngineTwoBit
	SearchBits    int    // the two-bit search's bits a slot: 3, or 2 when lean or half-depth (0: the byte engine)
	Codes         string // the two-bit table's encoding: CodesDepthMod3 or CodesHalfDepth ("": the byte engine)
}

// puzzleSpace is what the puzzle pipeline needs of an instance.
type puzzleSpace interface{ bfs.Space }

// Puzzle builds the remoteness table of a puzzle instance into out: a breadth-first search
// from the goals (resuming from out.ckpt if asked and present; logging every completed
// level there when checkpointing), then the table written under a temporary name and
// renamed into place. The checkpoint (and any stale one of the same output) is removed
// once the table is in place.
func BuildPuzzle(ctx context.Context, in *games.Instance, out string, opt PuzzleOptions) (*PuzzleResult, error) {
	sp, ok := in.Space.(puzzleSpace)
	if _, isPuzzle := in.Game.(games.PuzzleGame); !ok || !isPuzzle {
		return nil, fmt.Errorf("build: %s is not a puzzle that breadth-first search builds", in.Game.Name())
	}
	checkpointing := opt.Resume || opt.Checkpoint == CheckpointAlways ||
		(opt.Checkpoint == CheckpointAuto && sp.Slots() >= 16<<20)
	choice, err := ChooseEngine(sp, opt.Engine, opt.Codes, opt.SearchBits, opt.Workers, checkpointing, opt.Resume, out)
	if err != nil {
		return nil, err
	}
	if choice.Engine == EngineTwoBit {
		if opt.CheckpointEvery <= 0 {
			opt.CheckpointEvery = 10 * time.Minute
		}
		return buildTwoBit(ctx, in, sp, out, opt, choice, checkpointing && opt.Checkpoint != CheckpointNever)
	}
	// Refuse a device, FIFO, symlink or directory before hours of search, not after.
	ckptPath := out + ".ckpt"
	params, notice, err := prepareBuild(in, opt, out, ckptPath)
	if err != nil {
		return nil, err
	}
	bopt := bfs.Options{Workers: opt.Workers, Progress: opt.Search}
	var log *levellog.Log
	closeLog := func() {
		if log != nil {
			log.Close()
			log = nil
		}
	}
	defer closeLog()
	if opt.Resume {
		cp, l, err := levellog.Resume(ckptPath, in.Key(), sp)
		switch {
		case err == nil && cp == nil:
			// Killed before its first level was whole: nothing to resume from, but the
			// log is this build's, cut back to its header, and goes on from level 0.
			log = l
			notice(fmt.Sprintf("checkpoint %s holds no completed level: starting from the goal", ckptPath))
		case err == nil:
			bopt.Resume, log = cp, l
			notice(fmt.Sprintf("resuming from %s after level %d", ckptPath, len(cp.Counts)-1))
		case errors.Is(err, os.ErrNotExist):
			notice(fmt.Sprintf("no checkpoint %s: starting from the goal", ckptPath))
		default:
			return nil, err
		}
	}
	if log == nil && checkpointing {
		width, err := bfs.StartWidth(sp)
		if err != nil {
			return nil, err
		}
		if log, err = levellog.Create(ckptPath, in.Key(), sp.Slots(), width); err != nil {
			return nil, err
		}
	}
	if log != nil {
		bopt.AfterLevel = log.Append
	}
	// The memory a log would hold is kept free even without one (as the estimate above
	// does for a logged build): the search's optional bitsets are a speed-up only.
	bopt.Reserve = levellog.MemoryEstimate(sp.Slots())
	res, err := bfs.Search(ctx, sp, bopt)
	if err != nil {
		if log != nil && !errors.Is(err, levellog.ErrCheckpoint) {
			return nil, fmt.Errorf("%w (run the same command with --resume to continue from the last completed level)", err)
		}
		return nil, err
	}
	meta := format.Metadata{Game: in.Game.Name(), Params: params, Index: in.Index, Build: opt.Build}
	meta.Build.Seconds = res.Elapsed.Seconds()
	if opt.Workers > 0 {
		meta.Build.Workers = opt.Workers
	}
	writeStart := time.Now()
	meta, err = WriteRemoteness(ctx, out, res, meta, format.WriteOptions{Workers: opt.Workers, Progress: opt.Write})
	if err != nil {
		return nil, err
	}
	if log != nil {
		log.CloseUnsynced() // removed just below: no need for it to reach the disk
		log = nil
	}
	// The table is whole: a checkpoint of this output, ours or one a killed build left
	// behind, can only mislead a later --resume.
	if st, err := os.Lstat(ckptPath); err == nil && st.Mode().IsRegular() {
		os.Remove(ckptPath)
	}
	r := &PuzzleResult{Meta: meta, SearchSeconds: res.Elapsed.Seconds(), WriteSeconds: time.Since(writeStart).Seconds(), Engine: EngineBytes}
	res.Values = nil
	r.Search = res
	return r, nil
}

// WriteRemoteness writes the result of a breadth-first search as a remoteness table.
// meta names the game, its parameters and the index scheme; the encoding, slot count and
// code width are filled in here. It returns the metadata as written (with the per-code
// counts).
func WriteRemoteness(ctx context.Context, path string, res *bfs.Result, meta format.Metadata, opt format.WriteOptions) (format.Metadata, error) {
	enc, err := values.RemotenessBits(uint64(max(res.MaxRemoteness(), 0)))
	if err != nil {
		return meta, err
	}
	v := res.Values
	unset, hole := v.Unset(), v.Hole()
	meta.Encoding = string(values.EncodingRemoteness)
	meta.Slots = v.Len()
	meta.CodeBits = enc.Bits
	code := func(x uint64) uint32 {
		switch x {
		case unset:
			return enc.Unreachable()
		case hole:
			return enc.Hole()
		}
		return uint32(x)
	}
	written, err := format.WriteFile(ctx, path, meta, valueCodes(v, code), opt)
	if err != nil {
		return written, fmt.Errorf("build: writing %s: %w", path, err)
	}
	return written, nil
}

// valueCodes is the table writer's source of a search's values, each written as code(x):
// one-byte values (most builds) through a table of their 256 codes in one pass
// (Values.MapBytes), wider ones a Get and a code per slot.
func valueCodes(v *builder.Values, code func(x uint64) uint32) format.CodeSource {
	var tr [256]uint32
	for x := range uint64(len(tr)) {
		tr[x] = code(x)
	}
	return func(dst []uint32, start uint64) {
		if v.MapBytes(dst, start, &tr) {
			return
		}
		for i := range dst {
			dst[i] = code(v.Get(start + uint64(i)))
		}
	}
}

// prepareBuild refuses an output path that is a device, FIFO, symlink or directory
// (paths: the table and its checkpoint) before hours of search, not after, and returns
// the instance's parameters as JSON and where notices go.
func prepareBuild(in *games.Instance, opt PuzzleOptions, paths ...string) (json.RawMessage, func(string), error) {
	for _, p := range paths {
		if err := safefile.CheckOutput(p); err != nil {
			return nil, nil, fmt.Errorf("build: %w", err)
		}
	}
	params, err := in.ParamsJSON()
	if err != nil {
		return nil, nil, err
	}
	notice := opt.Notice
	if notice == nil {
		notice = func(string) {}
	}
	return params, notice, nil
}
