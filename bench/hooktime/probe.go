package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Probes are untimed runs that count what a timed run cannot: package
// init (GODEBUG=inittrace=1), system calls (strace), the process's own
// peak RSS (traced, see peakRSS). Each changes how long the process takes,
// so none of them is ever a timed run.

// cmd is the command of one run of payload i, its stdin a file (a traced
// run is reaped by peakRSS, so no goroutine of os/exec may wait on a pipe)
// and its output discarded.
func (c *command) cmd(i int, env map[string]string, extra ...string) (*exec.Cmd, func(), error) {
	f, err := os.CreateTemp("", "hooktime-in-")
	if err != nil {
		return nil, nil, err
	}
	done := func() { f.Close(); os.Remove(f.Name()) }
	if _, err := f.Write(c.inputs[i]); err != nil {
		done()
		return nil, nil, err
	}
	if _, err := f.Seek(0, 0); err != nil {
		done()
		return nil, nil, err
	}
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Dir = c.dir
	cmd.Env = append(c.environ(env), extra...)
	cmd.Stdin = f
	return cmd, done, nil
}

// rssRuns traced runs give the peak; it varies by a page or two.
const rssRuns = 3

// memory is a process's peak resident set (VmHWM) and the anonymous part
// of its resident set as it exits (RssAnon: heap, stacks, data written),
// in KiB. The rest is pages of the executable mapped from the page cache,
// shared with every other process running it, which the kernel maps
// around each page touched (fault-around), so a larger binary counts more
// of them.
type memory struct{ peak, anon int64 }

// probeRSS is the run with the largest own peak RSS of rssRuns runs of
// payload i.
func probeRSS(c *command, i int, env map[string]string) (memory, error) {
	var most memory
	for range rssRuns {
		cmd, done, err := c.cmd(i, env)
		if err != nil {
			return memory{}, err
		}
		m, err := peakRSS(cmd)
		done()
		if err != nil {
			return memory{}, fmt.Errorf("%s: %w", strings.Join(c.argv, " "), err)
		}
		if m.peak > most.peak {
			most = m
		}
	}
	return most, nil
}

// initStats are the package inits of one run: the lines of
// GODEBUG=inittrace=1 (one per package with init work) and their clock
// time, in ms.
type initStats struct {
	lines int
	ms    float64
}

// probeInit runs payload i once with GODEBUG=inittrace=1.
func probeInit(c *command, i int, env map[string]string) (initStats, error) {
	cmd, done, err := c.cmd(i, env, "GODEBUG=inittrace=1")
	if err != nil {
		return initStats{}, err
	}
	defer done()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil && !refused(err) {
		return initStats{}, fmt.Errorf("%s: %v: %s", strings.Join(c.argv, " "), err, stderr.Bytes())
	}
	return parseInitTrace(stderr.Bytes()), nil
}

// parseInitTrace reads the runtime's lines
// "init PKG @T ms, C ms clock, B bytes, A allocs".
func parseInitTrace(b []byte) initStats {
	var s initStats
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[6] != "clock," {
			continue
		}
		ms, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			continue
		}
		s.lines++
		s.ms += ms
	}
	return s
}

// schedCalls are the system calls the Go runtime makes to schedule and
// preempt its threads and to start new ones: how many depends on timing
// (sysmon sleeps in nanosleep every 20 µs at first; preemption signals;
// futex waits; whether a goroutine's wake-up finds an idle thread or
// starts one, with its clone, stack mmap, sigaltstack and signal mask),
// not on what the program does, and strace's slowing of the process
// inflates them. The rest are the program's own, the same run after run
// within a call or two, and those are what the guard holds to a budget;
// threads started are shown apart (clone).
var schedCalls = []string{"nanosleep", "futex", "sched_yield", "tgkill", "getpid", "gettid", "rt_sigreturn",
	"clone", "clone3", "mmap", "munmap", "madvise", "sigaltstack", "rt_sigprocmask", "set_robust_list", "rseq"}

// syscallStats are one run's system calls: all of them, the program's
// own (all but schedCalls), and the threads it started.
type syscallStats struct{ all, own, threads int }

// probeSyscalls runs payload i under strace -f -c.
func probeSyscalls(c *command, i int, env map[string]string, tmp string) (syscallStats, error) {
	out := filepath.Join(tmp, "strace.txt")
	cmd, done, err := c.cmd(i, env)
	if err != nil {
		return syscallStats{}, err
	}
	defer done()
	cmd.Args = append([]string{"strace", "-f", "-c", "-o", out, "--"}, cmd.Args...)
	if cmd.Path, err = exec.LookPath("strace"); err != nil {
		return syscallStats{}, fmt.Errorf("counting system calls needs strace: %w", err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil && !refused(err) {
		return syscallStats{}, fmt.Errorf("strace %s: %v: %s", strings.Join(c.argv, " "), err, stderr.Bytes())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return syscallStats{}, err
	}
	return parseStrace(b)
}

// parseStrace reads strace -c's table: "% time, seconds, usecs/call,
// calls, [errors,] syscall" rows, then a "total" row.
func parseStrace(b []byte) (syscallStats, error) {
	var s syscallStats
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 || strings.HasPrefix(f[0], "-") || f[0] == "%" {
			continue
		}
		n, err := strconv.Atoi(f[3])
		if err != nil {
			continue
		}
		name := f[len(f)-1]
		if name == "total" {
			continue
		}
		s.all += n
		if name == "clone" || name == "clone3" {
			s.threads += n
		}
		if !slices.Contains(schedCalls, name) {
			s.own += n
		}
	}
	if s.all == 0 {
		return s, fmt.Errorf("no system calls in strace's table:\n%s", b)
	}
	return s, nil
}

// refused is true of an exit with code 2, a hook's refusal by exit code.
func refused(err error) bool {
	ee, ok := err.(*exec.ExitError)
	return ok && ee.ExitCode() == 2
}
