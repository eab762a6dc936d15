// Package serve is atreides's long-running mode for hosts whose plugins
// live in the host's own process (OpenCode, and Kilo Code with the same
// plugin): a JSON-lines protocol over a
// pair of streams, usually the stdin and stdout of `atreides serve
// --stdio` started by the plugin.
//
// # Protocol, version 1
//
// Every line the client writes is one request:
//
//	{"v":1,"id":7,"method":"tool.before","params":{...}}
//
// and every line the server writes is the response to one request, with
// the request's id:
//
//	{"id":7,"result":{...}}
//	{"id":7,"error":{"code":-32601,"message":"unknown method \"x\""}}
//
// "v" is the protocol version the client speaks; a server answers a
// version it does not speak with [CodeVersion]. "id" is a number chosen by
// the client (unique among its requests in flight). "hello" (params
// ignored) returns {"protocol":1,"version":"<atreides version>",
// "methods":[...]}; the other methods are the host's (see
// internal/host/opencode). Responses may come out of request order:
// requests of one session (the key the server is given) are answered one
// after another in the order they came, requests of different sessions
// run concurrently. Each request runs under a deadline; a request that
// outlives it is answered with [CodeDeadline] (the work is not undone),
// and keeps its worker and its place in its session's order until its
// handler really returns.
//
// A handler may answer before its work is done (the engine answers once
// the handlers decided and saves the state behind the answer, see
// [After]); the request keeps its place until the work is done.
//
// # Durability of the answers
//
// The server atreides runs (internal/hook's NewServer) writes each
// event's state under the store's lock like a hook process, but leaves
// the syncs of its record files to one committer (store.Committer) that
// syncs every file written since its last batch together, outside the
// lock: sessions share their syncs, and a session's next request reads
// the state its previous one wrote (the lock orders them; the bytes are
// in the page cache) without waiting for the sync. What an event changed
// falls in one of two classes, and the class says when it is answered:
//
//   - recoverable: a tool call allowed or let be, its result, a
//     subagent's start or stop, a compaction, a stop not blocked, a
//     notification. These change their session's history (tool and file
//     history, counters, context delivered and its budget, the agent's
//     todos). They are answered once the handlers decided, before the
//     state is even written; their sync comes when writes pause (20 ms)
//     or at the latest 500 ms after the first write not synced. A
//     machine crash (not a kill of the server: the page cache keeps what
//     was written) loses at most that much history. Should such an
//     event have written anything beyond its session's record (the
//     project's intents, leases, locks or scope grants, the task board),
//     that write is synced before the lock is let go, so that no other
//     event reads it before it is on disk; only the answer went ahead,
//     by one sync.
//   - not recoverable: a refusal (deny, ask or block: it counts a
//     strike, and the next event must find what the user or the gate
//     said), the user's events (a prompt, a permission answer), a
//     session's start or end, and any event of a kind not listed above.
//     These are answered only once their state is durable; a crash
//     before then loses a change nobody was told of.
//
// Every answer also waits for the writes of other sessions that are
// waited for at the time (store.Committer.Settled): no answer rests on
// a not-recoverable change a crash could still take back. A failed sync
// fails every later answer with an internal error until the server is
// restarted (the plugin blocks the tool call): the kernel may have
// dropped what it could not write, and no later sync would say so. The tools atreides gives
// the agent (intents and the rest) save through the store as before,
// durable before they answer.
//
// The server reads ahead with back-pressure: at most [Server.Queue]
// requests (and [Server.QueueBytes] of their lines) are read and not yet
// finished; a request read beyond that is answered at once with
// [CodeBusy] and not handled, so a client that writes without waiting
// costs bounded memory. A busy request had no effect: the client may
// send it again later; the OpenCode plugin treats it like any other
// error, so a tool call answered busy is blocked. "hello" and malformed
// lines are answered by the reader and take no room.
//
// A line that is not a request is answered with an error carrying the id
// when one can be read from it, else a null id; it never stops the
// server. The server returns when its input ends, after answering every
// request in flight, and after [Server.Done] (the committer's last
// sync). It keeps nothing open between requests but the descriptors of
// record files (those whose sync is pending, and those the committer
// keeps to read them again: store.Committer): the state store is opened
// per request by the handler. Streams that are pipes or sockets (a plugin's
// stdin and stdout) are read and written through Go's poller, in
// non-blocking mode while Serve runs (pollable_unix.go): a thread blocked
// in a read between two requests made each pay for its wake-up.
package serve
