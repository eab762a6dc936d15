package dashboard

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"sync"
	"time"
)

//go:embed web/index.html web/app.js web/trace.js web/style.css
var web embed.FS

// index is the page, with the CSRF token in a meta tag for app.js; parsed
// on first use, not when the binary starts (every hook links this package).
var index = sync.OnceValues(func() (*template.Template, error) { return template.ParseFS(web, "web/index.html") })

// page is GET /: the page with this server's CSRF token.
func (s *Server) page(w http.ResponseWriter, _ *http.Request) {
	var b bytes.Buffer
	t, err := index()
	if err == nil {
		err = t.Execute(&b, map[string]string{"CSRF": s.csrf})
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, "render the page: %v", err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b.Bytes())
}

// static serves one embedded file of web/.
func static(name string) http.Handler {
	b, err := web.ReadFile("web/" + name)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err != nil {
			writeError(w, http.StatusInternalServerError, "%v", err)
			return
		}
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
	})
}
