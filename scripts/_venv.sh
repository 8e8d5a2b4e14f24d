# Shared by scripts/serve and scripts/test: find Python 3.12+ and make .venv with the given requirements.
# shellcheck shell=bash
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

find_python() {
  for candidate in python3.13 python3.12 python3 python; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  echo "Python 3.12 or newer is needed (Django 6). Install it and run this again." >&2
  return 1
}

# Debian packages, installed only when missing (as root, or with sudo).
apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  if [ "${#missing[@]}" -gt 0 ]; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

ensure_venv() {
  local requirements="$1"
  if [ ! -x .venv/bin/python ]; then
    "$(find_python)" -m venv .venv
  fi
  # Reinstall only when the requirements changed: a warm start stays fast.
  local stamp=".venv/.installed-$(cat requirements*.txt | sha1sum | cut -c1-12)-$(basename "$requirements")"
  if [ ! -f "$stamp" ]; then
    # the venv's own pip (no upgrade first: a download and a reinstall for nothing), no version check
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-input -r "$requirements"
    touch "$stamp"
  fi
}

# The catalogues (locale/<lang>/LC_MESSAGES/*.po: the pages' django.po, the engine's and the ledger's answers.po)
# compiled to .mo: the engine answers in Chinese from answers.mo and refuses to answer without it, so a machine
# without gettext's msgfmt stops here, saying what to install.
compile_messages() {
  if ! command -v msgfmt >/dev/null 2>&1; then
    echo "msgfmt (gettext) is needed to compile the texts in locale/: apt-get install gettext" >&2
    return 1
  fi
  # --ignore: compilemessages walks the whole tree, and in a fresh clone .venv holds Django's own translations
  # (1,226 files compiled again, ~20 s)
  .venv/bin/python manage.py compilemessages --verbosity 0 --ignore=.venv --ignore=node_modules
}

# The offline pack's runtime (issue 22): the pinned Pyodide of package-lock.json (npm checks its integrity hash),
# installed again only when the lock changed. Without npm the pack is not built and the pages do not offer it.
ensure_node_modules() {
  if ! command -v npm >/dev/null 2>&1; then
    echo "npm not found: the offline pack is not built (the pages work without it)" >&2
    return 0
  fi
  local stamp="node_modules/.installed-$(sha1sum package-lock.json | cut -c1-12)"
  if [ ! -f "$stamp" ]; then
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
    touch "$stamp"
  fi
}

# The offline pack itself (manage.py build_offline_pack): after compile_messages, which it packs.
build_offline_pack() {
  if [ -d node_modules/pyodide ]; then
    .venv/bin/python manage.py build_offline_pack --verbosity 0
  fi
}
