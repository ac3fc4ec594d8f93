// Package notation holds what every game's notation shares: quoting a bad input for an
// error message without flooding the output with a runaway line.
package notation

import (
	"strconv"
	"unicode/utf8"
)

// MaxQuoted is how many bytes of an input an error message repeats.
const MaxQuoted = 80

// Quote quotes s for an error message, cut to MaxQuoted bytes (on a rune boundary) with
// an ellipsis when longer.
func Quote(s string) string {
	if len(s) <= MaxQuoted {
		return strconv.Quote(s)
	}
	cut := MaxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}
