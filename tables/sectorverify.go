package tables

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games/mill"
	"github.com/tablesmith/tablesmith/internal/safefile"
	"github.com/tablesmith/tablesmith/internal/sysmem"
	"github.com/tablesmith/tablesmith/values"
)

// forwarder is what the forward check needs of a sector's domain.
type forwarder interface {
	NewForward() func(slot uint64, dst []uint64) []uint64
}

// verifySectors checks a sector set: every file's checksums, counts and SHA-256 against
// the manifest, then the forward consistency of every stored value: each position's
// value and remoteness recomputed from its successors' stored values (across sectors)
// must equal its own. It names the first inconsistent position of the first sector that
// has one.
func (s *Set) verifySectors(ctx context.Context, opt VerifyOptions) error {
	var all []SectorInfo
	for _, info := range s.sectors.Sectors {
		if err := s.checkSectorFile(ctx, info, opt); err != nil {
			return err
		}
		all = append(all, info)
	}
	if opt.ChecksumsOnly {
		return nil
	}
	codes, err := s.loadSectorCodes(ctx, all, opt)
	if err != nil {
		return err
	}
	for _, info := range s.sectors.Sectors {
		t := s.bySector[info.Sector]
		if err := checkForward(ctx, t, codes, opt); err != nil {
			return fmt.Errorf("%s: %w", t.File(), err)
		}
	}
	return nil
}

// VerifySector checks one sector of a sector set, as Verify checks them all: its file's
// checksums, counts and SHA-256 against the manifest, then the forward consistency of its
// values, reading only the sectors its moves lead into (their blocks' checksums are
// checked as they are read). It is one unit of a verification spread over jobs.
func (s *Set) VerifySector(ctx context.Context, name string, opt VerifyOptions) error {
	if s.sectors == nil {
		return fmt.Errorf("tables: %s is not a sector set", s.dir)
	}
	info, ok := s.sectors.Sector(name)
	if !ok {
		return fmt.Errorf("tables: sector %s is not in %s", name, s.dir)
	}
	if err := s.checkSectorFile(ctx, info, opt); err != nil || opt.ChecksumsOnly {
		return err
	}
	t := s.bySector[name]
	var p mill.Params
	_ = jsonUnmarshal(t.meta.Params, &p)
	read := []SectorInfo{info}
	move, capture, _ := mill.NextSectors(p.W, p.B)
	for _, o := range [][2]int{move, capture} {
		if other, ok := s.sectors.Sector(mill.SectorName(o[0], o[1])); ok && other.Sector != name {
			read = append(read, other)
		}
	}
	codes, err := s.loadSectorCodes(ctx, read, opt)
	if err != nil {
		return err
	}
	if err := checkForward(ctx, t, codes, opt); err != nil {
		return fmt.Errorf("%s: %w", t.File(), err)
	}
	return nil
}

// checkSectorFile checks a sector's file: every block's checksum, the counts, and its
// SHA-256 against the manifest.
func (s *Set) checkSectorFile(ctx context.Context, info SectorInfo, opt VerifyOptions) error {
	t := s.bySector[info.Sector]
	if err := t.Verify(ctx, VerifyOptions{ChecksumsOnly: true, Workers: opt.Workers, Progress: opt.Progress}); err != nil {
		return fmt.Errorf("%s: %w", t.File(), err)
	}
	sum, err := FileSHA256(t.File())
	if err != nil {
		return err
	}
	if sum != info.SHA256 {
		return fmt.Errorf("%s: SHA-256 %s, the manifest says %s: %w", t.File(), sum, info.SHA256, format.ErrCorrupt)
	}
	return nil
}

// loadSectorCodes reads the codes of the sectors into memory, indexed by mill.SectorCode,
// refusing first if they would not fit.
func (s *Set) loadSectorCodes(ctx context.Context, sectors []SectorInfo, opt VerifyOptions) (map[uint64][]uint16, error) {
	var need uint64
	for _, info := range sectors {
		need += s.bySector[info.Sector].meta.Slots * 2
	}
	if avail := sysmem.Available(); avail > 0 && need > avail {
		return nil, fmt.Errorf("tables: the forward check holds the values of %d sectors in memory (%d bytes), %d are available; use --checksums-only, or check sector by sector",
			len(sectors), need, avail)
	}
	codes := make(map[uint64][]uint16, len(sectors))
	for _, info := range sectors {
		t := s.bySector[info.Sector]
		var p mill.Params
		_ = jsonUnmarshal(t.meta.Params, &p)
		c, err := loadCodes16(ctx, t, opt)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.File(), err)
		}
		codes[mill.SectorCode(p.W, p.B)] = c
	}
	return codes, nil
}

