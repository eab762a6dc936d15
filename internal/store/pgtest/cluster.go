package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Superuser is the name of the cluster's superuser, the user in the DSNs of
// [Cluster.DSN] and [Cluster.NewDatabase].
const Superuser = "postgres"

// readyTimeout bounds the wait for a starting server and for statements
// run on the tests' behalf; generous, for a loaded CI machine.
const readyTimeout = 60 * time.Second

// Cluster is one throwaway PostgreSQL server: a data directory in a temp
// dir and a postgres process listening on 127.0.0.1:Port, with its unix
// socket in the same temp dir.
type Cluster struct {
	bin   string // holds initdb and postgres
	dir   string // temp dir: data/, the socket, postgres.log
	port  int
	owner *syscall.Credential // whom initdb and postgres run as; nil: us

	mu  sync.Mutex
	srv *server // nil when stopped
}

// server is one run of the postmaster.
type server struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the postmaster has exited
}

// New starts a private cluster for one test and removes it when the test
// ends. It costs an initdb; use it only for tests that stop, kill or
// reconfigure the server, and [NewDatabase] on the shared cluster for the
// rest.
func New(t testing.TB) *Cluster {
	t.Helper()
	c, err := start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.remove(); err != nil {
			t.Error(err)
		}
	})
	return c
}

// start creates and starts a cluster on a free port.
func start() (*Cluster, error) {
	bin, err := findBin(debianBins)
	if err != nil {
		return nil, err
	}
	owner, err := serverOwner()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	c := &Cluster{bin: bin, dir: dir, owner: owner}
	if err := c.initdb(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	// The free port can be taken between our probe and postgres' bind; a
	// few tries make that race harmless.
	for try := 0; ; try++ {
		if c.port, err = freePort(); err == nil {
			err = c.Start()
		}
		if err == nil || try == 2 || !strings.Contains(err.Error(), "could not bind") {
			break
		}
	}
	if err == nil {
		err = c.exec("template1", "REVOKE CREATE ON SCHEMA public FROM PUBLIC")
	}
	if err != nil {
		c.remove()
		return nil, err
	}
	return c, nil
}

// serverOwner returns the user initdb and postgres run as when we are root,
// which both refuse to run as: the postgres user Debian's package creates.
func serverOwner() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("pgtest: running as root, and postgres refuses to run as root; "+
			"the user to run it as, postgres, is missing (scripts/install-postgres's package creates it): %w", err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}, nil
}

// initdb creates the data directory: UTF8, C locale, UTC, trust
// authentication (initdb's pg_hba.conf lists only the unix socket and
// loopback), no fsync of the new files.
func (c *Cluster) initdb() error {
	if c.owner != nil {
		if err := os.Chown(c.dir, int(c.owner.Uid), int(c.owner.Gid)); err != nil {
			return fmt.Errorf("pgtest: %w", err)
		}
	}
	cmd := c.command("initdb", "-D", c.data(), "-U", Superuser, "-E", "UTF8", "--locale=C",
		"--auth=trust", "--no-sync")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pgtest: initdb in %s: %w\n%s", c.dir, err, out)
	}
	return nil
}

// command runs one of the server binaries as the cluster's owner, in the
// temp dir (our working directory may be closed to that user), with an
// environment of its own: no PG* variable of ours leaks in, and TZ spares
// initdb its search for the system's time zone.
func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C", "TZ=UTC"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.owner}
	return cmd
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }
func (c *Cluster) log() string  { return filepath.Join(c.dir, "postgres.log") }

// Port is the TCP port the server listens on at 127.0.0.1; it stays the
// same across [Cluster.Stop] and [Cluster.Start].
func (c *Cluster) Port() int { return c.port }

// DSN is the superuser's connection string for database db.
func (c *Cluster) DSN(db string) string {
	return dsn(url.User(Superuser), c.port, db)
}

func dsn(user *url.Userinfo, port int, db string) string {
	u := url.URL{Scheme: "postgres", User: user, Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		Path: "/" + db, RawQuery: "sslmode=disable"}
	return u.String()
}

