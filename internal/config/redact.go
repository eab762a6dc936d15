package config

import (
	"net/url"
	"strings"
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
		c.scalar = maskDSN(s)
	case strings.HasPrefix(key, "otel.headers."):
		c.scalar = masked
	default:
		return v
	}
	return &c
}

// maskDSN is a connection string with its password masked, in either of
// PostgreSQL's forms: a URL (postgres://user:secret@host/db) or key=value
// pairs (host=h password=secret).
func maskDSN(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.Scheme != "" && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), masked)
			return u.String()
		}
		return dsn
	}
	fields := strings.Fields(dsn)
	for i, f := range fields {
		if k, _, ok := strings.Cut(f, "="); ok && strings.EqualFold(k, "password") {
			fields[i] = k + "=" + masked
		}
	}
	return strings.Join(fields, " ")
}
