package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chromedp/chromedp"
)

// The browser harness: one headless Debian Chromium per test, driven over
// the DevTools protocol by chromedp (through a pipe, so the browser opens no
// debugging port). Its helpers fail the test themselves and, when they do,
// log what the page showed, so a red run in CI is diagnosable from its log
// and its screenshots alone. Call them from the test's goroutine only.

// chromiumBin is Debian's chromium, which scripts/install-chromium installs.
const chromiumBin = "/usr/bin/chromium"

const chromiumInstall = "run scripts/install-chromium, or as root: apt-get install -y --no-install-recommends chromium"

const (
	// browserWait bounds each wait of a helper: generous, since the tests
	// share two cores and run under -race in CI.
	browserWait = 15 * time.Second
	// browserStart bounds the start of the browser and its first tab.
	browserStart = 30 * time.Second
	// diagBytes is how much of the page's text a failure shows.
	diagBytes = 2048
)

// Browser is one headless Chromium with one tab.
type Browser struct {
	t       *testing.T
	tab     context.Context
	Timeout time.Duration // bounds each wait; browserWait unless a test changes it

	output  *tailBuffer // chromium's stdout and stderr
	mu      sync.Mutex
	console []string // the page's console errors and uncaught exceptions, the last few
	shots   int      // screenshots taken on failures
}

// requireChromium skips (or, under CI / ATREIDES_E2E_REQUIRE=1, fails) when
// Debian's chromium is not installed, as the host tests do for a host.
func requireChromium(t *testing.T) {
	t.Helper()
	fi, err := os.Stat(chromiumBin)
	if err == nil && fi.Mode()&0o111 != 0 {
		return
	}
	missing(t, fmt.Errorf("chromium not found at %s (%s)", chromiumBin, chromiumInstall))
}

// NewBrowser starts a headless Chromium with a fresh profile under
// t.TempDir() and opens a blank tab. Cleanup closes the browser, kills it
// if it does not close in time, and waits for it to exit.
func NewBrowser(t *testing.T) *Browser {
	t.Helper()
	requireChromium(t)
	b := &Browser{t: t, Timeout: browserWait, output: &tailBuffer{max: 64 << 10}}
	profile := t.TempDir()
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromiumBin),
		chromedp.UserDataDir(profile),
		chromedp.CombinedOutput(b.output),
		chromedp.WindowSize(1280, 900),
		// The machine's network is closed: without these flags Chromium
		// hangs on lookups (component updates, sync, QUIC probes).
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	)
	tab, tabCancel := chromedp.NewContext(allocCtx)
	b.tab = tab

	consoleDone := make(chan struct{})
	t.Cleanup(func() {
		// A graceful close lets Chromium stop its helper processes, which
		// could otherwise write into the profile while TempDir removes it.
		ctx, cancel := context.WithTimeout(tab, 10*time.Second)
		err := chromedp.Cancel(ctx)
		cancel()
		tabCancel()
		allocCancel() // kills what is left and waits for the process
		<-consoleDone
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Logf("closing chromium: %v", err)
		}
	})

	// The first action starts the browser, whose life is bound to the
	// context of that action, so it gets no deadline of its own: a watchdog
	// kills a browser that does not come up.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(tab) }()
	select {
	case err := <-started:
		if err != nil {
			close(consoleDone)
			t.Fatalf("starting %s: %v\noutput:\n%s", chromiumBin, err, chromiumNotes(b.output.String()))
		}
	case <-time.After(browserStart):
		allocCancel()
		<-started
		close(consoleDone)
		t.Fatalf("%s did not start within %v\noutput:\n%s", chromiumBin, browserStart, chromiumNotes(b.output.String()))
	}
	messages := chromedp.Console(tab)
	go func() {
		defer close(consoleDone)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.noteConsole(m.String())
			}
		}
	}()
	return b
}

// noteConsole keeps the last console errors for a failure's report.
func (b *Browser) noteConsole(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.console) == 20 {
		b.console = b.console[1:]
	}
	b.console = append(b.console, s)
}

// Open navigates the tab to url and waits for the page to load.
func (b *Browser) Open(url string) {
	b.t.Helper()
	b.do("open "+url, chromedp.Navigate(url))
}

