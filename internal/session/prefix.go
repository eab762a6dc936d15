package session

import "strings"

// Prefixed is a reply of the lead agent as the identity prefix option
// wants it: beginning with "[Persona]: " exactly once. Models drift from
// the instruction (no prefix, a bold one, the tag twice); a host that lets
// atreides edit the finished text (OpenCode) gets it normalized. Blank
// text stays as it is.
func Prefixed(text, persona string) string {
	body := strings.TrimLeft(text, " \t\r\n")
	if body == "" || persona == "" {
		return text
	}
	tag := "[" + persona + "]:"
	for {
		rest, ok := cutTag(body, tag)
		if !ok {
			break
		}
		body = strings.TrimLeft(rest, " \t")
	}
	return tag + " " + body
}

// cutTag removes one tag from the start of s, bare or in bold or italics
// ("**[P]:**", "**[P]**:", "*[P]:*").
func cutTag(s, tag string) (string, bool) {
	for _, mark := range []string{"", "**", "*", "__", "_"} {
		inner := strings.TrimSuffix(tag, ":")
		for _, form := range []string{mark + tag + mark, mark + inner + mark + ":"} {
			if rest, ok := strings.CutPrefix(s, form); ok {
				return rest, true
			}
		}
	}
	return s, false
}
