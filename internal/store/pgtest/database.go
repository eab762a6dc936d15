package pgtest

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// seq numbers the databases and roles of this process, so names never
// repeat within a cluster.
var seq atomic.Int64

// NewDatabase creates an empty database for t, dropped when t ends, and
// returns the superuser's DSN for it. Each call gives a new database, so
// tests never see each other's rows.
func (c *Cluster) NewDatabase(t testing.TB) string {
	t.Helper()
	name := uniqueName("t", t.Name())
	if err := c.exec("postgres", "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// A test that left the server stopped has nothing to drop here;
		// its private cluster goes as a whole.
		if !c.Running() {
			return
		}
		if err := c.exec("postgres", "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Error(err)
		}
	})
	return c.DSN(name)
}

// NewRole creates a least-privileged login role for the database of dsn (a
// DSN from [Cluster.NewDatabase]) and returns the role's DSN for it. The
// role is no superuser and cannot create databases or roles; in the
// database it has what PUBLIC has: CONNECT and TEMP, and USAGE but not
// CREATE on schema public (revoked in every cluster, as PostgreSQL 15 does
// by default). Grant it more with the superuser's dsn. The role, and
// anything it owns or was granted in that database, is dropped when t
// ends.
func (c *Cluster) NewRole(t testing.TB, dsn string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("pgtest: NewRole: %v", err)
	}
	db := strings.TrimPrefix(u.Path, "/")
	name := uniqueName("r", t.Name())
	secret := make([]byte, 12)
	rand.Read(secret)
	password := hex.EncodeToString(secret)
	// With trust authentication the password is not checked; it is set so
	// that the DSN keeps working against a server that checks it.
	if err := c.exec(db, fmt.Sprintf("CREATE ROLE %s LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE "+
		"NOREPLICATION NOBYPASSRLS PASSWORD '%s'", name, password)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if !c.Running() {
			return
		}
		if err := c.exec(db, "DROP OWNED BY "+name+"; DROP ROLE "+name); err != nil {
			t.Error(err)
		}
	})
	u.User = url.UserPassword(name, password)
	return u.String()
}

// uniqueName is prefix, a number unique in this process and as much of
// the test's name as fits in PostgreSQL's 63 bytes, in lower-case letters,
// digits and underscores: a name that needs no quoting and says whose it
// is.
func uniqueName(prefix, test string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "pgtest_%s%d_", prefix, seq.Add(1))
	for _, r := range strings.ToLower(test) {
		if b.Len() == 63 {
			break
		}
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			r = '_'
		}
		b.WriteRune(r)
	}
	return b.String()
}
