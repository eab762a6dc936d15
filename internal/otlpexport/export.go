package otlpexport

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/spans"
)

// Options configure one run of the exporter.
type Options struct {
	Root string // the project root
	// Endpoint overrides the configuration's and the environment's.
	Endpoint string
	// Follow keeps shipping as spans arrive, looking every Poll, until
	// ctx ends; without it the run ships what is there and returns.
	Follow bool
	Poll   time.Duration
	Getenv func(string) string
	Err    io.Writer // what the exporter has to say; never a header value
	// HTTP is the client; nil: one with a 30 s timeout.
	HTTP *http.Client
	// sleep replaces the backoff's wait in tests.
	sleep func(context.Context, time.Duration) error
}

// attemptsOnce bounds the tries of a request of a run without Follow;
// with it, the exporter retries until it is stopped.
const attemptsOnce = 5

// Run ships the project's span spool from its cursor.
func Run(ctx context.Context, o Options) error {
	c, cfg, err := o.client()
	if err != nil {
		return err
	}
	if !cfg.Otel.Enabled {
		fmt.Fprintln(o.Err, "atreides otel: otel.enabled is false in this project's configuration: hooks spool no spans")
	}
	stateDir := project.StateDir(o.Root)
	base, dir := confined.Split(stateDir, 1)
	e := &exporter{o: &o, c: c, spool: spans.Spool(stateDir, nil), base: base, dir: dir, project: filepath.Base(o.Root)}
	if e.cur, err = loadCursor(base, dir); err != nil {
		fmt.Fprintf(o.Err, "atreides otel: %v\n", err)
	}
	for {
		if err := e.shipAll(ctx); err != nil {
			if ctx.Err() != nil {
				return nil // stopped: the cursor holds what was accepted
			}
			return err
		}
		if !o.Follow || sleepCtx(ctx, o.Poll) != nil {
			return nil
		}
	}
}

// client builds the HTTP client from the options, the configuration and
// the environment.
func (o *Options) client() (*client, *config.Config, error) {
	cfg, err := config.LoadOrBuiltin(config.DefaultPaths(o.Root))
	if err != nil {
		fmt.Fprintf(o.Err, "atreides otel: configuration: %v (using the built-in one)\n", err)
	}
	ep := o.Endpoint
	if ep == "" {
		ep = cfg.Otel.Endpoint
	}
	if ep == "" {
		ep = o.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	}
	if ep == "" {
		return nil, nil, fmt.Errorf("no endpoint: set otel.endpoint, OTEL_EXPORTER_OTLP_ENDPOINT or --endpoint")
	}
	u, err := ParseEndpoint(ep)
	if err != nil {
		return nil, nil, err
	}
	headers, err := ParseHeaders(o.Getenv("OTEL_EXPORTER_OTLP_HEADERS"))
	if err != nil {
		return nil, nil, err
	}
	maps.Copy(headers, cfg.Otel.Headers)
	c := &client{http: o.HTTP, base: u, headers: headers, sleep: o.sleep}
	if c.http == nil {
		c.http = &http.Client{Timeout: 30 * time.Second}
	}
	if c.sleep == nil {
		c.sleep = sleepCtx
	}
	if !o.Follow {
		c.attempts = attemptsOnce
	}
	if o.Poll <= 0 {
		o.Poll = 500 * time.Millisecond
	}
	return c, cfg, nil
}

type exporter struct {
	o         *Options
	c         *client
	spool     *audit.Trail
	base, dir string
	project   string
	cur       *Cursor
}

// shipAll ships batches until the spool has no complete line left.
func (e *exporter) shipAll(ctx context.Context) error {
	for {
		more, err := e.ship(ctx)
		if err != nil || !more {
			return err
		}
	}
}

// ship reads, posts and commits one batch; more reports whether the
// cursor moved (there may be more to read).
func (e *exporter) ship(ctx context.Context) (more bool, err error) {
	b, err := read(e.spool, e.cur)
	if err != nil {
		return false, err
	}
	if b.lost {
		fmt.Fprintln(e.o.Err, "atreides otel: the spool rotated past the cursor; spans written meanwhile were dropped (raise otel.spool_mib or run the exporter with --follow)")
	}
	if b.head == e.cur.Head && b.off == e.cur.Off {
		return false, nil
	}
	next, err := e.cur.clone()
	if err != nil {
		return false, err
	}
	out, damaged := convert(b.lines, next)
	if damaged += b.damaged; damaged > 0 {
		fmt.Fprintf(e.o.Err, "atreides otel: skipped %d lines of the spool that are not spans\n", damaged)
	}
	if len(out) > 0 {
		if err := e.c.post(ctx, "v1/traces", tracesData(e.project, out)); err != nil {
			return false, err
		}
	}
	next.Head, next.Off = b.head, b.off
	if err := next.save(e.base, e.dir); err != nil {
		return false, err
	}
	e.cur = next
	if len(out) > 0 && next.Metrics.Count > 0 {
		// Cumulative totals: a failed post is made good by the next.
		if err := e.c.post(ctx, "v1/metrics", metricsData(e.project, &next.Metrics, time.Now().UnixNano())); err != nil && ctx.Err() == nil {
			fmt.Fprintf(e.o.Err, "atreides otel: metrics: %v\n", err)
		}
	}
	return true, nil
}

// clone is a deep copy, to change while a batch is in flight.
func (c *Cursor) clone() (*Cursor, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	n := &Cursor{}
	return n, json.Unmarshal(b, n)
}
