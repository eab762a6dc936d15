package guard

import (
	"path"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// hostaccessRules are registerHostaccess's rules, static data: loading the
// batch allocates none of them.
var hostaccessRules = []*Rule{
	{ID: ruleContainersHostMount, Category: "containers", Verdict: Deny, Names: containerCLIs,
		When: whenContainersHostMount, Reason: "this mounts the host's root, /etc, a home directory, a credentials directory or another system tree into a container, which can then read and rewrite them as root; mount only the project directory"},
	{ID: ruleContainersPrivileged, Category: "containers", Verdict: Ask, Names: containerCLIs,
		When: whenContainersPrivileged, Reason: "this container gets host privileges (--privileged, host PID namespace, SYS_ADMIN, no seccomp, the Docker socket), which amounts to root on the host; ask the user"},
	{ID: ruleContainersHostMount, Category: "containers", Verdict: Deny, Names: []string{"nsenter"},
		When: whenContainersHostMount2, Reason: "nsenter into pid 1 enters the host's namespaces as root; ask the user"},
}

// Containers that reach the host: a container with the host's root, /etc or
// home mounted, or with --privileged / host namespaces / broad
// capabilities, is root on the host with none of the guard's checks
// inside it. `docker run -v "$PWD":/src img` (the project) and named
// volumes are the ordinary case and stay allowed.
func registerHostaccess() {
	register(hostaccessRules...)
}

// containerRun are the options of docker/podman run|create that take a
// separate value (so that it is not mistaken for the image).
var containerRunValued = &lazy[map[string]bool]{src: func() map[string]bool {
	return map[string]bool{
		"-a": true, "-c": true, "-e": true, "-h": true, "-l": true, "-m": true, "-p": true, "-u": true, "-v": true, "-w": true,
		"--add-host": true, "--annotation": true, "--attach": true, "--blkio-weight": true, "--cap-add": true, "--cap-drop": true,
		"--cgroup-parent": true, "--cgroupns": true, "--cidfile": true, "--cpu-period": true, "--cpu-quota": true, "--cpu-shares": true,
		"--cpus": true, "--cpuset-cpus": true, "--cpuset-mems": true, "--device": true, "--device-cgroup-rule": true, "--dns": true,
		"--dns-option": true, "--dns-search": true, "--domainname": true, "--entrypoint": true, "--env": true, "--env-file": true,
		"--expose": true, "--gpus": true, "--group-add": true, "--health-cmd": true, "--health-interval": true, "--health-retries": true,
		"--hostname": true, "--ip": true, "--ip6": true, "--ipc": true, "--isolation": true, "--label": true, "--label-file": true,
		"--link": true, "--log-driver": true, "--log-opt": true, "--mac-address": true, "--memory": true, "--memory-swap": true,
		"--mount": true, "--name": true, "--network": true, "--net": true, "--network-alias": true, "--pid": true, "--pids-limit": true,
		"--platform": true, "--publish": true, "--pull": true, "--restart": true, "--runtime": true, "--security-opt": true,
		"--shm-size": true, "--stop-signal": true, "--stop-timeout": true, "--storage-opt": true, "--sysctl": true, "--tmpfs": true,
		"--ulimit": true, "--user": true, "--userns": true, "--uts": true, "--volume": true, "--volume-driver": true,
		"--volumes-from": true, "--workdir": true, "--health-timeout": true, "--oom-score-adj": true, "--secret": true,
	}
}}

type runOpts struct {
	hostRoot string // a mounted host path that exposes the system or a home
	escape   string // a privilege option
}

// runOptions reads `docker|podman|nerdctl [global opts] [container] run|create
// OPTIONS IMAGE ...` up to the image.
func runOptions(c *Cmd) (runOpts, bool) {
	var o runOpts
	sub, ok := runSubcommand(c)
	if !ok {
		return o, false
	}
	// Start after the subcommand word.
	args := c.Args
	i := 0
	for i < len(args) && args[i].Text != sub {
		i++
	}
	i++
	var f runFlags
	for ; i < len(args); i++ {
		w := args[i]
		if w.Dyn || !strings.HasPrefix(w.Text, "-") {
			break // the image
		}
		var name, val string
		var hasVal bool
		name, val, hasVal, i = runOption(args, i)
		o.option(c, name, val, hasVal, &f)
	}
	if f.privileged && f.hostNet {
		o.escape = "--privileged --net=host"
	}
	return o, true
}

// runSubcommand returns run or create, the subcommand of a container
// CLI that starts a container (after "container" for `docker container
// run`); ok is false for any other.
func runSubcommand(c *Cmd) (string, bool) {
	p := c.Pos()
	if len(p) == 0 || p[0].Dyn {
		return "", false
	}
	sub := p[0].Text
	if sub == "container" && len(p) > 1 {
		sub = p[1].Text
	}
	return sub, oneOf(sub, "run|create")
}

// runOption reads the option at args[i] of a container run: its name and
// value, whether written together (-v/src:/dst, --net=host), in a cluster
// (-itv) or as the next argument; next is the index of the last argument
// it used.
func runOption(args []shell.Word, i int) (name, val string, hasVal bool, next int) {
	name, val, hasVal = strings.Cut(args[i].Text, "=")
	if !hasVal && !strings.HasPrefix(name, "--") && len(name) > 2 {
		// -v/src:/dst written together, or a cluster like -itv.
		last := name[len(name)-1:]
		if containerRunValued.get()["-"+last] && len(name) > 2 && strings.Trim(name[1:len(name)-1], "itdPq") == "" {
			name = "-" + last
		} else if containerRunValued.get()[name[:2]] {
			name, val, hasVal = name[:2], name[2:], true
		}
	}
	if !hasVal && containerRunValued.get()[name] && i+1 < len(args) {
		i++
		val = args[i].Text
		if args[i].Dyn {
			val = "\x00"
		}
	}
	return name, val, hasVal, i
}

// runFlags are the options of a container run that escape only together.
type runFlags struct{ privileged, hostNet bool }

// option judges one option of a container run.
func (o *runOpts) option(c *Cmd, name, val string, hasVal bool, f *runFlags) {
	switch name {
	case "--privileged":
		if !hasVal || val == "true" {
			f.privileged = true
			o.escape = "--privileged"
		}
	case "-v", "--volume":
		src, _, _ := strings.Cut(val, ":")
		o.mount(c, src)
	case "--mount":
		for _, kv := range strings.Split(val, ",") {
			k, v, _ := strings.Cut(kv, "=")
			if oneOf(k, "source|src") {
				o.mount(c, v)
			}
		}
	case "--pid", "--ipc", "--userns", "--uts", "--cgroupns":
		if val == "host" && oneOf(name, "--pid|--userns") {
			o.escape = name + "=host"
		}
	case "--net", "--network":
		f.hostNet = val == "host"
	case "--cap-add":
		if oneOf(strings.TrimPrefix(strings.ToUpper(val), "CAP_"), "ALL|SYS_ADMIN|SYS_MODULE|SYS_PTRACE|SYS_RAWIO|DAC_READ_SEARCH|SYS_BOOT") {
			o.escape = "--cap-add=" + val
		}
	case "--security-opt":
		if strings.Contains(val, "unconfined") || oneOf(val, "label=disable|label:disable") {
			o.escape = "--security-opt=" + val
		}
	case "--device":
		src, _, _ := strings.Cut(val, ":")
		if isBlockDevice(src) || oneOf(src, "/dev/mem|/dev/kmem") {
			o.escape = "--device=" + val
		}
	}
}

// mount judges one bind-mount source.
func (o *runOpts) mount(c *Cmd, src string) {
	if src == "" || strings.ContainsRune(src, 0) {
		return
	}
	if !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, "~") && !strings.HasPrefix(src, ".") && !strings.HasPrefix(src, "$") {
		return // a named volume
	}
	p, ok := c.a.files().canon(src, c.Scope)
	if !ok {
		return
	}
	p = path.Clean(p)
	if _, secret := c.a.files().secretPath(src, c.Scope); secret {
		o.hostRoot = src // ~/.ssh, ~/.aws, .env: the container reads them
		return
	}
	switch {
	case oneOf(path.Base(p), "docker.sock|podman.sock|containerd.sock"):
		o.escape = "-v " + src
	case p == "/" || oneOf(p, "/etc|/root|/boot|/proc|/sys|/dev|/var|/usr|/bin|/sbin|/lib|/home|/Users|/private|/System|/Library|/var/lib/docker") ||
		strings.HasPrefix(p, "/root/") || strings.HasPrefix(p, "/boot/") ||
		strings.HasPrefix(p, "/etc/") && (isCriticalFile(p) || c.a.req.isStartupFile(p) || under(p, "/etc/ssh") || under(p, "/etc/systemd") || under(p, "/etc/cron.d")):
		// Single files such as /etc/localtime or /etc/ssl/certs are the
		// usual read-only mounts and stay allowed.
		o.hostRoot = src
	default:
		t := c.a.files().classify(shell.Lit(src), c.Scope)
		if t.class == pcHome || t.class == pcRoot {
			o.hostRoot = src
		}
	}
}

// whenContainersHostMount is the condition of rule containers.host-mount.
func whenContainersHostMount(c *Cmd) bool {
	o, ok := runOptions(c)
	return ok && o.hostRoot != ""
}

// whenContainersPrivileged is the condition of rule containers.privileged.
func whenContainersPrivileged(c *Cmd) bool {
	o, ok := runOptions(c)
	return ok && o.escape != ""
}

// whenContainersHostMount2 is the condition of rule containers.host-mount.
func whenContainersHostMount2(c *Cmd) bool {
	for i, w := range c.Args {
		s := w.Text
		if oneOf(s, "-t|--target") {
			if i+1 < len(c.Args) && c.Args[i+1].Text == "1" {
				return true
			}
		}
		if oneOf(s, "-t1|--target=1") {
			return true
		}
	}
	return false
}
