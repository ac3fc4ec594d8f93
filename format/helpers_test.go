package format

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// mix is splitmix64: deterministic pseudo-random codes for any slot.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// testCode is the code of slot in a test table: random, but skewed toward
// small values half of the time so blocks compress a little.
func testCode(seed, slot uint64, bits int) uint32 {
	h := mix(seed ^ mix(slot))
	if h&1 == 0 {
		h = h >> 1 % 7
	}
	return uint32(h>>1) & uint32(1<<uint(bits)-1)
}

func testSource(seed uint64, bits int) CodeSource {
	return func(dst []uint32, start uint64) {
		for i := range dst {
			dst[i] = testCode(seed, start+uint64(i), bits)
		}
	}
}

func testMeta(slots uint64, bits int) Metadata {
	return Metadata{
		Game:     "test",
		Params:   json.RawMessage(`{"n":3,"name":"x"}`),
		Index:    "identity",
		Encoding: "raw",
		Slots:    slots,
		CodeBits: bits,
		Build: Build{
			Tool: "format-test", GoVersion: "go-test",
			Created: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC),
			Host:    "host", Workers: 2, Seconds: 1.5, Command: "test -x",
		},
		Extra: json.RawMessage(`{"note":"hi","list":[1,2]}`),
	}
}

// writeTest writes a test table into a fresh temp dir and returns its path.
func writeTest(t testing.TB, seed, slots uint64, bits, spb int) (string, Metadata) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.tsm")
	m, err := WriteFile(context.Background(), path, testMeta(slots, bits), testSource(seed, bits),
		WriteOptions{SlotsPerBlock: spb, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return path, m
}

// tableBytes returns the bytes of a freshly written test table.
func tableBytes(t testing.TB, seed, slots uint64, bits, spb int) []byte {
	t.Helper()
	return writeBytes(t, testMeta(slots, bits), testSource(seed, bits), WriteOptions{SlotsPerBlock: spb, Workers: 2})
}

// writeBytes writes a table into a fresh temp dir and returns its bytes.
func writeBytes(t testing.TB, m Metadata, src CodeSource, opt WriteOptions) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.tsm")
	if _, err := WriteFile(context.Background(), path, m, src, opt); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// openVerified opens the table at path (closed when the test ends) and
// verifies it, failing t on any error.
func openVerified(t testing.TB, path string) *Reader {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if err := r.Verify(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return r
}

func openBytes(b []byte) (*Reader, error) {
	return OpenReaderAt(bytes.NewReader(b), int64(len(b)))
}

// assemble builds a file from its parts, with correct checksums, so tests
// can forge files that are well-formed on the outside.
func assemble(h header, blocks [][]byte, meta []byte) []byte {
	b := h.append(nil)
	var index []byte
	for i, blk := range blocks {
		index = blockHandle{off: uint64(len(b)), n: uint32(len(blk)), crc: h.blockChecksum(uint64(i), blk)}.append(index)
		b = append(b, blk...)
	}
	f := footer{
		metaOff: uint64(len(b)), metaLen: uint64(len(meta)), metaCRC: checksum(meta),
		blocks: uint64(len(blocks)), slots: h.slots, indexCRC: checksum(index), version: h.version,
	}
	f.indexOff = f.metaOff + f.metaLen
	b = append(b, meta...)
	b = append(b, index...)
	return f.append(b)
}

// disassemble splits a well-formed file into its parts.
func disassemble(t testing.TB, b []byte) (header, [][]byte, []byte) {
	t.Helper()
	h, err := parseHeader(b[:min(len(b), maxHeaderSize)])
	if err != nil {
		t.Fatal(err)
	}
	f, err := parseFooter(b[len(b)-footerSize:])
	if err != nil {
		t.Fatal(err)
	}
	idx, err := parseIndex(b[f.indexOff:f.indexOff+f.blocks*indexEntrySize], h.size(), f.metaOff)
	if err != nil {
		t.Fatal(err)
	}
	var blocks [][]byte
	for _, bh := range idx {
		blocks = append(blocks, bytes.Clone(b[bh.off:bh.off+uint64(bh.n)]))
	}
	return h, blocks, bytes.Clone(b[f.metaOff : f.metaOff+f.metaLen])
}

// reseal recomputes every checksum of a possibly damaged file wherever its
// structure can be followed, so fuzzing reaches the checks behind them.
func reseal(b []byte) []byte {
	b = bytes.Clone(b)
	le := binary.LittleEndian
	var h header // what the block checksums need
	if len(b) >= headerSizeV1 {
		le.PutUint32(b[28:], checksum(b[:28]))
		h.version = le.Uint16(b[8:])
	}
	if h.version >= 2 && len(b) >= headerSizeV2 {
		le.PutUint32(b[48:], checksum(b[:48]))
		h.id = [fileIDSize]byte(b[32:48])
	}
	if len(b) < headerSizeV1+footerSize {
		return b
	}
	ft := b[len(b)-footerSize:]
	size := uint64(len(b))
	metaOff, metaLen := le.Uint64(ft), le.Uint64(ft[8:])
	if end := size - footerSize; metaOff <= end && metaLen <= end-metaOff {
		le.PutUint32(ft[40:], checksum(b[metaOff:metaOff+metaLen]))
	}
	indexOff, blocks := le.Uint64(ft[16:]), le.Uint64(ft[24:])
	if end := size - footerSize; indexOff <= end && blocks <= (end-indexOff)/indexEntrySize {
		index := b[indexOff : indexOff+blocks*indexEntrySize]
		for i := range blocks {
			e := index[i*indexEntrySize:]
			off, n := le.Uint64(e), uint64(le.Uint32(e[8:]))
			if off <= size && n <= size-off {
				le.PutUint32(e[12:], h.blockChecksum(i, b[off:off+n]))
			}
		}
		le.PutUint32(ft[44:], checksum(index))
	}
	le.PutUint32(ft[52:], checksum(ft[:52]))
	return b
}
