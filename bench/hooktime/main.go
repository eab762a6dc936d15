// Command hooktime times whole hook processes the way a host runs them: it
// starts the binary once per run with a payload on stdin and measures from
// start to reap the wall time and the CPU time (user plus system, from the
// kernel's accounting of the reaped child), and, in untimed traced runs
// after the timed ones, the process's own peak resident memory (see
// peakRSS). Cases are interleaved round-robin so background noise hits all
// of them alike. -guard is the regression guard of CI (see guard.go).
//
// With -vs it runs a second command side by side: every run of every
// payload starts A and B back to back (alternating which goes first), each
// in its own project directory, and prints both medians and the median of
// the pair-by-pair ratios A/B, which holds when the machine's speed drifts
// during the run. B is a binary answering 'hook HOST' like atreides (an
// older build), or a whole command line when the string has spaces (another
// guard's hook command). -vs floor builds and uses bench/floor, a program
// that only reads stdin: the least any hook process can cost.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

func main() {
	runs := flag.Int("n", 200, "runs per case")
	warmup := flag.Int("warmup", 30, "untimed runs per case first (they also fill the session's history)")
	dir := flag.String("dir", "", "working directory and project dir of the hook (default: a fresh temp dir per command)")
	hostName := flag.String("host", "claude", "host protocol to speak: "+strings.Join(hookHosts(), ", "))
	list := flag.Bool("list", false, "print the hook hosts, one a line, and exit")
	vs := flag.String("vs", "", "a second command to run side by side: a binary (run as 'BIN hook HOST'), a command line, or 'floor'")
	guardFile := flag.String("guard", "", "the regression guard: every hook host's payloads against -vs (default floor), checked against the values recorded in this file")
	update := flag.Bool("update", false, "with -guard: record this run's values in the file instead of checking them")
	payloadDir := flag.String("payloads", "bench/payloads", "with -guard: the directory of HOST/*.json")
	hostList := flag.String("hosts", "", "with -guard: the hosts, comma-separated (default: every hook host)")
	noRetry := flag.Bool("noretry", false, "with -guard: fail at once, without measuring an over-limit ratio a second time")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, `usage: hooktime [-n N] [-warmup N] [-dir DIR] [-host HOST] [-vs B] BINARY PAYLOAD.json...
       hooktime -guard FILE [-update] [-n N] [-warmup N] [-hosts H,...] BINARY

Runs 'BINARY hook HOST' with each payload on stdin and prints the median,
p90 and p99 wall time, the median CPU time and the peak RSS per payload.
__PROJ__ in a payload is replaced by the project dir. With -vs, runs B
alongside and prints the medians of both and of the ratios A/B. Each
binary is first copied into a fresh directory of its own, under one name,
so that only its bytes differ.

With -guard, runs every payload under -payloads of every hook host against
the floor and prints a table per host and payload: the CPU ratio to the
floor, package init, system calls and peak RSS; it exits 1 when a ratio is
more than 10%% above its value in FILE or a count above it (-update writes
FILE instead).
`)
		flag.PrintDefaults()
	}
	flag.Parse()
	if *list {
		fmt.Println(strings.Join(hookHosts(), "\n"))
		return
	}
	if *guardFile != "" {
		os.Exit(runGuard(*guardFile, *update, *payloadDir, *hostList, *vs, *runs, *warmup, !*noRetry))
	}
	if flag.NArg() < 2 {
		flag.Usage()
		os.Exit(2)
	}
	env, ok := hostEnv(*hostName)
	if !ok {
		fmt.Fprintf(os.Stderr, "hooktime: unknown host %q\n", *hostName)
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *vs, flag.Args()[1:], *runs, *warmup, *dir, *hostName, env); err != nil {
		fmt.Fprintln(os.Stderr, "hooktime:", err)
		os.Exit(1)
	}
}

func runGuard(file string, update bool, payloads, hosts, vs string, runs, warmup int, retry bool) int {
	if flag.NArg() != 1 {
		flag.Usage()
		return 2
	}
	if vs == "" {
		vs = "floor"
	}
	o := guardOpts{file: file, update: update, payloads: payloads, vs: vs, runs: runs, warm: warmup, out: os.Stdout, retryFailed: retry}
	if hosts != "" {
		o.hosts = strings.Split(hosts, ",")
	}
	if err := guard(flag.Arg(0), o); err != nil {
		fmt.Fprintln(os.Stderr, "hooktime:", err)
		return 1
	}
	return 0
}

// hookHosts are the registry's hosts that run 'atreides hook NAME'.
func hookHosts() []string {
	var out []string
	for _, h := range all.Via(host.Hook) {
		out = append(out, h.Name)
	}
	return out
}

// hostEnv is the environment a hook host gives its hook processes, as
// the conformance suite has it (hosttest.Expected), so a timed run sees
// what a real one does; the variables naming the project are set to the
// run's project dir (c.dir) when it starts. ok is false for a name that
// is no hook host's.
func hostEnv(name string) (env map[string]string, ok bool) {
	h, ok := all.ByName(name)
	if !ok || h.Via != host.Hook {
		return nil, false
	}
	return hosttest.Expected[name].Env, true
}

