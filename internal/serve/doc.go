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
// request in flight. It keeps nothing open between requests: the state
// store is opened per request by the handler.
package serve
