package slide

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/tablesmith/tablesmith/internal/notation"
)

// maxCompactCells is the largest board whose tiles are all single digits
// (0..9), the only boards for which the compact digit form is unambiguous.
const maxCompactCells = 10

// Parse reads a state in the notation of docs/DESIGN.md ("Sliding tiles") and returns its board.
//
// Two forms are accepted, each with optional leading and trailing whitespace:
//
//   - tiles as decimal numbers separated by spaces and/or commas:
//     "1 2 3 4 5 6 7 8 0", "1,2,3,4,5,6,7,8,0";
//   - on boards of at most 10 cells, where every tile is one digit, the
//     compact digit string "123456780".
//
// In either form rows may be separated by "/" ("1 2 3/4 5 6/7 8 0",
// "123/456/780"); when they are, there must be Rows rows of Cols tiles each.
// The input is compact when the board has at most 10 cells and no row holds
// two numbers apart, so "12 30" on a 2×2 board is two tiles, 12 and 30.
//
// The error says exactly what is wrong: an empty input, an unexpected
// character (with its 0-based byte offset in s), a wrong number of rows or
// tiles, a tile out of range, a repeated tile together with the missing one.
// Parse never panics.
func (g *Geometry) Parse(s string) ([]uint8, error) {
	board, err := g.parse(s)
	if err != nil {
		return nil, fmt.Errorf("slide: parse %s: %w", notation.Quote(s), err)
	}
	return board, nil
}

// parseCompact reads the plain compact form (exactly Cells() digits, nothing else) of a
// board of at most 10 cells into board, without allocating; ok is false for any other
// input, valid or not, which Parse then reads (and words the errors of).
func (g *Geometry) parseCompact(s string, board []uint8) bool {
	if g.cells > maxCompactCells || len(s) != g.cells || len(board) < g.cells {
		return false
	}
	var seen uint32
	for i := range g.cells {
		t := s[i] - '0'
		if t >= uint8(g.cells) || seen&(1<<t) != 0 {
			return false
		}
		seen |= 1 << t
		board[i] = t
	}
	return true
}

// token is one number of the input: its text, byte offset and row.
type token struct {
	text string
	pos  int
	row  int
}

func (g *Geometry) parse(s string) ([]uint8, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("empty input")
	}

	// Scan into digit runs, noting rows and rejecting anything else.
	var toks []token
	row, rowRuns, multiRun, slashes := 0, 0, false, false
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case ch >= '0' && ch <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			toks = append(toks, token{text: s[i:j], pos: i, row: row})
			rowRuns++
			if rowRuns > 1 {
				multiRun = true
			}
			i = j
		case ch == '/':
			slashes = true
			row++
			rowRuns = 0
			i++
		case ch == ' ' || ch == ',' || ch == '\t' || ch == '\n' || ch == '\r':
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size <= 1 {
				return nil, fmt.Errorf("unexpected byte 0x%02x at %d", ch, i)
			}
			return nil, fmt.Errorf("unexpected character %q at %d", r, i)
		}
	}

	// In the compact form every digit is a tile.
	if g.cells <= maxCompactCells && !multiRun {
		var digits []token
		for _, tk := range toks {
			for k := range len(tk.text) {
				digits = append(digits, token{text: tk.text[k : k+1], pos: tk.pos + k, row: tk.row})
			}
		}
		toks = digits
	}

	if slashes {
		if row+1 != g.Rows {
			return nil, fmt.Errorf("got %d rows, a %v board has %d", row+1, g, g.Rows)
		}
		var perRow [maxSide]int
		for _, tk := range toks {
			perRow[tk.row]++
		}
		for r := range g.Rows {
			if perRow[r] != g.Cols {
				return nil, fmt.Errorf("row %d has %s, a %v board has %d per row",
					r+1, plural(perRow[r], "tile"), g, g.Cols)
			}
		}
	}
	if len(toks) != g.cells {
		hint := ""
		if len(toks) == 1 && len(toks[0].text) > 2 {
			hint = fmt.Sprintf(" (the compact digit form is only for boards of at most %d cells)", maxCompactCells)
		}
		return nil, fmt.Errorf("got %s, a %v board has %d%s", plural(len(toks), "tile"), g, g.cells, hint)
	}

	board := make([]uint8, g.cells)
	for c, tk := range toks {
		v, err := strconv.Atoi(tk.text)
		if err != nil || v >= g.cells {
			return nil, fmt.Errorf("tile %s at %d out of range 0..%d", tk.text, tk.pos, g.cells-1)
		}
		board[c] = uint8(v)
	}
	if err := g.checkPerm(board); err != nil {
		return nil, err
	}
	return board, nil
}

