package dashboard

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/view"
)

// Config is what a Server serves and how.
type Config struct {
	// Root is the project `atreides ui` was started in.
	Root string
	// Projects lists the project roots --all shows (Root among them or
	// not); nil shows Root alone.
	Projects func() ([]string, error)
	// Options are a project's snapshot options (from its configuration).
	Options func(root string) view.Options
	// Addr is the address the server is bound to (host:port), for the
	// Host header check.
	Addr string
	// Token, when set, is required on every request.
	Token string
	// Logf writes to the project log; nil discards.
	Logf func(format string, args ...any)
}

// Server is the dashboard's handler. Close stops its watchers.
type Server struct {
	cfg  Config
	csrf string
	// confirm is the code every action needs (see [Server.Confirmation]).
	confirm string
	mux     *http.ServeMux
	// take reads a snapshot; a test counts the calls through it.
	take func(ctx context.Context, root string, o view.Options) (*view.Snapshot, error)
	now  func() time.Time

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	sources map[string]*source
	titles  titles
}

// tokenCookie carries the token after the page was opened with ?token=.
const tokenCookie = "atreides_ui_token"

// csrfHeader carries the page's CSRF token on every POST.
const csrfHeader = "X-Atreides-CSRF"

// confirmHeader carries the confirmation code on every action.
const confirmHeader = "X-Atreides-Confirm"

// New returns the dashboard of cfg.
func New(cfg Config) *Server {
	if cfg.Options == nil {
		cfg.Options = func(string) view.Options { return view.Options{} }
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	s := &Server{cfg: cfg, csrf: hex.EncodeToString(b[:]), confirm: newConfirmation(), take: view.Take, now: time.Now, sources: map[string]*source{}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.routes()
	return s
}

// Close stops following the projects; open event streams end.
func (s *Server) Close() {
	s.cancel()
	s.wg.Wait()
}

// ServeHTTP checks the request's Host and token, then serves it, every
// response with the security headers.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	if !s.hostAllowed(r.Host) {
		writeError(w, http.StatusMisdirectedRequest, "unexpected Host header %q: open the dashboard at its own address", r.Host)
		return
	}
	if s.cfg.Token != "" && !s.authorized(w, r) {
		return
	}
	s.serve(w, r)
}

// hostAllowed is the DNS rebinding check: a page of another site whose
// name was pointed at this address still sends its own name as Host.
func (s *Server) hostAllowed(host string) bool {
	bound, port, err := net.SplitHostPort(s.cfg.Addr)
	if err != nil {
		return false
	}
	name, p, err := net.SplitHostPort(host)
	if err != nil {
		name, p = strings.Trim(host, "[]"), "80"
	}
	if p != port {
		return false
	}
	if ip, err := netip.ParseAddr(bound); (bound == "" || err == nil && ip.IsUnspecified()) && s.cfg.Token != "" {
		// Serving every interface (with a token, see Listen): the
		// machine's names are not known here; the token guards.
		return true
	}
	return strings.EqualFold(name, "localhost") || name == "127.0.0.1" || name == "::1" || strings.EqualFold(name, bound)
}

// authorized checks the token: the Authorization header, the cookie, or
// ?token= on a page load, which sets the cookie and drops the token from
// the address. It writes the refusal itself.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && s.tokenIs(v) {
		return true
	}
	if c, err := r.Cookie(tokenCookie); err == nil && s.tokenIs(c.Value) {
		return true
	}
	if t := r.URL.Query().Get("token"); t != "" && r.Method == http.MethodGet && r.URL.Path == "/" && s.tokenIs(t) {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: t, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return false
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="atreides ui"`)
	writeError(w, http.StatusUnauthorized, "this dashboard needs its token: open it with ?token=... or send Authorization: Bearer ...")
	return false
}

func (s *Server) tokenIs(v string) bool {
	return subtle.ConstantTimeCompare([]byte(v), []byte(s.cfg.Token)) == 1
}

// csrfOK checks a state-changing request: the page's token in its header,
// and, when the browser says where the request came from, this origin.
func (s *Server) csrfOK(r *http.Request) bool {
	if subtle.ConstantTimeCompare([]byte(r.Header.Get(csrfHeader)), []byte(s.csrf)) != 1 {
		return false
	}
	site := r.Header.Get("Sec-Fetch-Site")
	return site == "" || site == "same-origin"
}

// Confirmation is the code the dashboard's actions need: printed only to
// the terminal that started `atreides ui` (stderr) and served by no
// endpoint. The CSRF token is in the page, which anyone who can reach the
// port can fetch (the agent with curl among them); the code is typed by
// the person who started the dashboard, once per browser tab, so an
// action through the dashboard is the user's and never the agent's.
func (s *Server) Confirmation() string { return s.confirm }

// confirmAlphabet is Crockford's base32: no I, L, O or U to misread.
const confirmAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// newConfirmation is a fresh code of 16 characters (80 bits), in groups
// of four for typing.
func newConfirmation() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	var out []byte
	for i, c := range b {
		if i > 0 && i%4 == 0 {
			out = append(out, '-')
		}
		out = append(out, confirmAlphabet[int(c)%len(confirmAlphabet)])
	}
	return string(out)
}

// confirmed checks the action's confirmation code, as typed: case,
// spaces and dashes do not matter.
func (s *Server) confirmed(r *http.Request) bool {
	norm := func(v string) string {
		return strings.Map(func(c rune) rune {
			if c == '-' || c == ' ' {
				return -1
			}
			return c
		}, strings.ToUpper(v))
	}
	return subtle.ConstantTimeCompare([]byte(norm(r.Header.Get(confirmHeader))), []byte(norm(s.confirm))) == 1
}

// projects lists the roots served, the current one first.
func (s *Server) projects() ([]string, error) {
	roots := []string{s.cfg.Root}
	if s.cfg.Projects == nil {
		return roots, nil
	}
	more, err := s.cfg.Projects()
	if err != nil {
		return roots, fmt.Errorf("list the known projects: %w", err)
	}
	for _, r := range more {
		if !slices.Contains(roots, r) {
			roots = append(roots, r)
		}
	}
	return roots, nil
}

// errUnknownProject is a ?project= the server does not serve.
var errUnknownProject = errors.New("unknown project")

// project is the root a request is about: ?project=, else the current.
func (s *Server) project(r *http.Request) (string, error) {
	p := r.URL.Query().Get("project")
	if p == "" || p == s.cfg.Root {
		return s.cfg.Root, nil
	}
	roots, err := s.projects()
	if err != nil {
		return "", err
	}
	if !slices.Contains(roots, p) {
		return "", errUnknownProject
	}
	return p, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, map[string]string{"error": fmt.Sprintf(format, args...)})
}
