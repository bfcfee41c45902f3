#!/usr/bin/env bash
# Installs what the test suite needs on a Debian 12 (bookworm) machine:
#   - PostgreSQL 15 server + server headers
#   - pgvector 0.8 built from Debian trixie's source package (bookworm has none)
#   - Chromium (used by Playwright via PLAYWRIGHT_CHROMIUM_EXECUTABLE) + fonts
# Idempotent: when everything is already there it only runs a few dpkg-query
# calls and returns in well under a second.
#
# The Debian mirror is never hard-coded: it is read from this machine's own apt
# sources (one-line .list or deb822 .sources). Override with
# DEBIAN_MIRROR=<uri> if needed.
set -euo pipefail

PG_MAJOR=15
PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config"
VECTOR_CONTROL="/usr/share/postgresql/${PG_MAJOR}/extension/vector.control"
SOURCE_SUITE="${PGVECTOR_SOURCE_SUITE:-trixie}"

PACKAGES=(
  "postgresql-${PG_MAJOR}"
  "postgresql-server-dev-${PG_MAJOR}"
  build-essential
  chromium
  fonts-liberation
  fonts-dejavu-core
)

log() { printf '[pg/install] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

started=${EPOCHREALTIME/[.,]/}
elapsed() {
  local now=${EPOCHREALTIME/[.,]/}
  local us=$((now - started))
  printf '%d.%01d' $((us / 1000000)) $(((us % 1000000) / 100000))
}

[[ $(id -u) -eq 0 ]] || die "must run as root (apt-get install, make install)"

export DEBIAN_FRONTEND=noninteractive
APT_OPTS=(
  -o DPkg::Lock::Timeout=300
  -o Dpkg::Options::=--force-confdef
  -o Dpkg::Options::=--force-confold
)

is_installed() {
  [[ $(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true) == installed ]]
}

apt_lists_present() {
  compgen -G '/var/lib/apt/lists/*_Packages' >/dev/null ||
    compgen -G '/var/lib/apt/lists/*_Packages.*' >/dev/null
}

has_candidate() {
  local cand
  cand=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2; exit}')
  [[ -n $cand && $cand != "(none)" ]]
}

# ---------------------------------------------------------------- apt packages
missing=()
for p in "${PACKAGES[@]}"; do
  is_installed "$p" || missing+=("$p")
done

if ((${#missing[@]})); then
  log "installing: ${missing[*]}"
  updated=0
  need_update=0
  apt_lists_present || need_update=1
  if ((!need_update)); then
    for p in "${missing[@]}"; do
      has_candidate "$p" || { need_update=1; break; }
    done
  fi
  if ((need_update)); then
    log "apt-get update"
    apt-get "${APT_OPTS[@]}" update -q </dev/null >&2
    updated=1
  fi
  if ! apt-get "${APT_OPTS[@]}" install -y -q --no-install-recommends "${missing[@]}" </dev/null >&2; then
    ((updated)) && die "apt-get install failed"
    log "install failed with current lists; running apt-get update and retrying"
    apt-get "${APT_OPTS[@]}" update -q </dev/null >&2
    apt-get "${APT_OPTS[@]}" install -y -q --no-install-recommends "${missing[@]}" </dev/null >&2
  fi
else
  log "apt packages already installed"
fi

[[ -x $PG_CONFIG ]] || die "$PG_CONFIG missing after install"

# ---------------------------------------------------------------- pgvector
if [[ -f $VECTOR_CONTROL ]]; then
  log "pgvector already installed ($(awk -F"'" '/default_version/ {print $2}' "$VECTOR_CONTROL"))"
  log "done in $(elapsed)s"
  exit 0
fi

# Print the first Debian archive URI configured for the main bookworm suite
# (not -security / -updates), reading both source formats.
detect_mirror() {
  local codename
  codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null | tr -d '"' | head -n1)
  codename=${codename:-bookworm}
  {
    # one-line format: deb [opts] uri suite comp...
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [[ -f $f ]] || continue
      sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" |
        awk -v cn="$codename" '$1 == "deb" && $3 == cn { for (i = 4; i <= NF; i++) if ($i == "main") { print $2; break } }'
    done
    # deb822 format: stanzas separated by blank lines
    for f in /etc/apt/sources.list.d/*.sources; do
      [[ -f $f ]] || continue
      awk -v cn="$codename" '
        function flush() {
          if (types ~ /(^| )deb( |$)/ && enabled != "no" &&
              (" " suites " ") ~ (" " cn " ") && (" " comps " ") ~ / main /) {
            split(uris, u, " "); if (u[1] != "") print u[1]
          }
          types = uris = suites = comps = enabled = ""
        }
        /^[ \t]*#/ { next }
        /^[ \t]*$/ { flush(); next }
        {
          line = $0; key = line; sub(/:.*/, "", key); val = line; sub(/^[^:]*:[ \t]*/, "", val)
          key = tolower(key)
          if (key == "types") types = val
          else if (key == "uris") uris = val
          else if (key == "suites") suites = val
          else if (key == "components") comps = val
          else if (key == "enabled") enabled = tolower(val)
        }
        END { flush() }' "$f"
    done
  } | grep -v -i security | head -n1
}

mirror="${DEBIAN_MIRROR:-$(detect_mirror)}"
[[ -n $mirror ]] || die "could not find a Debian mirror in /etc/apt/sources.list{,.d}; set DEBIAN_MIRROR"
mirror=${mirror%/}
log "building pgvector from ${SOURCE_SUITE} source (mirror from apt sources)"

work=$(mktemp -d /tmp/pgvector-build.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -p "$work/lists/partial" "$work/src"
if id _apt >/dev/null 2>&1; then
  chown _apt "$work/lists/partial" "$work/src"
fi

keyring=/usr/share/keyrings/debian-archive-keyring.gpg
opts=""
[[ -f $keyring ]] && opts="[signed-by=${keyring}] "
printf 'deb-src %s%s %s main\n' "$opts" "$mirror" "$SOURCE_SUITE" >"$work/sources.list"

# Private apt state: the system's sources, lists and caches are untouched.
PRIVATE_APT=(
  -o "Dir::Etc::SourceList=$work/sources.list"
  -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/lists"
  -o "Dir::Cache::pkgcache="
  -o "Dir::Cache::srcpkgcache="
)
apt-get "${PRIVATE_APT[@]}" update -q </dev/null >&2
(cd "$work/src" && apt-get "${PRIVATE_APT[@]}" source --download-only -q pgvector </dev/null >&2)

dsc=$(compgen -G "$work/src/pgvector_*.dsc" | head -n1 || true)
[[ -n $dsc ]] || die "pgvector source package not downloaded"
log "unpacking $(basename "$dsc")"
(cd "$work/src" && dpkg-source -x "$(basename "$dsc")" build >&2)

# OPTFLAGS= : no -march=native, so the built .so stays portable across hosts.
make -C "$work/src/build" -j"$(nproc)" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >&2
make -C "$work/src/build" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" install >&2

[[ -f $VECTOR_CONTROL ]] || die "make install did not produce $VECTOR_CONTROL"
log "pgvector $(awk -F"'" '/default_version/ {print $2}' "$VECTOR_CONTROL") installed"
log "done in $(elapsed)s"
