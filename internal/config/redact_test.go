package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShowMasksSecrets: config show prints neither the store's password
// nor the exporter's header values, in YAML or JSON, while the values in
// force stay as written.
func TestShowMasksSecrets(t *testing.T) {
	for _, dsn := range []string{"postgres://app:s3cr3t-pw@db.internal/atreides", "host=db user=app password=s3cr3t-pw dbname=a"} {
		dir := t.TempDir()
		user := filepath.Join(dir, "user.yaml")
		body := "store:\n  dsn: \"" + dsn + "\"\notel:\n  headers:\n    Authorization: Bearer ghp_s3cr3ttoken\n"
		if err := os.WriteFile(user, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := Load(Paths{User: user})
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"yaml", "json"} {
			var b bytes.Buffer
			if err := cfg.Show(&b, format); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if strings.Contains(out, "s3cr3t") {
				t.Errorf("%s: config show prints a secret:\n%s", format, out)
			}
			if !strings.Contains(out, "****") || !strings.Contains(out, "app") {
				t.Errorf("%s: want the secrets masked, the rest shown:\n%s", format, out)
			}
		}
		if cfg.Store.DSN != dsn || cfg.Otel.Headers["Authorization"] != "Bearer ghp_s3cr3ttoken" {
			t.Errorf("the values in force changed: %q %q", cfg.Store.DSN, cfg.Otel.Headers["Authorization"])
		}
	}
}
