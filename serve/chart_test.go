package serve_test

import (
	"encoding/xml"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tablesmith/tablesmith/serve"
	"github.com/tablesmith/tablesmith/tables"
)

// bars parses an SVG chart and returns its bars' data-lo, data-hi and height.
func bars(t *testing.T, svg []byte) (lo, hi []int, height []float64) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(string(svg)))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not XML: %v\n%s", err, svg)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "rect" {
			continue
		}
		attr := map[string]string{}
		for _, a := range se.Attr {
			attr[a.Name.Local] = a.Value
		}
		if attr["class"] != "bar" {
			continue
		}
		l, _ := strconv.Atoi(attr["data-lo"])
		h, _ := strconv.Atoi(attr["data-hi"])
		ht, err := strconv.ParseFloat(attr["height"], 64)
		if err != nil {
			t.Fatalf("bar height %q", attr["height"])
		}
		lo, hi, height = append(lo, l), append(hi, h), append(height, ht)
	}
}

func TestDistributionSVG(t *testing.T) {
	t.Parallel()
	tab, err := tables.Open(filepath.Join(fixtures(t), "eight.tsm"))
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	info := tab.Info()
	svg := serve.DistributionSVG(info)
	lo, hi, height := bars(t, svg)
	if len(lo) != 32 {
		t.Fatalf("%d bars, want one per remoteness 0..31", len(lo))
	}
	for d := range lo {
		if lo[d] != d || hi[d] != d {
			t.Errorf("bar %d counts %d..%d", d, lo[d], hi[d])
		}
		// Heights are proportional to the counts: compare with the tallest (d = 24).
		if want := height[24] * float64(info.Counts[d]) / float64(info.Counts[24]); height[d] < want-0.02 || height[d] > want+0.02 {
			t.Errorf("bar %d: height %.2f, want %.2f", d, height[d], want)
		}
	}
	if !strings.Contains(string(svg), "<title>24: 24,047 states</title>") {
		t.Error("no tooltip for remoteness 24")
	}
}

func TestDistributionSVGBinsLongTables(t *testing.T) {
	t.Parallel()
	counts := make([]uint64, 1000)
	for i := range counts {
		counts[i] = uint64(i % 7)
	}
	lo, hi, _ := bars(t, serve.DistributionSVG(tables.Info{Game: "hanoi", Kind: "puzzle", Params: []byte(`{"pegs":3}`), Counts: counts}))
	if len(lo) > 128 || lo[0] != 0 || hi[len(hi)-1] != 999 {
		t.Fatalf("%d bins, %d..%d", len(lo), lo[0], hi[len(hi)-1])
	}
	for i := 1; i < len(lo); i++ {
		if lo[i] != hi[i-1]+1 {
			t.Fatalf("bins %d and %d leave a gap: %d..%d, %d..%d", i-1, i, lo[i-1], hi[i-1], lo[i], hi[i])
		}
	}
	// Nothing to count, and a title that needs escaping: still valid XML.
	if lo, _, _ := bars(t, serve.DistributionSVG(tables.Info{Game: "<&>", Params: []byte(`{"x":"</svg>"}`)})); len(lo) != 0 {
		t.Errorf("%d bars for no counts", len(lo))
	}
}

func TestSetDistributionSVG(t *testing.T) {
	t.Parallel()
	s, err := tables.OpenSet(filepath.Join(fixtures(t), "pdb8"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	info := s.Info()
	svg := serve.SetDistributionSVG(info)
	lo, _, _ := bars(t, svg)
	want := len(info.Members[0].Counts) + len(info.Members[1].Counts)
	if len(lo) != want || strings.Count(string(svg), `class="panel"`) != 2 {
		t.Errorf("%d bars, want %d in two panels", len(lo), want)
	}
}
