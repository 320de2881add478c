#!/usr/bin/env bash
# Install Floorman on a Raspberry Pi (Raspberry Pi OS Lite, Bookworm) or any Debian machine.
#
#   sudo scripts/install.sh controller [--tables 40] [--walls 1] [--prefix P] [--tournament FILE] [--san NAME]
#   sudo scripts/install.sh kiosk --table 3 [--broker HOST[:PORT]] [--credentials table-3.env] [--ca ca.crt]
#   sudo scripts/install.sh wall [--name wall-2] [--broker HOST[:PORT]] [--credentials wall.env] [--ca ca.crt]
#
# controller: Mosquitto locked down (accounts, ACL, TLS on 8883, plain only on 127.0.0.1:1883),
#   the accounts of every table (floorman broker-config), a CA and the broker's certificate,
#   floorman-controller.service and floorman-console.service (the director's console on
#   :8080). Hands out /etc/floorman/broker/credentials/*.env and /etc/floorman/broker/ca.crt
#   for the screens.
# kiosk, wall: the SDL/KMS libraries, pygame built against them, the user floorman in the
#   groups video, render, input, gpio and audio, floorman-kiosk@N.service (or @wall) on tty1.
#
# Every run prints one line per step: created, changed, removed, unchanged (or, with
# --dry-run, "would …" and nothing changes). A second run with the same arguments
# changes nothing and ends with "nothing changed". Options left out on a second run
# keep what the first one set (broker address, account, number of tables, prefix).
#
#   --dry-run          print every action instead of doing it
#   --root DIR         install into DIR, a throwaway root (tests): no apt-get, no users,
#                      no owners, units enabled with systemctl --root, nothing started
# Where systemd does not run (a chroot, a container, scripts/try-pi-arm64.sh) the units
# are installed and enabled but not started: they start at the next boot.
#   --pip-args "ARGS"  more pip arguments (an offline room: "--no-index --find-links DIR")
#   PYTHON=python3.11  the interpreter of the virtual environment (default python3)
# docs/raspberry-pi.md has the whole set-up.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PYTHON=${PYTHON:-python3}
OPT=/opt/floorman
ETC=/etc/floorman
USER_NAME=floorman

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
    exit "${1:-0}"
}
die() { echo "install.sh: $*" >&2; exit 2; }

ROLE=${1:-}
[ $# -gt 0 ] && shift
case $ROLE in
    kiosk | wall | controller) ;;
    -h | --help) usage ;;
    "") usage 2 >&2 ;;
    *) die "the role is kiosk, wall or controller, not '$ROLE'" ;;
esac

TABLE="" NAME="" BROKER="" CREDENTIALS="" CA="" TABLES="" WALLS="" PREFIX="" TOURNAMENT=""
SANS=() DRY=0 ROOT="" PIP_ARGS=""
while [ $# -gt 0 ]; do
    case $1 in
        --table) TABLE=${2:?--table needs a number}; shift 2 ;;
        --name) NAME=${2:?--name needs a name}; shift 2 ;;
        --broker) BROKER=${2:?--broker needs HOST[:PORT]}; shift 2 ;;
        --credentials) CREDENTIALS=${2:?--credentials needs a file}; shift 2 ;;
        --ca) CA=${2:?--ca needs a file}; shift 2 ;;
        --tables) TABLES=${2:?--tables needs a number}; shift 2 ;;
        --walls) WALLS=${2:?--walls needs a number}; shift 2 ;;
        --prefix) PREFIX=${2:?--prefix needs a topic prefix}; shift 2 ;;
        --tournament) TOURNAMENT=${2:?--tournament needs a file}; shift 2 ;;
        --san) SANS+=("${2:?--san needs a host name or IP address}"); shift 2 ;;
        --dry-run) DRY=1; shift ;;
        --root) ROOT=${2:?--root needs a folder}; shift 2 ;;
        --pip-args) PIP_ARGS=${2?--pip-args needs arguments}; shift 2 ;;
        -h | --help) usage ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
done

if [ -n "$ROOT" ]; then
    [ "$DRY" = 1 ] || mkdir -p "$ROOT" || die "cannot create $ROOT"
    ROOT=$(cd "$ROOT" 2>/dev/null && pwd || echo "${ROOT%/}")
