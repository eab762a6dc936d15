// Command servetime times `atreides serve --stdio` the way the OpenCode
// plugin drives it: a whole server process in a fresh temporary project
// (a directory with .git), spoken to in JSON lines over its stdin and
// stdout.
//
//	go run ./bench/servetime [-n 2000] [-gap 0] [-sessions 1,4,16] [-dir D] [-fresh] [-flood 10000] BINARY...
//
// First, for each count of -sessions, it sends -n tool.before requests
// (an allowed `ls -la`) one at a time, each written when the previous
// answer came, after -warmup untimed ones, and prints the p50, p90 and
// p99 of the time from writing a request to reading its answer, the
// server's CPU time (user and system, all its threads, its start-up
// included) divided by the requests it answered (on a machine others
// share, where the tail of the round trips is mostly theirs, that column
// still compares builds) and its peak resident memory. The
// requests go round-robin to that many sessions, so that with more than
// one a request finds the previous one's save (another session's) still
// going, as on a server several agents talk to at once; each session's
// saved state grows to its cap (a busy session). With -fresh each request
// opens a session of its own, so the state read per request stays small.
// The projects are made under -dir (default: the system's temporary
// directory); time the store on a disk there, not on a tmpfs, where a
// sync costs nothing. -gap
// pauses between requests, not timed: the tool runs between two hooks of
// a real session, and a server that saves its state behind its answer
// (atreides since issue 13) saves it during the pause; with -gap 0 every
// request also waits for the previous one's save. With several binaries
// the requests go round-robin to one server of each, so background noise
// hits them alike.
//
// Then, for each binary, it starts a fresh server and writes -flood
// requests without waiting for answers (the answers are read as they
// come), checks that every request got exactly one answer, a result or a
// busy error (-32004), and prints how many of each and the server's peak
// resident memory (its rusage after it exited).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	n := flag.Int("n", 2000, "tool.before requests sent one at a time, per binary")
	warmup := flag.Int("warmup", 50, "untimed requests first, per binary")
	gap := flag.Duration("gap", 0, "pause between two requests sent one at a time (not timed)")
	flood := flag.Int("flood", 10000, "requests written without waiting for answers (0: none)")
	flag.BoolVar(&fresh, "fresh", false, "send each request one at a time in a new session")
	sessions := flag.String("sessions", "1", "comma-separated counts of sessions the requests sent one at a time go round-robin to")
	flag.StringVar(&baseDir, "dir", "", "directory to make the projects in (default: the system's temporary directory)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: servetime [-n N] [-warmup N] [-gap D] [-flood N] BINARY...\n\nTimes tool.before round trips through 'BINARY serve --stdio' and its peak\nmemory under a flood of pipelined requests.\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	counts, err := parseCounts(*sessions)
	if err != nil {
		fmt.Fprintln(os.Stderr, "servetime: -sessions:", err)
		os.Exit(2)
	}
	if err := run(flag.Args(), counts, *n, *warmup, *gap, *flood); err != nil {
		fmt.Fprintln(os.Stderr, "servetime:", err)
		os.Exit(1)
	}
}

// parseCounts reads -sessions: positive counts separated by commas.
func parseCounts(s string) ([]int, error) {
	var counts []int
	for _, f := range strings.Split(s, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < 1 {
			return nil, fmt.Errorf("%q is not a positive count", f)
		}
		counts = append(counts, c)
	}
	return counts, nil
}

func run(bins []string, counts []int, n, warmup int, gap time.Duration, flood int) error {
	for _, c := range counts {
		if err := oneAtATime(bins, c, n, warmup, gap); err != nil {
			return err
		}
	}
	if flood == 0 {
		return nil
	}
	fmt.Printf("%-36s %8s %8s %10s %8s  (%d tool.before written without waiting)\n", "binary", "results", "busy", "peakRSS MB", "took s", flood)
	for _, bin := range bins {
		f, err := floodOne(bin, flood)
		if err != nil {
			return fmt.Errorf("%s: %w", bin, err)
		}
		fmt.Printf("%-36s %8d %8d %10.1f %8.2f\n", bin, f.results, f.busy, float64(f.rssKiB)/1024, f.took.Seconds())
	}
	return nil
}

// oneAtATime times n requests sent one at a time to a fresh server of
// each binary, round-robin over sessions sessions.
func oneAtATime(bins []string, sessions, n, warmup int, gap time.Duration) error {
	servers := make([]*server, len(bins))
	for i, bin := range bins {
		s, err := start(bin)
		if err != nil {
			return err
		}
		defer s.stop()
		servers[i] = s
	}
	lat := make([][]time.Duration, len(bins))
	for r := -warmup; r < n; r++ {
		for k := range servers {
			i := (k + max(r, 0)) % len(servers) // rotate the order
			d, err := servers[i].call(r+warmup, sessions)
			if err != nil {
				return fmt.Errorf("%s: %w", bins[i], err)
			}
			if r >= 0 {
				lat[i] = append(lat[i], d)
			}
			time.Sleep(gap)
		}
	}
	for _, s := range servers {
		if err := s.stop(); err != nil {
			return err
		}
	}
	fmt.Printf("%-36s %8s %8s %8s %8s %8s  (tool.before one at a time, %d session(s) round-robin, n=%d, gap %v)\n", "binary", "p50 ms", "p90 ms", "p99 ms", "cpu ms", "rss MB", sessions, n, gap)
	for i, bin := range bins {
		slices.Sort(lat[i])
		cpu := servers[i].cpu / time.Duration(n+warmup)
		fmt.Printf("%-36s %8.3f %8.3f %8.3f %8.3f %8.1f\n", bin, ms(pct(lat[i], 50)), ms(pct(lat[i], 90)), ms(pct(lat[i], 99)), ms(cpu), float64(servers[i].rssKiB)/1024)
	}
	return nil
}

