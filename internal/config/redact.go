package config

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/store"
)

// masked stands for a secret's value in what Show prints.
const masked = "****"

// redacted is the tree v (at key) with its secrets' values masked: the
// store's password and the exporter's header values. Show prints it: the
// agent may run 'atreides config show' (it changes nothing), and a
// terminal's scrollback is no place for a token either. The values in
// force are unchanged.
func redacted(v *value, key string) *value {
	switch v.kind {
	case kindMapping:
		c := *v
		c.fields = make(map[string]*value, len(v.fields))
		for k, f := range v.fields {
			c.fields[k] = redacted(f, joinKey(key, k))
		}
		return &c
	case kindList:
		c := *v
		c.items = make([]*value, len(v.items))
		for i, it := range v.items {
			c.items[i] = redacted(it, joinIndex(key, i))
		}
		return &c
	}
	s, ok := v.scalar.(string)
	if !ok || s == "" {
		return v
	}
	c := *v
	switch {
	case key == "store.dsn":
		// The store's own redaction, which every other printer of the
		// DSN uses: it also hides a password given as a query
		// parameter or as a quoted or spaced key=value pair.
		c.scalar = store.RedactDSN(s)
	case strings.HasPrefix(key, "otel.headers."):
		c.scalar = masked
	default:
		return v
	}
	return &c
}