fi
if [ -z "$ROOT" ] && [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
    die "run it as root (sudo), or with --dry-run to see what it would do"
fi

case $ROLE in
    kiosk)
        [[ $TABLE =~ ^[1-9][0-9]{0,3}$ ]] || die "kiosk needs --table N (1-9999)"
        INSTANCE=$TABLE CLIENT=table-$TABLE KIOSK_CONFIG=table.yaml ;;
    wall)
        NAME=${NAME:-wall}
        [[ $NAME =~ ^wall(-[0-9]{1,2})?$ ]] || die "a wall screen is called wall or wall-N, not '$NAME'"
        INSTANCE=$NAME CLIENT=$NAME KIOSK_CONFIG=wall.yaml ;;
    controller)
        [ -z "$TABLES" ] || [[ $TABLES =~ ^[1-9][0-9]{0,3}$ ]] || die "--tables must be 1-9999"
        [ -z "$WALLS" ] || [[ $WALLS =~ ^[0-9]{1,2}$ ]] || die "--walls must be 0-99" ;;
esac

# ---------------------------------------------------------------------------- helpers
CHANGES=0
say() { printf '%s\n' "$*"; }
# a change that was made (or, with --dry-run, would be made): did created PATH …
did() {
    CHANGES=$((CHANGES + 1))
    if [ "$DRY" = 0 ]; then
        say "$*"
        return
    fi
    local verb
    case $1 in
        created | changed | removed | enabled | disabled) verb=${1%d} ;;
        installed | restarted | started) verb=${1%ed} ;;
        copied) verb=copy ;;
        *) verb=$1 ;;
    esac
    say "would $verb ${*:2}"
}
same() { say "unchanged $*"; }
skip() { say "skipped $*"; }
# the path of an installed file: under --root DIR, inside DIR
r() { printf '%s%s' "$ROOT" "$1"; }
run() { [ "$DRY" = 1 ] || "$@"; }

have_group() { getent group "$1" >/dev/null 2>&1; }

