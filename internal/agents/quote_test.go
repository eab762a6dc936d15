package agents

import "encoding/json"

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
