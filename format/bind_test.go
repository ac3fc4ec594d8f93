package format

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
)

// Blocks are bound to their place and their file: a block moved to another
// position, or copied from another table, together with its stored
// checksum, fails the checksum even when everything around it is rewritten
// consistently.

// rawTable is a table file split at its block boundaries, read straight
// from the bytes (no parsing beyond offsets), so that a test can move
// blocks with their stored checksums and put the file back together with
// every outer checksum fixed.
type rawTable struct {
	head   []byte // header
	blocks [][]byte
	crcs   []uint32 // stored block checksums, as in the index
	meta   []byte
	footer []byte
}

func splitRaw(t *testing.T, b []byte) rawTable {
	t.Helper()
	le := binary.LittleEndian
	ft := b[len(b)-footerSize:]
	metaOff, metaLen, indexOff, n := le.Uint64(ft), le.Uint64(ft[8:]), le.Uint64(ft[16:]), le.Uint64(ft[24:])
	if n == 0 {
		t.Fatal("table without blocks")
	}
	raw := rawTable{meta: bytes.Clone(b[metaOff : metaOff+metaLen]), footer: bytes.Clone(ft)}
	for i := range n {
		e := b[indexOff+i*indexEntrySize:]
		off, size := le.Uint64(e), uint64(le.Uint32(e[8:]))
		if i == 0 {
			raw.head = bytes.Clone(b[:off])
		}
		raw.blocks = append(raw.blocks, bytes.Clone(b[off:off+size]))
		raw.crcs = append(raw.crcs, le.Uint32(e[12:]))
	}
	return raw
}

// join lays the parts out again, with the index, index checksum and footer
// checksum recomputed; the block checksums are the stored ones.
func (raw rawTable) join() []byte {
	le := binary.LittleEndian
	b := bytes.Clone(raw.head)
	var index []byte
	for i, blk := range raw.blocks {
		index = le.AppendUint64(index, uint64(len(b)))
		index = le.AppendUint32(index, uint32(len(blk)))
		index = le.AppendUint32(index, raw.crcs[i])
		b = append(b, blk...)
	}
	ft := bytes.Clone(raw.footer)
	le.PutUint64(ft, uint64(len(b)))
	le.PutUint64(ft[16:], uint64(len(b)+len(raw.meta)))
	le.PutUint32(ft[44:], checksum(index))
	le.PutUint32(ft[52:], checksum(ft[:52]))
	b = append(b, raw.meta...)
	b = append(b, index...)
	return append(b, ft...)
}

// wantBlockRejected opens the forged file, which must pass Open, and checks
// that reading the forged block and Verify report its checksum.
func wantBlockRejected(t *testing.T, forged []byte, block, blocks, spb int) {
	t.Helper()
	r, err := openBytes(forged)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	msg := fmt.Sprintf("block %d of %d: checksum mismatch", block, blocks)
	_, err = r.Code(uint64(block*spb + 1))
	wantCorrupt(t, err, msg)
	wantCorrupt(t, r.Verify(context.Background(), nil), msg)
}

// TestSwappedBlocks: two blocks of a file exchanged, index rewritten.
func TestSwappedBlocks(t *testing.T) {
	t.Parallel()
	const spb = 64
	b := tableBytes(t, 31, 64*6, 5, spb)
	for _, pair := range [][2]int{{1, 4}, {0, 5}, {2, 3}} {
		raw := splitRaw(t, b)
		i, j := pair[0], pair[1]
		raw.blocks[i], raw.blocks[j] = raw.blocks[j], raw.blocks[i]
		raw.crcs[i], raw.crcs[j] = raw.crcs[j], raw.crcs[i]
		wantBlockRejected(t, raw.join(), i, 6, spb)
	}
}

// TestTransplantedBlock: a block copied, checksum and all, from another
// table of the same shape (slots, code bits, block size) but with other
// parameters, at the same position.
func TestTransplantedBlock(t *testing.T) {
	t.Parallel()
	const slots, bits, spb = 64 * 4, 6, 64
	write := func(seed uint64, params string) []byte {
		m := testMeta(slots, bits)
		m.Params = json.RawMessage(params)
		return writeBytes(t, m, testSource(seed, bits), WriteOptions{SlotsPerBlock: spb})
	}
	a, other := splitRaw(t, write(1, `{"n":3}`)), splitRaw(t, write(2, `{"n":4}`))
	a.blocks[2], a.crcs[2] = other.blocks[2], other.crcs[2]
	wantBlockRejected(t, a.join(), 2, 4, spb)
}

