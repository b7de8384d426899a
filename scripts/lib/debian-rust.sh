# Shared by scripts/cross-aarch64.sh and scripts/wasm.sh (sourced, not run): fetch Debian's
# `rustc-web` toolchain (plus whatever else a caller names) with a private apt state and unpack it
# with `dpkg -x` under target/; nothing is installed system-wide, the host's apt lists and dpkg
# architectures are left alone.
#
# The caller sets, before sourcing:
#   LOG_TAG     prefix of log lines
#   CACHE       cache directory (private apt state, unpacked toolchains, cargo home, builds)
#   APT_ARCHS   array of dpkg architectures for the private apt lists (e.g. (amd64 arm64))
# and then calls `deb_toolchain VERSION_CHECK_PKG... -- PKG=VER...` (see below), `tc_env_common`.

log() { printf '[%s] %s\n' "$LOG_TAG" "$*" >&2; }
die() { log "error: $*"; exit 1; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        die "need root (or sudo) to run: $*"
    fi
}

installed() { [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]; }

# Ordinary Debian packages on the host (apt-get install, once; `apt-get update` only if needed).
host_packages() {
    local missing=() p
    for p in "$@"; do installed "$p" || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return
    log "apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    local apt=(apt-get -o DPkg::Lock::Timeout=600 -y --no-install-recommends)
    as_root "${apt[@]}" install "${missing[@]}" || {
        as_root apt-get -o DPkg::Lock::Timeout=600 update
        as_root "${apt[@]}" install "${missing[@]}"
    }
}

# --- private apt state (the host's dpkg/apt configuration is untouched) -------------------------
APT_DIR=$CACHE/apt
APT_OPTS=(-o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::Cache=$APT_DIR/cache")
for _arch in "${APT_ARCHS[@]}"; do APT_OPTS+=(-o "APT::Architectures::=$_arch"); done
unset _arch
APT_OPTS+=(-o "APT::Sandbox::User=root" -o "Acquire::Retries=3")

apt_update_private() {
    mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
    log "apt-get update (private lists in $APT_DIR)"
    apt-get "${APT_OPTS[@]}" -q update >"$APT_DIR/update.log" 2>&1 ||
        { cat "$APT_DIR/update.log" >&2; die "apt-get update failed"; }
    touch "$APT_DIR/updated"
}

versions_of() { # package[:arch]
    apt-cache "${APT_OPTS[@]}" madison "$1" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}'
}

has_version() { versions_of "$1" | grep -qxF "$2"; }

# VERSION := the pinned rustc-web version `$1` if every `pkg:arch` in $2.. has it, else the newest
# rustc-web (at least $MIN_UPSTREAM) with a warning. Updates the private lists when needed.
choose_version() {
    local want=$1 p ok=1
    shift
    if [ ! -e "$APT_DIR/updated" ] || ! has_version rustc-web:amd64 "$want"; then
        apt_update_private
    fi
    for p in "$@"; do has_version "$p" "$want" || ok=0; done
    if [ $ok = 1 ]; then
        VERSION=$want
        return
    fi
    # The pinned version left the mirror (superseded by a Debian update): take the newest one.
    VERSION=$(versions_of rustc-web:amd64 | sort -V | tail -n1)
    [ -n "$VERSION" ] || die "no rustc-web in the Debian lists"
    dpkg --compare-versions "$VERSION" ge "$MIN_UPSTREAM" || die "rustc-web $VERSION < $MIN_UPSTREAM"
    log "warning: rustc-web $want is not on the mirror; using $VERSION (update PINNED_VERSION)"
}

# Non-alternative `Depends` of one package (version-pinned when given as name=version).
depends_of() {
    apt-cache "${APT_OPTS[@]}" depends --no-recommends --no-suggests --no-conflicts --no-breaks \
        --no-replaces --no-enhances "$1" 2>/dev/null | awk '
        /^ \|Depends:/ { alt = 1; next }
        /^  Depends:/  { if (!alt && $2 !~ /^</) { sub(/:any$/, "", $2); print $2 }; alt = 0; next }
        /^[^ ]/        { alt = 0 }'
}

