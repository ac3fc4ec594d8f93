package format

import (
	"encoding/json"
	"math/bits"
	"slices"
	"time"
)

// Metadata describes a table. It is stored as JSON after the blocks.
type Metadata struct {
	Game     string          `json:"game"`
	Params   json.RawMessage `json:"params,omitempty"` // the game's parameters, opaque here
	Index    string          `json:"index"`
	Encoding string          `json:"encoding"` // how codes are read, e.g. "remoteness"
	Slots    uint64          `json:"slots"`
	CodeBits int             `json:"code_bits"`
	// CodeCounts[c] = number of slots holding code c, up to the largest code
	// present; empty for a table without slots, nil when some code is
	// >= MaxCodeCounts. Filled by the writer.
	CodeCounts []uint64        `json:"code_counts"`
	Build      Build           `json:"build"`
	Extra      json.RawMessage `json:"extra,omitempty"` // caller's additional fields
}

// Build records how a table was made.
type Build struct {
	Tool      string    `json:"tool"`
	GoVersion string    `json:"go_version"`
	Created   time.Time `json:"created"`
	Host      string    `json:"host,omitempty"`
	Workers   int       `json:"workers,omitempty"`
	Seconds   float64   `json:"seconds,omitempty"`
	Command   string    `json:"command,omitempty"`
}

// clone returns a deep copy, so callers cannot change a Reader's metadata.
func (m Metadata) clone() Metadata {
	m.Params = slices.Clone(m.Params)
	m.Extra = slices.Clone(m.Extra)
	m.CodeCounts = slices.Clone(m.CodeCounts)
	return m
}

// parseMeta decodes the metadata JSON and checks it against the header.
func parseMeta(b []byte, h *header) (Metadata, error) {
	var m Metadata
	if err := json.Unmarshal(b, &m); err != nil {
		return m, corruptf("metadata: %v", err)
	}
	switch {
	case m.Slots != h.slots:
		return m, corruptf("metadata: %d slots, header says %d", m.Slots, h.slots)
	case m.CodeBits != h.codeBits:
		return m, corruptf("metadata: %d code bits, header says %d", m.CodeBits, h.codeBits)
	}
	if h.version >= 2 {
		if id := fileID(&m, m.Params); id != h.id {
			return m, corruptf("metadata: game, params, index, encoding, slots and code bits give file id %x, the header has %x", id, h.id)
		}
	}
	if m.CodeCounts == nil {
		// Only a table whose codes can reach MaxCodeCounts may omit counts.
		if m.Slots > 0 && h.codeBits <= bits.Len(MaxCodeCounts-1) {
			return m, corruptf("metadata: code_counts missing")
		}
		return m, nil
	}
	if n := uint64(len(m.CodeCounts)); n > MaxCodeCounts || n > 1<<uint(h.codeBits) {
		return m, corruptf("metadata: %d code counts for %d-bit codes", n, h.codeBits)
	}
	if n := len(m.CodeCounts); n > 0 && m.CodeCounts[n-1] == 0 {
		return m, corruptf("metadata: code_counts ends with a zero count")
	}
	var sum uint64
	for _, c := range m.CodeCounts {
		s, carry := bits.Add64(sum, c, 0)
		if carry != 0 || s > m.Slots {
			return m, corruptf("metadata: code counts add up to more than the %d slots", m.Slots)
		}
		sum = s
	}
	if sum != m.Slots {
		return m, corruptf("metadata: code counts add up to %d, want %d slots", sum, m.Slots)
	}
	return m, nil
}
