package agenttools

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// propCaps are the size caps a tool's schema declares on its arguments:
// every string has a maxLength and every array a maxItems (and its string
// items a maxLength), far above what an agent writes (4,096 characters
// for a title, a path or an id; 65,536 for a prompt, a reason or a
// message; 256 paths or skills), so that no call can grow the project
// record by more than a little. TestEverySchemaCapsItsArguments keeps the
// schemas complete.
type propCaps struct {
	Type      string `json:"type"`
	MaxLength int    `json:"maxLength"`
	MaxItems  int    `json:"maxItems"`
	Items     *struct {
		Type      string `json:"type"`
		MaxLength int    `json:"maxLength"`
	} `json:"items"`
}

// capped is the tool with its schema's caps checked before its call runs:
// an argument over one is the call's error, naming the argument and its
// cap, and the tool does nothing.
// The schema is read once, when the tool is made.
func capped(t Tool) Tool {
	call := t.Call
	caps, err := schemaCaps(t.Schema)
	t.Call = func(ctx context.Context, env *Env, args json.RawMessage) (string, error) {
		if err != nil {
			return "", err
		}
		if err := checkCaps(caps, args); err != nil {
			return "", err
		}
		return call(ctx, env, args)
	}
	return t
}

// schemaCaps are the caps a tool's schema declares, by argument.
func schemaCaps(schema json.RawMessage) (map[string]propCaps, error) {
	var s struct {
		Properties map[string]propCaps `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("the tool's schema: %w", err)
	}
	return s.Properties, nil
}

// checkCaps checks args against the caps. Arguments that are not an
// object, or not of their declared type, are left to the tool's own
// parsing, which reports them.
func checkCaps(caps map[string]propCaps, args json.RawMessage) error {
	var in map[string]json.RawMessage
	if json.Unmarshal(args, &in) != nil {
		return nil
	}
	for name, raw := range in {
		p, ok := caps[name]
		if !ok {
			continue
		}
		switch p.Type {
		case "string":
			if err := capString(name, raw, p.MaxLength); err != nil {
				return err
			}
		case "array":
			var items []json.RawMessage
			if json.Unmarshal(raw, &items) != nil {
				continue
			}
			if len(items) > p.MaxItems {
				return fmt.Errorf("%s has %d items; at most %d are accepted per call", name, len(items), p.MaxItems)
			}
			if p.Items == nil || p.Items.MaxLength == 0 {
				continue
			}
			for i, it := range items {
				if err := capString(fmt.Sprintf("%s[%d]", name, i), it, p.Items.MaxLength); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func capString(name string, raw json.RawMessage, max int) error {
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	if n := utf8.RuneCountInString(v); n > max {
		return fmt.Errorf("%s is %d characters; at most %d are accepted", name, n, max)
	}
	return nil
}
