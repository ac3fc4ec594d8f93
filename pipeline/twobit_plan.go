package pipeline

import (
	"fmt"
	"github.com/tablesmith/tablesmith/internal/humanize"
	"math"

	"github.com/tablesmith/tablesmith/builder/twobit"
)

// A two-bit search beyond one machine, on paper. The slots are cut into Units contiguous
// ranges, each held by one machine (its codes: 2 bits a slot, the half-depth search of
// the sliding puzzles, plus buffers); a level is one unit of work per range: scan its frontier, expand it, and send
// every neighbour slot to the range that owns it, which sets the unreached ones. Under
// the lexicographic ranks of the sliding-tile puzzles the blank's cell is the leading
// digit and every move changes it, so a neighbour lands in another range unless two
// ranges share a blank cell: nearly every neighbour update crosses the network. The
// model adds up CPU (the per-state rate measured here), the scans of the codes, and that
// traffic; the machines run their units of a level in parallel and wait for each other
// between levels.

// TwoBitRates are the rates the model runs on, measured here: the CPU a state from the
// whole 2×7's half-depth build with the block expander (2 vCPU AMD EPYC VM, 2026-12-02:
// its levels 50–85 less 58–60 and 75, 3.58·10^10 states in 467 s on 2 cores), the scan
// and the disk on the 2 vCPU AMD EPYC (2026-11-28: builder/twobit on 2×6 and 3×4, and
// `dd` with fdatasync).
type TwoBitRates struct {
	CoreNsPerState float64 // CPU per state expanded (all its neighbours set), per core
	ScanBytesPerS  float64 // codes scanned per second per core
	DiskBytesPerS  float64 // sequential write of a checkpoint
	UpdateBytes    float64 // bytes a neighbour update takes on the network (a slot)
}

// MeasuredTwoBitRates are the rates measured (see RESULTS.md, "Two bits a state").
var MeasuredTwoBitRates = TwoBitRates{CoreNsPerState: 26.1, ScanBytesPerS: 6e9, DiskBytesPerS: 406e6, UpdateBytes: 8}

// TwoBitPlanOptions are the machines of a plan.
type TwoBitPlanOptions struct {
	UnitMemory  uint64  // bytes of memory a machine gives its unit
	UnitCores   int     // cores per machine
	NetworkBps  float64 // bytes per second a machine sends (and receives) at once
	Levels      int     // the search's depth (its radius + 1), estimated
	PeakLevel   float64 // the largest level's share of the states (3×4: 0.091, 2×6: 0.054)
	Branching   float64 // average neighbours of a state
	CellsCount  int     // cells of the board
	Rates       TwoBitRates
	StatesCount uint64 // reachable states (n!/2)
}

// TwoBitPlan is the model's answer.
type TwoBitPlan struct {
	States, Slots      uint64
	Units              int
	UnitSlots          uint64
	UnitMemBytes       uint64  // codes of a range + buffers
	UnitDiskBytes      uint64  // its checkpoint, its replacement while written, its part of the table
	CPUCoreSeconds     float64 // all expansions, all units
	ComputeSeconds     float64 // per unit, its share of the expansions and scans on its cores
	TrafficBytes       float64 // neighbour updates crossing ranges, whole search
	PeakLevelTraffic   float64 // of the largest level, all units
	TrafficSeconds     float64 // per unit, sending its share at NetworkBps
	CheckpointSeconds  float64 // one checkpoint of a unit
	WallSeconds        float64 // compute and traffic of every level, units in parallel, levels one after another
	SingleMachineBytes uint64  // what one machine would need
}

// PlanTwoBit models the two-bit search of a space of slots slots (with states reachable
// states) on machines as opt describes.
func PlanTwoBit(slots uint64, opt TwoBitPlanOptions) (TwoBitPlan, error) {
	p := TwoBitPlan{States: opt.StatesCount, Slots: slots}
	r := opt.Rates
	perSlot := 2.0 / 8 // bytes: the codes of a half-depth search
	p.SingleMachineBytes = twobit.MemoryEstimate(slots, opt.UnitCores, true)
	buffers := uint64(opt.UnitCores) * (64 << 20)
	if opt.UnitMemory <= buffers {
		return p, fmt.Errorf("plan: %s a unit is less than its buffers", humanize.Bytes(opt.UnitMemory))
	}
	p.Units = int(math.Ceil(float64(slots) * perSlot / float64(opt.UnitMemory-buffers)))
	p.Units = max(p.Units, 1)
	p.UnitSlots = (slots + uint64(p.Units) - 1) / uint64(p.Units)
	p.UnitMemBytes = uint64(float64(p.UnitSlots)*perSlot) + buffers
	unitCodes := float64(p.UnitSlots) / 4
	p.UnitDiskBytes = uint64(2*float64(p.UnitSlots)*perSlot + unitCodes)
	states := float64(opt.StatesCount)
	p.CPUCoreSeconds = states * r.CoreNsPerState * 1e-9
	scan := float64(opt.Levels) * float64(p.UnitSlots) * perSlot / (r.ScanBytesPerS * float64(opt.UnitCores))
	p.ComputeSeconds = p.CPUCoreSeconds/float64(p.Units)/float64(opt.UnitCores) + scan
	cross := float64(p.Units-1) / float64(p.Units)
	p.TrafficBytes = states * opt.Branching * cross * r.UpdateBytes
	p.PeakLevelTraffic = p.TrafficBytes * opt.PeakLevel
	if p.Units > 1 {
		p.TrafficSeconds = p.TrafficBytes / float64(p.Units) / opt.NetworkBps
	}
	p.CheckpointSeconds = float64(p.UnitSlots) * perSlot / r.DiskBytesPerS
	// Sending overlaps expanding within a level; the slower of the two sets the pace.
	p.WallSeconds = max(p.ComputeSeconds, p.TrafficSeconds)
	return p, nil
}

// GridBranching is the average number of moves of a state of an r×c sliding puzzle: the
// blank's average degree on the grid.
func GridBranching(rows, cols int) float64 {
	edges := rows*(cols-1) + cols*(rows-1)
	return 2 * float64(edges) / float64(rows*cols)
}
