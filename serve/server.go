package serve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tablesmith/tablesmith/format"
	"github.com/tablesmith/tablesmith/games"
	"github.com/tablesmith/tablesmith/tables"
)

// Options tune a Server. The zero value is a good default.
type Options struct {
	// MaxBodyBytes caps the body of a POST probe (default 8 MiB); a larger body is 413.
	MaxBodyBytes int64
	// MaxPath caps the moves of a path a probe returns (default 100,000).
	MaxPath int
	// ErrorLog receives recovered panics and the server-side failures of probes, with
	// the paths answers leave out (default: the log package's logger).
	ErrorLog *log.Logger
	// StreamIdle bounds how long a POST probe waits for the next bytes of its body, and
	// for the client to take the next answers (default 1 minute). The wait is counted
	// afresh before each read and each write: the time the server spends answering never
	// counts against it (it overrides the http.Server's ReadTimeout and WriteTimeout for
	// the stream), so that a body of any length within MaxBodyBytes is answered whole.
	StreamIdle time.Duration
}

// Server answers from the tables opened at startup. It is safe for concurrent use.
type Server struct {
	opt     Options
	entries []*entry
	byName  map[string]*entry
}

// New opens every path — a table file, a set directory, or a directory holding table
// files (*.tsm) and set directories — and names each table for the URLs after its file
// or directory, without .tsm (repeats numbered: eight, eight-2).
func New(paths []string, opt Options) (*Server, error) {
	if opt.MaxBodyBytes <= 0 {
		opt.MaxBodyBytes = 8 << 20
	}
	if opt.MaxPath <= 0 {
		opt.MaxPath = 100_000
	}
	if opt.ErrorLog == nil {
		opt.ErrorLog = log.Default()
	}
	if opt.StreamIdle <= 0 {
		opt.StreamIdle = time.Minute
	}
	if len(paths) == 0 {
		return nil, errNoTables
	}
	s := &Server{opt: opt, byName: map[string]*entry{}}
	for _, p := range paths {
		if err := s.add(p, true); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Names lists the tables' URL names in the order they were opened.
func (s *Server) Names() []string {
	var out []string
	for _, e := range s.entries {
		out = append(out, e.Name)
	}
	return out
}

// Preload decodes every table file served into memory (tables.Table.Preload), one after
// another, each on up to workers goroutines, before the first request; a set's members
// are left to be decoded as probes read them. progress, if set, is called with the
// table's URL name and the blocks decoded so far.
func (s *Server) Preload(ctx context.Context, workers int, progress func(name string, done, total uint64)) error {
	for _, e := range s.entries {
		t, ok := e.src.(*tables.Table)
		if !ok {
			continue
		}
		err := t.Preload(ctx, workers, func(done, total uint64) {
			if progress != nil {
				progress(e.Name, done, total)
			}
		})
		if err != nil {
			return err // it names the file: the operator's, not a client's, to read
		}
	}
	return nil
}

// Close closes every table.
func (s *Server) Close() error {
	var first error
	for _, e := range s.entries {
		if err := e.src.Close(); err != nil && first == nil {
			first = err
		}
	}
	s.entries, s.byName = nil, nil
	return first
}

// Handler returns the HTTP handler of the API and the explorer page.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	routes := []struct {
		pattern string
		methods map[string]http.HandlerFunc
	}{
		{"/api/v1/tables", map[string]http.HandlerFunc{"GET": s.list}},
		{"/api/v1/tables/{name}", map[string]http.HandlerFunc{"GET": s.one}},
		{"/api/v1/tables/{name}/probe", map[string]http.HandlerFunc{"GET": s.probe, "POST": s.probeStream}},
		{"/api/v1/tables/{name}/chart.svg", map[string]http.HandlerFunc{"GET": s.chart}},
		{"/{file}", map[string]http.HandlerFunc{"GET": serveStatic}},
		{"/{$}", map[string]http.HandlerFunc{"GET": serveStatic}},
	}
	for _, r := range routes {
		allow := []string{"HEAD"}
		for _, m := range slices.Sorted(maps.Keys(r.methods)) {
			mux.HandleFunc(m+" "+r.pattern, r.methods[m])
			allow = append(allow, m)
		}
		// Other methods on a known route: 405 naming the allowed ones.
		mux.HandleFunc(r.pattern, func(w http.ResponseWriter, req *http.Request) {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed on %s", req.Method, req.URL.Path))
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such route: "+r.URL.Path)
	})
	return s.recoverPanics(cleanPaths(mux))
}

// cleanPaths refuses a path with "." or ".." segments, empty segments or encoded slashes
// with 400 before routing (a mux would redirect it): names never contain them.
func cleanPaths(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		bad := !strings.HasPrefix(p, "/") || strings.Contains(strings.ToLower(r.URL.RawPath), "%2f")
		if segs := strings.Split(p[min(len(p), 1):], "/"); !bad {
			for i, seg := range segs {
				if seg == "." || seg == ".." || seg == "" && i < len(segs)-1 {
					bad = true
				}
			}
		}
		if bad {
			writeError(w, http.StatusBadRequest, "malformed path "+strconv.Quote(r.URL.EscapedPath()))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// recoverPanics turns a panicking handler into a logged 500 (never a dropped connection
// with a half-written answer left unexplained).
func (s *Server) recoverPanics(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.opt.ErrorLog.Printf("serve: panic on %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
				writeError(w, http.StatusInternalServerError, "internal error")
			}
		}()
		h.ServeHTTP(w, r)
	})
}