# owner OWNER:GROUP as the installed system will have it ('' under --root or when unknown)
owner_of() {
    local want=$1 u=${1%%:*} g=${1##*:}
    if [ -n "$ROOT" ] || [ -z "$want" ]; then return; fi
    id -u "$u" >/dev/null 2>&1 && have_group "$g" && printf '%s' "$want"
    return 0
}

# put_file SOURCE DEST MODE [OWNER:GROUP]: DEST becomes a copy of SOURCE
LAST=0
put_file() {
    local src=$1 dest=$2 mode=$3 own
    own=$(owner_of "${4:-}")
    LAST=0
    if [ -e "$dest" ] && cmp -s "$src" "$dest"; then
        local have_mode have_own=""
        have_mode=$(stat -c %a "$dest")
        [ -z "$own" ] || have_own=$(stat -c %U:%G "$dest")
        if [ "$have_mode" = "${mode#0}" ] && [ "$have_own" = "$own" ]; then
            same "$dest"
            return
        fi
        LAST=1
        did changed "$dest (mode $mode${own:+, owner $own})"
        run chmod "$mode" "$dest"
        [ -z "$own" ] || run chown "$own" "$dest"
        return
    fi
    LAST=1
    if [ -e "$dest" ]; then did changed "$dest"; else did created "$dest"; fi
    [ "$DRY" = 1 ] && return
    mkdir -p "$(dirname "$dest")"
    local tmp
    tmp=$(mktemp "$(dirname "$dest")/.install.XXXXXX")
    cat "$src" >"$tmp"
    chmod "$mode" "$tmp"
    [ -z "$own" ] || chown "$own" "$tmp"
    mv -f "$tmp" "$dest"
}

# put_text DEST MODE [OWNER:GROUP] <<<TEXT
put_text() {
    local tmp
    tmp=$(mktemp)
    cat >"$tmp"
    put_file "$tmp" "$@"
    rm -f "$tmp"
}

# keep_file SOURCE DEST MODE: a configuration file the owner may edit: created once, kept
keep_file() {
    if [ -e "$2" ]; then
        same "$2 (exists: yours to edit, not overwritten)"
    else
        put_file "$@"
    fi
}

put_dir() {
    local dir=$1 mode=$2 own
    own=$(owner_of "${3:-}")
    if [ -d "$dir" ]; then
        if [ "$(stat -c %a "$dir")" = "${mode#0}" ] \
            && { [ -z "$own" ] || [ "$(stat -c %U:%G "$dir")" = "$own" ]; }; then
            same "$dir/"
            return
        fi
        did changed "$dir/ (mode $mode${own:+, owner $own})"
    else
        did created "$dir/"
    fi
    run mkdir -p "$dir"
    run chmod "$mode" "$dir"
    [ -z "$own" ] || run chown "$own" "$dir"
}

# count DIR GLOB DEFAULT: how many files in DIR match GLOB (DEFAULT if DIR does not exist)
count() {
    if [ -d "$1" ]; then find "$1" -maxdepth 1 -name "$2" | wc -l; else echo "$3"; fi
}

# env_value FILE KEY: the value of KEY=value in FILE ('' if none)
env_value() {
    if [ -r "$1" ]; then sed -n "s/^$2=//p" "$1" | tail -n 1; fi
}

packages() {
    if [ -n "$ROOT" ]; then
        skip "packages under --root: $*"
        return
    fi
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} = 0 ]; then
        same "packages: $*"
        return
    fi
    did installed "packages: ${missing[*]}"
    [ "$DRY" = 1 ] && return
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# the service user; for a screen also in the groups that reach screen, input, GPIO, sound
service_user() {
    if [ -n "$ROOT" ]; then
        skip "user $USER_NAME under --root (groups: ${*:-none})"
        return
    fi
    if ! id -u "$USER_NAME" >/dev/null 2>&1; then
        did created "user $USER_NAME"
        run useradd --system --user-group --home-dir /var/lib/floorman --no-create-home \
            --shell /usr/sbin/nologin "$USER_NAME"
    fi
    local g have=" "
    id -u "$USER_NAME" >/dev/null 2>&1 && have=" $(id -nG "$USER_NAME") "
    for g in "$@"; do
        if ! have_group "$g"; then
            skip "group $g: there is none on this machine (not a Raspberry Pi?)"
        elif [[ $have == *" $g "* ]]; then
            same "user $USER_NAME in group $g"
        else
            did changed "user $USER_NAME: added to group $g"
            run usermod -aG "$g" "$USER_NAME"
        fi
    done
}

xbit() { if [ -x "$1" ]; then echo x; else echo -; fi; }

# /opt/floorman: the program, its presets, docs, unit files and scripts
sync_source() {
    local dest files f n=0 copied=0 removed=0 manifest
    dest=$(r $OPT)
    manifest=$dest/.floorman-manifest
    if [ "$(cd "$dest" 2>/dev/null && pwd -P)" = "$(cd "$SRC" && pwd -P)" ]; then
        same "$dest (installing from it)"
        return
    fi
    files=$(cd "$SRC" && {
        find controller kiosk config docs scripts systemd -type f \
            ! -path '*/__pycache__/*' ! -name '*.pyc' ! -name '*.sqlite*' ! -name '.*'
        printf '%s\n' pyproject.toml README.md
    } | LC_ALL=C sort)
    while IFS= read -r f; do
        n=$((n + 1))
        if [ -e "$dest/$f" ] && cmp -s "$SRC/$f" "$dest/$f" \
            && [ "$(xbit "$SRC/$f")" = "$(xbit "$dest/$f")" ]; then
            continue
        fi
        copied=$((copied + 1))
        [ "$DRY" = 1 ] && continue
        mkdir -p "$(dirname "$dest/$f")"
        if [ -x "$SRC/$f" ]; then
            install -m 0755 "$SRC/$f" "$dest/$f"
        else
            install -m 0644 "$SRC/$f" "$dest/$f"
        fi
    done <<<"$files"
    if [ -r "$manifest" ]; then
        while IFS= read -r f; do
            if [ -z "$f" ] || [ ! -e "$dest/$f" ]; then continue; fi
            grep -qxF -- "$f" <<<"$files" && continue
            removed=$((removed + 1))
            run rm -f "$dest/$f"
        done <"$manifest"
    fi
    if [ $copied = 0 ] && [ $removed = 0 ]; then
        same "$dest ($n files)"
        SOURCE_CHANGED=0
    else
        did copied "$copied of $n files to $dest$([ $removed = 0 ] || echo ", removed $removed old ones")"
        SOURCE_CHANGED=1
        [ "$DRY" = 1 ] || printf '%s\n' "$files" >"$manifest"
    fi
}

