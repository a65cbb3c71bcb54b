#!/bin/sh
# The hot row on the running cluster (npm run cluster -- up first), through HAProxy to the leader:
# one pool row claimed by 16 clients with synchronous commit to the standby, the same with the
# commit local only (what waiting for the standby costs), and the same stock split over eight rows.
set -eu
URL="postgres://postgres:holdfast-cluster-superuser@10.44.0.10:5000/postgres"
BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
SECONDS_EACH=${SECONDS_EACH:-10}
"$BIN/psql" "$URL" -q -c "DROP TABLE IF EXISTS hot_pool" -c "CREATE TABLE hot_pool (id int PRIMARY KEY, held int NOT NULL DEFAULT 0, capacity int NOT NULL)" \
  -c "INSERT INTO hot_pool SELECT i, 0, 100000000 FROM generate_series(1, 8) i"
one=$(mktemp)
split=$(mktemp)
trap 'rm -f "$one" "$split"; "$BIN/psql" "$URL" -q -c "DROP TABLE IF EXISTS hot_pool" || true' EXIT
echo "UPDATE hot_pool SET held = held + 1 WHERE id = 1 AND held + 1 <= capacity;" > "$one"
printf '\\set p random(1, 8)\nUPDATE hot_pool SET held = held + 1 WHERE id = :p AND held + 1 <= capacity;\n' > "$split"
run() { "$BIN/pgbench" -n -c 16 -j 2 -T "$SECONDS_EACH" -f "$2" "$URL" 2>/dev/null | awk -v label="$1" '/^tps/ { printf "%s: %.0f claims/s\n", label, $3 }'; }
run "one hot row, synchronous commit" "$one"
PGOPTIONS='-c synchronous_commit=local' run "one hot row, local commit" "$one"
run "eight sub-pools, synchronous commit" "$split"
