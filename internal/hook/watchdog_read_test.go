package hook

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadStdin: a payload is read whole however the host writes it (in
// small pieces, past the first buffer), and what arrived is what the
// watchdog sees; more than the limit is an error with the limit's bytes.
func TestReadStdin(t *testing.T) {
	payload := `{"hook_event_name":"PreToolUse","pad":"` + strings.Repeat("x", 20<<10) + `"}`
	for _, tc := range []struct {
		name string
		in   io.Reader
	}{
		{"whole", strings.NewReader(payload)},
		{"one byte a read", iotest.OneByteReader(strings.NewReader(payload))},
		{"half a buffer a read", iotest.HalfReader(strings.NewReader(payload))},
	} {
		r := &hookRun{proc: &Process{In: tc.in}}
		data, err := r.read(MaxPayload)
		if err != nil || string(data) != payload || !bytes.Equal(r.data, data) {
			t.Errorf("%s: read %d bytes (watchdog sees %d), %v; want %d", tc.name, len(data), len(r.data), err, len(payload))
		}
	}
	r := &hookRun{proc: &Process{In: strings.NewReader(payload)}}
	if data, err := r.read(100); err == nil || string(data) != payload[:100] {
		t.Errorf("over the limit: %d bytes, %v", len(data), err)
	}
}
