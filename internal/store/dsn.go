package store

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// RedactDSN is dsn as it may be printed: a URL without its password (and
// without query parameters that may carry one), key=value pairs without
// password=. A DSN that does not parse is named only by its scheme.
func RedactDSN(dsn string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "postgres://(unparsable DSN)"
		}
		if u.User != nil {
			u.User = url.User(u.User.Username())
		}
		u.RawQuery = ""
		u.Fragment = ""
		return u.String()
	}
	return kvPassword().ReplaceAllString(dsn, "${1}***")
}

// kvPassword finds the password of a key=value DSN, quoted or not. It is
// compiled on first use, through a zero sync.Once: a sync.OnceValue in a
// package variable would be built by init in every hook process.
func kvPassword() *regexp.Regexp {
	kvPasswordRE.once.Do(func() {
		kvPasswordRE.re = regexp.MustCompile(`(?i)(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)
	})
	return kvPasswordRE.re
}

var kvPasswordRE struct {
	once sync.Once
	re   *regexp.Regexp
}

// HidePassword is err with dsn's password, should a driver have quoted any
// of it, replaced.
func HidePassword(err error, dsn string) error {
	pw := dsnPassword(dsn)
	if pw == "" || !strings.Contains(err.Error(), pw) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), pw, "***"))
}

// dsnPassword is the password written in dsn, if any.
func dsnPassword(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		pw, _ := u.User.Password()
		return pw
	}
	if m := kvPassword().FindStringSubmatch(dsn); m != nil {
		return strings.Trim(m[2], "'")
	}
	return ""
}
