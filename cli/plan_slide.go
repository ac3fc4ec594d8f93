package cli

import (
	"fmt"
	"github.com/tablesmith/tablesmith/internal/humanize"
	"math"
	"strings"

	"github.com/tablesmith/tablesmith/games/slide"
	"github.com/tablesmith/tablesmith/index"
	"github.com/tablesmith/tablesmith/pipeline"
)

const planSlideArgs = "--rows R --cols C [--unit-memory GIB] [--unit-cores N] [--network-gbps G] [--levels D] [--json]"

// runPlanSlide implements `tablesmith plan slide`: the two-bit search of a whole
// sliding-tile puzzle cut into units for a cluster, on paper — units, memory, disk and
// time per unit, and the traffic between levels — from the rates measured on the build
// machine (pipeline.MeasuredTwoBitRates). There is no distributed engine yet: the plan
// is a model, and it says so.
func runPlanSlide(e *env, args []string) error {
	fs := newFlags(e, "plan slide", planSlideArgs)
	rows := fs.Int("rows", 0, "board rows")
	cols := fs.Int("cols", 0, "board columns")
	memGiB := fs.Float64("unit-memory", 64, "GiB of memory per machine")
	cores := fs.Int("unit-cores", 16, "cores per machine")
	gbps := fs.Float64("network-gbps", 10, "network bandwidth per machine, Gbit/s")
	levels := fs.Int("levels", 0, "the search's depth, radius + 1 (0: about 6·cells)")
	asJSON := fs.Bool("json", false, "print the plan as one JSON object")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, pos)
	case *rows < 2 || *cols < 2 || *rows**cols > 20:
		return fmt.Errorf("%w: --rows and --cols of a board of 4 to 20 cells", errUsage)
	case !(*memGiB >= 1 && *memGiB <= 1<<20), *cores < 1, !(*gbps > 0 && *gbps < 1e6), *levels < 0:
		return fmt.Errorf("%w: --unit-memory, --unit-cores and --network-gbps must be positive", errUsage)
	}
	sp, err := slide.NewSpace(slide.Params{Rows: *rows, Cols: *cols, Index: "lex-half"})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	cells := *rows * *cols
	d := *levels
	if d == 0 {
		d = 6 * cells
	}
	opt := pipeline.TwoBitPlanOptions{
		UnitMemory: uint64(*memGiB * (1 << 30)), UnitCores: *cores, NetworkBps: *gbps * 1e9 / 8,
		Levels: d, PeakLevel: 0.091, Branching: pipeline.GridBranching(*rows, *cols), CellsCount: cells,
		Rates: pipeline.MeasuredTwoBitRates, StatesCount: index.Factorial(cells) / 2,
	}
	p, err := pipeline.PlanTwoBit(sp.Slots(), opt)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e, map[string]any{"rows": *rows, "cols": *cols, "states": p.States, "slots": p.Slots,
			"on_paper": true, "units": p.Units, "unit_slots": p.UnitSlots, "unit_mem_bytes": p.UnitMemBytes,
			"unit_disk_bytes": p.UnitDiskBytes, "unit_cores": *cores, "cpu_core_seconds": p.CPUCoreSeconds,
			"compute_seconds": p.ComputeSeconds, "traffic_bytes": p.TrafficBytes, "peak_level_traffic_bytes": p.PeakLevelTraffic,
			"traffic_seconds": p.TrafficSeconds, "checkpoint_seconds": p.CheckpointSeconds, "wall_seconds": p.WallSeconds,
			"levels": d, "single_machine_bytes": p.SingleMachineBytes, "rates": opt.Rates})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "plan slide %d×%d (on paper: a model from the rates measured here, no distributed engine yet)\n", *rows, *cols)
	fmt.Fprintf(&b, "  states %s; one machine would need %s (2 bits a slot: a half-depth search)\n", commas(p.States), bigBytes(float64(p.SingleMachineBytes)))
	fmt.Fprintf(&b, "  units  %d ranges of %s slots, one per machine of %.0f GiB and %d cores, each unit once per level (%d levels assumed)\n",
		p.Units, commas(p.UnitSlots), *memGiB, *cores, d)
	fmt.Fprintf(&b, "  memory %s a unit; disk %s a unit (checkpoint, its replacement, its part of the table)\n",
		humanize.Bytes(p.UnitMemBytes), humanize.Bytes(p.UnitDiskBytes))
	fmt.Fprintf(&b, "  CPU    %.1f core-hours in all at %.1f ns a state a core; %s a unit on its cores\n",
		p.CPUCoreSeconds/3600, opt.Rates.CoreNsPerState, duration(p.ComputeSeconds))
	fmt.Fprintf(&b, "  traffic %s between levels in all (%.2f neighbours a state, %.0f bytes an update), %s in the largest level; %s a unit at %.0f Gbit/s\n",
		bigBytes(p.TrafficBytes), opt.Branching, opt.Rates.UpdateBytes,
		bigBytes(p.PeakLevelTraffic), duration(p.TrafficSeconds), *gbps)
	fmt.Fprintf(&b, "  checkpoint %s a unit at %.0f MB/s\n", duration(p.CheckpointSeconds), opt.Rates.DiskBytesPerS/1e6)
	fmt.Fprintf(&b, "  wall   about %s (the slower of compute and traffic; they overlap within a level)\n", duration(p.WallSeconds))
	return printf(e, "%s", b.String())
}

// bigBytes writes a byte count with a binary unit up to TiB.
func bigBytes(n float64) string {
	if n >= 1<<40 {
		return fmt.Sprintf("%.2f TiB", n/(1<<40))
	}
	return humanize.Bytes(uint64(math.Max(n, 0)))
}

// duration writes seconds as h/min/s.
func duration(s float64) string {
	switch {
	case s >= 3600:
		return fmt.Sprintf("%.1f h", s/3600)
	case s >= 60:
		return fmt.Sprintf("%.1f min", s/60)
	}
	return fmt.Sprintf("%.1f s", s)
}
