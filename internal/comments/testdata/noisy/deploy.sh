#!/usr/bin/env bash
set -euo pipefail

# Set the target directory
TARGET="${1:-/srv/app}"
# Create the directory
mkdir -p "$TARGET"
# Copy the files
cp -r build/. "$TARGET"
# Added this restart as requested
# Restart the service
systemctl restart app
# Print a message
echo "deployed to $TARGET"
