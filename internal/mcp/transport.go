package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/atreides-dev/atreides/internal/jsonl"
)

// Limits on one inbound message line. A real client's messages are a few
// KiB and nest a handful of levels (a tool call's arguments inside params
// inside the message); these are far above that and far below what would
// cost the server.
const (
	MaxLine  = 4 << 20
	MaxDepth = 64
)

// LineTransport is MCP's stdio transport (one JSON-RPC message per line)
// with the reading done here: the SDK's own ends the session on the first
// line it cannot decode (not JSON, a batch after protocol 2025-06-18, a
// nesting its decoder refuses, a line over its cap), so one bad line from
// the client would stop every tool. Here such a line is answered with a
// JSON-RPC error (id null unless one can be read from it) and the next
// line is served; only lines that decode as one message reach the SDK.
// Blank lines are not messages and are skipped.
type LineTransport struct {
	In  io.Reader
	Out io.Writer
}

// Connect implements mcp.Transport.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{out: t.Out, lines: make(chan inLine), closed: make(chan struct{}),
		pending: map[string]bool{}, answered: make(chan struct{}, 1)}
	go c.readLoop(t.In)
	return c, nil
}

// inLine is one line read, or the error that ended the input.
type inLine struct {
	text    []byte
	tooLong bool
	err     error
}

// lineConn is one connection over LineTransport's streams.
type lineConn struct {
	writeMu sync.Mutex
	out     io.Writer

	lines     chan inLine
	closeOnce sync.Once
	closed    chan struct{}

	// pending are the ids of the calls read and not yet answered; answered
	// is signalled when one is. When the input ends, Read waits for them
	// (see [drainMax]) before it reports the end, which closes the
	// connection: a reply written after that would be dropped.
	pendMu   sync.Mutex
	pending  map[string]bool
	answered chan struct{}
}

// drainMax bounds how long the server, its input closed, still answers
// the calls it was running: as long as the longest a tool waits
// (background_output's and a synchronous delegate_task's wait, 600 s by
// default); a client that went away entirely makes the writes fail
// sooner.
const drainMax = 10 * time.Minute

// readLoop reads lines until the input ends. It runs on its own so that
// Close can unblock a Read waiting for input (a read of stdin cannot be
// interrupted); it leaks only while that read blocks.
func (c *lineConn) readLoop(in io.Reader) {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		text, tooLong, err := jsonl.ReadLine(br, MaxLine)
		if tooLong || len(bytes.TrimSpace(text)) > 0 {
			if !c.deliver(inLine{text: text, tooLong: tooLong}) {
				return
			}
		}
		if err != nil {
			c.deliver(inLine{err: err})
			return
		}
	}
}

func (c *lineConn) deliver(l inLine) bool {
	select {
	case c.lines <- l:
		return true
	case <-c.closed:
		return false
	}
}

// Read returns the next message, answering every line that is not one.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var l inLine
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l = <-c.lines:
		}
		if l.err != nil {
			c.drain(ctx)
			return nil, l.err
		}
		msg, refusal := decodeLine(l.text, l.tooLong)
		if refusal == nil {
			c.track(msg)
			return msg, nil
		}
		if err := c.writeLine(refusal); err != nil {
			return nil, err
		}
	}
}

// drain waits until every call read has been answered, the connection
// is closed, ctx is done or drainMax has passed.
func (c *lineConn) drain(ctx context.Context) {
	timer := time.NewTimer(drainMax)
	defer timer.Stop()
	for {
		c.pendMu.Lock()
		n := len(c.pending)
		c.pendMu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-c.closed:
			return
		case <-ctx.Done():
			return
		case <-timer.C:
			return
		}
	}
}

// track records a call read; a cancelled call gets no reply (MCP's
// notifications/cancelled), so it is pending no more.
func (c *lineConn) track(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return
	}
	c.pendMu.Lock()
	defer c.pendMu.Unlock()
	if req.ID.IsValid() {
		c.pending[idKey(req.ID)] = true
		return
	}
	if req.Method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(req.Params, &p) == nil {
		if id, err := jsonrpc.MakeID(p.RequestID); err == nil && id.IsValid() {
			delete(c.pending, idKey(id))
		}
	}
}

// answer records the reply to a call.
func (c *lineConn) answer(msg jsonrpc.Message) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || !resp.ID.IsValid() {
		return
	}
	c.pendMu.Lock()
	delete(c.pending, idKey(resp.ID))
	c.pendMu.Unlock()
	select {
	case c.answered <- struct{}{}:
	default:
	}
}

// idKey tells ids apart by type as well as value (1 and "1" are two).
func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

// wireError is a JSON-RPC error response written by the transport itself:
// the SDK's encoder omits a null id, which an error about an unreadable
// request must carry.
type wireError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   jsonrpc.Error   `json:"error"`
}

// decodeLine is the message on one line, or the error response to answer
// it with (marshalled). The checks run cheapest first, and every line the
// SDK's decoder would refuse is refused here, so it never ends the session.
func decodeLine(line []byte, tooLong bool) (jsonrpc.Message, []byte) {
	refuse := func(id json.RawMessage, code int64, format string, args ...any) []byte {
		b, _ := json.Marshal(wireError{JSONRPC: "2.0", ID: id, Error: jsonrpc.Error{Code: code, Message: fmt.Sprintf(format, args...)}})
		return b
	}
	null := json.RawMessage("null")
	line = bytes.TrimSpace(line)
	switch {
	case tooLong:
		return nil, refuse(null, jsonrpc.CodeInvalidRequest, "message longer than %d bytes", MaxLine)
	case jsonl.Deeper(line, MaxDepth):
		return nil, refuse(null, jsonrpc.CodeInvalidRequest, "message nested deeper than %d levels", MaxDepth)
	case !json.Valid(line):
		return nil, refuse(null, jsonrpc.CodeParseError, "parse error: the line is not JSON")
	case line[0] == '[':
		return nil, refuse(null, jsonrpc.CodeInvalidRequest, "batches are not supported: send one message per line")
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, refuse(readID(line), jsonrpc.CodeInvalidRequest, "invalid request: %v", err)
	}
	return msg, nil
}

// readID is the id of a JSON object that is not a valid message, when it
// has one a client could have sent (a string or a number), else null.
func readID(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return json.RawMessage("null")
	}
	var v any
	if json.Unmarshal(m.ID, &v) != nil {
		return json.RawMessage("null")
	}
	switch v.(type) {
	case string, float64:
		return m.ID
	}
	return json.RawMessage("null")
}

// Write writes one message as one line.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	err = c.writeLine(b)
	c.answer(msg)
	return err
}

func (c *lineConn) writeLine(b []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	_, err := c.out.Write(append(b, '\n'))
	return err
}

// Close ends the connection; a Read waiting for input returns io.EOF.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection: stdio has no session id.
func (c *lineConn) SessionID() string { return "" }
