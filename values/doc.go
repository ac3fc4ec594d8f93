// Package values defines how a table's per-slot values are encoded as the fixed-width codes
// of a table file, once, for the writers (the engines of builder/... and package pipeline)
// and every reader (packages tables and solver):
//
//   - [EncodingRemoteness]: puzzles — moves to the nearest goal, "unreachable", "hole";
//   - [EncodingPDBValue] and [EncodingPDBExcess]: pattern-database groups — a lower bound
//     on the moves of the group's tiles, stored as itself or as the excess over the group's
//     Manhattan distance;
//   - [EncodingWDL]: two-player games — win, loss or draw for the side to move with the
//     remoteness in plies of wins and losses;
//   - [EncodingWDLOnly]: two-player games, win/draw/loss-only sets — the value without
//     remoteness, two bits a position ([OutcomeCode] derives it from an [EncodingWDL] code).
//
// It also names what a lookup can answer ([Outcome]), so the CLI, the HTTP API and the Go
// API speak of values the same way, and holds the one rule that gives a two-player position
// its value from its moves' values ([MoveSummary], [CodeOfMoves]; combine.go), which the
// retrograde engine, the one-pass solver and the forward check of verify all apply. It
// imports nothing of this project.
package values

// Encoding names a value encoding, as a table's metadata records it
// (format.Metadata.Encoding). A type of its own, so that an encoding is never taken for
// another string of the same spelling (format.ValuesWDL, what a set stores, is "wdl"
// too).
type Encoding string
