package cli

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tablesmith/tablesmith/serve"
)

const serveArgs = "[--addr 127.0.0.1:8080] [--preload] PATH..."

// The HTTP server's limits: a slow or stuck client cannot hold a connection for ever. A
// POST stream of states (up to 8 MiB) may take as long as answering it takes: its
// deadlines count only the waits on the client, a minute each (serve.Options.StreamIdle).
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = time.Minute
	writeTimeout      = 2 * time.Minute
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10
)

// shutdownTimeout is how long a stop lets requests in flight finish (a variable for the
// tests).
var shutdownTimeout = 10 * time.Second

// runServe serves the tables until SIGINT or SIGTERM, then lets requests in flight finish
// (for up to shutdownTimeout) before it returns.
func runServe(e *env, args []string) error {
	fs := newFlags(e, "serve", serveArgs)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	preload := fs.Bool("preload", false, "decode every table file into memory before serving (a two-bit table's descents then answer at their warm speed from the first probe); refused where a table would take more than half the memory available")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return fmt.Errorf("%w: name at least one table FILE, set DIR or DIR of tables", errUsage)
	}
	logger := log.New(e.stderr, "tablesmith serve: ", log.LstdFlags)
	srv, err := serve.New(pos, serve.Options{ErrorLog: logger, StreamIdle: readTimeout})
	if err != nil {
		return err
	}
	defer srv.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *preload {
		bar := newStatus(e, 0)
		err := srv.Preload(ctx, 0, func(name string, done, total uint64) {
			bar.show(fmt.Sprintf("preload %s: %.1f%% of %s blocks", name, 100*float64(done)/float64(total), commas(total)))
		})
		bar.clear()
		if err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          logger,
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	if err := printf(e, "serving %s at http://%s/\n", strings.Join(srv.Names(), ", "), ln.Addr()); err != nil {
		hs.Close()
		return err
	}
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	stop()
	fmt.Fprintln(e.stderr, "tablesmith serve: shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); errors.Is(err, context.DeadlineExceeded) {
		// A request still running (a long stream) when the grace period ends is cut:
		// the stop was asked for, so it is no failure, but it is said.
		hs.Close()
		fmt.Fprintf(e.stderr, "tablesmith serve: stopped; requests still running after %v were cut off (their clients see the answer end early)\n", shutdownTimeout)
	} else if err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
