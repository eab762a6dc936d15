package otlpexport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
)

// Backoff between attempts: doubling from first to most.
const (
	backoffFirst = 500 * time.Millisecond
	backoffMost  = 30 * time.Second
)

// client posts OTLP/HTTP requests to one endpoint. It is not
// otlptracehttp's Client (tried at v1.47.0 with the ResourceSpans built
// here): its error for a 429 or 5xx drops the status (a run that gives up
// could not say "503"), it does not retry a refused connection (a
// collector restarting under --follow would end the run), its retries are
// bounded by elapsed time with a 5 s first wait rather than by attempts,
// and given an HTTP client of ours (WithHTTPClient) it ignores the
// environment's TLS settings; atreides-otel also grew from 15.2 to
// 23.4 MB and from 251 to 408 linked packages.
type client struct {
	http    *http.Client
	base    *url.URL
	headers map[string]string // secrets: never in a message
	// attempts bounds the tries of one request; 0 tries until ctx ends.
	attempts int
	// sleep waits between attempts (tests make it instant).
	sleep func(context.Context, time.Duration) error
}

// ParseEndpoint checks an OTLP/HTTP base URL: http or https, a host, no
// query. The signal's path (/v1/traces) is appended to its path.
func ParseEndpoint(s string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("endpoint is not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("endpoint %s: want http(s)://host[:port][/path]", u.Redacted())
	}
	return u, nil
}

// ParseHeaders reads OTEL_EXPORTER_OTLP_HEADERS: name=value pairs
// separated by commas, values URL-encoded. Errors name no value.
func ParseHeaders(s string) (map[string]string, error) {
	h := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_HEADERS: an entry is not name=value")
		}
		dv, err := url.QueryUnescape(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_HEADERS: the value of %s is not URL-encoded", k)
		}
		h[k] = dv
	}
	return h, nil
}

// retryable is a failure worth another attempt.
type retryable struct {
	err   error
	after time.Duration // the server's Retry-After, if any
}

func (r *retryable) Error() string { return r.err.Error() }
func (r *retryable) Unwrap() error { return r.err }

// post sends msg to the signal's path ("v1/traces"), retrying connection
// errors, 429 and 5xx with backoff until attempts run out or ctx ends.
func (c *client) post(ctx context.Context, path string, msg proto.Message) error {
	body, err := proto.Marshal(msg)
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	wait := backoffFirst
	for try := 1; ; try++ {
		err := c.once(ctx, path, body)
		var r *retryable
		if err == nil || !errors.As(err, &r) || ctx.Err() != nil || c.attempts > 0 && try >= c.attempts {
			return err
		}
		d := wait
		if r.after > 0 {
			d = min(r.after, backoffMost)
		}
		if err := c.sleep(ctx, d); err != nil {
			return r.err
		}
		wait = min(2*wait, backoffMost)
	}
}

// once is one attempt.
func (c *client) once(ctx context.Context, path string, body []byte) error {
	u := c.base.JoinPath(path)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("post %s: %w", u.Redacted(), err)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		// The error names the URL, which may hold credentials.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return &retryable{err: fmt.Errorf("post %s: %w", u.Redacted(), err)}
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 == 2 {
		return nil
	}
	err = fmt.Errorf("post %s: %s", u.Redacted(), resp.Status)
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode/100 == 5 {
		r := &retryable{err: err}
		if s, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && s > 0 {
			r.after = time.Duration(s) * time.Second
		}
		return r
	}
	return err
}

// sleepCtx waits d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
