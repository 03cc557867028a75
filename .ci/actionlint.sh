#!/usr/bin/env bash
# Lints the GitHub Actions workflows with actionlint, built from the Go
# module proxy at a pinned version (it runs shellcheck on the run: scripts
# when shellcheck is on PATH, as it is on GitHub's Ubuntu runners).
set -euo pipefail
cd "$(dirname "$0")/.."
timeout 300 go run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 .github/workflows/*.yml
echo "actionlint: .github/workflows clean"
