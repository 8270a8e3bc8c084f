#!/usr/bin/env bash
# Gathers the game records the move model is fitted on, and fits it:
#
#   examples/train_records.sh [DIR]      # records into DIR (default: runs/records), then the fit
#
# The records are professional games that registry packages ship: the test games of Kombilo (PyPI
# `kombilo`) and the sample games of KDE's Kigo (Debian `kigo`). Nothing is installed: the packages
# are downloaded and unpacked into DIR. The fit writes src/search/move_model.txt, which the engine
# compiles in; commit it with the command line and the figures it prints.
set -euo pipefail
dir=${1:-runs/records}
mkdir -p "$dir/pro" "$dir/download"
cd "$dir/download"
if ! ls kombilo-*.tar.gz >/dev/null 2>&1; then
    python3 -m pip download --no-deps --no-binary :all: kombilo==0.8.4 -d . >/dev/null
fi
tar xzf kombilo-*.tar.gz --wildcards '*/tests/sgfs/*.sgf'
cp kombilo-*/kombilo/tests/sgfs/*.sgf ../pro/
if ! ls kigo_*.deb >/dev/null 2>&1; then
    apt-get download kigo >/dev/null
fi
dpkg -x kigo_*.deb kigo
cp kigo/usr/share/kigo/games/*.sgf ../pro/
cd - >/dev/null
echo "records: $(ls "$dir/pro" | wc -l) files in $dir/pro" >&2
cargo run --release --quiet -- train "$dir/pro" --out src/search/move_model.txt