// TestRawRoundTrip: splitRaw and join give back the same bytes, so the
// forgeries above differ from a good file only by what they move.
func TestRawRoundTrip(t *testing.T) {
	t.Parallel()
	b := tableBytes(t, 32, 1000, 7, 128)
	if !bytes.Equal(splitRaw(t, b).join(), b) {
		t.Fatal("split and join changed the file")
	}
}

// idOf is the file id WriteFile gives a table with metadata m.
func idOf(t *testing.T, m Metadata) [fileIDSize]byte {
	t.Helper()
	params, err := storedParams(m.Params)
	if err != nil {
		t.Fatal(err)
	}
	return fileID(&m, params)
}

// TestFileID: the id depends on game, params, index, encoding, slots and
// code bits, and on nothing else.
func TestFileID(t *testing.T) {
	t.Parallel()
	base := goldenMeta(1000, 5)
	want := idOf(t, base)
	// Pinned, as computed by hand from the definition in doc.go, which must
	// not drift: it would change the id, and every block checksum, of the
	// same table.
	if got := fmt.Sprintf("%x", want); got != "2b8d7c836e924e46db2c7e27dec31b47" {
		t.Errorf("file id %s", got)
	}
	for name, edit := range map[string]func(m *Metadata){
		"counts":         func(m *Metadata) { m.CodeCounts = []uint64{999, 1} },
		"build":          func(m *Metadata) { m.Build = Build{Tool: "other", Seconds: 9} },
		"extra":          func(m *Metadata) { m.Extra = nil },
		"params spacing": func(m *Metadata) { m.Params = json.RawMessage(" {\n\"n\": 3, \"name\" : \"x\"}") },
	} {
		m := base
		edit(&m)
		if got := idOf(t, m); got != want {
			t.Errorf("changing %s changes the file id", name)
		}
	}
	for name, edit := range map[string]func(m *Metadata){
		"game":      func(m *Metadata) { m.Game = "tests" },
		"params":    func(m *Metadata) { m.Params = json.RawMessage(`{"n":4,"name":"x"}`) },
		"no params": func(m *Metadata) { m.Params = nil },
		"index":     func(m *Metadata) { m.Index = "other" },
		"encoding":  func(m *Metadata) { m.Encoding = "" },
		"slots":     func(m *Metadata) { m.Slots++ },
		"code bits": func(m *Metadata) { m.CodeBits++ },
		"shifted":   func(m *Metadata) { m.Game, m.Index = m.Game+m.Index, "" }, // lengths keep fields apart
	} {
		m := base
		edit(&m)
		if got := idOf(t, m); got == want {
			t.Errorf("changing %s keeps the file id", name)
		}
	}
}

// TestFileIDStoredParams: params that JSON encoding rewrites (spacing, HTML
// characters, line separators) give the reader the same id as the writer.
func TestFileIDStoredParams(t *testing.T) {
	t.Parallel()
	for _, params := range []string{"", "null", `{ "a" : "<&>", "b": [1, 2] }`, "\"\u2028\"", `"é\u00e9"`} {
		path := filepath.Join(t.TempDir(), "t.tsm")
		m := testMeta(100, 3)
		m.Params = json.RawMessage(params)
		if _, err := WriteFile(context.Background(), path, m, testSource(1, 3), WriteOptions{}); err != nil {
			t.Fatalf("params %q: %v", params, err)
		}
		r, err := Open(path)
		if err != nil {
			t.Fatalf("params %q: %v", params, err)
		}
		if got, want := r.FileID(), idOf(t, m); got != want {
			t.Errorf("params %q: file id %x, want %x", params, got, want)
		}
		r.Close()
	}
}

// TestReproducible: the same table gives the same bytes, whatever the
// number of workers.
func TestReproducible(t *testing.T) {
	t.Parallel()
	var first []byte
	for _, workers := range []int{1, 3} {
		b := writeBytes(t, goldenMeta(5000, 7), testSource(5, 7), WriteOptions{SlotsPerBlock: 512, Workers: workers})
		if first != nil && !bytes.Equal(b, first) {
			t.Fatalf("%d workers wrote other bytes", workers)
		}
		first = b
	}
}
