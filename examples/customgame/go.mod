module example.com/customgame

go 1.26.0

require github.com/tablesmith/tablesmith v0.0.0

require (
	github.com/klauspost/compress v1.20.3 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/term v0.47.0 // indirect
)

replace github.com/tablesmith/tablesmith => ../..
