// Package levellog is the checkpoint of a breadth-first build (builder/bfs): an
// append-only file with one record per completed level, holding the slots first reached
// at that level in a compact form (code.go: a packed list, a bitset, Elias–Fano, or zstd
// frames of the bitset where the levels have structure), so the log stays a small
// multiple of the table. Every level is checkpointed — also for 3-peg Hanoi's 2^20
// levels, where rewriting the value array would be out of the question. Resuming replays
// the records into a fresh value array; a record cut short by a kill, or damaged, ends
// the replay and is cut off, so the build resumes from the last whole level (and a log
// with no whole level from the goals).
//
// Writing costs the search little: a level of more than smallRecord slots is encoded,
// checksummed (one CRC over the whole record) and written by a goroutine while the search
// expands the next level; smaller levels are encoded at once and written together about
// once a second or per MiB. Whole 4 KiB blocks are written past the page cache where the
// system allows (logfile.go). A level counts only once its record is whole on disk and
// its checksum holds, so a kill at any moment loses at most the levels not yet written.
//
// # File layout
//
// All integers little-endian; CRC-32C is the Castagnoli polynomial.
//
//	+------------------------------------------------------------------------+
//	| header                                                                 |
//	|   magic        8 bytes  "TSMLOG03" (version 3; "TSMLOG02": version 2)  |
//	|   key length   u32      n                                              |
//	|   key          n bytes  the build's parameters: a resume with other     |
//	|                         parameters is refused                          |
//	|   width        u32      bytes per value when the search started (1..4) |
//	|   slots        u64      the slot count of the space                    |
//	|   CRC          u32      CRC-32C of the header bytes before it          |
//	+------------------------------------------------------------------------+
//	| record, level 0 (the goals)                                            |
//	+------------------------------------------------------------------------+
//	| record, level 1                                                        |
//	+------------------------------------------------------------------------+
//	| ...                                                                    |
//	+------------------------------------------------------------------------+
//	| record, level k (the last whole one)                                   |
//	+------------------------------------------------------------------------+
//	| a partial or damaged record, if the build was killed while writing it:  |
//	| ignored, and cut off by a resume                                       |
//	+------------------------------------------------------------------------+
//
// A record (recordHead = 22 bytes before the payload):
//
//	+----------+------+-------+-----------+---------------+-------------+-------+
//	| level    | kind | param | states    | payload bytes | payload     | CRC   |
//	| u32      | u8   | u8    | u64       | u64 = p       | p bytes     | u32   |
//	+----------+------+-------+-----------+---------------+-------------+-------+
//	  level:  0, 1, 2, ... in order (a record out of order ends the replay)
//	  kind:   0 packed, 1 bitset, 2 Elias–Fano, 3 zstd (version 3 only); param: the
//	          form's parameter (the packed width, Elias–Fano's low bits)
//	  states: the slots of the level; CRC: CRC-32C of the record's bytes before it
//
// The payload's size follows from (kind, param, states, slots) for the fixed forms, and
// is below the bitset's size for zstd; the replay checks it, and that it fits in what is
// left of the file, before it reads or allocates anything, then checks the CRC before it
// applies anything. A record whose content is impossible though its CRC holds (a slot
// out of range, or reached twice) is undone and ends the replay like a damaged one.
//
// The header is all-or-nothing: a log whose header is damaged, or of another build
// (key, slots or width), is refused with ErrCheckpoint. A log whose header is whole but
// with no whole record — a build killed within milliseconds leaves its header alone —
// is no error: Resume returns no checkpoint, and the search starts from the goals.
//
// # Versions
//
// Version 3 added the zstd form. Version 2 logs, which have no zstd records, are still
// replayed, and a log resumed goes on in its own version; a version 2 reader refuses a
// version 3 log as a whole rather than stopping silently at its first zstd record. A
// later version takes a new magic.
package levellog
