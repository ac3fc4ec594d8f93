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

// svgBar is one <rect class="bar"> of a chart.
type svgBar struct {
	lo, hi int
	value  string // data-value: win, loss or draw in a two-player chart
	panel  string // the data-key of its panel (a sector set's sector)
	height float64
	broken bool // drawn broken, to the top of the axis (data-broken)
}

// bars parses an SVG chart and returns its bars (it fails the test if it is not XML).
func bars(t testing.TB, svg []byte) []svgBar {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(string(svg)))
	var out []svgBar
	panel := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("not XML: %v\n%s", err, svg)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := map[string]string{}
		for _, a := range se.Attr {
			attr[a.Name.Local] = a.Value
		}
		switch {
		case se.Name.Local == "g" && attr["class"] == "panel":
			panel = attr["data-key"]
		case se.Name.Local == "rect" && attr["class"] == "bar":
			b := svgBar{value: attr["data-value"], panel: panel, broken: attr["data-broken"] == "true"}
			b.lo, _ = strconv.Atoi(attr["data-lo"])
			b.hi, _ = strconv.Atoi(attr["data-hi"])
			if b.height, err = strconv.ParseFloat(attr["height"], 64); err != nil {
				t.Fatalf("bar height %q", attr["height"])
			}
			out = append(out, b)
		}
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
	bs := bars(t, svg)
	if len(bs) != 32 {
		t.Fatalf("%d bars, want one per remoteness 0..31", len(bs))
	}
	for d, b := range bs {
		if b.lo != d || b.hi != d || b.value != "" {
			t.Errorf("bar %d counts %d..%d (%q)", d, b.lo, b.hi, b.value)
		}
		// Heights are proportional to the counts: compare with the tallest (d = 24).
		if want := bs[24].height * float64(info.Counts[d]) / float64(info.Counts[24]); b.height < want-0.02 || b.height > want+0.02 {
			t.Errorf("bar %d: height %.2f, want %.2f", d, b.height, want)
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
	bs := bars(t, serve.DistributionSVG(tables.Info{Game: "hanoi", Kind: "puzzle", Params: []byte(`{"pegs":3}`), Counts: counts}))
	if len(bs) > 128 || bs[0].lo != 0 || bs[len(bs)-1].hi != 999 {
		t.Fatalf("%d bins, %d..%d", len(bs), bs[0].lo, bs[len(bs)-1].hi)
	}
	for i := 1; i < len(bs); i++ {
		if bs[i].lo != bs[i-1].hi+1 {
			t.Fatalf("bins %d and %d leave a gap: %+v, %+v", i-1, i, bs[i-1], bs[i])
		}
	}
	// Nothing to count, and a title that needs escaping: still valid XML.
	if bs := bars(t, serve.DistributionSVG(tables.Info{Game: "<&>", Params: []byte(`{"x":"</svg>"}`)})); len(bs) != 0 {
		t.Errorf("%d bars for no counts", len(bs))
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
	bs := bars(t, svg)
	want := len(info.Members[0].Counts) + len(info.Members[1].Counts)
	if len(bs) != want || strings.Count(string(svg), `class="panel"`) != 2 {
		t.Errorf("%d bars, want %d in two panels", len(bs), want)
	}
}
