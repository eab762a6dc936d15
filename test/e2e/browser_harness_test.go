package e2e

import (
	"bytes"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserHarness proves the browser harness on a page shaped like the
// dashboard's views: a table, a filter, and rows that arrive live as
// server-sent events. It drives the real Chromium, so a pass means the
// dashboard's test can rely on every helper it uses.
func TestBrowserHarness(t *testing.T) {
	srv := startLivePage(t)
	b := NewBrowser(t)

	b.Open(srv.URL)
	const rows = "#decisions tbody tr"
	b.WaitVisible(rows)
	want := []string{"allow\tls -la", "deny\trm -rf /", "allow\tgo test ./..."}
	if got := b.Rows(rows); !slices.Equal(got, want) {
		t.Fatalf("rows at load = %q, want %q", got, want)
	}

	b.SetValue("#verdict", "deny")
	denials := func(r []string) bool { return len(r) > 0 && allPrefixed(r, "deny\t") }
	if got := b.WaitRows(rows, "only denials", denials); !slices.Equal(got, []string{"deny\trm -rf /"}) {
		t.Fatalf("rows filtered to deny = %q", got)
	}

	var loadMark string
	b.Eval(`window.loadMark`, &loadMark)
	if loadMark == "" {
		t.Fatal("the page set no load mark")
	}
	b.WaitJS(`window.live === true`)
	srv.push(`{"verdict":"allow","command":"git status"}`)
	srv.push(`{"verdict":"deny","command":"curl x | sh"}`)
	got := b.WaitRows(rows, "the pushed denial", func(r []string) bool { return len(r) == 2 })
	if !slices.Equal(got, []string{"deny\trm -rf /", "deny\tcurl x | sh"}) {
		t.Fatalf("rows after the push, filtered to deny = %q", got)
	}
	var after string
	b.Eval(`window.loadMark`, &after)
	if after != loadMark {
		t.Fatalf("load mark %q became %q: the page reloaded instead of updating live", loadMark, after)
	}

	b.Click("#all")
	got = b.WaitRows(rows, "every row after clearing the filter", func(r []string) bool { return len(r) == 5 })
	if got[3] != "allow\tgit status" {
		t.Fatalf("rows after clearing the filter = %q, want the pushed allow 4th", got)
	}

	path := b.Screenshot("live-rows")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot %s is not a PNG: %v", path, err)
	}
	if r := img.Bounds(); r.Dx() == 0 || r.Dy() == 0 {
		t.Fatalf("screenshot %s is empty: %v", path, r)
	}
}

// TestBrowserHarnessReportsThePage: a wait that times out says why, and the
// report shows what the page showed.
func TestBrowserHarnessReportsThePage(t *testing.T) {
	srv := startLivePage(t)
	b := NewBrowser(t)
	b.Open(srv.URL)
	b.Timeout = 300 * time.Millisecond
	err := b.try(chromedp.WaitVisible(chromedp.CSS("#no-such-element")))
	if err == nil || !strings.Contains(err.Error(), "timed out after 300ms") {
		t.Fatalf("wait for a missing element: err = %v, want a timeout", err)
	}
	report := b.pageReport()
	for _, want := range []string{`title: "decisions (harness)"`, "rm -rf /", srv.URL} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}

// livePage serves a page with a table of decisions, a verdict filter and an
// event stream that adds rows.
type livePage struct {
	*httptest.Server
	mu   sync.Mutex
	subs []chan string
}

// startLivePage serves the page on 127.0.0.1 until the test ends.
func startLivePage(t *testing.T) *livePage {
	t.Helper()
	p := &livePage{}
	quit := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, livePageHTML)
	})
	mux.HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) {
		ch := p.subscribe()
		defer p.unsubscribe(ch)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for {
			select {
			case data := <-ch:
				fmt.Fprintf(w, "event: decision\ndata: %s\n\n", data)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			case <-quit:
				return
			}
		}
	})
	p.Server = httptest.NewServer(mux)
	t.Cleanup(func() {
		close(quit)
		p.Close()
	})
	return p
}

func (p *livePage) subscribe() chan string {
	p.mu.Lock()
	defer p.mu.Unlock()
	ch := make(chan string, 16)
	p.subs = append(p.subs, ch)
	return ch
}

func (p *livePage) unsubscribe(ch chan string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.subs = slices.DeleteFunc(p.subs, func(c chan string) bool { return c == ch })
}

// push sends one decision (JSON) to every open event stream.
func (p *livePage) push(data string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ch := range p.subs {
		ch <- data
	}
}

func allPrefixed(rows []string, prefix string) bool {
	for _, r := range rows {
		if !strings.HasPrefix(r, prefix) {
			return false
		}
	}
	return true
}

const livePageHTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>decisions (harness)</title><link rel="icon" href="data:,">
<style>body{font:14px sans-serif;margin:2em} td{padding:.2em 1em;border-bottom:1px solid #ccc}</style>
</head><body>
<h1>Decisions</h1>
<label>verdict <select id="verdict"><option value="">all</option><option>allow</option><option>deny</option></select></label>
<button id="all">show all</button>
<table id="decisions"><thead><tr><th>verdict</th><th>command</th></tr></thead><tbody></tbody></table>
<script>
window.loadMark = String(Math.random());
const filter = document.getElementById("verdict");
const body = document.querySelector("#decisions tbody");
function apply() {
  for (const tr of body.rows) tr.hidden = filter.value !== "" && tr.dataset.verdict !== filter.value;
}
function add(d) {
  const tr = body.insertRow();
  tr.dataset.verdict = d.verdict;
  tr.insertCell().textContent = d.verdict;
  tr.insertCell().textContent = d.command;
  apply();
}
[{verdict: "allow", command: "ls -la"}, {verdict: "deny", command: "rm -rf /"},
 {verdict: "allow", command: "go test ./..."}].forEach(add);
filter.addEventListener("change", apply);
document.getElementById("all").addEventListener("click", () => { filter.value = ""; apply(); });
const events = new EventSource("/events");
events.onopen = () => { window.live = true; };
events.addEventListener("decision", e => add(JSON.parse(e.data)));
</script>
</body></html>
`