// WaitVisible waits until an element matching the CSS selector is visible.
func (b *Browser) WaitVisible(sel string) {
	b.t.Helper()
	b.do("wait for "+sel+" to be visible", chromedp.WaitVisible(chromedp.CSS(sel)))
}

// Click waits until the element matching the CSS selector is visible and
// clicks its centre with the mouse.
func (b *Browser) Click(sel string) {
	b.t.Helper()
	b.do("click "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// SetValue sets the value of the input or select matching the CSS selector,
// as a user would: it fires input and change, so the page's listeners run.
// Setting a select to a value it has no option for fails.
func (b *Browser) SetValue(sel, value string) {
	b.t.Helper()
	b.WaitVisible(sel)
	var problem string
	b.Eval(fmt.Sprintf(`((el, v) => {
		if (!el) return "no element";
		if (el.tagName === "SELECT" && ![...el.options].some(o => o.value === v)) return "no option with value " + JSON.stringify(v);
		el.value = v;
		el.dispatchEvent(new Event("input", {bubbles: true}));
		el.dispatchEvent(new Event("change", {bubbles: true}));
		return "";
	})(document.querySelector(%s), %s)`, jsString(sel), jsString(value)), &problem)
	if problem != "" {
		b.failf("set %s to %q: %s", sel, value, problem)
	}
}

// Rows returns the visible text of every rendered element matching the CSS
// selector, in document order, trimmed. Elements that are not rendered
// (display:none, as a filter hides rows) are left out, as a user does not
// see them. The cells of a table row are separated by tabs.
func (b *Browser) Rows(sel string) []string {
	b.t.Helper()
	rows, err := b.rows(sel)
	if err != nil {
		b.failf("read rows %s: %v", sel, err)
	}
	return rows
}

func (b *Browser) rows(sel string) ([]string, error) {
	ctx, cancel := context.WithTimeout(b.tab, b.Timeout)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf(
		`[...document.querySelectorAll(%s)].filter(e => e.checkVisibility()).map(e => e.innerText.trim())`,
		jsString(sel))))
}

// WaitRows polls Rows(sel) until ok accepts them and returns them; what
// says what the test waits for, for the failure's message.
func (b *Browser) WaitRows(sel, what string, ok func(rows []string) bool) []string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.tab, b.Timeout)
	defer cancel()
	var last []string
	var lastErr error
	for {
		last, lastErr = b.rows(sel)
		if lastErr == nil && ok(last) {
			return last
		}
		select {
		case <-ctx.Done():
			b.failf("rows %s: waited %v for %s; last rows %q (err %v)", sel, b.Timeout, what, last, lastErr)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// WaitJS waits until the JavaScript expression is truthy, e.g. until the
// page's live connection is open.
func (b *Browser) WaitJS(expr string) {
	b.t.Helper()
	b.do("wait for "+expr, chromedp.Poll[chromedp.Void](expr,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(b.Timeout)))
}

// Eval evaluates the JavaScript expression and decodes its JSON value into
// out (nil to ignore it).
func (b *Browser) Eval(expr string, out any) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.tab, b.Timeout)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr))
	if err != nil {
		b.failf("eval %s: %v", expr, err)
	}
	if out == nil {
		return
	}
	if len(raw) == 0 {
		raw = []byte("null") // undefined
	}
	if err := json.Unmarshal(raw, out); err != nil {
		b.failf("eval %s: decode %s into %T: %v", expr, raw, out, err)
	}
}

// Screenshot saves a full-page PNG as name (".png" added) in the test's
// artefacts directory, logs its path and returns it.
func (b *Browser) Screenshot(name string) string {
	b.t.Helper()
	path, err := b.screenshot(name)
	if err != nil {
		b.failf("screenshot %s: %v", name, err)
	}
	b.t.Logf("screenshot: %s", path)
	return path
}

func (b *Browser) screenshot(name string) (string, error) {
	ctx, cancel := context.WithTimeout(b.tab, b.Timeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return "", err
	}
	dir, err := artifactsDir(b.t)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, strings.TrimSuffix(name, ".png")+".png")
	return path, os.WriteFile(path, png, 0o644)
}

