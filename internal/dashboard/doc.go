// Package dashboard is `atreides ui`: an http.Handler serving one embedded
// page (web/, hand-written, no build step, nothing fetched from elsewhere)
// and the JSON endpoints under /api/ it reads, over one project or, for
// --all, every project a function lists.
//
// # Reading
//
// Every view is read through package view. A project's snapshot is
// shared: it is taken again only after the project's store changed, and
// at most once per [minTake] however many pages ask (they wait for the one
// read in flight and share it), so the store's lock is taken for one short
// copy per change, never per client. The audit trail and the ledger are
// append-only files read without a lock.
//
// # The trace view
//
// GET /api/sessions/{id}/trace is the session's spans as the read model
// builds them (view.Snapshot.Trace: the prompt as root, pre paired with
// post, subagents' calls under their delegation, background tasks), in a
// time range (?since=&until=). GET /api/explain judges one call again with
// the project's configuration of now, as `atreides check --explain` does,
// and names the configuration that would change the verdict: it reads
// the configuration, it never writes it. The page draws the histogram of
// decisions itself, as SVG: no chart library to vendor, no build step.
// A session's title (its first prompt's first words) is read once from
// the trail and kept until the session moves (titles).
//
// # Live updates
//
// GET /api/events is a server-sent event stream. Per project, one goroutine
// follows the audit trail (audit.Trail.Follow) and sends "audit" with the
// new record's session, time and verdict; another stats the store's files
// (state.db, the record files under .atreides/<set>/, the intents file and
// the ledger) every [pollEvery] and sends "state" when a size or
// modification time moved. Stat polling rather than inotify: it needs no
// dependency linked into the binary, works the same on every file system
// (network mounts and containers' overlay included, where inotify misses
// writes or is unavailable) and costs a few stat calls four times a
// second. Records are rewritten in place (package store), so the files,
// not the directories, are what is watched. The page then fetches only
// what the event concerns.
//
// # Safety
//
// The server binds a loopback address unless told otherwise with a token
// (package listen); with a token every request must carry it. The Host header is
// checked against the names of the bound address (DNS rebinding). The
// only changes it makes are releasing an intent lease and cancelling a
// background task, by POST with the page's per-server CSRF token and the
// confirmation code printed only on the stderr of the terminal that
// started it (Server.Confirmation: the page is readable by anything that
// reaches the port, the agent's curl included, so the CSRF token alone
// does not make an action the user's), through the same functions as
// `atreides intent release` and `atreides bg cancel` (governance.Release,
// background.Registry.Cancel).
package dashboard
