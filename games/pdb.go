package games

import (
	"encoding/json"
	"flag"
	"strconv"
	"strings"
)

// A pattern-database family builds an additive set of tables, one per group of a
// puzzle's pieces: each group's table holds, for every placement of the group's pieces,
// a lower bound on the moves of those pieces to the goal, found by 0-1 breadth-first search
// over the group's abstract space. One builder (package pipeline) builds, plans and
// assembles the sets of any family, through this interface; the family supplies the flags
// that describe a set, each group's search space and the conversion of its values to the
// codes the files store.

// PDBFamily is the capability of a pattern-database family: one table per group of tiles,
// lower bounds by 0-1 breadth-first search over the group's placements.
type PDBFamily interface {
	Game
	// OpenPDB returns the space of one group's table as the lookup reads it.
	OpenPDB(params any, index string) (PDBSpace, error)
	// BindSetFlags declares on fs the flags that describe a set (e.g. the board, the goal
	// and the groups); after fs is parsed, the returned function gives the set, checked and
	// normalized, or an error naming the bad flag value (a usage error to the caller).
	BindSetFlags(fs *flag.FlagSet) func() (PDBSetSpec, error)
	// NewPDBBuild returns the search space of the group with typed parameters params (as
	// a PDBGroupSpec holds them), for one build.
	NewPDBBuild(params any) (PDBBuild, error)
	// SetOfGroups checks that groups (typed parameters, as NewParams returns them filled
	// in) form one set — the same board and goal, no piece in two groups, so that the
	// sum of their bounds stays a lower bound — and returns it, its groups in the order
	// given.
	SetOfGroups(groups []any) (PDBSetSpec, error)
}

// PDBSetSpec is a set as its family describes it to the builder: plain data, checked and
// normalized by the family.
type PDBSetSpec struct {
	// Params are the parameters every group shares (e.g. the board and the goal), a JSON
	// object; the set's manifest states them, with the files' encoding added.
	Params json.RawMessage
	// Key is Params as a group file's identity names them (e.g. "4×4 blank-first"): two
	// sets share a group's file only if they share the key.
	Key string
	// Flags are the command-line flags of BindSetFlags that give this set back (for the
	// commands of a plan's units), e.g. --rows 4 --cols 4 --goal blank-first --groups ….
	Flags []string
	// Groups are the set's groups, in order.
	Groups []PDBGroupSpec
}

// GroupName names a group in a set's manifest by its pieces: "1,2,3,4".
func GroupName(tiles []int) string {
	parts := make([]string, len(tiles))
	for i, t := range tiles {
		parts[i] = strconv.Itoa(t)
	}
	return strings.Join(parts, ",")
}

// PDBGroupSpec is one group of a set.
type PDBGroupSpec struct {
	// Tiles are the pieces of the group's pattern, in the order that ranks their placements:
	// they name the group in file names, messages and the manifest.
	Tiles []int
	// Params are the typed parameters (as the family's NewParams returns them, filled in)
	// of the group's table: what its file's metadata and its member of the manifest state.
	Params any
}

// PDBBuild is one group's space as a build fills it: a 0-1 search space (the method set
// of builder/zeroone.Space and zeroone.ZeroClosed, in built-in types) whose entries are the
// group's placements, plus the conversion of the values the search finds to the codes of
// the excess encoding.
type PDBBuild interface {
	// Slots is the number of slots, a multiple of 1<<EntryBits().
	Slots() uint64
	// EntryBits is log2 of the slots per entry (one entry per placement).
	EntryBits() int
	// Goals are the slots of the goal states.
	Goals() []uint64
	// DepthBound bounds every value; below 254, so that a value fits a byte.
	DepthBound() uint64
	// NewExpanders returns the move generators of one worker goroutine (see
	// zeroone.Space).
	NewExpanders() (zero, unit func(dst, src []uint64) []uint64)
	// ZeroClosed reports whether zero returns whole closures (see zeroone.ZeroClosed).
	ZeroClosed() bool
	// ExcessCodes replaces values[i], the value of entry lo+i, by its code in the excess
	// encoding, (value − the placement's Manhattan distance) / 2, and returns the largest
	// code it wrote. A value below the distance or of the other parity is an error naming
	// the placement. One call converts a chunk of entries (never one call per entry);
	// calls on disjoint chunks may run concurrently.
	ExcessCodes(lo uint64, values []uint8) (maxCode uint64, err error)
}

// PDBSpace is one pattern-database group's space.
type PDBSpace interface {
	Space
	// EntryMD is the Manhattan distance of the group's tiles in entry e's placement.
	EntryMD(e uint64) int
	// GoalEntry is the entry of the goal placement.
	GoalEntry() uint64
	// NewMoves returns, for one goroutine, a function giving entry e's Manhattan distance
	// and the entries one group-tile move away, [PDBConnected] set on those after which
	// the cells free of group tiles form one region.
	NewMoves() func(e uint64, dst []uint64) (md int, moves []uint64)
}

// PDBConnected is bit 63 of an entry that PDBSpace.NewMoves returns: set when, after the
// move, the cells free of group tiles form one region, so the blank can be anywhere among
// them at no cost (the verifier's exact bound across such a move). The entry is the rest.
const PDBConnected = 1 << 63
