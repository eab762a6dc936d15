package listen

import (
	"strings"
	"testing"
)

func TestListenRefusesRemote(t *testing.T) {
	const token = "0123456789abcdef-token"
	for _, tt := range []struct {
		addr   string
		remote bool
		token  string
	}{
		{"0.0.0.0:0", false, ""},
		{"0.0.0.0:0", true, ""},
		{"0.0.0.0:0", false, token},
		{"0.0.0.0:0", true, "short"},
		{"192.168.1.20:0", false, token},
		{"192.168.1.20:0", true, ""},
		{":0", false, ""},
		{"[::]:0", false, ""},
		{"example.com:0", false, ""},
	} {
		if l, err := Listen(tt.addr, tt.remote, tt.token); err == nil {
			l.Close()
			t.Errorf("Listen(%s, remote %v, token %q) was not refused", tt.addr, tt.remote, tt.token)
		} else if !strings.Contains(err.Error(), "refusing") {
			t.Errorf("Listen(%s): %v", tt.addr, err)
		}
	}
	l, err := Listen("127.0.0.1:0", false, "")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := Listen(l.Addr().String(), false, ""); err == nil || !strings.Contains(err.Error(), "in use") || !strings.Contains(err.Error(), "--addr") {
		t.Errorf("a port in use: %v", err)
	}
}