// command is one side of a comparison: what to start and where.
type command struct {
	label  string // how the report names it
	argv   []string
	dir    string
	home   string   // HOME of its runs: an empty directory of its own
	inputs [][]byte // the payloads, __PROJ__ replaced by dir
}

type sample struct{ wall, cpu time.Duration }

func run(bin, vs string, payloads []string, runs, warmup int, dir, hostName string, env map[string]string) error {
	tmp, err := os.MkdirTemp("", "hooktime-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	raw, err := readPayloads(payloads)
	if err != nil {
		return err
	}
	cmds, err := sides(bin, vs, dir, hostName, tmp, raw)
	if err != nil {
		return err
	}
	samples, err := measure(cmds, payloads, runs, warmup, env)
	if err != nil {
		return err
	}
	rss, err := rssAll(cmds, payloads, env)
	if err != nil {
		return err
	}
	if len(cmds) == 1 {
		report(payloads, samples[0], rss[0], hostName, runs)
	} else {
		reportVs(payloads, samples[0], samples[1], rss, hostName, runs, cmds[1].label)
	}
	return nil
}

func readPayloads(payloads []string) ([][]byte, error) {
	raw := make([][]byte, len(payloads))
	for i, p := range payloads {
		var err error
		if raw[i], err = os.ReadFile(p); err != nil {
			return nil, err
		}
	}
	return raw, nil
}

// sides are the commands to run: A (bin), and B when vs is set, staged
// under tmp.
func sides(bin, vs, dir, hostName, tmp string, raw [][]byte) ([]*command, error) {
	bin, err := stage(bin, filepath.Join(tmp, "bin-a"))
	if err != nil {
		return nil, err
	}
	a, err := newCommand([]string{bin, "hook", hostName}, dir, filepath.Join(tmp, "a"), raw)
	if err != nil {
		return nil, err
	}
	a.label = "A"
	if vs == "" {
		return []*command{a}, nil
	}
	argv, err := vsArgv(vs, hostName, tmp)
	if err != nil {
		return nil, err
	}
	if vs != "floor" && !strings.ContainsAny(vs, " \t") {
		if argv[0], err = stage(argv[0], filepath.Join(tmp, "bin-b")); err != nil {
			return nil, err
		}
	}
	b, err := newCommand(argv, "", filepath.Join(tmp, "b"), raw)
	if err != nil {
		return nil, err
	}
	b.label = vs
	if vs == "floor" {
		b.label = "bench/floor (reads stdin, exits)"
	}
	return []*command{a, b}, nil
}

// measure times every payload on every side, interleaved: samples[c][i]
// are command c's samples of payload i.
func measure(cmds []*command, payloads []string, runs, warmup int, env map[string]string) ([][][]sample, error) {
	samples := make([][][]sample, len(cmds))
	for c := range cmds {
		samples[c] = make([][]sample, len(payloads))
	}
	for r := -warmup; r < runs; r++ {
		for k := range payloads {
			i := (k + max(r, 0)) % len(payloads) // rotate the order
			for j := range cmds {
				c := (j + max(r, 0)) % len(cmds) // and who goes first
				s, err := once(cmds[c], i, env)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", payloads[i], err)
				}
				if r >= 0 {
					samples[c][i] = append(samples[c][i], s)
				}
			}
		}
	}
	return samples, nil
}

// rssAll is every side's own peak RSS per payload (rss[c][i]); zero
// where it is not measured (see trueRSS).
func rssAll(cmds []*command, payloads []string, env map[string]string) ([][]memory, error) {
	rss := make([][]memory, len(cmds))
	for c, cmd := range cmds {
		rss[c] = make([]memory, len(payloads))
		if !trueRSS {
			continue
		}
		for i := range payloads {
			var err error
			if rss[c][i], err = probeRSS(cmd, i, env); err != nil {
				return nil, fmt.Errorf("%s: %w", payloads[i], err)
			}
		}
	}
	return rss, nil
}

// stage copies a binary under test into dir, under one name for both
// sides. Where a binary lies and how its file was written change how
// fast it starts: the same bytes written by the linker and by a copy,
// or kept in two directories, timed 3-15% apart here. Copied afresh
// side by side, two builds differ only by their bytes.
func stage(bin, dir string) (string, error) {
	src, err := os.Open(bin)
	if err != nil {
		return "", err
	}
	defer src.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	out := filepath.Join(dir, "atreides")
	dst, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return "", fmt.Errorf("copy %s: %w", bin, err)
	}
	return out, dst.Close()
}

// newCommand prepares one side. A side with no dir of its own gets a fresh
// one, with a git repository so the hook finds its project there; every
// side gets an empty home beside it.
func newCommand(argv []string, dir, fresh string, raw [][]byte) (*command, error) {
	if dir == "" {
		dir = fresh
		if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
			return nil, err
		}
	}
	home := fresh + ".home"
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	c := &command{argv: argv, dir: dir, home: home}
	for _, b := range raw {
		c.inputs = append(c.inputs, bytes.ReplaceAll(b, []byte("__PROJ__"), []byte(dir)))
	}
	return c, nil
}

