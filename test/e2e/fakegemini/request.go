package fakegemini

import (
	"encoding/json"
	"strings"
)

// Request is one request the fake received.
type Request struct {
	Seq    int
	Method string
	Path   string
	Kind   Kind
	Model  string
	Step   int // KindMain: the script step answered
	Raw    []byte
	Body   body
}

type body struct {
	Contents         []Content        `json:"contents"`
	Tools            []tool           `json:"tools"`
	GenerationConfig generationConfig `json:"generationConfig"`
}

type tool struct {
	FunctionDeclarations []struct {
		Name string `json:"name"`
	} `json:"functionDeclarations"`
}

type generationConfig struct {
	ResponseMIMEType   string         `json:"responseMimeType"`
	ResponseSchema     map[string]any `json:"responseSchema"`
	ResponseJSONSchema map[string]any `json:"responseJsonSchema"`
}

// Content is one turn of the conversation.
type Content struct {
	Role  string `json:"role"`
	Parts []Part `json:"parts"`
}

// Part is one part of a turn; exactly one field is usually set.
type Part struct {
	Text             string            `json:"text,omitempty"`
	FunctionCall     *FunctionCall     `json:"functionCall,omitempty"`
	FunctionResponse *FunctionResponse `json:"functionResponse,omitempty"`
}

// FunctionCall is a call the model made, as Gemini CLI replays it.
type FunctionCall struct {
	ID   string         `json:"id"`
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// FunctionResponse is a tool result Gemini CLI sent the model. A blocked
// call's Response is {"error": "Tool execution blocked: <reason>"}.
type FunctionResponse struct {
	ID       string         `json:"id"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
}

// Text is the response's text: its output, or its error.
func (f FunctionResponse) Text() string {
	for _, k := range []string{"output", "error", "llmContent"} {
		if s, ok := f.Response[k].(string); ok {
			return s
		}
	}
	b, _ := json.Marshal(f.Response)
	return string(b)
}

// Error is the response's error text, "" when the call succeeded.
func (f FunctionResponse) Error() string {
	s, _ := f.Response["error"].(string)
	return s
}

func (b body) offersFunctions() bool {
	for _, t := range b.Tools {
		if len(t.FunctionDeclarations) > 0 {
			return true
		}
	}
	return false
}

func (b body) modelTurns() int {
	n := 0
	for _, c := range b.Contents {
		if c.Role == "model" {
			n++
		}
	}
	return n
}

// FunctionResponses returns the function responses in the request, in
// order.
func (r *Request) FunctionResponses() []FunctionResponse {
	var out []FunctionResponse
	for _, c := range r.Body.Contents {
		for _, p := range c.Parts {
			if p.FunctionResponse != nil {
				out = append(out, *p.FunctionResponse)
			}
		}
	}
	return out
}

// UserTexts returns the text parts of the user turns, in order.
func (r *Request) UserTexts() []string {
	var out []string
	for _, c := range r.Body.Contents {
		if c.Role != "user" {
			continue
		}
		for _, p := range c.Parts {
			if p.Text != "" {
				out = append(out, p.Text)
			}
		}
	}
	return out
}

// Contains reports whether the raw request body contains s (JSON-escaped
// text included as it appears on the wire).
func (r *Request) Contains(s string) bool {
	if strings.Contains(string(r.Raw), s) {
		return true
	}
	b, _ := json.Marshal(s)
	return strings.Contains(string(r.Raw), strings.Trim(string(b), `"`))
}