// do runs one action under the wait timeout and fails the test if it errs.
func (b *Browser) do(what string, a chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := b.try(a); err != nil {
		b.failf("%s: %v", what, err)
	}
}

func (b *Browser) try(a chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(b.tab, b.Timeout)
	defer cancel()
	err := chromedp.Do(ctx, a)
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("timed out after %v", b.Timeout)
	}
	return err
}

// failf fails the test with the message and what the page showed, and
// saves a screenshot of it.
func (b *Browser) failf(format string, args ...any) {
	b.t.Helper()
	msg := fmt.Sprintf(format, args...)
	b.shots++
	if path, err := b.screenshot(fmt.Sprintf("failure-%d", b.shots)); err == nil {
		msg += "\nscreenshot: " + path
	}
	b.t.Fatalf("%s\n%s", msg, b.pageReport())
}

// pageReport says what the page showed: its address, title, the first
// diagBytes of its text, its console errors and the browser's output.
func (b *Browser) pageReport() string {
	ctx, cancel := context.WithTimeout(b.tab, 5*time.Second)
	defer cancel()
	type page struct {
		URL   string `json:"url"`
		Title string `json:"title"`
		Text  string `json:"text"`
	}
	var w strings.Builder
	p, err := chromedp.Run(ctx, chromedp.Evaluate[page](
		`({url: location.href, title: document.title, text: document.body ? document.body.innerText : "(no body)"})`))
	if err != nil {
		fmt.Fprintf(&w, "page: unreadable: %v\n", err)
	} else {
		fmt.Fprintf(&w, "page: %s\ntitle: %q\ntext (first %d bytes):\n%s\n", p.URL, p.Title, diagBytes, truncate(p.Text, diagBytes))
	}
	b.mu.Lock()
	if len(b.console) > 0 {
		fmt.Fprintf(&w, "console errors:\n  %s\n", strings.Join(b.console, "\n  "))
	}
	b.mu.Unlock()
	if out := chromiumNotes(b.output.String()); out != "" {
		fmt.Fprintf(&w, "chromium output (tail):\n%s", out)
	}
	return w.String()
}

// chromiumNotes is the end of Chromium's output without the noise it always
// prints in a container (no D-Bus; the launcher's memory check), at most
// diagBytes of it.
func chromiumNotes(out string) string {
	var keep []string
	for line := range strings.Lines(out) {
		if !strings.Contains(line, ":ERROR:dbus/") && !strings.Contains(line, "unexpected operator") {
			keep = append(keep, line)
		}
	}
	s := strings.Join(keep, "")
	if len(s) > diagBytes {
		s = "…" + s[len(s)-diagBytes:]
	}
	return s
}

// truncate cuts s to at most n bytes without splitting a character.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// jsString quotes s as a JavaScript string literal (JSON's is one).
func jsString(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

var (
	artifactsMu    sync.Mutex
	artifactsFresh = map[string]bool{}
)

// artifactsDir is the test's directory of artefacts:
// $ATREIDES_E2E_ARTIFACTS/<test name>/, else test/e2e/artifacts/<test
// name>/ (git-ignored). It is emptied on first use in a run, so it holds
// this run's files only.
func artifactsDir(t *testing.T) (string, error) {
	root := os.Getenv("ATREIDES_E2E_ARTIFACTS")
	if root == "" {
		root = filepath.Join(repoRoot, "test", "e2e", "artifacts")
	}
	dir := filepath.Join(root, strings.ReplaceAll(t.Name(), "/", "__"))
	artifactsMu.Lock()
	defer artifactsMu.Unlock()
	if !artifactsFresh[dir] {
		if err := os.RemoveAll(dir); err != nil {
			return "", err
		}
		artifactsFresh[dir] = true
	}
	return dir, os.MkdirAll(dir, 0o755)
}

// tailBuffer keeps the last max bytes written to it; Chromium writes to it
// from the allocator's goroutines.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (w *tailBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if over := len(w.b) - w.max; over > 0 {
		w.b = append(w.b[:0], w.b[over:]...)
	}
	return len(p), nil
}

func (w *tailBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.b)
}