// writeJSON writes v as one line of JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := appendJSON(nil, v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

type errorBody struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{msg})
}

// entry returns the table the path names, or writes 404.
func (s *Server) entry(w http.ResponseWriter, r *http.Request) *entry {
	name := r.PathValue("name")
	e := s.byName[name]
	if e == nil {
		writeError(w, http.StatusNotFound, "no table named "+strconv.Quote(name))
	}
	return e
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, struct {
		Tables []*entry `json:"tables"`
	}{s.entries})
}

func (s *Server) one(w http.ResponseWriter, r *http.Request) {
	if e := s.entry(w, r); e != nil {
		writeJSON(w, http.StatusOK, e)
	}
}

func (s *Server) chart(w http.ResponseWriter, r *http.Request) {
	if e := s.entry(w, r); e != nil {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
		w.Write(e.chart)
	}
}

// probeRequest returns the table a probe names and its options, path=1 and moves=0 (both
// optional), or writes the error (404, 400) and returns nil.
func (s *Server) probeRequest(w http.ResponseWriter, r *http.Request) (*entry, ProbeOptions) {
	opt := ProbeOptions{MaxPath: s.opt.MaxPath, Moves: true}
	e := s.entry(w, r)
	if e == nil {
		return nil, opt
	}
	q := r.URL.Query()
	for _, f := range []struct {
		name string
		to   *bool
	}{{"path", &opt.Path}, {"moves", &opt.Moves}} {
		if !q.Has(f.name) {
			continue
		}
		v, err := strconv.ParseBool(q.Get(f.name))
		if err != nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("parameter %s=%q: want 0 or 1", f.name, q.Get(f.name)))
			return nil, opt
		}
		*f.to = v
	}
	// A line is followed by remoteness: a win/draw/loss-only set has none, whatever the
	// position, so path=1 is refused before any is answered (never per line, answering
	// the draws and refusing the wins).
	if set, ok := e.src.(*tables.Set); ok && opt.Path && set.Values() == format.ValuesWDL {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("parameter path=1: %s is a win/draw/loss-only set, which has no remoteness to follow a line; ask without path, or a full set", e.Name))
		return nil, opt
	}
	// Nor has one tier's file of a two-player set: a line crosses tiers.
	if _, ok := e.src.(*tables.Table); ok && opt.Path && e.Kind == games.KindTwoPlayer {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("parameter path=1: %s is one tier's file of a two-player set, and a line crosses tiers; ask the set for a line", e.Name))
		return nil, opt
	}
	return e, opt
}

// answer is a probe's result as it is sent: its error with no server-side path, and a
// server-side failure logged in full.
func (s *Server) answer(e *entry, res Result) Result {
	if res.Error == "" {
		return res
	}
	if statusOf(res.err) >= 500 {
		s.opt.ErrorLog.Printf("serve: %s: %s: %v", e.Name, res.State, res.err)
	}
	res.Error = e.scrub(res.Error)
	return res
}

