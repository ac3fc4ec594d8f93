package serve

import (
	"embed"
	"net/http"
	"path"
	"strings"
)

// The explorer page: plain files, embedded, no build step and nothing from elsewhere.
//
//go:embed static
var staticFS embed.FS

var staticTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
}

// serveStatic answers / with index.html and /{file} with the embedded file of that name;
// the name is looked up in the embedded files, never on disk.
func serveStatic(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if name == "" {
		name = "index.html"
	}
	b, err := staticFS.ReadFile("static/" + name)
	ctype := staticTypes[path.Ext(name)]
	if err != nil || ctype == "" || strings.ContainsAny(name, "/\\") {
		writeError(w, http.StatusNotFound, "no such route: "+r.URL.Path)
		return
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	w.Write(b)
}
