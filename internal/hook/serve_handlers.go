package hook

import (
	"sync"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/governance"
)

// servedHandlers is the handler list of a server's settings s, built on
// first use and kept, where a hook process builds it once for its one
// event and a server would for each: the handlers' options are read from
// s, which the server builds again when the configuration changes
// (servedRoots), so they stay what the configuration says. The one thing
// a list reads once from elsewhere is the project's intents file (the
// governance handler's governance.LoadIntents); the list is built again
// when that file's stamp (config.FileStamp) changes, so an intent the
// user or an agent tool declares counts from the next event, as in hooks.
func servedHandlers(s *Settings) func() []engine.Handler {
	var (
		mu    sync.Mutex
		hs    []engine.Handler
		stamp string
	)
	path := governance.IntentsPath(s.root)
	return func() []engine.Handler {
		now := config.FileStamp(path)
		mu.Lock()
		defer mu.Unlock()
		if hs == nil || now != stamp {
			// engine.New sorts a copy: the kept list is only read.
			hs, stamp = handlers(s, engine.AnyKind), now
		}
		return hs
	}
}