# unpack_debs DIR STAMP FOLLOW... -- EXTRA...: download the packages FOLLOW (name:arch=version;
# their dependencies that the host lacks are followed and unpacked too, not installed) and EXTRA
# (no dependencies followed) and unpack them all into DIR. Returns 1 (doing nothing) when
# DIR/.complete already holds STAMP; the caller writes STAMP there (`stamp_done`) once it has
# checked the unpacked tree.
unpack_debs() {
    local dir=$1 stamp=$2
    shift 2
    if [ "$(cat "$dir/.complete" 2>/dev/null)" = "$stamp" ]; then return 1; fi
    local follow=() extra=() p d
    while [ $# -gt 0 ] && [ "$1" != -- ]; do follow+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    extra=("$@")
    local debs=$dir.debs
    rm -rf "$dir" "$debs" && mkdir -p "$dir" "$debs"
    local queue=("${follow[@]}") seen=" " deps=()
    for p in "${follow[@]}" "${extra[@]}"; do seen+="${p%%[:=]*} "; done
    while [ ${#queue[@]} -gt 0 ]; do
        p=${queue[0]}; queue=("${queue[@]:1}")
        for d in $(depends_of "$p"); do
            case "$seen" in *" $d "*) continue ;; esac
            seen+="$d "
            installed "$d" && continue
            deps+=("$d:amd64"); queue+=("$d:amd64")
        done
    done
    log "downloading ${follow[*]} ${extra[*]} ${deps[*]}"
    (cd "$debs" && apt-get "${APT_OPTS[@]}" -q download "${follow[@]}" "${extra[@]}" "${deps[@]}") >&2 ||
        die "apt-get download failed"
    for p in "$debs"/*.deb; do dpkg -x "$p" "$dir" || die "dpkg -x $p failed"; done
    rm -rf "$debs" # the stamp says what was unpacked
    return 0
}

stamp_done() { echo "$2" >"$1/.complete"; }

# Environment for the unpacked compiler in $TC (a rustc-web tree); caller adds target settings.
tc_env_common() {
    export LD_LIBRARY_PATH="$TC/usr/lib/x86_64-linux-gnu:$TC/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export RUSTC="$TC/usr/bin/rustc" RUSTDOC="$TC/usr/bin/rustdoc"
    export PATH="$TC/usr/bin:$PATH"
    export CARGO="$TC/usr/bin/cargo"
    # Toolchain-specific caches (crates.io downloads, build output); rustup's are not shared.
    export CARGO_HOME="$CACHE/cargo-home"
    export CARGO_TARGET_DIR="$CACHE/build"
    # Flags for the host-side build scripts are not needed; keep the developer's out of it.
    unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS RUSTC_WRAPPER RUSTUP_TOOLCHAIN
    export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
}

# src_toolchain WANT [PKG:arch=VER...]: rustc-web + cargo-web + the host standard library +
# `rust-web-src` (the standard library's sources, for `-Zbuild-std`) of the rustc-web version WANT
# (or the newest, see choose_version), plus the extra packages given, unpacked into
# $CACHE/toolchain-$VERSION (once). Sets VERSION and TC and exports the compiler environment
# (tc_env_common) with RUSTC_BOOTSTRAP=1.
src_toolchain() {
    local want=$1
    shift
    choose_version "$want" rustc-web:amd64 rust-web-src
    local series; series=$(echo "$VERSION" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
    TC=$CACHE/toolchain-$VERSION
    local rust=(rustc-web cargo-web "libstd-rust-web-$series" libstd-rust-web-dev)
    local follow=() p
    for p in "${rust[@]}"; do follow+=("$p:amd64=$VERSION"); done
    follow+=("$@")
    local stamp="${follow[*]} rust-web-src"
    if unpack_debs "$TC" "$stamp" "${follow[@]}" -- "rust-web-src=$VERSION"; then
        tc_env_common
        tc_check
        [ -d "$TC/usr/lib/rustlib/src/rust/library" ] || die "no standard library sources in $TC"
        stamp_done "$TC" "$stamp"
    fi
    tc_env_common
    export RUSTC_BOOTSTRAP=1
}

# Checks that the unpacked rustc and cargo start (a missing shared library shows here).
tc_check() {
    "$RUSTC" -vV >&2 || die "the unpacked rustc does not run (missing shared library?)"
    "$CARGO" -V >&2 || die "the unpacked cargo does not run"
}
