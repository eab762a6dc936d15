package hostpack

import "strings"

// launcher is bin/atreides: a POSIX sh script that runs
// bin/<os>-<arch>/atreides for the machine it runs on, with its arguments.
// One `uname -sm` is its only process start besides the exec (the hooks
// pay for it on every event); uname is run by its absolute path
// (/usr/bin/uname, else /bin/uname: Linux, macOS and Git Bash have one),
// never looked up in PATH, which the agent may be able to write. On a platform the package has no program
// for it says so on stderr and exits 1, which the hosts report; a hook
// that cannot run fails open.
func launcher(targets []target) string {
	have := make([]string, len(targets))
	for i, t := range targets {
		have[i] = t.dir()
	}
	return `#!/bin/sh
# atreides launcher: runs the atreides program built for this machine,
# bin/<os>-<arch>/atreides beside this script, with the same arguments.
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
# uname by its absolute path, never from PATH: a uname planted in a PATH
# directory the agent can write would make every hook fail.
uname=/usr/bin/uname
[ -x $uname ] || uname=/bin/uname
u=$($uname -sm 2>/dev/null)
os= arch= ext=
case $u in
Linux\ *) os=linux ;;
Darwin\ *) os=darwin ;;
MINGW*|MSYS*|CYGWIN*) os=windows ext=.exe ;;
esac
case $u in
*\ x86_64|*\ amd64) arch=amd64 ;;
*\ aarch64|*\ arm64) arch=arm64 ;;
esac
bin=$here/$os-$arch/atreides$ext
if [ -z "$os" ] || [ -z "$arch" ] || [ ! -f "$bin" ]; then
	echo "atreides: this package has no atreides program for this platform ($u); it has: ` + strings.Join(have, " ") + `" >&2
	exit 1
fi
exec "$bin" "$@"
`
}
