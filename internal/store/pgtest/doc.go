// Package pgtest starts the throwaway PostgreSQL servers the tests of the
// PostgreSQL store run against. It is test support: only _test.go files
// import it, and no binary links it.
//
// A test binary shares one cluster, started by the first test that asks
// for it and removed at exit by [Main], which the package's TestMain calls:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
//	func TestX(t *testing.T) {
//		dsn := pgtest.NewDatabase(t) // a fresh database, dropped when t ends
//		app := pgtest.NewRole(t, dsn) // a least-privileged role's DSN for it
//		...
//	}
//
// Each [NewDatabase] is a database of its own, so tests, parallel ones too,
// never see each other's rows. A test that stops or kills the server (the
// store's "database killed in the middle of a run") takes a private
// cluster from [New] and calls [Cluster.Kill] or [Cluster.Stop], then
// [Cluster.Start]: same port, same data directory, same DSNs.
//
// A cluster is initdb in a temp dir (os.MkdirTemp, so TMPDIR) with UTF8,
// the C locale, UTC and trust authentication, which initdb's pg_hba.conf
// grants to the unix socket and loopback only; postgres listens on
// 127.0.0.1 on a port free when it starts, with its socket in the temp
// dir, fsync and full-page writes off (they only matter when the machine
// crashes) and synchronous commit on (so Kill loses no acknowledged
// commit). No system cluster or service is involved. The server binaries
// are found as scripts/install-postgres finds them: initdb on PATH, else
// `pg_config --bindir`, else the newest /usr/lib/postgresql/*/bin. When
// they are missing, the test fails and names scripts/install-postgres; it
// never skips. PostgreSQL 13 or later (DROP DATABASE ... WITH (FORCE)).
//
// As root, which initdb and postgres refuse to run as, both run as the
// postgres user (created by Debian's package) through the exec's
// credentials (setuid/setgid in the child, no runuser or sudo), and the temp
// dir is given to that user; TMPDIR must then be a directory it can
// traverse (/tmp is). The postmaster gets SIGQUIT, an immediate shutdown,
// when the test binary dies, so no server outlives its tests.
//
// Cost, measured on this project's two-core VM with PostgreSQL 15 (go test
// -v, five clusters, ten databases each): starting a cluster, initdb to
// the first connection, takes 0.7 to 1.2 s, once per test binary;
// [Cluster.NewDatabase] 25 ms on a quiet machine and 90 to 290 ms while
// other tests run; [Cluster.Kill] 20 to 40 ms and the [Cluster.Start]
// after it 50 to 400 ms, the crash recovery replaying about 8 MB of WAL
// for each database created since the last checkpoint. A fresh cluster
// takes 39 MB of disk, 90 MB with ten databases.
package pgtest
