module github.com/tablesmith/tablesmith

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/klauspost/compress v1.20.3
	golang.org/x/term v0.47.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
