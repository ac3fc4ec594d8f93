package serve

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/tables"
)

// The distribution chart: one SVG bar chart per table — states per remoteness for a
// puzzle, entries per value for a pattern-database group, positions per remoteness for a
// two-player game (wins and losses by plies, draws as one bar) — drawn here once for
// `tablesmith info --plot` and the API's chart.svg (which the explorer page shows). A set
// gets one panel per member; a sector set first a panel of all its sectors.
//
// Every bar is one <rect class="bar"> per series it counts (stacked), with data-lo and
// data-hi (the values it counts, equal unless the levels are binned), data-value for a
// named series (win, loss, draw) and a <title> for the tooltip. Every panel is a
// <g class="panel">, with data-key naming the sector of a sector set's panel ("all" for
// the totals). More than maxBars levels are binned into ranges of equal width.

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

// series is one kind of thing a panel counts: its bars stack one segment per series.
type series struct{ name, colour string }

var (
	oneSeries = []series{{"", barColour}}
	wdlSeries = []series{{"win", "#2e7d32"}, {"loss", "#c62828"}, {"draw", "#8a8a8a"}}
)

// bar is one bar: the values lo..hi (labelled label when not a number) and their count
// per series of the panel.
type bar struct {
	lo, hi    int
	label     string
	counts    []uint64
	breakable bool // drawn broken, to the top, when over twice the tallest other bar
}

func (b bar) total() uint64 {
	var n uint64
	for _, c := range b.counts {
		n += c
	}
	return n
}

// panel is one chart: a title line, a note line, the x axis's name, what is counted.
type panel struct {
	title, note, axis, noun string
	key                     string // data-key: a sector set's sector
	series                  []series
	bars                    []bar
}

// DistributionSVG draws the value distribution of a table.
func DistributionSVG(info tables.Info) []byte { return drawSVG([]panel{panelOf(info)}) }

