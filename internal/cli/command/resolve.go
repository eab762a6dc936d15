package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// Ids are taken as gh and git take hashes: the whole id, or any prefix of
// it that only one id has, such as the short ids the lists show
// (view.ShortID). One resolver for every command that takes an id, so that
// they all answer alike.

// SessionShortLen is view.ShortLen of the sessions of the project at root, for
// a table on a terminal; piped, ids are whole and nothing is read.
func SessionShortLen(io *IO, root string) int {
	if !IsTTY(io) {
		return state.ShortIDLen
	}
	ids, _ := SessionIDs(context.Background(), root) // none read: the usual length
	return state.ShortLen(ids)
}

// IDCell is an id as a table shows it: its first n characters on a
// terminal (view.ShortID), where every command that takes it takes that start
// too; whole when piped, so a script gets what it can match exactly.
func IDCell(io *IO, id string, n int) string {
	if IsTTY(io) {
		return state.ShortID(id, n)
	}
	return id
}

// NumberCell is a number (a todo's, a task's) as a table shows it: "#3"
// on a terminal, "3" when piped, as gh prints issue numbers.
func NumberCell(io *IO, n int) string {
	if IsTTY(io) {
		return "#" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// ErrNoMatch is ResolveID's error for a prefix that no id has.
var ErrNoMatch = errors.New("no match")

// maxListed bounds the matches an ambiguous prefix's error names.
const maxListed = 10

// ResolveID is the one id of ids that is prefix, or that starts with it.
// No id: an error wrapping ErrNoMatch; several: a usage error (exit 2)
// listing them, so the user can pick.
func ResolveID(kind, prefix string, ids []string) (string, error) {
	if slices.Contains(ids, prefix) {
		return prefix, nil
	}
	var matches []string
	for _, id := range ids {
		if strings.HasPrefix(id, prefix) {
			matches = append(matches, id)
		}
	}
	switch len(matches) {
	case 0:
		return "", fmt.Errorf("no %s %q: %w", kind, prefix, ErrNoMatch)
	case 1:
		return matches[0], nil
	}
	slices.Sort(matches)
	listed := matches[:min(len(matches), maxListed)]
	more := ""
	if n := len(matches) - len(listed); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return "", Usagef("%s %q is ambiguous: it starts %s%s; give more of the id",
		kind, prefix, strings.Join(listed, ", "), more)
}

// HasState reports whether the project at root has atreides's state
// directory: a read-only command in a repository without one has nothing
// to show, and must not create it by opening the store.
func HasState(root string) bool {
	_, err := os.Stat(project.StateDir(root))
	return err == nil
}

// SessionRef is a recorded session as lists and completion name it.
type SessionRef struct {
	ID, Host string
	Updated  time.Time // zero for a record that does not decode
}

// Sessions are the sessions recorded in the project at root, damaged
// records included (their ids are still ids); none, without opening
// anything, in a project without state.
func Sessions(ctx context.Context, root string) ([]SessionRef, error) {
	if !HasState(root) {
		return nil, nil
	}
	var refs []SessionRef
	err := fleet.Open(root).View(ctx, func(tx *store.Tx) error {
		damaged, err := state.Sessions(tx, func(s *state.Session) error {
			refs = append(refs, SessionRef{ID: s.ID, Host: s.Host, Updated: s.Updated})
			return nil
		})
		for _, d := range damaged {
			refs = append(refs, SessionRef{ID: d.Key})
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read the sessions of %s: %w", root, err)
	}
	return refs, nil
}

// SessionIDs are the ids of Sessions.
func SessionIDs(ctx context.Context, root string) ([]string, error) {
	refs, err := Sessions(ctx, root)
	ids := make([]string, len(refs))
	for i, r := range refs {
		ids[i] = r.ID
	}
	return ids, err
}

// ResolveSession is the id of the project's session that prefix names
// (ResolveID); "" stays "".
func ResolveSession(root, prefix string) (string, error) {
	if prefix == "" {
		return "", nil
	}
	ids, err := SessionIDs(context.Background(), root)
	if err != nil {
		return "", err
	}
	return ResolveID("session", prefix, ids)
}

// SessionOrPrefix is ResolveSession for a command that reads what
// outlives a session's record (its changes, its export's answer that
// there is none): a prefix no recorded session has comes back as it is.
func SessionOrPrefix(root, prefix string) (string, error) {
	id, err := ResolveSession(root, prefix)
	if errors.Is(err, ErrNoMatch) {
		return prefix, nil
	}
	return id, err
}