// statusOf is the HTTP status of a probe's error.
func statusOf(err error) int {
	switch {
	case err == nil:
		return http.StatusOK
	case errors.Is(err, tables.ErrIncompleteSet): // the set lacks a tier a move leads into
		return http.StatusInternalServerError
	case errors.Is(err, tables.ErrBadState), errors.Is(err, ErrLineTooLong), errors.Is(err, ErrPathTooLong),
		errors.Is(err, tables.ErrNoRemoteness):
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

// probe answers GET …/probe?state=S: one result, status 400 for a bad state.
func (s *Server) probe(w http.ResponseWriter, r *http.Request) {
	e, opt := s.probeRequest(w, r)
	if e == nil {
		return
	}
	q := r.URL.Query()
	if !q.Has("state") {
		writeError(w, http.StatusBadRequest, "missing parameter state")
		return
	}
	state := q.Get("state")
	res := TooLong(state[:min(len(state), 80)])
	if len(state) <= MaxStateLine {
		res = s.answer(e, Probe(e.src, state, opt))
	}
	writeJSON(w, statusOf(res.err), res)
}

// probeStream answers POST …/probe: a state per line of the body, a result per line of
// the answer (NDJSON), each flushed before the next read of the body would block.
func (s *Server) probeStream(w http.ResponseWriter, r *http.Request) {
	e, opt := s.probeRequest(w, r)
	if e == nil {
		return
	}
	tooLarge := fmt.Sprintf("request body larger than %d bytes", s.opt.MaxBodyBytes)
	if r.ContentLength > s.opt.MaxBodyBytes {
		writeError(w, http.StatusRequestEntityTooLarge, tooLarge)
		return
	}
	rc := http.NewResponseController(w)
	rc.EnableFullDuplex() // answer while the body still arrives (HTTP/1.1)
	// The deadlines count only waits on the client: each read of the body, and each
	// write of answers, gets StreamIdle from its start (see Options.StreamIdle).
	idle := s.opt.StreamIdle
	body := &idleReader{r: http.MaxBytesReader(w, r.Body, s.opt.MaxBodyBytes), rc: rc, idle: idle}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	out := bufio.NewWriterSize(&idleWriter{w: w, rc: rc, idle: idle}, 32<<10)
	// A client that stopped taking answers (its write deadline passed, the connection
	// closed) stops the stream: nothing more of the body is read or answered.
	ctx, gone := context.WithCancel(r.Context())
	defer gone()
	lines := 0
	emit := func(v any) {
		b, _ := appendJSON(out.AvailableBuffer(), v)
		if _, err := out.Write(append(b, '\n')); err != nil {
			gone()
		}
		lines++
	}
	flush := func() {
		if out.Buffered() > 0 {
			if out.Flush() != nil {
				gone()
			}
			rc.Flush()
		}
	}
	err := ReadStates(ctx, body, func(state string) { emit(s.answer(e, Probe(e.src, state, opt))) },
		func(prefix string) { emit(TooLong(prefix)) }, flush)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe) && lines == 0:
		writeError(w, http.StatusRequestEntityTooLarge, tooLarge)
		return
	case errors.As(err, &mbe):
		emit(errorBody{tooLarge}) // the status is sent: the last line says it
	case err != nil:
		emit(errorBody{bodyError(err, idle, lines)})
	}
	out.Flush()
}

// bodyError says why a POST body could not be read to its end, after lines answers,
// without the connection's addresses.
func bodyError(err error, idle time.Duration, lines int) string {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Sprintf("the request body stopped arriving: no bytes for %v; %d lines were answered before this one, send the states after them again", idle, lines)
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		err = oe.Err
	}
	return fmt.Sprintf("reading the request body failed after %d answered lines: %v", lines, err)
}

// idleReader is a request body whose read deadline is set afresh before each read.
type idleReader struct {
	r    io.Reader
	rc   *http.ResponseController
	idle time.Duration
}

func (b *idleReader) Read(p []byte) (int, error) {
	b.rc.SetReadDeadline(time.Now().Add(b.idle)) // an error: no deadline to move
	return b.r.Read(p)
}

// idleWriter is a response whose write deadline is set afresh before each write.
type idleWriter struct {
	w    io.Writer
	rc   *http.ResponseController
	idle time.Duration
}

func (b *idleWriter) Write(p []byte) (int, error) {
	b.rc.SetWriteDeadline(time.Now().Add(b.idle))
	return b.w.Write(p)
}