// SetDistributionSVG draws the distribution of every member of a set, one panel each; a
// tiered game's panels are named by tier and follow one of all its tiers together.
func SetDistributionSVG(info tables.SetInfo) []byte {
	var ps []panel
	tiers := info.Totals != nil && len(info.Tiers) == len(info.Members)
	if tiers {
		t := info.Totals
		p := wdlPanel(t.WinCounts, t.LossCounts, t.Wins, t.Losses, t.Draws)
		p.title = fmt.Sprintf("%s: all %d %ss", filepath.Base(info.Dir), len(info.Tiers), info.TierNoun)
		p.key = "all"
		ps = append(ps, p)
	}
	for i, m := range info.Members {
		p := panelOf(m)
		p.title = fmt.Sprintf("%s, member %d of %d: %s", filepath.Base(info.Dir), i+1, len(info.Members), filepath.Base(m.File))
		if tiers {
			p.key = info.Tiers[i].Name
			p.title = fmt.Sprintf("%s: %s %s (%s)", filepath.Base(info.Dir), info.TierNoun, p.key, filepath.Base(m.File))
		} else {
			p.note = fmt.Sprintf("%s %s; %s", m.Game, compactJSON(m.Params), p.note)
		}
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
	var p panel
	if info.Kind == games.KindTwoPlayer {
		p = wdlPanel(info.WinCounts, info.LossCounts, info.Wins, info.Losses, info.Draws)
	} else {
		p = panel{axis: "remoteness (moves to the goal)", noun: "states", series: oneSeries}
		if info.Kind == games.KindPDB {
			p.axis, p.noun = "value (lower bound on the group's moves)", "entries"
		}
		var total uint64
		for _, c := range info.Counts {
			total += c
		}
		p.bars = binned([][]uint64{info.Counts})
		p.note = fmt.Sprintf("%s %s", commas(total), p.noun)
	}
	p.title = fmt.Sprintf("%s: %s %s %s", name, info.Game, compactJSON(info.Params), info.Index)
	if info.Kind == games.KindPuzzle {
		p.note += fmt.Sprintf(", max remoteness %d, %s unreachable", info.MaxRemoteness, commas(info.Unreachable))
	}
	return p
}

// wdlPanel makes the panel of a two-player game's values: wins and losses stacked by
// remoteness, then the draws as one bar. Without counts per remoteness it has one bar
// per outcome.
func wdlPanel(winCounts, lossCounts []uint64, wins, losses, draws uint64) panel {
	p := panel{axis: "plies to the end (wins odd, losses even); draws", noun: "positions", series: wdlSeries,
		note: fmt.Sprintf("%s positions: %s wins, %s losses, %s draws", commas(wins+losses+draws), commas(wins), commas(losses), commas(draws))}
	if winCounts == nil && lossCounts == nil {
		p.axis = "value for the side to move"
		p.bars = []bar{{label: "win", counts: []uint64{wins, 0, 0}}, {label: "loss", counts: []uint64{0, losses, 0}}}
	} else {
		p.bars = binned([][]uint64{winCounts, lossCounts, nil})
	}
	p.bars = append(p.bars, bar{label: "draw", counts: []uint64{0, 0, draws}, breakable: true})
	return p
}

// binned makes one bar per level, or bars of equal ranges when there are over maxBars,
// from the counts per level of each series.
func binned(counts [][]uint64) []bar {
	n := 0
	for _, c := range counts {
		n = max(n, len(c))
	}
	width := (n + maxBars - 1) / maxBars
	var bars []bar
	for lo := 0; lo < n; lo += width {
		hi := min(lo+width, n) - 1
		b := bar{lo: lo, hi: hi, counts: make([]uint64, len(counts))}
		for s, c := range counts {
			for _, k := range c[min(lo, len(c)):min(hi+1, len(c))] {
				b.counts[s] += k
			}
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
		key := ""
		if p.key != "" {
			key = fmt.Sprintf(` data-key="%s"`, esc(p.key))
		}
		fmt.Fprintf(&w, `<g class="panel"%s transform="translate(0 %d)">`+"\n", key, i*panelHeight)
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
	if len(p.series) > 1 { // the legend, at the right of the note
		for i, s := range p.series {
			x := chartWidth - marginRight - 56*(len(p.series)-i)
			fmt.Fprintf(w, `<rect x="%d" y="27" width="10" height="10" fill="%s"/><text x="%d" y="36">%s</text>`+"\n", x, s.colour, x+14, esc(s.name))
		}
	}
	// The y axis fits the bars but one that is over twice the others: that one is drawn
	// broken (Mühle's draws would flatten the wins and losses).
	var top, others uint64
	for _, b := range p.bars {
		top = max(top, b.total())
		if !b.breakable {
			others = max(others, b.total())
		}
	}
	if top > 2*others && others > 0 {
		top = others
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
		name := b.label
		if name == "" {
			name = strconv.Itoa(b.lo)
			if b.hi != b.lo {
				name += "–" + strconv.Itoa(b.hi)
			}
		}
		// One segment per series, stacked from the axis up; a single series always has
		// its rect (of height 0 for no count), several only those they count.
		y, scale, broken := y0, ph/ymax, ""
		if float64(b.total()) > ymax {
			scale, broken = ph/float64(b.total()), ` data-broken="true"`
		}
		for s, c := range b.counts {
			if c == 0 && len(p.series) > 1 {
				continue
			}
			bh := float64(c) * scale
			y -= bh
			value, noun := "", p.noun
			if sr := p.series[s]; sr.name != "" {
				value, noun = fmt.Sprintf(` data-value="%s"`, sr.name), plural(sr.name)
			}
			fmt.Fprintf(w, `<rect class="bar" data-lo="%d" data-hi="%d"%s%s x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"><title>%s: %s %s</title></rect>`+"\n",
				b.lo, b.hi, value, broken, x+gap/2, y, bw-gap, bh, p.series[s].colour, esc(name), commas(c), noun)
		}
		if broken != "" { // a white break across the bar, and its count written up it
			yb := y0 - ph*0.8
			fmt.Fprintf(w, `<path d="M%.2f %.2fL%.2f %.2f" stroke="#ffffff" stroke-width="4"/>`+"\n", x+gap/2-1, yb+3, x+bw-gap/2+1, yb-3)
			fmt.Fprintf(w, `<text transform="translate(%.2f %.2f) rotate(-90)" dominant-baseline="middle" fill="#ffffff" font-size="11">%s</text>`+"\n", x+bw/2, y0-6, commas(b.total()))
		}
		if i%every == 0 || b.label != "" {
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

// plural names the positions a series counts: wins, losses, draws.
func plural(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "es"
	}
	return name + "s"
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
