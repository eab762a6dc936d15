package pgtest

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// shared is the cluster of this test binary, started by the first test
// that asks for it and removed by [Main].
var shared struct {
	main bool // Main is running the tests
	once sync.Once
	c    *Cluster
	err  error
}

// Main runs the tests of a package that uses the shared cluster and then
// stops the cluster and removes its files. Call it from TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
func Main(m *testing.M) {
	shared.main = true
	code := m.Run()
	if shared.c != nil {
		if err := shared.c.remove(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
	}
	os.Exit(code)
}

// Shared returns the test binary's shared cluster, starting it on first
// use. Tests must not stop or kill it (other tests use it at the same
// time): a test that does gets its own from [New].
func Shared(t testing.TB) *Cluster {
	t.Helper()
	if !shared.main {
		t.Fatal("pgtest: the shared cluster needs TestMain to call pgtest.Main(m), which removes it at exit")
	}
	shared.once.Do(func() { shared.c, shared.err = start() })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.c
}

// NewDatabase is [Cluster.NewDatabase] on the shared cluster.
func NewDatabase(t testing.TB) string {
	t.Helper()
	return Shared(t).NewDatabase(t)
}

// NewRole is [Cluster.NewRole] on the shared cluster.
func NewRole(t testing.TB, dsn string) string {
	t.Helper()
	return Shared(t).NewRole(t, dsn)
}