// vsArgv is the command line of -vs: the floor program, a binary that
// speaks 'hook HOST', or a whole command line.
func vsArgv(vs, hostName, tmp string) ([]string, error) {
	switch {
	case vs == "floor":
		out := filepath.Join(tmp, "floor")
		build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./bench/floor")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("build bench/floor (run hooktime from the repository root): %v: %s", err, msg)
		}
		return []string{out}, nil
	case strings.ContainsAny(vs, " \t"):
		return strings.Fields(vs), nil
	}
	return []string{vs, "hook", hostName}, nil
}

// runPath is the PATH of every run.
const runPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// environ is the environment of c's runs: the same on every machine (a
// PATH of the system's directories, an empty HOME), and the host's. What
// a hook does depends on it (the guard checks atreides's own files under
// HOME and in the directories of PATH: each directory more is system
// calls more), so a run must measure the hook, not the shell that started
// the benchmark; CI's shell has a longer PATH than a developer's.
func (c *command) environ(env map[string]string) []string {
	out := []string{"PATH=" + runPath, "HOME=" + c.home}
	for k, v := range env {
		if v == hosttest.ProjectDir {
			v = c.dir
		}
		out = append(out, k+"="+v)
	}
	return out
}

func once(c *command, payload int, env map[string]string) (sample, error) {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Dir = c.dir
	cmd.Env = c.environ(env)
	cmd.Stdin = bytes.NewReader(c.inputs[payload])
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil && !refused(err) {
		return sample{}, fmt.Errorf("%s: %v: %s", strings.Join(c.argv, " "), err, out.String())
	}
	ps := cmd.ProcessState
	return sample{wall: wall, cpu: ps.UserTime() + ps.SystemTime()}, nil
}

func report(payloads []string, samples [][]sample, rss []memory, hostName string, runs int) {
	fmt.Printf("%-22s %8s %8s %8s %8s %10s  (hook %s, n=%d)\n", "payload", "p50 ms", "p90 ms", "p99 ms", "cpu ms", "peak MB", hostName, runs)
	for i, p := range payloads {
		walls := field(samples[i], func(s sample) time.Duration { return s.wall })
		fmt.Printf("%-22s %8.2f %8.2f %8.2f %8.2f %10s\n", name(p),
			ms(pct(walls, 50)), ms(pct(walls, 90)), ms(pct(walls, 99)),
			ms(median(field(samples[i], func(s sample) time.Duration { return s.cpu }))), mb(rss[i].peak))
	}
}

func reportVs(payloads []string, a, b [][]sample, rss [][]memory, hostName string, runs int, bName string) {
	fmt.Printf("A: this binary; B: %s (hook %s, n=%d pairs)\n", bName, hostName, runs)
	fmt.Printf("%-22s %9s %9s %9s %9s %8s %8s %7s %7s\n", "payload", "A wall ms", "B wall ms", "A cpu ms", "B cpu ms", "wall A/B", "cpu A/B", "A MB", "B MB")
	for i, p := range payloads {
		wallA := field(a[i], func(s sample) time.Duration { return s.wall })
		wallB := field(b[i], func(s sample) time.Duration { return s.wall })
		cpuA := field(a[i], func(s sample) time.Duration { return s.cpu })
		cpuB := field(b[i], func(s sample) time.Duration { return s.cpu })
		fmt.Printf("%-22s %9.2f %9.2f %9.2f %9.2f %8.3f %8.3f %7s %7s\n", name(p),
			ms(median(wallA)), ms(median(wallB)), ms(median(cpuA)), ms(median(cpuB)),
			ratio(wallA, wallB), ratio(cpuA, cpuB), mb(rss[0][i].peak), mb(rss[1][i].peak))
	}
}

// ratio is the median of the pair-by-pair ratios a[k]/b[k]: run k of A
// and of B ran back to back, so a drift in the machine's speed cancels.
func ratio(a, b []time.Duration) float64 {
	var rs []float64
	for k := range min(len(a), len(b)) {
		if b[k] > 0 {
			rs = append(rs, float64(a[k])/float64(b[k]))
		}
	}
	if len(rs) == 0 {
		return 0
	}
	slices.Sort(rs)
	return rs[len(rs)/2]
}

// field extracts one measure of each sample, in run order.
func field(ss []sample, f func(sample) time.Duration) []time.Duration {
	out := make([]time.Duration, len(ss))
	for i, s := range ss {
		out[i] = f(s)
	}
	return out
}

// mb prints a peak RSS in KiB as MB; "-" where it is not measured.
func mb(kib int64) string {
	if kib == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(kib)/1024)
}

func median(d []time.Duration) time.Duration { return pct(sorted(d), 50) }

func sorted(d []time.Duration) []time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	return d
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	d = sorted(d)
	return d[(len(d)-1)*p/100]
}

func name(p string) string { return strings.TrimSuffix(filepath.Base(p), ".json") }

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
