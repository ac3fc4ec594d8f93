// Package serve answers questions about built tables over HTTP: a JSON API under /api/v1/
// and an explorer page at / (plain HTML, CSS and JavaScript embedded in the binary) that
// draws a table's value distribution, the board of a state, and every legal move with its
// value.
//
// [New] opens the tables named at startup — table files, set directories, or directories
// holding several of either — and gives each a URL name. Those are the only tables a
// request can reach: a request path is looked up among the names, never joined to a
// filesystem path, and paths that are not clean (".", "..", "//", encoded slashes) are
// refused before routing.
//
// The API:
//
//	GET  /api/v1/tables                      {"tables":[{"name","kind","game","params","board","set","info"}, …]}
//	GET  /api/v1/tables/{name}               one entry of the list
//	GET  /api/v1/tables/{name}/probe?state=S[&path=1][&moves=0]
//	                                         one probe result (below)
//	POST /api/v1/tables/{name}/probe         states one per line in the body; NDJSON, one
//	                                         probe result per line, flushed as it goes
//	GET  /api/v1/tables/{name}/chart.svg     the value distribution (DistributionSVG)
//
// "board" is there only for a game played on a board of points and lines (games.Boarded:
// the Morris family): the board of the rules the table was built under, as data, from
// which the page draws it.
//
// A probe result ([Result]) is the object `tablesmith query --json` prints — state,
// remoteness, reachable, bound, value, path, error — plus "moves": every neighbour with
// its value, best first. [Probe] makes it for the CLI and the server alike. Errors are
// {"error":"…"} with a 4xx status (400 bad request or state, 404 unknown table or route,
// 405 wrong method, 413 body too large), or 500 if a handler fails unexpectedly (a panic
// is recovered and logged).
//
// The package imports only the lookup (tables, values, games, format) and the standard
// library: a server links no builder.
package serve