// server is one `serve --stdio` process in a project of its own.
type server struct {
	cmd *exec.Cmd
	dir string
	in  io.WriteCloser
	out *bufio.Reader
	// cpu is the process's user and system time, and rssKiB its peak
	// resident memory, once it is stopped.
	cpu     time.Duration
	rssKiB  int64
	stopped bool
}

func start(bin string) (*server, error) {
	dir, err := os.MkdirTemp(baseDir, "servetime-")
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve", "--stdio")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &server{cmd: cmd, dir: dir, in: in, out: bufio.NewReaderSize(out, 1<<20)}, nil
}

var (
	// fresh is -fresh: requests sent one at a time each open a new session.
	fresh bool
	// baseDir is -dir: where the projects are made ("": the system's
	// temporary directory).
	baseDir string
)

// request is tool.before for an allowed command, as the plugin sends it.
func (s *server) request(id int, session string) []byte {
	return fmt.Appendf(nil, `{"v":1,"id":%d,"method":"tool.before","params":{"directory":%q,"input":{"tool":"bash","sessionID":%q,"callID":"call_%d"},"output":{"args":{"command":"ls -la","description":"list"}}}}`+"\n", id, s.dir, session, id)
}

type answer struct {
	ID    int `json:"id"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call sends one request, of the session id picks among sessions, and
// waits for its answer.
func (s *server) call(id, sessions int) (time.Duration, error) {
	session := "bench-session"
	if sessions > 1 {
		session = fmt.Sprint("bench-session-", id%sessions)
	}
	if fresh {
		session = fmt.Sprint("bench-session-", id)
	}
	req := s.request(id, session)
	start := time.Now()
	if _, err := s.in.Write(req); err != nil {
		return 0, err
	}
	line, err := s.out.ReadBytes('\n')
	took := time.Since(start)
	if err != nil {
		return 0, err
	}
	var a answer
	if err := json.Unmarshal(line, &a); err != nil {
		return 0, fmt.Errorf("answer %q: %w", line, err)
	}
	if a.ID != id || a.Error != nil {
		return 0, fmt.Errorf("request %d answered %s", id, line)
	}
	return took, nil
}

// stop ends the input, waits for the server, notes its CPU time and
// removes its project; once.
func (s *server) stop() error {
	if s.stopped {
		return nil
	}
	s.stopped = true
	s.in.Close()
	_, _ = io.Copy(io.Discard, s.out)
	err := s.cmd.Wait()
	if st := s.cmd.ProcessState; st != nil {
		s.cpu = st.UserTime() + st.SystemTime()
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			s.rssKiB = ru.Maxrss
		}
	}
	os.RemoveAll(s.dir)
	return err
}

type floodResult struct {
	results, busy int
	rssKiB        int64
	took          time.Duration
}

// floodOne writes n requests to a fresh server without waiting, reads
// every answer, and returns the counts and the server's peak memory.
func floodOne(bin string, n int) (floodResult, error) {
	s, err := start(bin)
	if err != nil {
		return floodResult{}, err
	}
	begin := time.Now()
	wrote := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(s.in, 64<<10)
		for id := range n {
			if _, err := w.Write(s.request(id, "bench-session")); err != nil {
				wrote <- err
				return
			}
		}
		if err := w.Flush(); err != nil {
			wrote <- err
			return
		}
		wrote <- s.in.Close()
	}()
	var f floodResult
	seen := make([]bool, n)
	var bad error
	for {
		line, err := s.out.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return f, err
		}
		var a answer
		switch {
		case json.Unmarshal(line, &a) != nil || a.ID < 0 || a.ID >= n || seen[a.ID]:
			bad = firstErr(bad, fmt.Errorf("unexpected answer %q", line))
		case a.Error == nil:
			f.results++
		case a.Error.Code == -32004:
			f.busy++
		default:
			bad = firstErr(bad, fmt.Errorf("request %d: error %d %s", a.ID, a.Error.Code, a.Error.Message))
		}
		if a.ID >= 0 && a.ID < n {
			seen[a.ID] = true
		}
	}
	if err := <-wrote; err != nil {
		return f, err
	}
	if err := s.cmd.Wait(); err != nil {
		return f, err
	}
	f.took = time.Since(begin)
	os.RemoveAll(s.dir)
	if ru, ok := s.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		f.rssKiB = ru.Maxrss
	}
	if bad != nil {
		return f, bad
	}
	if f.results+f.busy != n {
		return f, fmt.Errorf("%d answers to %d requests", f.results+f.busy, n)
	}
	return f, nil
}

// firstErr keeps the first error.
func firstErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[(len(sorted)-1)*p/100]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
