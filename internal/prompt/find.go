package prompt

import "strings"

// Find returns the first of keywords that the prompt's prose names as a
// whole word (or, for a keyword of several words, as consecutive words of
// one stretch of prose), and whether one was found. Case is ignored.
func Find(words []Word, keywords []string) (string, bool) {
	for _, k := range keywords {
		parts := strings.Fields(strings.ToLower(k))
		if len(parts) == 0 {
			continue
		}
		for i := range words {
			if matchAt(words, i, parts) {
				return k, true
			}
		}
	}
	return "", false
}

func matchAt(words []Word, i int, parts []string) bool {
	if i+len(parts) > len(words) {
		return false
	}
	for j, p := range parts {
		w := words[i+j]
		if w.Text != p || j > 0 && (!w.Joined || words[i+j-1].End) {
			return false
		}
	}
	return true
}
