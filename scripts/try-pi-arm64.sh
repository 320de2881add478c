#!/usr/bin/env bash
# Try the Raspberry Pi installation on the Pi's architecture without a Pi: an arm64
# Debian bookworm root run through qemu-user-static, this checkout installed into it with
# scripts/install.sh (kiosk and controller), then Mosquitto, the controller with the
# sample tournament and a headless kiosk started in it, until the kiosk has connected
# and drawn table 3. Not run in CI: it takes long (pygame is built from source under
# emulation). Run it as root on a Debian (or Ubuntu) amd64 machine:
#
#   sudo scripts/try-pi-arm64.sh [--root DIR] [--fresh] [--seconds N] [--skip-upgrade]
#
#   --root DIR      the arm64 root filesystem (default /var/tmp/floorman-pi-arm64); an
#                   existing one is reused, only Floorman is copied in again
#   --out DIR       logs and the kiosk's screenshot (default DIR.out next to the root)
#   --fresh         delete the root first and start from debootstrap
#   --mirror URL    the Debian mirror (default http://deb.debian.org/debian)
#   --seconds N     how long the kiosk may take to connect and draw (default 300)
#   --skip-upgrade  no apt-get full-upgrade of a reused root
#   --run-only      no copy, no installs: start what an earlier run installed in the root
#   --extra-ca FILE a CA certificate the network needs (a proxy that intercepts TLS; pip
#                   fails with CERTIFICATE_VERIFY_FAILED without it): trusted in the root
#                   and given to pip there as PIP_CERT. May be given more than once
#
# Steps: host packages (debootstrap qemu-user-static binfmt-support), binfmt_misc
# (mounted and qemu-aarch64 enabled if need be), debootstrap --arch=arm64, the chroot's
# mounts, a copy of this checkout in /root/floorman, `install.sh kiosk --table 3`,
# `install.sh controller`, `install.sh kiosk` with the table's account, both again
# (must say "nothing changed"), pygame's SDL, and the run in a network namespace of its
# own (its loopback only: no clash with a broker on the host). Every step prints its
# result and how long it took; the summary at the end lists them all. Systemd does not
# run in a chroot: the units are installed and enabled, the installer skips starting them
# and this script starts the programs itself, the way the units would.
# docs/raspberry-pi.md, "Trying the install on arm64 without a Pi".
set -uo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=/var/tmp/floorman-pi-arm64
OUT=""
FRESH=0
MIRROR=http://deb.debian.org/debian
SUITE=bookworm
WAIT=300
UPGRADE=1
TABLE=3
EXTRA_CA=()
RUN_ONLY=0