// loadCodes16 reads every code of t into memory.
func loadCodes16(ctx context.Context, t *Table, opt VerifyOptions) ([]uint16, error) {
	n := t.meta.Slots
	out := make([]uint16, n)
	spb := uint64(max(t.r.SlotsPerBlock(), 1))
	chunk := spb * max(1, (1<<20)/spb)
	err := parallelChunks(ctx, max(opt.Workers, 1), n, chunk, func(lo, hi uint64) error {
		buf := make([]uint32, hi-lo)
		if err := t.r.Codes(buf, lo); err != nil {
			return err
		}
		for i, c := range buf {
			if c > 0xFFFF {
				return fmt.Errorf("slot %d: code %d: %w", lo+uint64(i), c, format.ErrCorrupt)
			}
			out[lo+uint64(i)] = uint16(c)
		}
		return nil
	})
	return out, err
}

// checkForward recomputes every value of sector table t from its successors' codes.
func checkForward(ctx context.Context, t *Table, codes map[uint64][]uint16, opt VerifyOptions) error {
	fw, ok := t.dom.(forwarder)
	if !ok {
		return fmt.Errorf("tables: the %s game has no forward moves to check values with", t.meta.Game)
	}
	var p mill.Params
	_ = jsonUnmarshal(t.meta.Params, &p)
	own := codes[mill.SectorCode(p.W, p.B)]
	n := t.meta.Slots
	var mu sync.Mutex
	first, firstMsg := n, ""
	var checked atomic.Uint64
	newForward := sync.Pool{New: func() any { return fw.NewForward() }}
	wdl := t.wdl
	err := parallelChunks(ctx, max(opt.Workers, 1), n, 1<<14, func(lo, hi uint64) error {
		mu.Lock()
		skip := lo > first
		mu.Unlock()
		if skip {
			return nil
		}
		forward := newForward.Get().(func(uint64, []uint64) []uint64)
		defer newForward.Put(forward)
		var succ []uint64
		for slot := lo; slot < hi; slot++ {
			succ = forward(slot, succ[:0])
			want, msg := expectedCode(succ, codes)
			if msg == "" && uint32(own[slot]) != want {
				got, gr, _ := wdl.Decode(uint32(own[slot]))
				exp, er, _ := wdl.Decode(want)
				msg = fmt.Sprintf("stored %v in %d, its successors make it %v in %d", got, gr, exp, er)
			}
			if msg != "" {
				mu.Lock()
				if slot < first {
					first, firstMsg = slot, msg
				}
				mu.Unlock()
				break
			}
		}
		if opt.Progress != nil {
			opt.Progress("values", checked.Add(hi-lo), n)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if first < n {
		state, _ := t.dom.StateOf(first)
		return fmt.Errorf("the values are inconsistent at slot %d (position %s): %s: %w", first, state, firstMsg, format.ErrCorrupt)
	}
	return nil
}

// expectedCode is the WDL code a position must hold given its successors' codes (see
// values.EncodingWDL): a win in 1 + the least remoteness of a successor lost by the
// opponent; else a draw if a successor is drawn; else a loss in 1 + the largest
// remoteness of the successors (0 with no move).
func expectedCode(succ []uint64, codes map[uint64][]uint16) (uint32, string) {
	win, loss, draw := -1, 0, false
	for _, x := range succ {
		r, o := 0, values.Loss
		if x != mill.Won {
			sc := codes[x>>mill.SectorShift]
			slot := x & (1<<mill.SectorShift - 1)
			if sc == nil || slot >= uint64(len(sc)) {
				return 0, fmt.Sprintf("a successor lies in sector %d-%d, which is not in the set",
					(x>>mill.SectorShift)/16, (x>>mill.SectorShift)%16)
			}
			var ok bool
			if o, r, ok = (values.WDLCodes{}).Decode(uint32(sc[slot])); !ok {
				return 0, "a successor holds the hole marker"
			}
		}
		switch o {
		case values.Loss:
			if win < 0 || r+1 < win {
				win = r + 1
			}
		case values.Draw:
			draw = true
		default:
			loss = max(loss, r+1)
		}
	}
	w := values.WDLCodes{}
	switch {
	case win >= 0:
		return w.Code(values.Win, win), ""
	case draw:
		return w.Code(values.Draw, 0), ""
	}
	return w.Code(values.Loss, loss), ""
}

// FileSHA256 is the hex SHA-256 of a regular file.
func FileSHA256(path string) (string, error) {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("tables: %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
