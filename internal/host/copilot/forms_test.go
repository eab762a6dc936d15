package copilot

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/install/hooktest"
)

func TestAgentForm(t *testing.T) { hooktest.AgentForm(t, AgentForm) }
