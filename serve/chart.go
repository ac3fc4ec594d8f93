package serve

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/tables"
)

// The distribution chart: one SVG bar chart per table — states per remoteness for a
// puzzle, entries per value for a pattern-database group, positions per outcome for a
// two-player game — drawn here once for `tablesmith info --plot` and the API's chart.svg
// (which the explorer page shows). A set gets one panel per member.
//
// Every bar is a <rect class="bar"> with data-lo and data-hi (the values it counts, equal
// unless the levels are binned) and a <title> for the tooltip. More than maxBars levels
// are binned into ranges of equal width.

const (
	chartWidth  = 720
	panelHeight = 280
	marginLeft  = 72
	marginRight = 20
	marginTop   = 48
	marginBot   = 44
	maxBars     = 128
	barColour   = "#4c78a8"
)

// bar is one bar: the values lo..hi (labelled label when not a number) and their count.
type bar struct {
	lo, hi int
	label  string
	count  uint64
}

// panel is one chart: a title line, a note line, the x axis's name, what is counted.
type panel struct {
	title, note, axis, noun string
	bars                    []bar
}

// DistributionSVG draws the value distribution of a table.
func DistributionSVG(info tables.Info) []byte { return drawSVG([]panel{panelOf(info)}) }

// SetDistributionSVG draws the distribution of every member of a set, one panel each.
func SetDistributionSVG(info tables.SetInfo) []byte {
	var ps []panel
	for i, m := range info.Members {
		p := panelOf(m)
		p.title = fmt.Sprintf("%s, member %d of %d: %s", filepath.Base(info.Dir), i+1, len(info.Members), filepath.Base(m.File))
		p.note = fmt.Sprintf("%s %s; %s", m.Game, compactJSON(m.Params), p.note)
		ps = append(ps, p)
	}
	return drawSVG(ps)
}

// panelOf makes the panel of one table.
func panelOf(info tables.Info) panel {
	name := info.Game
	if info.File != "" {
		name = filepath.Base(info.File)
	}
	p := panel{axis: "remoteness (moves to the goal)", noun: "states"}
	var total uint64
	switch info.Kind {
	case games.KindPDB:
		p.axis, p.noun = "value (lower bound on the group's moves)", "entries"
	case games.KindTwoPlayer:
		p.axis, p.noun = "value for the side to move", "positions"
		p.bars = []bar{{label: "win", count: info.Wins}, {label: "draw", count: info.Draws}, {label: "loss", count: info.Losses}}
		total = info.Wins + info.Draws + info.Losses
	}
	if p.bars == nil {
		p.bars = binned(info.Counts)
		for _, c := range info.Counts {
			total += c
		}
	}
	p.title = fmt.Sprintf("%s: %s %s %s", name, info.Game, compactJSON(info.Params), info.Index)
	p.note = fmt.Sprintf("%s %s", commas(total), p.noun)
	if info.Kind == games.KindPuzzle {
		p.note += fmt.Sprintf(", max remoteness %d, %s unreachable", info.MaxRemoteness, commas(info.Unreachable))
	}
	return p
}

// binned makes one bar per level, or bars of equal ranges when there are over maxBars.
func binned(counts []uint64) []bar {
	width := (len(counts) + maxBars - 1) / maxBars
	var bars []bar
	for lo := 0; lo < len(counts); lo += width {
		hi := min(lo+width, len(counts)) - 1
		b := bar{lo: lo, hi: hi}
		for _, c := range counts[lo : hi+1] {
			b.count += c
		}
		bars = append(bars, b)
	}
	return bars
}

// drawSVG lays the panels out one below the other.
func drawSVG(ps []panel) []byte {
	var w bytes.Buffer
	h := panelHeight * len(ps)
	fmt.Fprintf(&w, `<svg xmlns="http://www.w3.org/2000/svg" class="distribution" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui, sans-serif" font-size="12">`+"\n",
		chartWidth, h, chartWidth, h)
	fmt.Fprintf(&w, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", chartWidth, h)
	for i, p := range ps {
		fmt.Fprintf(&w, `<g class="panel" transform="translate(0 %d)">`+"\n", i*panelHeight)
		p.draw(&w)
		w.WriteString("</g>\n")
	}
	w.WriteString("</svg>\n")
	return w.Bytes()
}

func (p panel) draw(w *bytes.Buffer) {
	x0, y0 := float64(marginLeft), float64(panelHeight-marginBot) // the origin
	pw, ph := float64(chartWidth-marginLeft-marginRight), float64(panelHeight-marginTop-marginBot)
	fmt.Fprintf(w, `<text x="%d" y="18" font-size="14" font-weight="bold">%s</text>`+"\n", marginLeft, esc(clip(p.title, 80)))
	fmt.Fprintf(w, `<text x="%d" y="36" fill="#555555">%s</text>`+"\n", marginLeft, esc(clip(p.note, 105)))
	var top uint64
	for _, b := range p.bars {
		top = max(top, b.count)
	}
	if top == 0 {
		fmt.Fprintf(w, `<text x="%g" y="%g" fill="#555555">no values</text>`+"\n", x0, y0-ph/2)
		return
	}
	// The y axis: about five round steps, grid lines across the plot.
	step := niceStep(float64(top) / 5)
	ymax := math.Ceil(float64(top)/step) * step
	for v := 0.0; v <= ymax+step/2; v += step {
		y := y0 - v/ymax*ph
		fmt.Fprintf(w, `<line x1="%g" x2="%g" y1="%.1f" y2="%.1f" stroke="#e0e0e0"/>`+"\n", x0, x0+pw, y, y)
		fmt.Fprintf(w, `<text x="%g" y="%.1f" text-anchor="end" dominant-baseline="middle" fill="#555555">%s</text>`+"\n", x0-6, y, commas(uint64(v)))
	}
	// The bars, and a label under every k-th so that labels stay ~36 px apart.
	bw := pw / float64(len(p.bars))
	gap := 0.0
	if bw > 4 {
		gap = bw * 0.15
	}
	every := max(int(niceStep(36/bw)), 1)
	for i, b := range p.bars {
		x := x0 + float64(i)*bw
		bh := float64(b.count) / ymax * ph
		name := b.label
		if name == "" {
			name = strconv.Itoa(b.lo)
			if b.hi != b.lo {
				name += "–" + strconv.Itoa(b.hi)
			}
		}
		fmt.Fprintf(w, `<rect class="bar" data-lo="%d" data-hi="%d" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"><title>%s: %s %s</title></rect>`+"\n",
			b.lo, b.hi, x+gap/2, y0-bh, bw-gap, bh, barColour, esc(name), commas(b.count), p.noun)
		if i%every == 0 {
			label := name
			if b.label == "" {
				label = strconv.Itoa(b.lo)
			}
			fmt.Fprintf(w, `<text x="%.2f" y="%g" text-anchor="middle" fill="#555555">%s</text>`+"\n", x+bw/2, y0+16, esc(label))
		}
	}
	fmt.Fprintf(w, `<line x1="%g" x2="%g" y1="%g" y2="%g" stroke="#333333"/>`+"\n", x0, x0+pw, y0, y0)
	fmt.Fprintf(w, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", x0+pw/2, y0+36, esc(p.axis))
}

// niceStep rounds x up to 1, 2 or 5 times a power of ten.
func niceStep(x float64) float64 {
	if x <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// clip cuts s to n characters, so that a line fits the chart.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// commas writes n with thousands separators.
func commas(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