usage() {
    sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
    exit 0
}
while [ $# -gt 0 ]; do
    case $1 in
        --root) ROOT=${2:?--root needs a folder}; shift 2 ;;
        --out) OUT=${2:?--out needs a folder}; shift 2 ;;
        --fresh) FRESH=1; shift ;;
        --mirror) MIRROR=${2:?--mirror needs a URL}; shift 2 ;;
        --seconds) WAIT=${2:?--seconds needs a number}; shift 2 ;;
        --skip-upgrade) UPGRADE=0; shift ;;
        --run-only) RUN_ONLY=1; UPGRADE=0; shift ;;
        --extra-ca) EXTRA_CA+=("${2:?--extra-ca needs a file}"); shift 2 ;;
        -h | --help) usage ;;
        *) echo "try-pi-arm64.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$SRC/scripts/install.sh" ] && [ -f "$SRC/pyproject.toml" ] ||
    { echo "try-pi-arm64.sh: $SRC is no Floorman checkout (run the script where it lies)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "try-pi-arm64.sh: run it as root (debootstrap, chroot, mount)" >&2; exit 2; }
[[ $WAIT =~ ^[0-9]+$ ]] || { echo "try-pi-arm64.sh: --seconds takes a number" >&2; exit 2; }
for f in "${EXTRA_CA[@]}"; do
    grep -q 'BEGIN CERTIFICATE' "$f" 2>/dev/null || { echo "try-pi-arm64.sh: $f is no PEM certificate" >&2; exit 2; }
done
ROOT=${ROOT%/}
case $ROOT in /*) ;; *) ROOT=$PWD/$ROOT ;; esac
[ "$ROOT" != "" ] && [ "$ROOT" != / ] || { echo "try-pi-arm64.sh: not / as the root" >&2; exit 2; }
OUT=${OUT:-$ROOT.out}
mkdir -p "$OUT"
LOG=$OUT/try-pi-arm64.log
: >"$LOG"

# ---------------------------------------------------------------------------- steps
NAMES=() RESULTS=() TIMES=() FAILED=0
T0=$(date +%s)
say() { printf '%s\n' "$*" | tee -a "$LOG"; }
# step NAME FUNCTION: run FUNCTION, note its result (0 ok, 3 skipped, else FAILED) and time
step() {
    local name=$1 fn=$2 start rc
    say ""
    say "== $name"
    start=$(date +%s)
    "$fn"
    rc=$?
    local took=$(($(date +%s) - start))
    NAMES+=("$name")
    TIMES+=("$took")
    case $rc in
        0) RESULTS+=("ok${DETAIL:+: $DETAIL}") ;;
        3) RESULTS+=("skipped${DETAIL:+: $DETAIL}") ;;
        *) RESULTS+=("FAILED${DETAIL:+: $DETAIL}"); FAILED=$((FAILED + 1)) ;;
    esac
    say "-- $name: ${RESULTS[-1]} ($(fmt "$took"))"
    DETAIL=""
    return $rc
}
DETAIL=""
fmt() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
# the rest of the run makes no sense without this step (skipped is fine)
must() {
    step "$@"
    case $? in 0 | 3) ;; *) finish 1 ;; esac
}

# a command in the arm64 root, as root, with a clean environment (no host pip settings)
PIP_ENV=()
in_root() {
    chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb "${PIP_ENV[@]}" \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}
# COMMAND…, its output in the log and on the screen
logged() { "$@" 2>&1 | tee -a "$LOG"; return "${PIPESTATUS[0]}"; }

MOUNTED=()
unmount_all() {
    local i m
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
        m=${MOUNTED[i]}
        mountpoint -q "$m" && umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
    done
    MOUNTED=()
    rm -f "$ROOT/usr/sbin/policy-rc.d"
}

finish() {
    unmount_all
    say ""
    say "== summary (root $ROOT, log $LOG)"
    local i
    for i in "${!NAMES[@]}"; do
        say "$(printf '%-34s %7s  %s' "${NAMES[i]}" "$(fmt "${TIMES[i]}")" "${RESULTS[i]}")"
    done
    say "$(printf '%-34s %7s  %s' total "$(fmt $(($(date +%s) - T0)))" "$FAILED failed")"
    [ "$FAILED" = 0 ] || exit 1
    exit "${1:-0}"
}
trap 'say "interrupted"; finish 130' INT TERM

# ---------------------------------------------------------------------------- host
host_packages() {
    local p missing=()
    for p in debootstrap qemu-user-static binfmt-support; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} = 0 ]; then
        DETAIL="already installed"
        say "debootstrap, qemu-user-static, binfmt-support: installed"
        return 0
    fi
    say "apt-get install ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >>"$LOG" 2>&1
    logged env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null || return 1
    DETAIL="installed ${missing[*]}"
}

binfmt() {
    local bf=/proc/sys/fs/binfmt_misc
    if [ ! -e $bf/status ]; then
        say "mount binfmt_misc -t binfmt_misc $bf"
        logged mount binfmt_misc -t binfmt_misc $bf || {
            DETAIL="cannot mount binfmt_misc (a container without the privilege?)"
            return 1
        }
    fi
    if [ "$(cat $bf/status 2>/dev/null)" != enabled ]; then
        logged sh -c "echo 1 > $bf/status" || true
    fi
    if [ ! -e $bf/qemu-aarch64 ] || ! grep -qx enabled $bf/qemu-aarch64; then
        say "update-binfmts --enable qemu-aarch64"
        logged update-binfmts --enable qemu-aarch64 || true
    fi
    if ! grep -qx enabled $bf/qemu-aarch64 2>/dev/null; then
        DETAIL="qemu-aarch64 is not registered in $bf"
        return 1
    fi
    sed 's/^/  /' $bf/qemu-aarch64 | tee -a "$LOG"
    # F (fix binary): the kernel opens the interpreter now, so it works inside the chroot
    # without a copy of qemu-aarch64-static there
    if ! grep -q '^flags:.*F' $bf/qemu-aarch64; then
        say "no F flag: copying qemu-aarch64-static into the root later"
        COPY_QEMU=1
    fi
    DETAIL="qemu-aarch64 registered ($(sed -n 's/^flags: //p' $bf/qemu-aarch64))"
}
COPY_QEMU=0

# ---------------------------------------------------------------------------- the root
# rm -rf of the root: never with anything still mounted in it (/dev is bound there)
remove_root() {
    unmount_all
    if findmnt -rno TARGET | grep -q "^$ROOT/"; then
        DETAIL="something is still mounted under $ROOT: not deleting it"
        return 1
    fi
    rm -rf --one-file-system "$ROOT"
}

looks_like_our_root() {
    [ -e "$1/.try-pi-arm64" ] || [ -d "$1/debootstrap" ] || [ -z "$(ls -A "$1" 2>/dev/null)" ]
}

root_fs() {
    if [ "$FRESH" = 1 ] && [ -e "$ROOT" ]; then
        looks_like_our_root "$ROOT" || {
            DETAIL="$ROOT is not a root this script made: not deleting it"
            return 1
        }
        say "--fresh: rm -rf $ROOT"
        remove_root || return 1
    fi
    if [ -e "$ROOT/.try-pi-arm64" ] && [ -x "$ROOT/usr/bin/apt-get" ] && [ ! -d "$ROOT/debootstrap" ]; then
        DETAIL="reused $ROOT ($(cat "$ROOT/.try-pi-arm64"))"
        say "$DETAIL"
        return 3
    fi
    if [ -d "$ROOT/debootstrap" ]; then
        say "$ROOT: an unfinished debootstrap; starting again"
        remove_root || return 1
    elif [ -x "$ROOT/usr/bin/apt-get" ] && [ "$(chroot "$ROOT" /usr/bin/dpkg --print-architecture 2>/dev/null)" = arm64 ]; then
        # a finished debootstrap from elsewhere (or before this script wrote its mark)
        say "$ROOT: an arm64 root already there; reusing it"
        echo "found $(date -u +%F)" >"$ROOT/.try-pi-arm64"
        DETAIL="reused $ROOT"
        return 3
    elif [ -e "$ROOT" ] && ! looks_like_our_root "$ROOT"; then
        DETAIL="$ROOT exists and is not an arm64 root: give another --root"
        return 1
    fi
    mkdir -p "$ROOT"
    say "debootstrap --arch=arm64 --include=ca-certificates $SUITE $ROOT $MIRROR (log: $OUT/debootstrap.log)"
    if ! debootstrap --arch=arm64 --include=ca-certificates "$SUITE" "$ROOT" "$MIRROR" \
        >"$OUT/debootstrap.log" 2>&1; then
        tail -n 20 "$OUT/debootstrap.log" | tee -a "$LOG"
        DETAIL="debootstrap failed (the last lines above; $OUT/debootstrap.log)"
        return 1
    fi
    tail -n 1 "$OUT/debootstrap.log" | tee -a "$LOG"
    echo "debootstrap $SUITE arm64 $(date -u +%F)" >"$ROOT/.try-pi-arm64"
    DETAIL="debootstrap $SUITE arm64, $(du -sh --one-file-system "$ROOT" | cut -f1)"
}

mounts() {
    local m
    if [ "$COPY_QEMU" = 1 ]; then
        install -m 0755 /usr/bin/qemu-aarch64-static "$ROOT/usr/bin/qemu-aarch64-static"
    fi
    for m in proc sys dev dev/pts; do
        mkdir -p "$ROOT/$m"
        if mountpoint -q "$ROOT/$m"; then
            MOUNTED+=("$ROOT/$m")
            continue
        fi
        case $m in
            proc) mount -t proc proc "$ROOT/proc" ;;
            sys) mount -t sysfs sysfs "$ROOT/sys" ;;
            dev) mount --bind /dev "$ROOT/dev" ;;
            dev/pts) mount --bind /dev/pts "$ROOT/dev/pts" ;;
        esac || { DETAIL="cannot mount $ROOT/$m"; return 1; }
        MOUNTED+=("$ROOT/$m")
    done
    cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
    # what a Pi's package installs would start (Mosquitto) is not started in the chroot:
    # it would listen on the host's network, outlive this script and keep the root busy
    printf '#!/bin/sh\n# try-pi-arm64.sh: nothing starts in this chroot\nexit 101\n' \
        >"$ROOT/usr/sbin/policy-rc.d"
    chmod 755 "$ROOT/usr/sbin/policy-rc.d"
    local arch machine
    arch=$(in_root dpkg --print-architecture 2>&1)
    machine=$(in_root uname -m 2>&1)
    say "in the root: dpkg --print-architecture: $arch; uname -m: $machine"
    say "  $(in_root /bin/sh -c '. /etc/os-release; echo "$PRETTY_NAME"; python3 --version 2>/dev/null || echo "(no python3 yet)"' | tr '\n' ' ')"
    if [ "$arch" != arm64 ] || [ "$machine" != aarch64 ]; then
        DETAIL="the root's programs do not run as arm64 ($arch, $machine)"
        return 1
    fi
    DETAIL="arm64 programs run (uname -m: $machine)"
}

# a proxy's CA (pip brings its own list of CAs: PIP_CERT makes it use the system's)
extra_ca() {
    local dir=$ROOT/usr/local/share/ca-certificates f n=0
    if [ ${#EXTRA_CA[@]} = 0 ]; then
        DETAIL="none given (--extra-ca)"
        return 3
    fi
    mkdir -p "$dir"
    rm -f "$dir"/try-pi-arm64-*.crt
    for f in "${EXTRA_CA[@]}"; do
        n=$((n + 1))
        cp "$f" "$dir/try-pi-arm64-$n.crt"
        say "$f -> /usr/local/share/ca-certificates/try-pi-arm64-$n.crt"
    done
    in_root update-ca-certificates >>"$LOG" 2>&1 || { DETAIL="update-ca-certificates failed"; return 1; }
    PIP_ENV=(PIP_CERT=/etc/ssl/certs/ca-certificates.crt)
    DETAIL="$n trusted in the root; PIP_CERT for pip"
}

# Pi OS Lite has the security and bookworm-updates sources; the Pi's first step is a
# full upgrade (docs/raspberry-pi.md, "The SD cards")
upgrade() {
    if [ "$UPGRADE" = 0 ]; then
        DETAIL="--skip-upgrade"
        return 3
    fi
    cat >"$ROOT/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb http://deb.debian.org/debian-security $SUITE-security main
EOF
    logged in_root apt-get update -qq || { DETAIL="apt-get update failed"; return 1; }
    logged in_root env DEBIAN_FRONTEND=noninteractive apt-get full-upgrade -y -qq >/dev/null \
        || { DETAIL="apt-get full-upgrade failed"; return 1; }
    DETAIL="apt-get full-upgrade"
}

# this checkout as it is now (committed or not; not what .gitignore leaves out)
copy_checkout() {
    local dest=$ROOT/root/floorman n
    rm -rf "$dest"
    mkdir -p "$dest"
    if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
        (cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
            while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
            tar --null -T - -cf -) | tar -C "$dest" -xf - || return 1
        DETAIL="$(git -C "$SRC" describe --always --dirty 2>/dev/null) from $SRC"
    else
        tar -C "$SRC" --exclude=.git --exclude=.venv --exclude=__pycache__ -cf - . |
            tar -C "$dest" -xf - || return 1
        DETAIL="$SRC"
    fi
    n=$(find "$dest" -type f | wc -l)
    DETAIL="$n files, $DETAIL, in /root/floorman"
    say "$DETAIL"
}

# install_sh LOGNAME ARGS…: scripts/install.sh in the root, its output in OUT/LOGNAME
LAST_INSTALL=""
install_sh() {
    local name=$1 rc
    shift
    say "chroot: /root/floorman/scripts/install.sh $*   (log: $OUT/$name.log)"
    in_root /root/floorman/scripts/install.sh "$@" >"$OUT/$name.log" 2>&1
    rc=$?
    # install.sh's own lines (apt's and dpkg's are in the log), but for the unchanged
    grep -E '^(==|created|changed|removed|copied|installed|enabled|disabled|started|restarted|skipped|note|screens|floorman install|install.sh)' \
        "$OUT/$name.log" | sed 's/^/  /' | tee -a "$LOG"
    LAST_INSTALL=$(tail -n 1 "$OUT/$name.log")
    if [ $rc != 0 ]; then
        say "  install.sh stopped with exit code $rc; the last lines of $OUT/$name.log:"
        tail -n 15 "$OUT/$name.log" | sed 's/^/    /' | tee -a "$LOG"
        LAST_INSTALL="exit code $rc: $LAST_INSTALL"
    fi
    return $rc
}

# The pygame build is the long part: a watcher notes when an emulated compiler first and
# last ran (pygame is the only thing built from source; the rest comes as wheels).
PYGAME_BUILD=""
watch_pygame() {
    local first="" last="" now
    while sleep 5; do
        now=$(date +%s)
        if pgrep -f 'aarch64-binfmt-P .*(gcc|/cc1 )' >/dev/null 2>&1; then
            first=${first:-$now}
            last=$now
            echo "$first $last" >"$OUT/.pygame-build"
        fi
    done
}

install_kiosk() {
    local w rc
    rm -f "$OUT/.pygame-build"
    watch_pygame &
    w=$!
    install_sh install-kiosk kiosk --table "$TABLE" --broker localhost:8883
    rc=$?
    kill "$w" 2>/dev/null
    wait "$w" 2>/dev/null
    if [ -s "$OUT/.pygame-build" ]; then
        read -r first last <"$OUT/.pygame-build"
        PYGAME_BUILD="pygame compiled in about $(fmt $((last - first + 5)))"
        say "$PYGAME_BUILD"
    fi
    DETAIL="$LAST_INSTALL${PYGAME_BUILD:+; $PYGAME_BUILD}"
    return $rc
}

install_controller() {
    install_sh install-controller controller --tables 3 --walls 1
    local rc=$?
    DETAIL=$LAST_INSTALL
    return $rc
}

# the account and the CA from the controller, as on a real table (here the same root)
install_kiosk_account() {
    install_sh install-kiosk-account kiosk --table "$TABLE" \
        --credentials /etc/floorman/broker/credentials/table-$TABLE.env \
        --ca /etc/floorman/broker/ca.crt
    local rc=$?
    DETAIL=$LAST_INSTALL
    return $rc
}

# Again with the same arguments: nothing may change. The kiosk's was the last run; the
# controller's venv step is expected to run pip again on a machine with both roles (its
# pip arguments differ from the kiosk's --no-binary pygame, and the venv's stamp holds
# the last ones): only that may change there.
rerun() {
    local rc=0 k c other
    install_sh rerun-kiosk kiosk --table "$TABLE" || rc=1
    k=${LAST_INSTALL#floorman install: }
    install_sh rerun-controller controller || rc=1
    c=${LAST_INSTALL#floorman install: }
    other=$(grep -E '^(created|changed|removed|copied|installed|enabled|disabled|restarted|started) ' \
        "$OUT/rerun-controller.log" | grep -v '/opt/floorman/.venv: pip install' || true)
    DETAIL="kiosk: $k; controller: $c"
    [ "$c" = "nothing changed" ] || [ -n "$other" ] || DETAIL+=" (its venv: pip again, the roles' pip arguments differ)"
    [ $rc = 0 ] && [ "$k" = "nothing changed" ] && [ -z "$other" ]
}

# pygame in the venv uses Debian's SDL, and that SDL has the KMS/DRM driver. (Asking SDL
# for kmsdrm here tells nothing: without /dev/dri SDL says "kmsdrm not available" just as
# when the driver is missing; SDL_GetVideoDriver lists the drivers built in.)
pygame_sdl() {
    local py=/opt/floorman/.venv/bin/python out
    out=$(in_root env PYGAME_HIDE_SUPPORT_PROMPT=1 /bin/sh -c "
        so=\$(ls /opt/floorman/.venv/lib/python3*/site-packages/pygame/base*.so 2>/dev/null | head -n1)
        echo \"base: \$so\"
        ldd \"\$so\" | grep -i sdl
        $py -c 'import ctypes, pygame, pygame.version as v