// Check reports whether board is a valid board for g: Cells() entries that
// are a permutation of 0..Cells()-1. Use it where boards enter from outside
// Parse (an unranked index, a caller's slice); the hot paths trust it.
func (g *Geometry) Check(board []uint8) error {
	if len(board) != g.cells {
		return fmt.Errorf("slide: got %s, a %v board has %d", plural(len(board), "tile"), g, g.cells)
	}
	var seen uint32 // a bit per tile: typed probes call Check on every lookup
	for c, t := range board {
		if int(t) >= g.cells {
			return fmt.Errorf("slide: tile %d at cell %d out of range 0..%d", t, c, g.cells-1)
		}
		seen |= 1 << t
	}
	if seen == 1<<g.cells-1 {
		return nil
	}
	if err := g.checkPerm(board); err != nil {
		return fmt.Errorf("slide: %w", err)
	}
	return errors.New("slide: internal error: a board with repeated tiles passed checkPerm")
}

// checkPerm reports the first repeated tile of a board of the right length
// whose tiles are all in range. With the count right, a repeat and a missing
// tile always come together, so one message names both.
func (g *Geometry) checkPerm(board []uint8) error {
	var count [MaxCells]int
	for _, t := range board {
		count[t]++
	}
	for _, t := range board {
		if count[t] > 1 {
			missing := 0
			for count[missing] != 0 {
				missing++
			}
			times := "twice"
			if count[t] > 2 {
				times = fmt.Sprintf("%d times", count[t])
			}
			return fmt.Errorf("tile %d appears %s; tile %d is missing", t, times, missing)
		}
	}
	return nil
}

// Format writes board in canonical notation: the compact digit string when
// Cells() ≤ 10 (the 8-puzzle goal is "123456780"), otherwise the tiles
// separated by single spaces. Parse reads both back. A board with a tile
// above 9 (not a valid small board) is written spaced so nothing is lost.
func (g *Geometry) Format(board []uint8) string {
	compact := g.cells <= maxCompactCells
	for i := 0; compact && i < len(board); i++ {
		compact = board[i] <= 9
	}
	if compact {
		// One allocation, the string's own bytes: typed probes spell every answer.
		b := make([]byte, len(board))
		for i, t := range board {
			b[i] = '0' + t
		}
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	// Spaced: the bytes worked out on the stack without a branch on the tiles (random
	// tiles mispredict), one allocation for the string; a two-bit path spells a state
	// a move.
	var stack [4*MaxCells + 4]byte
	buf := stack[:]
	if len(board) > MaxCells {
		buf = make([]byte, 4*len(board)+4)
	}
	n := 0
	for _, t := range board {
		d := &tileDigits[t]
		buf[n], buf[n+1], buf[n+2], buf[n+3] = d[0], d[1], d[2], d[3]
		n += int(d[4])
	}
	return string(buf[:max(n-1, 0)])
}

// tileDigits spells each tile number and a space after it (at most 4 bytes), then the
// count of those bytes.
var tileDigits = func() (t [256][5]byte) {
	for v := range t {
		s := strconv.Itoa(v) + " "
		copy(t[v][:4], s)
		t[v][4] = byte(len(s))
	}
	return t
}()

// plural returns "1 tile" or "n tiles".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
