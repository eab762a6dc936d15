package dashboard

import (
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/view"
)

// titles remembers each session's title (its first prompt's first words)
// with the session's last activity when it was looked for: a title found
// never changes, and a session without one is looked for again only
// after it had new events, so the sessions list, read again on every
// hook event, reads the trail only for sessions that moved.
type titles struct {
	mu   sync.Mutex
	seen map[titleKey]titleEntry
}

type titleKey struct{ root, session string }

type titleEntry struct {
	title   string
	updated time.Time
}

// fill sets the title of each row of the project at root.
func (c *titles) fill(root string, rows []view.ProjectSession, logf func(string, ...any)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = map[titleKey]titleEntry{}
	}
	var missing []int // rows whose session is looked for in the trail
	var ids []string
	for i := range rows {
		e, ok := c.seen[titleKey{root, rows[i].ID}]
		if ok && (e.title != "" || e.updated.Equal(rows[i].Updated)) {
			rows[i].Title = e.title
			continue
		}
		missing, ids = append(missing, i), append(ids, rows[i].ID)
	}
	if len(missing) == 0 {
		return
	}
	found, err := view.FirstPrompts(trail(root), ids)
	if err != nil {
		logf("ui: session titles: %v", err) // the list shows ids alone
		return
	}
	for _, i := range missing {
		rows[i].Title = view.Title(found[rows[i].ID])
		c.seen[titleKey{root, rows[i].ID}] = titleEntry{title: rows[i].Title, updated: rows[i].Updated}
	}
}
