package cline

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/install/hooktest"
)

func TestCommandForm(t *testing.T) { hooktest.CommandForm(t, CommandForm) }

func TestCommandsRoundTrip(t *testing.T) { hooktest.CommandsRoundTrip(t, CommandForm) }
