// Package listen decides where the dashboard (atreides ui) may listen and
// binds it there: loopback by default, another address only when asked
// for with a token. It is apart from package dashboard so that the
// atreides binary can refuse an address before starting the dashboard's
// program without linking net/http into every hook.
package listen

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// DefaultAddr is where `atreides ui` serves unless --addr says otherwise.
const DefaultAddr = "127.0.0.1:7433"

// MinToken is the shortest token accepted for serving other machines: a
// token is all that stands between the network and the project's trail.
const MinToken = 16

// Loopback reports whether addr (host:port) can only be reached from this
// machine: a loopback IP, or the name localhost. An empty host is every
// interface; any other name could resolve anywhere.
func Loopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("address %q: %w", addr, err)
	}
	if strings.EqualFold(host, "localhost") {
		return true, nil
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback(), nil
}

// Check refuses a non-loopback address unless allowRemote is set and a
// token of at least MinToken characters is given.
func Check(addr string, allowRemote bool, token string) error {
	local, err := Loopback(addr)
	switch {
	case err != nil:
		return err
	case local:
		return nil
	case !allowRemote:
		return fmt.Errorf("refusing to serve on %s: not a loopback address, so other machines could read the project; pass --allow-remote with a token (--token or ATREIDES_UI_TOKEN), or use --addr 127.0.0.1:PORT", addr)
	case len(token) < MinToken:
		return fmt.Errorf("refusing to serve on %s without a token of at least %d characters (--token or ATREIDES_UI_TOKEN)", addr, MinToken)
	}
	return nil
}

// Listen binds addr for the dashboard, after [Check]; a port in use is an
// error that says so and names --addr.
func Listen(addr string, allowRemote bool, token string) (net.Listener, error) {
	if err := Check(addr, allowRemote, token); err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		_, port, _ := net.SplitHostPort(addr)
		return nil, fmt.Errorf("port %s is in use (another atreides ui?): choose another with --addr 127.0.0.1:PORT", port)
	}
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return l, nil
}
