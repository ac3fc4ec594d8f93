// Package tables answers questions about built tables, read-only. [Open] opens any table
// file tablesmith writes — a puzzle's remoteness table, one group of a pattern-database
// set, one tier of a two-player game (a Mühle sector) — recreates the game and index
// scheme its metadata names through the game registry (games/registry; a game of another
// module registered there is read like a built-in one), and looks up states by their
// notation ([Table.Lookup]) or as typed values ([Probe]). [OpenSet] opens a directory with
// a manifest (format.Manifest) and routes each state to the right file, through the
// game, never by naming it. (Package solver packs a pattern-database set in memory for
// its hot path.)
//
// Answers say what the encoding (package values) stores: remoteness or unreachable for
// puzzles, a lower bound for pattern databases, win/loss/draw with remoteness for games
// (without it in a win/draw/loss-only set: Answer.NoRemoteness, and no Set.Line).
// A damaged or forged file is reported as an error wrapping format.ErrCorrupt, never as a
// wrong answer; [Table.Verify] and [Set.Verify] check every checksum and then the values
// themselves: every remoteness or bound against its neighbours', and on a two-player set the
// forward check, every position's value recomputed from its moves' stored values
// ([Set.VerifyTiers] for some tiers).
//
// This package never imports the builders, the build pipelines or a particular game: a
// program that only probes tables links none of them (internal/layers pins this).
package tables
