package hosttest

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/opencode"
)

// OpenCode has no hook process: a payload is a serve request without its
// envelope ({method, params}), the answer is what the plugin applies.
// There is no ask (permission.ask never fires in 1.18.33), so an ask is a
// block that says so; session context goes into the system prompt; a
// keep-going is a prompt the plugin sends on session.idle; a tool call
// that cannot be read is blocked by a throw, not an exit code.
func TestOpenCode(t *testing.T) {
	Run(t, opencode.Adapter{}, Expectations{
		Payload: func(kind event.Kind, cmd string) []byte {
			const dir = `"directory":"/proj",`
			switch kind {
			case event.PreTool:
				return []byte(`{"method":"tool.before","params":{` + dir + `"input":{"tool":"bash","sessionID":"s","callID":"call_1"},"output":{"args":{"command":` + jsonString(cmd) + `,"description":"d"}}}}`)
			case event.PostTool:
				return []byte(`{"method":"tool.after","params":{` + dir + `"input":{"tool":"bash","sessionID":"s","callID":"call_1","args":{"command":` + jsonString(cmd) + `}},"output":{"title":"t","output":"FAIL\n","metadata":{"exit":1}}}}`)
			case event.SessionStart:
				return []byte(`{"method":"system.transform","params":{` + dir + `"input":{"sessionID":"s","model":{"id":"m"}},"output":{"system":["You are opencode"]}}}`)
			case event.Stop:
				return []byte(`{"method":"event","params":{` + dir + `"input":{"event":{"id":"evt_1","type":"session.idle","properties":{"sessionID":"s"}}}}}`)
			}
			return []byte(`{"method":"?"}`)
		},
		Want: map[Case]Wire{
			DenyShell:       {Stdout: `{"block":"` + denyReason + `"}`},
			AskShell:        {Stdout: `{"block":"` + Contains(askReason) + `"}`},
			AllowRewrite:    {Stdout: `{"args":{"command":"ls -la"}}`},
			SessionContext:  {Stdout: `{"system":["phase: plan"]}`},
			PostToolContext: {Stdout: `{"append":"3 tests failed"}`},
			KeepGoing:       {Stdout: `{"continue":"` + stopReason + `"}`},
			Nothing:         {},
			UnreadableTool:  {Stdout: `{"block":"<contains:could not read>"}`},
		},
	})
}
