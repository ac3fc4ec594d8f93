// Package pipeline holds the library pipelines that turn a game into table files: a game
// from the registry (package games/registry), dispatched on its capability (package
// games), an engine (builder/bfs, builder/zeroone, builder/retro), a value encoding
// (package values) and the file writer and set manifest (package format). A puzzle table
// is built by [BuildPuzzle] (breadth-first search with a level-log checkpoint and resume), a
// pattern-database set by [BuildPDBSet] (or group by group: [BuildPDBGroup], then
// [AssemblePDBSet]) for any family (games.PDBFamily), and any
// tiered two-player game's set by one orchestrator: [TierPlan] groups the tiers that reach
// each other into units in dependency order, [BuildTierUnit] solves one unit (retrograde
// analysis, or one pass for a tier whose moves all leave it) from the values of the tiers
// it leads into, and [BuildTierSet] builds a plan, resuming unit by unit. A set too big for
// one machine is a plan of idempotent units ([Unit]: [TierUnits], [PDBUnits],
// [VerifyUnits]) that run in-process ([RunUnits]) or as Slurm jobs ([SlurmScript]). The CLI
// (cmd/tablesmith, package cli) only parses flags and prints; programs that only probe tables import
// package tables, which links none of this, and this package never imports tables.
//
// Every pipeline writes its files under temporary names and renames them into place when
// whole, and a set's manifest last: a set whose manifest is present is complete.
package pipeline

import (
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/tablesmith/tablesmith/format"
)

// Stamp is the build information recorded in every file and manifest: the tool, the Go
// version, the time, the host, the workers and the command line (args after the program
// name). Seconds is filled in by each pipeline.
func Stamp(workers int, args []string) format.Build {
	b := format.Build{
		Tool: "tablesmith", GoVersion: runtime.Version(), Created: time.Now().UTC().Truncate(time.Second),
		Workers: workers, Command: strings.TrimSpace("tablesmith " + strings.Join(args, " ")),
	}
	if host, err := os.Hostname(); err == nil {
		b.Host = host
	}
	return b
}