# /opt/floorman/.venv with Floorman installed (editable: the presets, fonts and docs stay
# in /opt/floorman, where the code finds them)
venv() {
    local dest venv stamp want args=() pip
    read -ra args <<<"$1 $PIP_ARGS"
    pip="pip install ${args[*]}${args[*]:+ }-e $OPT"
    dest=$(r $OPT)
    venv=$dest/.venv
    stamp=$venv/.floorman-stamp
    want="pyproject $(sha256sum <"$SRC/pyproject.toml" | cut -c1-16), $pip"
    if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
        same "$venv (Floorman and its packages)"
    else
        if [ -x "$venv/bin/python" ]; then
            did changed "$venv: $pip"
        else
            did created "$venv: $PYTHON -m venv, $pip"
        fi
        if [ "$DRY" = 0 ]; then
            [ -x "$venv/bin/python" ] || "$PYTHON" -m venv --system-site-packages "$venv"
            "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
                "${args[@]}" -e "$dest"
            printf '%s\n' "$want" >"$stamp"
        fi
        SOURCE_CHANGED=1
    fi
    if [ "$DRY" = 0 ] && [ "${SOURCE_CHANGED:-0}" = 1 ]; then
        # byte code now: the service user may not write into /opt/floorman
        "$venv/bin/python" -m compileall -q "$dest/controller" "$dest/kiosk" "$dest/config" \
            "$dest/systemd" >/dev/null || true
    fi
    put_link "$OPT/.venv/bin/floorman" "$(r /usr/local/bin/floorman)"
}

put_link() {
    local target=$1 link=$2
    if [ "$(readlink "$link" 2>/dev/null)" = "$target" ]; then
        same "$link -> $target"
        return
    fi
    did created "$link -> $target"
    run mkdir -p "$(dirname "$link")"
    run ln -sfn "$target" "$link"
}

systemctl_() {
    if [ -n "$ROOT" ]; then systemctl --root="$ROOT" "$@"; else systemctl "$@"; fi
}

# systemd runs this machine (sd_booted: /run/systemd/system); not in a chroot or a
# container without it, where systemctl can enable units but not start or reload them
SYSTEMD=0
[ -z "$ROOT" ] && [ -d /run/systemd/system ] && SYSTEMD=1

# install_unit FILE: into /etc/systemd/system (daemon-reload when it changed)
install_unit() {
    put_file "$SRC/systemd/$1" "$(r /etc/systemd/system/"$1")" 0644
    if [ "$LAST" = 1 ]; then
        UNITS_CHANGED=1
        [ "$SYSTEMD" = 0 ] || run systemctl daemon-reload
    fi
}

enable_unit() {
    local unit=$1 state
    state=$(systemctl_ is-enabled "$unit" 2>/dev/null || true)
    if [ "$state" = enabled ]; then
        same "$unit (enabled)"
    else
        did enabled "$unit"
        run systemctl_ enable --quiet "$unit"
    fi
}

disable_unit() {
    local unit=$1 state
    state=$(systemctl_ is-enabled "$unit" 2>/dev/null || true)
    if [ "$state" = enabled ]; then
        did disabled "$unit"
        run systemctl_ disable --quiet "$unit"
        [ "$SYSTEMD" = 0 ] || run systemctl stop "$unit" || true
    else
        same "$unit (${state:-not installed}: not enabled)"
    fi
}

# (re)start a unit when something it uses changed, else only make sure it runs
start_unit() {
    local unit=$1 changed=$2
    if [ -n "$ROOT" ]; then
        skip "starting $unit under --root"
    elif [ "$SYSTEMD" = 0 ]; then
        skip "starting $unit: systemd does not run here (a chroot?); it starts at boot"
    elif [ "$changed" = 1 ]; then
        did restarted "$unit"
        run systemctl restart "$unit"
    elif systemctl is-active --quiet "$unit"; then
        same "$unit (running)"
    else
        did started "$unit"
        run systemctl start "$unit"
    fi
}

