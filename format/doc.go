// Package format reads and writes tablesmith table files: Slots slots, each
// holding an unsigned code of CodeBits bits (1..32), stored in independently
// zstd-compressed blocks so that looking up one slot decompresses one block.
// What the codes mean is the caller's business, named by Metadata.Encoding;
// this package knows nothing of games.
//
// # File layout (format version 2)
//
// All integers are little-endian. Every checksum is CRC-32C (Castagnoli).
// The regions tile the file exactly, in this order; a reader checks every
// offset and length against the file size and against each other before
// using it.
//
//	<start of file>
//	+--------------------------------------------------------------------+
//	| header (52 bytes)                                                  |
//	|    0  magic          [8]  89 'T' 'S' 'M' 0d 0a 1a 0a               |
//	|    8  version        u16  2 (linear: readers reject newer ones)    |
//	|   10  feature flags  u16  bit 0: blocks are zstd frames (required);|
//	|                           readers reject unknown bits              |
//	|   12  code bits      u8   1..32                                    |
//	|   13  reserved       [3]  zero                                     |
//	|   16  slots/block    u32  positive multiple of 64                  |
//	|   20  slots          u64  <= MaxSlots                              |
//	|   28  header CRC     u32  CRC-32C of bytes 0..27                   |
//	|   32  file id        [16] the table's identity, see below          |
//	|   48  file id CRC    u32  CRC-32C of bytes 0..47                   |
//	+--------------------------------------------------------------------+
//	| block 0            zstd frame of the packed codes of slots         |
//	|                    [0, slots/block)                                |
//	| block 1            ... back to back, no gaps ...                   |
//	| block n-1          the last block may hold fewer slots             |
//	+--------------------------------------------------------------------+
//	| metadata           JSON object (Metadata), compact                 |
//	+--------------------------------------------------------------------+
//	| block index        n entries of 16 bytes:                          |
//	|    0  offset         u64  of the block in the file                 |
//	|    8  length         u32  compressed length, > 0                   |
//	|   12  block CRC      u32  CRC-32C of file id [16], block number    |
//	|                           (u64, 0 for block 0) and the compressed  |
//	|                           bytes, in that order                     |
//	+--------------------------------------------------------------------+
//	| footer (64 bytes, the last bytes of the file)                      |
//	|    0  metadata offset u64                                          |
//	|    8  metadata length u64                                          |
//	|   16  index offset    u64  = metadata offset + metadata length     |
//	|   24  block count     u64  = ceil(slots / slots per block)         |
//	|   32  slots           u64  = header slots                          |
//	|   40  metadata CRC    u32  CRC-32C of the metadata bytes           |
//	|   44  index CRC       u32  CRC-32C of the whole block index        |
//	|   48  version         u16  = header version                        |
//	|   50  reserved        u16  zero                                    |
//	|   52  footer CRC      u32  CRC-32C of footer bytes 0..51           |
//	|   56  magic           [8]  as in the header                        |
//	+--------------------------------------------------------------------+
//	<end of file>
//
// The file id is the first 16 bytes of the SHA-256 of the table's identity:
//
//	+---------------------------------------------------------+
//	| u32 len | game       (Metadata.Game, UTF-8)             |
//	| u32 len | params     (the JSON value exactly as stored  |
//	|         |             in the metadata; len 0 if absent) |
//	| u32 len | index      (Metadata.Index)                   |
//	| u32 len | encoding   (Metadata.Encoding)                |
//	| u64     | slots                                         |
//	| u8      | code bits                                     |
//	+---------------------------------------------------------+
//
// It leaves out the code counts and the build information, so the same
// table built twice gets the same id (and the same file). A reader checks
// the id against the metadata. Because the id and the block number enter
// every block checksum, a block moved to another position of the file, or
// copied from another table, fails its checksum even when the block index
// and every other checksum are rewritten to match: CRC-32C tells any two
// block numbers below 2^32 apart for the same bytes, and other tables by
// their id (up to the 2^-32 chance of any 32-bit checksum).
//
// Version 1 differs only in the header, which ends after the header CRC (32
// bytes, no file id), and in the block CRC, which covers the compressed
// bytes alone. Readers still read it; writers write version 2.
//
// A block decompresses to exactly ceil(k*bits/8) bytes for its k slots.
// Codes are packed LSB-first: code i of a block is bits [i*bits, (i+1)*bits)
// of the block read as one little-endian number (bit j of the stream is bit
// j%8 of byte j/8); unused high bits of the last byte are zero. With
// 5-bit codes:
//
//	byte 0: c1[2:0] c0[4:0]      byte 1: c3[0] c2[4:0] c1[4:3]      ...
//	        bit 7 ......... bit 0
//
// The metadata comes after the blocks so that the writer streams the blocks
// without a first pass over the codes: it counts them (Metadata.CodeCounts)
// while compressing. The magic at both ends catches truncation and files
// that are not tables; the magic's high-bit byte, CR LF and ^Z (as in PNG)
// catch text-mode mangling.
//
// Every version keeps the first 12 bytes (magic, version, flags) and the
// header CRC at bytes 28..31 over bytes 0..27, so that a reader can tell a
// newer file (ErrVersion) from a damaged one (ErrCorrupt).
//
// # Errors
//
// Every integrity failure wraps ErrCorrupt and names the bad part, e.g.
// "format: t.tsm: block 17 of 23: checksum mismatch (stored 0x1b2c3d4e,
// computed 0x5f607182): corrupt table file". Open checks everything but the
// blocks; Code and Codes check each block they decompress; Verify checks all
// of them and recounts the codes.
package format

//go:generate go test -run ^TestGolden$ -update .
