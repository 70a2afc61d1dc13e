#!/usr/bin/env bash
# Starts the Debian PostgreSQL cluster on loopback and makes a role and database for the tests.
# Prints the connection URL on stdout; everything else goes to stderr.
set -euo pipefail

version=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
cluster=main
as_postgres() { if [ "$(id -u)" -eq 0 ]; then su postgres -s /bin/sh -c "$*"; else sudo -u postgres sh -c "$*"; fi; }

if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$version $cluster"; then
  as_postgres "pg_createcluster $version $cluster" >&2
fi
if ! pg_lsclusters -h | awk -v v="$version" -v c="$cluster" '$1==v && $2==c {print $4}' | grep -qx online; then
  as_root=(); [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  "${as_root[@]}" pg_ctlcluster "$version" "$cluster" start >&2
fi
port=$(pg_lsclusters -h | awk -v v="$version" -v c="$cluster" '$1==v && $2==c {print $3}')

as_postgres "psql -q -p $port -v ON_ERROR_STOP=1" >&2 <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'quire_test') THEN
    CREATE ROLE quire_test LOGIN CREATEDB PASSWORD 'quire_test';
  END IF;
END \$\$;
SQL
if ! as_postgres "psql -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname = 'quire_test'\"" | grep -qx 1; then
  as_postgres "createdb -p $port -O quire_test quire_test" >&2
fi
echo "postgresql://quire_test:quire_test@127.0.0.1:$port/quire_test"
