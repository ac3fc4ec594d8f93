package serve

import (
	"bytes"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPanicIsA500(t *testing.T) {
	t.Parallel()
	var logged bytes.Buffer
	s := &Server{opt: Options{ErrorLog: log.New(&logged, "", 0)}}
	h := s.recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/api/v1/tables", nil))
	if w.Code != 500 || strings.TrimSpace(w.Body.String()) != `{"error":"internal error"}` || w.Header().Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("%d %q %q", w.Code, w.Body, w.Header())
	}
	if !strings.Contains(logged.String(), "panic on GET /api/v1/tables: boom") {
		t.Errorf("log: %q", logged.String())
	}
}
