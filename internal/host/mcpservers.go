package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
)

// MCPSource is one file in which a host's MCP servers are configured:
// the file (Path; "" when its base, the project or the home, is
// unknown), the key of the table of servers by name, and the format
// (JSON with comments, or TOML).
type MCPSource struct {
	Path func(env Env) string
	Key  string
	TOML bool
}

// maxMCPFile bounds a configuration file read for its servers.
const maxMCPFile = 4 << 20

// MCPServers are the names of the MCP servers the host's configuration
// declares in all its files, sorted, each once. known is false when
// atreides does not know where the host keeps them (no MCPSource). A
// missing file declares none; a file that cannot be read or parsed is an
// error naming it, with the servers of the others.
func (h *Host) MCPServers(env Env) (names []string, known bool, err error) {
	if len(h.MCPConfig) == 0 {
		return nil, false, nil
	}
	var errs []error
	for _, src := range h.MCPConfig {
		p := src.Path(env)
		if p == "" {
			continue
		}
		n, err := serversIn(p, src)
		if err != nil {
			errs = append(errs, err)
		}
		names = append(names, n...)
	}
	slices.Sort(names)
	return slices.Compact(names), true, errors.Join(errs...)
}

// serversIn are the keys of src.Key in the file p. The open does not
// wait and only a regular file is read: the project's file is the
// agent's to make, and a FIFO in its place would hold delegate_task
// until the host gives up on it.
func serversIn(p string, src MCPSource) ([]string, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxMCPFile+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", p, err)
	case len(data) > maxMCPFile:
		return nil, fmt.Errorf("%s is over %d MB: not read", p, maxMCPFile>>20)
	}
	var doc map[string]any
	if src.TOML {
		err = toml.Unmarshal(data, &doc)
	} else if data, err = hujson.Standardize(data); err == nil {
		err = json.Unmarshal(data, &doc)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	servers, _ := doc[src.Key].(map[string]any)
	var out []string
	for name := range servers {
		out = append(out, name)
	}
	return out, nil
}

// Under is the path of elem below base, "" when base is unknown: for an
// MCPSource's Path.
func Under(base string, elem ...string) string {
	if base == "" {
		return ""
	}
	return filepath.Join(append([]string{base}, elem...)...)
}
