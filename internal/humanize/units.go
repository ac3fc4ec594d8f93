// Package humanize writes quantities for people: byte counts with binary units, for the
// command line's messages and reports alike.
package humanize

import "fmt"

// Bytes writes a byte count with a binary unit ("1.50 GiB", "12.3 KiB", "512 B").
func Bytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
