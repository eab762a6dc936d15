package cli

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/policy"
)

const configUsage = `config <show|validate> [flags]

  atreides config show [--json] [--defaults]
      The merged configuration of this project: built-in defaults, then
      ~/.config/atreides/config.yaml, then .atreides/config.yaml, with the
      source of every value. --defaults prints the documented defaults.
  atreides config validate [--json]
      Check both files; every problem is listed with file:line. Exit 3 when
      there are problems.`

func runConfig(io *IO, args []string) error {
	if len(args) == 0 {
		return usagef("missing subcommand (show, validate)")
	}
	switch args[0] {
	case "show":
		return configShow(io, args[1:])
	case "validate":
		return configValidate(io, args[1:])
	case "-h", "--help", "help":
		fmt.Fprintf(io.Err, "Usage: %s\n", configUsage)
		return nil
	}
	return usagef("unknown subcommand %q (show, validate)", args[0])
}

func configShow(io *IO, args []string) error {
	fs := newFlags(configUsage, io)
	asJSON := fs.Bool("json", false, "print JSON: every setting with its value and source")
	defaults := fs.Bool("defaults", false, "print the built-in defaults, with their documentation")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *defaults {
		_, err := io.Out.Write(config.DefaultYAML())
		return err
	}
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	cfg, err := config.Load(config.DefaultPaths(root))
	if err != nil {
		return err
	}
	format := "yaml"
	if *asJSON {
		format = "json"
	}
	return cfg.Show(io.Out, format)
}

// validateJSON is `config validate --json`.
type validateJSON struct {
	OK     bool              `json:"ok"`
	Files  config.Paths      `json:"files"`
	Errors []configErrorJSON `json:"errors"`
}

type configErrorJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Key     string `json:"key,omitempty"`
	Message string `json:"message"`
}

func configValidate(io *IO, args []string) error {
	fs := newFlags(configUsage, io)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	paths := config.DefaultPaths(root)
	cfg, err := config.Load(paths)
	if err == nil {
		_, err = policy.FromConfig(cfg)
	}
	doc := validateJSON{OK: err == nil, Files: paths, Errors: []configErrorJSON{}}
	var ve *config.ValidationError
	switch {
	case err == nil:
	case errors.As(err, &ve):
		for _, fe := range ve.Errs {
			doc.Errors = append(doc.Errors, configErrorJSON{File: fe.File, Line: fe.Line, Col: fe.Col, Key: fe.Key, Message: fe.Msg})
		}
	default:
		doc.Errors = append(doc.Errors, configErrorJSON{Message: err.Error()})
	}
	if *asJSON {
		enc := json.NewEncoder(io.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return err
		}
	} else if doc.OK {
		fmt.Fprintln(io.Out, "configuration is valid")
	} else {
		fmt.Fprintln(io.Out, err)
	}
	if !doc.OK {
		return &problemsError{n: len(doc.Errors)}
	}
	return nil
}
