package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Version is the protocol version this server speaks.
const Version = 1

// Error codes, after JSON-RPC 2.0 where one fits.
const (
	CodeParse    = -32700 // the line is not JSON
	CodeInvalid  = -32600 // JSON, but not a request
	CodeMethod   = -32601 // unknown method
	CodeParams   = -32602 // params the method cannot read
	CodeInternal = -32603 // the handler failed
	CodeVersion  = -32001 // a protocol version the server does not speak
	CodeDeadline = -32002 // the request outlived its deadline
	CodeTooLong  = -32003 // the line is longer than the server reads
	CodeBusy     = -32004 // too many requests read and not yet answered; not handled
)

// Request is one decoded request line.
type Request struct {
	V      int             `json:"v"`
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// Response is one answer line: Result or Error, never both.
type Response struct {
	ID     json.RawMessage `json:"id"`
	Result any             `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Error is a request's failure.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("serve error %d: %s", e.Code, e.Message) }

// Errorf returns an *Error a handler can return to pick the code.
func Errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

var nullID = json.RawMessage("null")

// DecodeRequest decodes one line. On failure it returns the id when one
// could be read from the line (else null) and the error to answer with.
func DecodeRequest(line []byte) (*Request, json.RawMessage, *Error) {
	line = bytes.TrimSpace(line)
	var r Request
	if err := json.Unmarshal(line, &r); err != nil {
		code := CodeInvalid
		if !json.Valid(line) {
			code = CodeParse
		}
		return nil, sniffID(line), &Error{Code: code, Message: "not a request: " + err.Error()}
	}
	id, ok := validID(r.ID)
	if !ok {
		return nil, nullID, &Error{Code: CodeInvalid, Message: "request without a numeric id"}
	}
	r.ID = id
	if r.V != Version {
		return nil, id, &Error{Code: CodeVersion, Message: fmt.Sprintf("protocol version %d is not spoken here (this atreides speaks %d)", r.V, Version)}
	}
	if r.Method == "" {
		return nil, id, &Error{Code: CodeInvalid, Message: "request without a method"}
	}
	if len(r.Params) > 0 && r.Params[0] != '{' && !bytes.Equal(r.Params, nullID) {
		return nil, id, &Error{Code: CodeParams, Message: "params must be an object"}
	}
	return &r, id, nil
}

// validID accepts an integer id and returns it in canonical form.
func validID(raw json.RawMessage) (json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, false
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return nil, false
	}
	return json.RawMessage(strconv.FormatInt(n, 10)), true
}

// sniffID finds `"id":<integer>` in a line that does not decode, so the
// error reaches the request that is waiting for it.
func sniffID(line []byte) json.RawMessage {
	const key = `"id"`
	for off := 0; ; {
		i := bytes.Index(line[off:], []byte(key))
		if i < 0 {
			return nullID
		}
		rest := bytes.TrimLeft(line[off+i+len(key):], " \t\r\n")
		off += i + len(key)
		if len(rest) == 0 || rest[0] != ':' {
			continue
		}
		rest = bytes.TrimLeft(rest[1:], " \t\r\n")
		end := 0
		for end < len(rest) && (rest[end] == '-' && end == 0 || rest[end] >= '0' && rest[end] <= '9') {
			end++
		}
		if id, ok := validID(rest[:end]); ok {
			return id
		}
	}
}