# ---------------------------------------------------------------------------- screens
# Debian's SDL 2 is built with KMS/DRM; the pygame wheels on PyPI for 64-bit ARM bundle
# an SDL without it, so pygame is built from source against Debian's SDL (a few minutes
# on a Pi 4). python3-lgpio: gpiozero's pin driver on Bookworm (also the Pi 5).
KIOSK_PACKAGES=(
    python3 python3-venv python3-dev build-essential pkg-config
    libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0
    libsdl2-dev libsdl2-image-dev libsdl2-mixer-dev libsdl2-ttf-dev
    libegl1 libgles2 libgbm1 libdrm2 libfreetype-dev libportmidi-dev libjpeg-dev
    alsa-utils
)
# only in Raspberry Pi OS's package sources (not on a plain Debian test machine)
KIOSK_PI_PACKAGES=(python3-lgpio)
CONTROLLER_PACKAGES=(python3 python3-venv mosquitto openssl)

install_screen() {
    local etc creds_dest broker ca_dest env_file want_env
    say "== Floorman $ROLE: floorman-kiosk@$INSTANCE.service, account $CLIENT${ROOT:+, root $ROOT}"
    packages "${KIOSK_PACKAGES[@]}"
    local p pi=()
    for p in "${KIOSK_PI_PACKAGES[@]}"; do
        if [ -n "$ROOT" ] || apt-cache show "$p" >/dev/null 2>&1; then
            pi+=("$p")
        else
            skip "$p: not in this machine's package sources (Raspberry Pi OS has it)"
        fi
    done
    [ ${#pi[@]} = 0 ] || packages "${pi[@]}"
    service_user video render input gpio audio
    sync_source
    venv "--no-binary pygame"

    etc=$(r $ETC)
    put_dir "$etc" 0755
    keep_file "$SRC/config/kiosk/$KIOSK_CONFIG" "$etc/$KIOSK_CONFIG" 0644
    SCREEN_CHANGED=$((SCREEN_CHANGED | LAST))

    # the account (from the controller's /etc/floorman/broker/credentials/)
    put_dir "$etc/credentials" 0750 "root:$USER_NAME"
    creds_dest=$etc/credentials/$CLIENT.env
    if [ -n "$CREDENTIALS" ]; then
        [ -r "$CREDENTIALS" ] || die "cannot read $CREDENTIALS"
        grep -qx "FLOORMAN_USERNAME=$CLIENT" "$CREDENTIALS" \
            || die "$CREDENTIALS is not the account $CLIENT (FLOORMAN_USERNAME=$CLIENT missing)"
        put_file "$CREDENTIALS" "$creds_dest" 0640 "root:$USER_NAME"
        SCREEN_CHANGED=$((SCREEN_CHANGED | LAST))
    elif [ -e "$creds_dest" ]; then
        same "$creds_dest"
    else
        say "note: no account for $CLIENT (--credentials FILE from the controller's" \
            "/etc/floorman/broker/credentials/): the screen connects without one"
    fi

    # the broker's CA certificate
    ca_dest=$etc/ca.crt
    if [ -n "$CA" ]; then
        [ -r "$CA" ] || die "cannot read $CA"
        put_file "$CA" "$ca_dest" 0644
        SCREEN_CHANGED=$((SCREEN_CHANGED | LAST))
    elif [ -e "$ca_dest" ]; then
        same "$ca_dest"
    fi

    # where the broker is: --broker, else what the last run wrote, else floorman.local:8883
    env_file=$etc/floorman.env
    broker=${BROKER:-$(env_value "$env_file" FLOORMAN_BROKER)}
    broker=${broker:-floorman.local:8883}
    [[ $broker == *:* ]] || broker=$broker:8883
    want_env="# Written by scripts/install.sh $ROLE: where the broker is (floorman-kiosk@.service)
FLOORMAN_BROKER=$broker"
    if [ -e "$ca_dest" ] || { [ -n "$CA" ] && [ "$DRY" = 1 ]; }; then
        want_env+="
FLOORMAN_TLS_CA=$ETC/ca.crt"
    fi
    put_text "$env_file" 0644 <<<"$want_env"
    SCREEN_CHANGED=$((SCREEN_CHANGED | LAST))

    # the console never blanks (from boot on; the unit also runs setterm)
    local cmdline
    for cmdline in "$(r /boot/firmware/cmdline.txt)" "$(r /boot/cmdline.txt)" ""; do
        [ -z "$cmdline" ] || [ -f "$cmdline" ] && break
    done
    if [ -z "$cmdline" ]; then
        skip "consoleblank=0: no /boot/firmware/cmdline.txt (not a Raspberry Pi?)"
    elif grep -qw "consoleblank=0" "$cmdline"; then
        same "$cmdline (consoleblank=0)"
    else
        did changed "$cmdline: consoleblank=0 (from the next boot on)"
        [ "$DRY" = 1 ] || sed -i '1 s/[[:space:]]*$/ consoleblank=0/' "$cmdline"
    fi

    install_unit "floorman-kiosk@.service"
    # tty1 belongs to the screen: no login prompt there (tty2 still has one: Alt+F2)
    disable_unit getty@tty1.service
    # a Pi shows one screen: another table's (or a wall's) screen set up before goes
    local wants old
    wants=$(r /etc/systemd/system/multi-user.target.wants)
    for old in "$wants"/floorman-kiosk@*.service; do
        [ -e "$old" ] || [ -L "$old" ] || continue
        old=$(basename "$old")
        [ "$old" = "floorman-kiosk@$INSTANCE.service" ] || disable_unit "$old"
    done
    enable_unit "floorman-kiosk@$INSTANCE.service"
    start_unit "floorman-kiosk@$INSTANCE.service" \
        $((SCREEN_CHANGED | UNITS_CHANGED | SOURCE_CHANGED))
}

# ---------------------------------------------------------------------------- controller
# make_tls DIR: a CA of this room and the broker's certificate, signed by it, for SANS
make_tls() {
    local dir=$1 san
    san=$(tls_sans)
    put_dir "$dir" 0700
    if [ -s "$dir/ca.key" ] && [ -s "$dir/ca.crt" ]; then
        same "$dir/ca.crt (the room's CA)"
    else
        did created "$dir/ca.key, $dir/ca.crt (the room's CA, 10 years)"
        if [ "$DRY" = 0 ]; then
            openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$dir/ca.key" 2>/dev/null
            chmod 600 "$dir/ca.key"
            openssl req -x509 -new -key "$dir/ca.key" -sha256 -days 3650 \
                -subj "/CN=Floorman CA $(hostname)" \
                -addext "basicConstraints=critical,CA:TRUE" \
                -addext "keyUsage=critical,keyCertSign,cRLSign" -out "$dir/ca.crt" 2>/dev/null
        fi
        [ "$DRY" = 1 ] || rm -f "$dir/server.crt"
    fi
    if [ -s "$dir/server.key" ] && [ -s "$dir/server.crt" ] \
        && [ "$(cat "$dir/server.san" 2>/dev/null)" = "$san" ] \
        && openssl x509 -in "$dir/server.crt" -noout -checkend 2592000 >/dev/null 2>&1; then
        same "$dir/server.crt ($san)"
        return
    fi
    did created "$dir/server.key, $dir/server.crt ($san; 2 years)"
    [ "$DRY" = 1 ] && return
    [ -s "$dir/server.key" ] || {
        openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$dir/server.key" 2>/dev/null
        chmod 600 "$dir/server.key"
    }
    local ext
    ext=$(mktemp)
    printf '%s\n' "subjectAltName=$san" "basicConstraints=critical,CA:FALSE" \
        "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" >"$ext"
    openssl req -new -key "$dir/server.key" -subj "/CN=$(hostname)" 2>/dev/null |
        openssl x509 -req -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -set_serial "0x$(openssl rand -hex 16)" \
            -days 730 -sha256 -extfile "$ext" -out "$dir/server.crt" 2>/dev/null
    rm -f "$ext"
    printf '%s\n' "$san" >"$dir/server.san"
}

# the names the screens may use for the broker: this machine's name, NAME.local,
# localhost, its addresses, and every --san
tls_sans() {
    local h names=() ips=() x out=""
    h=$(hostname)
    names=("$h" "$h.local" localhost)
    ips=(127.0.0.1)
    for x in $(hostname -I 2>/dev/null || true); do
        [[ $x == *:* ]] || ips+=("$x")
    done
    for x in "${SANS[@]}"; do
        if [[ $x =~ ^[0-9.]+$ ]]; then ips+=("$x"); else names+=("$x"); fi
    done
    for x in $(printf '%s\n' "${names[@]}" | LC_ALL=C sort -u); do out+="DNS:$x,"; done
    for x in $(printf '%s\n' "${ips[@]}" | LC_ALL=C sort -u); do out+="IP:$x,"; done
    printf '%s' "${out%,}"
}

install_controller() {
    local etc broker_dir venv_bin prefix tables walls n
    etc=$(r $ETC)
    broker_dir=$etc/broker
    venv_bin=$(r $OPT)/.venv/bin
    # left out: what the last run set up
    prefix=${PREFIX:-$(env_value "$broker_dir/credentials/controller.env" FLOORMAN_PREFIX)}
    prefix=${prefix:-floorman/default}
    tables=${TABLES:-$(count "$broker_dir/credentials" 'table-*.env' 40)}
    walls=${WALLS:-$(count "$broker_dir/credentials" 'wall*.env' 1)}
    say "== Floorman controller: tables 1-$tables, wall screens: $walls, prefix $prefix${ROOT:+, root $ROOT}"

    packages "${CONTROLLER_PACKAGES[@]}"
    service_user
    sync_source
    venv ""
    put_dir "$etc" 0755

    # accounts and ACL (floorman broker-config keeps existing passwords)
    local cmd=("$venv_bin/floorman" broker-config --tables "$tables" --walls "$walls"
        --prefix "$prefix" --out "$broker_dir")
    local line out="" tmp=""
    if [ "$DRY" = 0 ]; then
        out=$("${cmd[@]}")
    elif [ -x "$venv_bin/floorman" ] && [ -d "$broker_dir" ]; then
        # a dry run on a copy tells what would change
        tmp=$(mktemp -d)
        cp -a "$broker_dir/." "$tmp/"
        cmd[${#cmd[@]} - 1]=$tmp
        out=$("${cmd[@]}" | sed "s#$tmp#$broker_dir#")
        rm -rf "$tmp"
    else
        did run "${cmd[*]}"
    fi
    while IFS= read -r line; do
        case $line in
            "") ;;
            unchanged\ *) say "$line" ;;
            *) did "${line%% *}" "${line#* }"; BROKER_CHANGED=1 ;;
        esac
    done <<<"$out"

    make_tls "$etc/tls"
    put_file "$etc/tls/ca.crt" "$broker_dir/ca.crt" 0644
    put_file "$etc/tls/ca.crt" "$etc/ca.crt" 0644

    # Mosquitto: the drop-in, the accounts, the ACL and the certificate
    local mosq
    mosq=$(r /etc/mosquitto)
    put_file "$SRC/systemd/mosquitto-floorman.conf" "$mosq/conf.d/floorman.conf" 0644
    BROKER_CHANGED=$((BROKER_CHANGED | LAST))
    put_file "$broker_dir/floorman.passwd" "$mosq/floorman.passwd" 0640 root:mosquitto
    BROKER_CHANGED=$((BROKER_CHANGED | LAST))
    put_file "$broker_dir/floorman.acl" "$mosq/floorman.acl" 0640 root:mosquitto
    BROKER_CHANGED=$((BROKER_CHANGED | LAST))
    put_file "$etc/tls/server.crt" "$mosq/certs/floorman.crt" 0644
    BROKER_CHANGED=$((BROKER_CHANGED | LAST))
    put_file "$etc/tls/server.key" "$mosq/certs/floorman.key" 0640 root:mosquitto
    BROKER_CHANGED=$((BROKER_CHANGED | LAST))

    # the controller: its account, on the loopback listener
    local account
    account=$(grep -v '^#' "$broker_dir/credentials/controller.env" 2>/dev/null ||
        echo "FLOORMAN_PREFIX=$prefix")
    put_text "$etc/controller.env" 0600 <<EOF
# Written by scripts/install.sh controller: floorman-controller.service's account
FLOORMAN_BROKER=localhost:1883
$account
EOF
    CONTROLLER_CHANGED=$((CONTROLLER_CHANGED | LAST))
    if [ -n "$TOURNAMENT" ]; then
        [ -r "$TOURNAMENT" ] || die "cannot read $TOURNAMENT"
        put_file "$TOURNAMENT" "$etc/tournament.yaml" 0644
        CONTROLLER_CHANGED=$((CONTROLLER_CHANGED | LAST))
    elif [ ! -e "$etc/tournament.yaml" ]; then
        put_file "$SRC/config/tournaments/sample.yaml" "$etc/tournament.yaml" 0644
        say "note: $ETC/tournament.yaml is the sample; install yours with --tournament FILE"
    else
        same "$etc/tournament.yaml (exists: --tournament FILE replaces it)"
    fi

    # the director's console: its own broker account (the director's rights under the name
    # "console", so it and the director's command line never share a client id), and the
    # sign-in password's hash. The first sign-in password is a new one of its own, shown
    # once here and kept nowhere but as its hash (not the director's broker password, which
    # director.env keeps in plain text); changed with: floorman console --set-password
    local director
    director=$(grep -v '^#' "$broker_dir/credentials/console.env" 2>/dev/null ||
        echo "FLOORMAN_PREFIX=$prefix")
    put_text "$etc/console.env" 0600 <<EOF
# Written by scripts/install.sh controller: floorman-console.service's account
FLOORMAN_BROKER=localhost:1883
$director
EOF
    CONSOLE_CHANGED=$LAST
    if [ -e "$etc/console.passwd" ]; then
        same "$etc/console.passwd (exists: floorman console --set-password changes it)"
    else
        did created "$etc/console.passwd (the console's sign-in password, a new one)"
        if [ "$DRY" = 0 ]; then
            local first
            first=$("$venv_bin/python" -c \
                'from controller.console.auth import new_password; print(new_password())')
            printf '%s\n' "$first" |
                "$venv_bin/floorman" console --set-password \
                    --password-file "$etc/console.passwd" >/dev/null
            chmod 0640 "$etc/console.passwd"
            [ -z "$(owner_of root:floorman)" ] || chown root:floorman "$etc/console.passwd"
            say "the director's console: first sign-in password $first"
            say "  (shown this once and kept only as a hash: write it down, or set your own" \
                "with sudo floorman console --set-password --password-file $ETC/console.passwd)"
        fi
        CONSOLE_CHANGED=1
    fi

    install_unit floorman-controller.service
    install_unit floorman-console.service
    if [ -n "$ROOT" ]; then
        skip "mosquitto.service under --root (the mosquitto package enables it)"
    else
        enable_unit mosquitto.service
        start_unit mosquitto.service $((BROKER_CHANGED))
    fi
    enable_unit floorman-controller.service
    start_unit floorman-controller.service \
        $((CONTROLLER_CHANGED | UNITS_CHANGED | SOURCE_CHANGED | BROKER_CHANGED))
    enable_unit floorman-console.service
    start_unit floorman-console.service \
        $((CONSOLE_CHANGED | UNITS_CHANGED | SOURCE_CHANGED | BROKER_CHANGED))
    say "the director's console: http://<this machine>:8080/ (docs/console.md)"
    say "screens: copy $ETC/broker/credentials/<account>.env and $ETC/broker/ca.crt to each" \
        "Pi (docs/raspberry-pi.md); the director's account is credentials/director.env"
}

SOURCE_CHANGED=0 UNITS_CHANGED=0 SCREEN_CHANGED=0 BROKER_CHANGED=0 CONTROLLER_CHANGED=0
CONSOLE_CHANGED=0
case $ROLE in
    kiosk | wall) install_screen ;;
    controller) install_controller ;;
esac
if [ "$CHANGES" = 0 ]; then
    say "floorman install: nothing changed"
elif [ "$DRY" = 1 ]; then
    say "floorman install: dry run, $CHANGES changes not made"
else
    say "floorman install: changes: $CHANGES"
fi
