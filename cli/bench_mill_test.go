package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBenchMillSmall(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("canonicalises every position of sector 3-3 five times")
	}
	code, out, stderr := runFunc(t, runBenchMill, "", "--sector", "3-3", "--bits", "64")
	if code != exitOK || !strings.Contains(out, "sector 3-3: 169,626 classes, 2,691,920 positions") ||
		!strings.Contains(out, "exact signature") || !strings.Contains(out, "2^64") {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	code, out, _ = runFunc(t, runBenchMill, "", "--sector", "3-3", "--bits", "16", "--json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); code != exitOK || err != nil || len(rows) != 4 ||
		rows[1]["keys"] != 169626.0 || rows[2]["modulus_bits"] != 16.0 || rows[2]["keys"].(float64) > 65536 {
		t.Fatalf("json: exit %d, %v: %s", code, err, out)
	}
}