// Start starts the server on the cluster's port and data directory and
// waits until it accepts connections; after [Cluster.Kill] it runs crash
// recovery first.
func (c *Cluster) Start() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.srv != nil {
		return errors.New("pgtest: Start: the server is running")
	}
	logf, err := os.OpenFile(c.log(), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer logf.Close()
	// fsync and full-page writes guard against an operating-system crash
	// only; a killed server loses nothing without them. synchronous_commit
	// stays on: with it off, a commit acknowledged before its WAL left
	// shared memory would vanish in Kill.
	cmd := c.command("postgres", "-D", c.data(), "-p", strconv.Itoa(c.port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+c.dir,
		"-c", "fsync=off", "-c", "full_page_writes=off")
	cmd.Stdout, cmd.Stderr = logf, logf
	// Should the test binary die without cleaning up (a panic, a timeout,
	// a kill), the kernel sends the postmaster SIGQUIT, an immediate
	// shutdown that ends its backends too: no server outlives its tests.
	cmd.SysProcAttr.Pdeathsig = syscall.SIGQUIT
	srv, err := spawn(cmd)
	if err != nil {
		return fmt.Errorf("pgtest: starting postgres: %w", err)
	}
	if err := c.waitReady(srv); err != nil {
		srv.signal(syscall.SIGQUIT)
		<-srv.done
		return err
	}
	c.srv = srv
	return nil
}

// spawn starts cmd from a goroutine locked to its OS thread until the
// process exits: Linux sends the parent-death signal when the thread that
// forked the child ends, and the Go runtime may end idle threads.
func spawn(cmd *exec.Cmd) (*server, error) {
	s := &server{cmd: cmd, done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		defer close(s.done)
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		cmd.Wait()
	}()
	return s, <-started
}

func (s *server) signal(sig syscall.Signal) { s.cmd.Process.Signal(sig) }

// waitReady polls until the server accepts a connection, or fails with the
// end of its log when it exits first or does not come up in time.
func (c *Cluster) waitReady(srv *server) error {
	deadline := time.Now().Add(readyTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn, err := pgconn.Connect(ctx, c.DSN("postgres"))
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case <-srv.done:
			return fmt.Errorf("pgtest: postgres exited while starting: %s\n%s", srv.cmd.ProcessState, c.logTail())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgtest: postgres did not accept connections within %s: %w\n%s", readyTimeout, err, c.logTail())
		}
	}
}

// logTail is the end of the server's log, for error messages.
func (c *Cluster) logTail() string {
	b, _ := os.ReadFile(c.log())
	const max = 2000
	if len(b) > max {
		b = b[len(b)-max:]
	}
	return string(b)
}

// Stop shuts the server down cleanly (a fast shutdown: open transactions
// roll back, connections close, a checkpoint is written) and waits for it
// to exit. Stopping a stopped server does nothing.
func (c *Cluster) Stop() error { return c.halt(syscall.SIGINT) }

// Kill stops the server as a crash would: an immediate shutdown (SIGQUIT)
// that cuts every connection at once and writes no checkpoint, so the
// next [Cluster.Start] runs crash recovery. Committed transactions survive,
// as they do a kill -9. Killing a stopped server does nothing.
func (c *Cluster) Kill() error { return c.halt(syscall.SIGQUIT) }

func (c *Cluster) halt(sig syscall.Signal) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.srv == nil {
		return nil
	}
	c.srv.signal(sig)
	select {
	case <-c.srv.done:
	case <-time.After(readyTimeout):
		c.srv.signal(syscall.SIGKILL)
		<-c.srv.done
		return fmt.Errorf("pgtest: postgres did not stop within %s (%s); killed", readyTimeout, sig)
	}
	c.srv = nil
	return nil
}

// Running reports whether the server has been started and not stopped.
func (c *Cluster) Running() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.srv != nil
}

// remove stops the server and deletes the temp dir.
func (c *Cluster) remove() error {
	err := c.Stop()
	if rmErr := os.RemoveAll(c.dir); rmErr != nil && err == nil {
		err = fmt.Errorf("pgtest: %w", rmErr)
	}
	return err
}

// freePort asks the kernel for a port free on 127.0.0.1 now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// exec runs sql as the superuser in database db.
func (c *Cluster) exec(db, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	conn, err := pgconn.Connect(ctx, c.DSN(db))
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, sql).ReadAll(); err != nil {
		return fmt.Errorf("pgtest: %s: %w", sql, err)
	}
	return nil
}