print(\"pygame\", v.ver, \"SDL\", \".\".join(map(str, pygame.get_sdl_version())))
sdl = ctypes.CDLL(\"libSDL2-2.0.so.0\")
sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
print(\"video drivers:\", \" \".join(sdl.SDL_GetVideoDriver(i).decode()
                                   for i in range(sdl.SDL_GetNumVideoDrivers())))'
    " 2>&1)
    printf '%s\n' "$out" | sed 's/^/  /' | tee -a "$LOG"
    if ! grep -q '/lib/aarch64-linux-gnu/libSDL2-2.0.so' <<<"$out"; then
        DETAIL="pygame does not use Debian's SDL"
        return 1
    fi
    if ! grep -qi '^video drivers:.* kmsdrm' <<<"$out"; then
        DETAIL="Debian's SDL, but without KMS/DRM"
        return 1
    fi
    DETAIL="$(grep -o 'pygame [0-9.]* SDL [0-9.]*' <<<"$out"), /lib/aarch64-linux-gnu/libSDL2-2.0.so.0, drivers: $(sed -n 's/^video drivers: //p' <<<"$out")"
}

# ---------------------------------------------------------------------------- the run
# In a network namespace of its own (its loopback only), inside the root: Mosquitto with
# the installed configuration, the controller as the unit starts it, the director's
# register/draw/start, the real kiosk-start for a while, then a headless KioskApp (the
# installed code and /etc/floorman/table.yaml, gpiozero's MockFactory) until table 3 is
# on its screen; the screenshot is copied out.
write_run_scripts() {
    rm -rf "$ROOT/tmp/try-pi-arm64"  # nothing left from an earlier version of this script
    mkdir -p "$ROOT/tmp/try-pi-arm64"
    chmod 755 "$ROOT/tmp/try-pi-arm64"
    cat >"$ROOT/tmp/try-pi-arm64/run.sh" <<'EOF'
#!/bin/bash
# written by scripts/try-pi-arm64.sh: run inside the arm64 root, in its own network
set -u
TABLE=$1 WAIT=$2
OPT=/opt/floorman
FM=$OPT/.venv/bin/floorman
PIDS=()
cleanup() { local p; for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
t0=$(date +%s)
at() { echo "[+$(($(date +%s) - t0))s] $*"; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_port() {
    local i
    for ((i = 0; i < $2; i++)); do port_open "$1" && return 0; sleep 1; done
    return 1
}

# Mosquitto, as mosquitto.service starts it
install -d -o mosquitto -g mosquitto /run/mosquitto /var/log/mosquitto
: >/var/log/mosquitto/mosquitto.log
chown mosquitto:mosquitto /var/log/mosquitto/mosquitto.log
/usr/sbin/mosquitto -c /etc/mosquitto/mosquitto.conf >/tmp/mosquitto.out 2>&1 &
PIDS+=($!)
if wait_port 8883 30 && wait_port 1883 5; then
    at "mosquitto: listening on 127.0.0.1:1883 and 8883 (TLS)"
else
    at "mosquitto: FAILED to listen"; cat /tmp/mosquitto.out /var/log/mosquitto/mosquitto.log
    exit 1
fi

# the controller, as floorman-controller.service starts it (a new event log each run)
install -d -o floorman -g floorman /var/lib/floorman
rm -f /var/lib/floorman/try-pi-arm64.sqlite*
# (its EnvironmentFile is root's to read, as systemd reads it)
(set -a; . /etc/floorman/controller.env; set +a
 exec setpriv --reuid floorman --regid floorman --init-groups $FM controller /etc/floorman/tournament.yaml \
    --db /var/lib/floorman/try-pi-arm64.sqlite) >/tmp/controller.log 2>&1 &
PIDS+=($!)

director() {
    (set -a; . /etc/floorman/broker/credentials/director.env; FLOORMAN_BROKER=localhost:1883
     set +a; "$FM" "$@" --timeout 60)
}
ok=0
for ((i = 0; i < WAIT; i += 5)); do
    if director status >/tmp/status.out 2>&1; then ok=1; break; fi
    sleep 5
done
if [ $ok = 0 ]; then
    at "controller: no answer to 'floorman status'"; cat /tmp/status.out /tmp/controller.log
    exit 1
fi
at "controller: answers ($(head -n 1 /tmp/status.out))"
director register "Anna Schmidt" "Ben Weber" "Cem Yilmaz" "Dora Klein" "Emil Braun" \
    "Frieda Wolf" "Gustav Lang" "Hanna Roth" "Ida Vogel" "Jonas Beck" "Karla Schulz" \
    "Lars Neumann" "Mia Fischer" "Nils Hoffmann" "Olga Koch" "Paul Richter" "Quirin Huber" \
    "Rosa Meyer" "Sven Wagner" "Tina Becker" "Uwe Schäfer" "Vera Krüger" "Willi Zimmer" \
    "Xenia Hartmann" "Yusuf Kaya" "Zoë Lehmann" "Ali Demir" >/tmp/director.out 2>&1 \
    && director draw >>/tmp/director.out 2>&1 && director start >>/tmp/director.out 2>&1 \
    || { at "director: FAILED"; cat /tmp/director.out; exit 1; }
at "director: 27 players registered, drawn, clock started"

# the real unit's command for a while: kiosk-start as the floorman user
# as the unit runs it, but for SDL's dummy drivers (no screen, no sound card here) and
# gpiozero's mock pins (no GPIO): in a folder of its own, its cache there
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy GPIOZERO_PIN_FACTORY=mock PYTHONUNBUFFERED=1
install -d -o floorman -g floorman /tmp/try-pi-arm64/kiosk
export XDG_CACHE_HOME=/tmp/try-pi-arm64/kiosk HOME=/tmp/try-pi-arm64/kiosk
cd /tmp/try-pi-arm64/kiosk
set -a; . /etc/floorman/floorman.env; set +a
export FLOORMAN_BROKER FLOORMAN_TLS_CA
: >/tmp/kiosk-start.log
chown floorman /tmp/kiosk-start.log
setpriv --reuid floorman --regid floorman --init-groups $OPT/scripts/kiosk-start "$TABLE" >/tmp/kiosk-start.log 2>&1 &
ks=$!
PIDS+=($ks)
ok=0
for ((i = 0; i < WAIT; i += 2)); do
    if grep -q "as table-$TABLE " /var/log/mosquitto/mosquitto.log; then ok=1; break; fi
    kill -0 $ks 2>/dev/null || break
    sleep 2
done
if [ $ok = 1 ]; then
    sleep 5
fi
if kill -0 $ks 2>/dev/null && [ $ok = 1 ]; then
    at "kiosk-start $TABLE: running, logged in ($(grep -m1 "as table-$TABLE " /var/log/mosquitto/mosquitto.log | sed 's/^[0-9]*: //'))"
    kill $ks; wait $ks 2>/dev/null
    sed 's/^/    /' /tmp/kiosk-start.log
else
    at "kiosk-start $TABLE: FAILED (did not log in, or stopped)"; cat /tmp/kiosk-start.log
    exit 1
fi

# the same installed code and settings, stepped here until table 3 is drawn
set -a; . /etc/floorman/credentials/table-$TABLE.env; set +a
setpriv --reuid floorman --regid floorman --init-groups $OPT/.venv/bin/python /tmp/try-pi-arm64/screen.py "$TABLE" "$WAIT" /tmp/kiosk-table.png
rc=$?
[ $rc = 0 ] && at "kiosk: table $TABLE drawn" || at "kiosk: FAILED ($rc)"
echo "controller log:"; sed 's/^/    /' /tmp/controller.log | tail -n 15
exit $rc
EOF
    chmod 755 "$ROOT/tmp/try-pi-arm64/run.sh"
    cat >"$ROOT/tmp/try-pi-arm64/screen.py" <<'EOF'
"""Written by scripts/try-pi-arm64.sh: a headless kiosk from the installed Floorman,
stepped until it has connected and drawn its table; saves the frame as a PNG."""
import sys
import time

t0 = time.monotonic()
table, wait, png = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]

from controller.wire.mqtt import Broker  # noqa: E402
from kiosk.app import KioskApp  # noqa: E402
from kiosk.config import load_kiosk  # noqa: E402

cfg = load_kiosk("/etc/floorman/table.yaml")
broker = Broker.from_env(None, None, cfg.broker)
app = KioskApp(cfg, "table", table, (1920, 1080), broker, headless=True)
import pygame  # noqa: E402

print(f"    imported and opened the screen in {time.monotonic() - t0:.1f} s "
      f"(pygame {pygame.version.ver}, SDL video driver {pygame.display.get_driver()}, "
      f"button box: {'MockFactory pins' if app.box else 'none'}, broker {broker} "
      f"as {broker.username}, TLS: {bool(broker.tls_ca)})", flush=True)
app.start()
t1 = time.monotonic()
connected = drawn = None
key = f"table/{table}"
while time.monotonic() - t1 < wait:
    frames = app.frames
    app.step(0.05)
    now = time.monotonic()
    if connected is None and app.link.connected.is_set():
        connected = now
        print(f"    connected {now - t1:.1f} s after start()", flush=True)
    if connected and app.state.get(key) and app.state.get("clock") and app.frames > frames:
        drawn = now
        break
if drawn is None:
    print(f"    no frame with {key} within {wait:.0f} s (connected: {connected is not None}, "
          f"state: {sorted(app.state)})")
    sys.exit(1)
t = time.monotonic()
app.step(0.05)
for _ in range(3):  # a few more frames: how long one takes under emulation
    app._dirty = True
    app.step(0)
frame = (time.monotonic() - t) / 4
pygame.image.save(app.screen, png)
texts = [t for t, _ in getattr(app.renderer, "items", [])]
print(f"    {key} drawn {drawn - t1:.1f} s after start(); a frame takes about "
      f"{frame * 1000:.0f} ms here; {app.frames} frames; saved {png}")
print(f"    on the screen: {' | '.join(texts[:24])}")
app.close()
EOF
}

run_headless() {
    write_run_scripts
    say "unshare --net: a loopback of its own; chroot: /tmp/try-pi-arm64/run.sh $TABLE $WAIT"
    unshare --net /bin/sh -c "ip link set lo up && exec chroot '$ROOT' /usr/bin/env -i \
        HOME=/root LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /tmp/try-pi-arm64/run.sh $TABLE $WAIT" 2>&1 | tee "$OUT/run.log" | tee -a "$LOG"
    local rc=${PIPESTATUS[0]}
    if [ -s "$ROOT/tmp/kiosk-table.png" ]; then
        cp "$ROOT/tmp/kiosk-table.png" "$OUT/kiosk-table-$TABLE.png"
        say "screenshot: $OUT/kiosk-table-$TABLE.png"
    fi
    if [ "$rc" = 0 ]; then
        DETAIL="broker, controller, kiosk connected over TLS, table $TABLE drawn ($OUT/kiosk-table-$TABLE.png)"
    else
        DETAIL="see $OUT/run.log"
    fi
    return "$rc"
}

# ---------------------------------------------------------------------------- main
say "try-pi-arm64: $SRC -> $ROOT ($(uname -m) host, $(nproc) cores), $(date -u '+%F %T') UTC"
must "host packages" host_packages
must "binfmt_misc (qemu-aarch64)" binfmt
must "arm64 root (debootstrap)" root_fs
must "mounts, arm64 check" mounts
step "apt-get full-upgrade" upgrade
must "extra CA certificates" extra_ca
if [ "$RUN_ONLY" = 0 ]; then
    must "copy this checkout" copy_checkout
    must "install.sh kiosk --table $TABLE" install_kiosk
    must "install.sh controller" install_controller
    step "install.sh kiosk + account, CA" install_kiosk_account
    step "second runs: nothing changed" rerun
elif [ ! -x "$ROOT/opt/floorman/.venv/bin/floorman" ] || [ ! -e "$ROOT/etc/floorman/credentials/table-$TABLE.env" ]; then
    say "--run-only: nothing installed in $ROOT yet (run without --run-only first)"
    finish 1
fi
step "pygame against Debian's SDL" pygame_sdl
step "run: broker, controller, kiosk" run_headless
finish 0
