package release

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ChecksumsFile is the name of the checksums file in the output.
const ChecksumsFile = "checksums.txt"

// writeChecksums writes dir/checksums.txt in sha256sum's format
// ("<hex>  <path>"), paths relative to dir and sorted, so that
// 'sha256sum -c checksums.txt' run in dir checks every file.
func writeChecksums(dir string, files []string) error {
	var lines []string
	for _, f := range files {
		sum, err := sha256File(f)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, f)
		if err != nil {
			return fmt.Errorf("checksums: %w", err)
		}
		lines = append(lines, sum+"  "+filepath.ToSlash(rel))
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i][66:] < lines[j][66:] })
	body := strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, ChecksumsFile), []byte(body), 0o644); err != nil {
		return fmt.Errorf("checksums: %w", err)
	}
	return nil
}

func sha256File(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", fmt.Errorf("checksum: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("checksum %s: %w", file, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
